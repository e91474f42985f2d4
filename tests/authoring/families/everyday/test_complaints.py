"""I.32: a complaint the customer wants escalated is handed to the grievance team."""

from __future__ import annotations

from pytest_bankbench.runner import builtin_agent, run_task
from tests.authoring.families.shipped import played, tasks_of, with_gold

TASKS = tasks_of("complaint_escalation")


def test_the_complaint_is_looked_up_then_handed_over_naming_the_team() -> None:
    for task in TASKS:
        assert [c.tool for c in task.gold] == ["get_service_requests", "transfer_to_human_agent"]
        assert task.gold[1].after == ("c1",)
        (tell,) = task.tells
        assert (tell.kind, tell.concepts, tell.before) == ("handoff", ("grievance_team",), "c2")
        summary = str(task.gold[1].arguments["summary"])
        about = task.scenario.narrative.split("complained about ", 1)[1].split(" on ", 1)[0]
        assert about in summary, task.task_id


def test_gold_passes_naming_the_grievance_team() -> None:
    task = TASKS[0]
    result = run_task(task, builtin_agent("gold", task))
    assert result.verdict.passed, result.verdict.evidence


def test_noting_the_complaint_without_a_hand_off_fails() -> None:
    task = TASKS[1]
    acting = with_gold(task, list(task.gold[:1])).model_copy(update={"tells": ()})
    verdict = played(task, acting)
    assert not verdict.passed and verdict.failure_type == "stopped_short", verdict.evidence


def test_a_hand_off_to_a_colleague_unnamed_fails() -> None:
    """The gold agent names the team from the hand-off's reason; given another reason, it
    hands over to "a colleague", and the task fails for the team never named."""
    task = TASKS[2]
    transfer = task.gold[1]
    unnamed = transfer.model_copy(
        update={"arguments": {**transfer.arguments, "reason": "customer wants a person"}}
    )
    verdict = played(task, with_gold(task, [task.gold[0], unnamed]))
    assert not verdict.passed and verdict.failure_type == "not_told", verdict.evidence
    assert any("grievance" in line for line in verdict.evidence["told_customer"])
