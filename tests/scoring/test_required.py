"""Required calls (scoring/required.py): each gold call placed in the session, the missing ones
named with what would have satisfied them."""

from __future__ import annotations

from decimal import Decimal

import pytest

from pytest_bankbench.scoring.required import assign_required, missing_calls, tools_showing
from pytest_bankbench.scoring.view import SessionView
from pytest_bankbench.simulation.trace import ToolEvent, Trace
from pytest_bankbench.tasks.loader import shipped_tasks
from pytest_bankbench.tasks.model import Task
from tests.scoring.sessions import agent, edit, failed, first_of, gold


def _task_with_a_fact_and_a_call() -> tuple[str, str]:
    """A shipped task whose gold chain has a required fact and a plain required call."""
    for task in shipped_tasks():
        facts = [g for g in task.gold if g.facts]
        calls = [g for g in task.gold if not g.facts]
        if facts and calls:
            return task.task_id, task.family
    raise AssertionError("no shipped task needs both a fact and a call")


def test_the_gold_session_places_every_required_call_and_misses_none() -> None:
    task_id, _ = _task_with_a_fact_and_a_call()
    task = next(t for t in shipped_tasks() if t.task_id == task_id)
    trace = gold(task_id)
    calls = [e for e in trace.events if isinstance(e, ToolEvent) and e.ok]
    placed = assign_required(task, calls)
    assert set(placed) == {g.id for g in task.gold}
    assert all(at is not None for at in placed.values()), placed
    assert missing_calls(task, SessionView.of(trace)) == []


def test_a_session_without_its_tool_calls_misses_each_and_says_what_shows_a_fact() -> None:
    task_id, _ = _task_with_a_fact_and_a_call()
    task = next(t for t in shipped_tasks() if t.task_id == task_id)
    trace = gold(task_id)
    talk = edit(trace, [e for e in trace.events if not isinstance(e, ToolEvent)])
    missing = missing_calls(task, SessionView.of(talk))
    assert len(missing) == len(task.gold)
    for line, need in zip(missing, task.gold, strict=True):
        assert line.startswith(f"missing {need.id} ")
        if need.facts:
            assert f"shown by a successful {', '.join(tools_showing(need.facts))}" in line
        else:
            assert f"no call to {need.tool} was made" in line


def _lost_card() -> tuple[Task, Trace, int]:
    """A lost card and a balance asked together (F.24), its gold session and the block's place."""
    task = first_of("lost_card_block")
    trace = gold(task.task_id)
    at = next(
        i
        for i, e in enumerate(trace.events)
        if isinstance(e, ToolEvent) and e.call.name == "block_card"
    )
    return task, trace, at


def _balance_read(trace: Trace, at: int) -> ToolEvent:
    return next(
        e
        for e in trace.events[at:]
        if isinstance(e, ToolEvent) and e.call.name == "get_account_balance"
    )


@pytest.mark.parametrize(
    "told",
    [
        "Your balance is Rs {amount}. Now, about your card:",
        "First, your balance: ₹{amount}.",
        "Balance: Rs. {amount} (account ending {last}).",
    ],
)
def test_a_value_asked_beside_a_lost_card_told_before_the_block_fails(told: str) -> None:
    """F.24: the card is blocked before anything else the customer asks. The balance read and
    told first fails required_outputs, even when it is read and told again after the block."""
    task, trace, at = _lost_card()
    output = task.required_outputs[0]
    read = _balance_read(trace, at)
    amount = f"{Decimal(output.value):,}"
    account = str((read.call.arguments or {})["account_number"])
    early = agent(told.format(amount=amount, last=account[-4:]))
    careless = edit(trace, [*trace.events[:at], read, early, *trace.events[at:]])
    evidence = failed(task, careless).get("required_outputs", [])
    assert any("before c2 block_card" in line and "F.24" in line for line in evidence), evidence
    assert failed(task, trace) == {}


def test_reads_before_the_block_are_no_telling() -> None:
    """The block's own steps and an agent's first look at the records come first: the balance
    read before the block, and told only after it, is no other request dealt with first."""
    task, trace, at = _lost_card()
    careful = edit(trace, [*trace.events[:at], _balance_read(trace, at), *trace.events[at:]])
    assert failed(task, careful) == {}
