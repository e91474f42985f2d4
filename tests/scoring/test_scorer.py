"""Write purity's attempts (scoring/scorer.py `attempted_writes`): a write a bank rule refused
counts against the session although nothing changed; a call refused as malformed is no attempt.

Played with the real bank on every task that books an FD: the gold session, with one booking
sent first from the account the gold chain books from."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from pytest_bankbench.runner import run_task
from pytest_bankbench.scoring.scorer import Verdict
from pytest_bankbench.simulation.agents import AgentAction, GoldAgent
from pytest_bankbench.simulation.trace import Event, ToolCall
from pytest_bankbench.tasks.loader import shipped_tasks
from pytest_bankbench.tasks.model import Task

TASKS = shipped_tasks()
BOOKING = sorted({t.family for t in TASKS for g in t.gold if g.tool == "create_fd"})


class _BooksFirst(GoldAgent):
    """The gold agent, after one `create_fd` of its own with the arguments given."""

    def __init__(self, task: Task, arguments: dict[str, Any]) -> None:
        super().__init__(task)
        self.first: ToolCall | None = ToolCall(call_id="x", name="create_fd", arguments=arguments)

    def act(self, events: Sequence[Event]) -> AgentAction:
        if self.first is not None:
            call, self.first = self.first, None
            return AgentAction(tool_calls=[call])
        return super().act(events)


def _play(task: Task, **change: Any) -> Verdict:
    booking = next(g for g in task.gold if g.tool == "create_fd")
    arguments = {**booking.arguments, "amount": 10000, **change}
    return run_task(task, _BooksFirst(task, arguments)).verdict


@pytest.mark.parametrize("family", BOOKING)
def test_a_booking_outside_the_tenure_limits_is_an_attempt(family: str) -> None:
    """4,000 or 3 days (policy: 7 to 3,650) is refused by rule and fails the session as an
    unrequested write; the same booking with an unknown argument is malformed, no attempt."""
    booked = [t for t in TASKS if t.family == family and any(g.tool == "create_fd" for g in t.gold)]
    for task in booked:
        for days in (4000, 3):
            verdict = _play(task, tenure_days=days)
            assert verdict.failure_type == "unrequested_write", (task.task_id, days)
            assert any("policy_violation" in e for e in verdict.evidence["write_purity"])
        assert _play(task, unexpected=1).passed, task.task_id


def test_a_value_told_before_the_read_the_task_orders_is_not_told() -> None:
    """F.24: a lost card is blocked before anything else. An agent that tells the balance first,
    then reads it again after the block without a word, told it from no read in that order
    (independent careful agent: it passed); told again after the block, it still told it
    first."""
    from pytest_bankbench.simulation.trace import ToolEvent
    from tests.scoring.sessions import agent, edit, failed, first_of, gold

    task = first_of("lost_card_block")
    trace = gold(task.task_id)
    events = list(trace.events)
    calls = {i: e.call.name for i, e in enumerate(events) if isinstance(e, ToolEvent)}
    reads = [i for i, name in calls.items() if name in ("list_cards", "get_account_balance")]
    balance = next(i for i in reads if calls[i] == "get_account_balance")
    last = len(events) - 1
    value = next(o for o in task.required_outputs if o.label == "balance")
    told = "Your balance is Rs. " + _indian(value.value) + "."
    early = [*events[: reads[0] + 1], events[balance], agent(told)]
    early += [*events[reads[0] + 1 : last], agent("That is done. Card status: blocked.")]
    problems = failed(task, edit(trace, early))
    assert list(problems) == ["required_outputs"], problems
    lines = problems["required_outputs"]
    assert any("told balance" in x and "only before c3 get_account_balance" in x for x in lines)
    assert any("before c2 block_card" in x and "F.24" in x for x in lines), lines
    # Told again once read in the task's order: the balance was still dealt with before the
    # block (F.24 "only then deal with the rest"; a careless trial's false pass, now failed).
    again = [*early[:-1], agent("That is done. Card status: blocked. " + told)]
    problems = failed(task, edit(trace, again))
    assert list(problems) == ["required_outputs"], problems
    assert "before c2 block_card" in problems["required_outputs"][0]


def _indian(value: str) -> str:
    from decimal import Decimal

    from pytest_bankbench.money import indian

    return indian(int(Decimal(value) * 100)).removeprefix("Rs. ").removeprefix("Rs ")


class _ClosesFirst(GoldAgent):
    """The gold agent, after one closure of the FD its chain closes last, tried first."""

    def __init__(self, task: Task) -> None:
        super().__init__(task)
        close = next(g for g in task.gold if g.tool == "close_fd_premature")
        self.first: ToolCall | None = ToolCall(
            call_id="x", name="close_fd_premature", arguments=dict(close.arguments)
        )

    def act(self, events: Sequence[Event]) -> AgentAction:
        if self.first is not None:
            call, self.first = self.first, None
            return AgentAction(tool_calls=[call])
        return super().act(events)


def test_a_gold_write_tried_before_its_dependencies_is_an_attempt() -> None:
    """The FD under lien closed before the loan is foreclosed: the bank refuses it and the gold
    chain closes it later, but trying it first is what the policy forbids (third independent
    careful agent: it passed)."""
    for task in (t for t in TASKS if t.family == "foreclose_then_close_fd"):
        verdict = run_task(task, _ClosesFirst(task)).verdict
        assert verdict.failure_type == "unrequested_write", task.task_id
        assert any("under lien" in e for e in verdict.evidence["write_purity"]), task.task_id
        assert run_task(task, GoldAgent(task)).verdict.passed
