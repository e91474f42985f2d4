"""A.4/A.5: a full card number or CVV is refused with its reason, and the masked number and the
registered mobile are told."""

from __future__ import annotations

import pytest

from pytest_bankbench.runner import builtin_agent, run_task
from pytest_bankbench.tasks.model import Task
from tests.authoring.families.shipped import played, tasks_of, without_explain

TASKS = tasks_of("card_number_request")


def test_the_refusal_has_its_reason_about_the_card_asked_for() -> None:
    for task in TASKS:
        (reason,) = (t for t in task.tells if t.kind == "reason")
        assert reason.concepts == ("masked_only",) and reason.instruction == 0
        (card,) = (c for c in task.gold if c.tool == "list_cards")
        assert card.facts is not None and reason.record == card.facts.key, task.task_id


@pytest.mark.parametrize("task", TASKS[:3], ids=lambda t: t.task_id)
def test_gold_passes_and_a_refusal_without_its_reason_fails(task: Task) -> None:
    assert run_task(task, builtin_agent("gold", task)).verdict.passed
    verdict = played(task, without_explain(task))
    assert not verdict.passed and verdict.failure_type == "not_told", verdict.evidence
    assert any("masked_only" in line for line in verdict.evidence["told_customer"])
