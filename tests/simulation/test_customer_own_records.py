"""The scripted customer agrees only to its own card, FD, loan and statement period (issue 16
item 5): a proposal naming only another of its records, or another period, is corrected.

The records are the shipped tasks' own customers' (pytest_bankbench/records.py reads them from
the seeded bank); a phrase the gold agent does not use names them here, both ways.
"""

from __future__ import annotations

import pytest

from pytest_bankbench.records import RECORD_ARGS, Holding, holdings, phrase
from pytest_bankbench.simulation.customer import NOT_WHAT_I_ASKED, YES, Say, ScriptedCustomer
from pytest_bankbench.tasks.loader import shipped_tasks
from pytest_bankbench.tasks.model import Instruction, Scenario, Task


def _with_others(tool: str) -> tuple[Task, Holding, Holding]:
    """A shipped task writing with `tool` on one of several records of a kind: the task, its
    record and another one of the customer's."""
    for task in shipped_tasks():
        write = next((g for g in task.gold if g.tool == tool), None)
        if write is None:
            continue
        arg = next(a for a in RECORD_ARGS if a in write.arguments)
        held = holdings(task.customer_id, task.task_date, task.bank_seed)
        mine = next(h for h in held if h.key == write.arguments[arg])
        other = next((h for h in held if h.kind == mine.kind and h.key != mine.key), None)
        if other is not None and not task.scenario.instructions[write.instruction].correction:
            return task, mine, other
    raise AssertionError(f"no task writes with {tool} on one of several records")


@pytest.mark.parametrize(
    ("tool", "ask"),
    [
        ("close_fd_premature", "I'll close {record} early. Shall I go ahead?"),
        ("block_card", "Shall I block {record} permanently?"),
        ("foreclose_loan", "Shall I foreclose {record} in full now?"),
    ],
)
def test_a_proposal_naming_another_of_its_records_is_corrected(tool: str, ask: str) -> None:
    task, mine, other = _with_others(tool)
    held = holdings(task.customer_id, task.task_date, task.bank_seed)
    wrong = ScriptedCustomer(task).respond(ask.format(record=phrase(other.key, held)))
    assert isinstance(wrong, Say) and not wrong.agrees
    assert wrong.text.startswith(NOT_WHAT_I_ASKED), wrong
    right = ScriptedCustomer(task).respond(ask.format(record=phrase(mine.key, held)))
    assert isinstance(right, Say) and right.agrees and right.text.endswith(YES), right


def test_an_fd_named_by_its_last_digits_or_its_id_is_its_own_or_not() -> None:
    task, mine, other = _with_others("close_fd_premature")
    for record, agrees in ((mine, True), (other, False)):
        digits = record.key[-4:]
        for said in (f"your FD ending {digits}", f"your deposit no. {record.key[2:]}"):
            reply = ScriptedCustomer(task).respond(f"Shall I close {said} early?")
            assert isinstance(reply, Say) and reply.agrees is agrees, (said, reply)


STATEMENT = Instruction(
    text="Please send me a statement of my savings account ending 7477 from 1 January 2026 "
    "to 31 March 2026, by post."
)


def _statement_customer() -> ScriptedCustomer:
    task = next(t for t in shipped_tasks() if t.family == "statement_request")
    scenario = Scenario(
        persona="A customer.",
        first_message=STATEMENT.text,
        instructions=(STATEMENT,),
        narrative="What the customer wants.",
    )
    return ScriptedCustomer(task.model_copy(update={"scenario": scenario}))


@pytest.mark.parametrize(
    ("proposal", "agrees"),
    [
        (
            "I'll request a statement of your account ending 7477 from 1 October 2025 to 31 March "
            "2026 by post. Shall I go ahead?",
            False,
        ),
        (
            "Shall I request the statement of account ending 7477 for 1 Jan 2026 - 30 Jun 2026, "
            "by post?",
            False,
        ),
        (
            "I'll request a statement of your account ending 7477 from 01/01/2026 to 31/03/2026 "
            "by post. Shall I go ahead?",
            True,
        ),
        (
            "To confirm, you'd like me to request your statement for January 1, 2026 to March 31, "
            "2026 by post?",
            True,
        ),
        ("Shall I request the statement now?", True),  # no period named: the request stands
    ],
)
def test_a_statement_for_another_period_is_corrected(proposal: str, agrees: bool) -> None:
    reply = _statement_customer().respond(proposal)
    assert isinstance(reply, Say) and reply.agrees is agrees, reply
    if not agrees:
        assert reply.text.startswith(NOT_WHAT_I_ASKED) and "1 January 2026" in reply.text
