"""A booking refused for a policy limit counts as an attempt, whatever code the tool refused it
with (issue 16 item 3; pytest_bankbench/bank/limits.py).

The tools refuse an FD tenure of 1 to 6 days or 3,651 to 36,500 days as a policy violation, but
0 days or 40,000 days fail their schema first, as invalid arguments. Both are tenures the policy
forbids (H.29: 7 to 3650 days), so both fail write purity. A number written with its unit
("365 days") is a malformed call: refused, retried rightly, it passes.
"""

from __future__ import annotations

from typing import Any

import pytest

from pytest_bankbench.bank.limits import outside_limits
from pytest_bankbench.bank.store import Bank
from pytest_bankbench.simulation.session import execute
from pytest_bankbench.simulation.trace import ToolCall, ToolEvent
from tests.scoring import independent_scorer as mine
from tests.scoring.sessions import failed, first_of, gold, insert


def _booking() -> tuple[Any, int, ToolEvent]:
    """A shipped FD booking's gold session, the position of its booking and the booking."""
    task = first_of("fd_tenure_in_months")
    trace = gold(task.task_id)
    at, event = next(
        (i, e)
        for i, e in enumerate(trace.events)
        if isinstance(e, ToolEvent) and e.call.name == "create_fd" and e.ok
    )
    return task, at, event


def _refused(task: Any, event: ToolEvent, **changed: Any) -> ToolEvent:
    """The booking with other arguments, as the bank answers it."""
    call = ToolCall(
        call_id="attempt-1",
        name="create_fd",
        arguments={**(event.call.arguments or {}), **changed},
    )
    with Bank(task.customer_id, task.task_date, task.bank_seed) as bank:
        refused = execute(bank, call)
    assert not refused.ok
    return refused


@pytest.mark.parametrize(
    ("tenure", "code"),
    [(0, "invalid_arguments"), (40_000, "invalid_arguments"), (5, "policy_violation")],
)
def test_a_forbidden_tenure_is_an_attempt_whatever_the_error_code(tenure: int, code: str) -> None:
    task, at, event = _booking()
    attempt = _refused(task, event, tenure_days=tenure)
    assert attempt.error_code == code
    trace = insert(gold(task.task_id), at, attempt)
    problems = failed(task, trace)
    assert list(problems) == ["write_purity"], problems
    assert "the policy allows an FD tenure of 7 to 3650 days" in problems["write_purity"][0]
    assert not mine.judge(task, trace, _expected(task)).checks["write_purity"]


@pytest.mark.parametrize("typo", ["365 days", "one year", None])
def test_a_malformed_booking_retried_rightly_passes(typo: str | None) -> None:
    task, at, event = _booking()
    attempt = _refused(task, event, tenure_days=typo)
    assert attempt.error_code == "invalid_arguments"
    trace = insert(gold(task.task_id), at, attempt)
    assert failed(task, trace) == {}
    assert mine.judge(task, trace, _expected(task)).passed


def _expected(task: Any) -> Any:
    from pytest_bankbench.runner import expected_changes

    return expected_changes(task)


@pytest.mark.parametrize(
    ("tool", "arguments", "broken"),
    [
        ("create_fd", {"amount": 10_000, "tenure_days": 7}, 0),
        ("create_fd", {"amount": "2000000.00", "tenure_days": "3650"}, 0),
        ("create_fd", {"amount": 9_999, "tenure_days": 0}, 2),
        ("create_fd", {"amount": 0, "tenure_days": 36_501}, 2),
        ("create_fd", {"amount": "1 lakh", "tenure_days": "365 days"}, 0),
        ("create_rd", {"monthly_instalment": 500, "tenure_months": 6}, 0),
        ("create_rd", {"monthly_instalment": 550, "tenure_months": 0}, 2),
        ("create_rd", {"monthly_instalment": 1_000, "tenure_months": 1_201}, 1),
        ("transfer_funds", {"amount": 0}, 0),
    ],
)
def test_the_limits_read_from_the_raw_arguments(
    tool: str, arguments: dict[str, Any], broken: int
) -> None:
    assert len(outside_limits(tool, arguments)) == broken
    call = ToolCall(call_id="x", name=tool, arguments=arguments)
    assert mine.breaks_policy_limit(call) is (broken > 0)
