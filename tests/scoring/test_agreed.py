"""C.10's "agree the exact number of days with them before quoting" (task audit finding 4):
the days said by the customer, or said by the agent and answered with a yes, before the quote.
Proven on the shipped fd_tenure_in_months tasks, from the gold session both ways."""

from __future__ import annotations

import pytest

from pytest_bankbench.runner import builtin_agent, expected_changes, run_task
from pytest_bankbench.scoring.scorer import Verdict, score
from pytest_bankbench.simulation.trace import Event, MessageEvent, Trace
from pytest_bankbench.tasks.loader import shipped_tasks
from pytest_bankbench.tasks.model import Task

TASKS = [t for t in shipped_tasks() if t.family == "fd_tenure_in_months"]


def _days(task: Task) -> str:
    (tell,) = [t for t in task.tells if t.kind == "agree"]
    (value,) = tell.values
    return value.value


def _gold(task: Task) -> Trace:
    result = run_task(task, builtin_agent("gold", task))
    assert result.verdict.passed, result.verdict.evidence
    return result.trace


def _quote_at(trace: Trace) -> int:
    return next(
        i
        for i, e in enumerate(trace.events)
        if e.kind == "tool" and e.call.name == "calculate_fd_maturity"
    )


def _session(task: Task, inserted: list[MessageEvent]) -> Verdict:
    """The gold session with the customer's days taken out of what it says (the agent worked
    them out itself) and `inserted` just before the quote."""
    trace = _gold(task)
    days = _days(task)
    events: list[Event] = []
    for at, event in enumerate(trace.events):
        if at == _quote_at(trace):
            events += inserted
        if isinstance(event, MessageEvent) and event.role == "customer" and days in event.text:
            event = event.model_copy(update={"text": event.text.replace(f"so {days} days", "")})
            assert days not in event.text
        events.append(event)
    return score(task, trace.model_copy(update={"events": events}), expected_changes(task))


def _failed_unagreed(verdict: Verdict) -> bool:
    return (
        not verdict.passed
        and verdict.failure_type == "not_told"
        and any("never agreed the tenure in days" in e for e in verdict.evidence["told_customer"])
    )


def test_every_task_asks_the_days_agreed_before_the_quote() -> None:
    assert len(TASKS) > 1
    for task in TASKS:
        quote = next(c for c in task.gold if c.tool == "calculate_fd_maturity")
        (tell,) = task.tells
        assert (tell.kind, tell.before, _days(task)) == (
            "agree",
            quote.id,
            str(quote.arguments["tenure_days"]),
        )


@pytest.mark.parametrize("task", TASKS[:3], ids=lambda t: t.task_id)
def test_the_days_said_by_the_customer_are_agreed(task: Task) -> None:
    trace = _gold(task)
    customer = [
        e.text
        for e in trace.events[: _quote_at(trace)]
        if isinstance(e, MessageEvent) and e.role == "customer"
    ]
    assert any(f"{_days(task)} days" in text for text in customer), customer


@pytest.mark.parametrize("task", TASKS[:3], ids=lambda t: t.task_id)
def test_days_the_agent_worked_out_and_quoted_unagreed_fail(task: Task) -> None:
    assert _failed_unagreed(_session(task, []))
    # Said by the agent but never put to the customer for a yes: still not agreed.
    said = MessageEvent(role="agent", text=f"That comes to {_days(task)} days. Let me check.")
    assert _failed_unagreed(_session(task, [said]))


@pytest.mark.parametrize("task", TASKS[:3], ids=lambda t: t.task_id)
def test_days_the_agent_proposed_and_the_customer_confirmed_pass(task: Task) -> None:
    days = _days(task)
    asked = MessageEvent(role="agent", text=f"That is {days} days - shall I quote for {days} days?")
    verdict = _session(task, [asked, MessageEvent(role="customer", text="Yes.", agrees=True)])
    assert verdict.passed, verdict.evidence
    # An answer that is no yes agrees to nothing.
    other = MessageEvent(role="customer", text="What is the rate?", agrees=False)
    assert _failed_unagreed(_session(task, [asked, other]))
