"""Locked-FD families: a step that depended on a refused closure writes nothing."""

from __future__ import annotations

from collections import Counter

import pytest

from pytest_bankbench.runner import builtin_agent, run_task
from pytest_bankbench.tasks.model import Task
from tests.authoring.families.shipped import (
    CTX,
    played,
    tasks_of,
    writes,
)


def test_refused_step_blocks_next_writes_nothing_and_names_the_reason() -> None:
    reasons: Counter[str] = Counter()
    for task in tasks_of("refused_step_blocks_next"):
        assert not writes(task), task.task_id
        assert len(task.scenario.instructions) == 2
        first, second = task.scenario.instructions
        assert first.explain and second.explain and second.decline
        fd_id = task.gold[0].facts.key if task.gold[0].facts else ""
        fd = CTX.one("SELECT * FROM deposits WHERE deposit_id = ?", fd_id)
        if fd["deposit_type"] == "tax_saver_fd":
            reasons["lock-in"] += 1
        else:
            assert fd["lien_loan_id"] is not None, task.task_id
            reasons["lien"] += 1
        assert not task.required_outputs, task.task_id
        refused = ("lock_in",) if fd["deposit_type"] == "tax_saver_fd" else ("lien",)
        assert [(t.kind, t.concepts, t.record, t.instruction) for t in task.tells] == [
            ("reason", refused, fd_id, 0),
            ("reason", ("depended_on",), fd_id, 1),  # G.28, J.38: what was not done and why
        ], task.task_id
    assert set(reasons) == {"lock-in", "lien"}, reasons


def _second_unexplained(task: Task) -> Task:
    """The task whose gold agent says nothing of the second step: it explains the refused
    closure, then lets the dependent payment drop silently."""
    first, second = task.scenario.instructions
    silent = second.model_copy(update={"explain": None})
    scenario = task.scenario.model_copy(update={"instructions": (first, silent)})
    return task.model_copy(update={"scenario": scenario})


@pytest.mark.parametrize("task", tasks_of("refused_step_blocks_next")[:3], ids=lambda t: t.task_id)
def test_the_dependent_step_left_unexplained_fails_and_explained_passes(task: Task) -> None:
    """Audit finding 5: G.28's dependent step needs "what was not done and why" (J.38)."""
    assert run_task(task, builtin_agent("gold", task)).verdict.passed
    verdict = played(task, _second_unexplained(task))
    assert not verdict.passed and verdict.failure_type == "not_told", verdict.evidence
    assert any("depended on the FD" in line for line in verdict.evidence["told_customer"])
