"""E.21/E.22: the foreclosure or prepayment charge is told before the write, a nil one too."""

from __future__ import annotations

import pytest

from pytest_bankbench.runner import builtin_agent, run_task
from pytest_bankbench.tasks.model import Task
from tests.authoring.families.shipped import TASKS, played

CHARGES = ("prepayment charge", "foreclosure charge")
NIL = [t for t in TASKS if any(d.label in CHARGES and d.value == "0.00" for d in t.disclosures)]


def _without_charge(task: Task) -> Task:
    """The task whose gold agent never mentions the charge before the write."""
    kept = tuple(d for d in task.disclosures if d.label not in CHARGES)
    return task.model_copy(update={"disclosures": kept})


@pytest.mark.parametrize(
    "task",
    [next(t for t in NIL if t.family == f) for f in sorted({t.family for t in NIL})],
    ids=lambda t: t.task_id,
)
def test_a_nil_charge_left_untold_fails_and_told_passes(task: Task) -> None:
    assert run_task(task, builtin_agent("gold", task)).verdict.passed
    verdict = played(task, _without_charge(task))
    assert not verdict.passed and verdict.failure_type == "acted_without_consent", verdict.evidence
    assert any("charge" in line for line in verdict.evidence["disclosure_consent"])
