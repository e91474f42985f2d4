"""I.32: a complaint the customer wants escalated is handed to the grievance team."""

from __future__ import annotations

from pytest_bankbench.concepts import says
from pytest_bankbench.paths import data_dir
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


def test_the_hand_off_in_the_knowledge_bases_own_words_names_who_takes_it() -> None:
    """I.34 asks to tell the customer they are being transferred; KB 24 says who takes a
    complaint: "the assistant transfers them to a human agent". Said so, the team is told
    (naming a grievance team is not required: issue 16 item 6)."""
    article = (data_dir() / "kb" / "24-grievance-redressal.md").read_text(encoding="utf-8")
    (rule,) = (line for line in article.splitlines() if "wants to complain" in line)
    assert "human agent" in rule
    for task in TASKS:
        (tell,) = task.tells
        assert any(says(c, rule) for c in tell.concepts), task.task_id
        assert all(says(c, "I'm transferring you to a human agent now.") for c in tell.concepts)
