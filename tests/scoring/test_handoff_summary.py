"""A hand-off's summary (scoring/handoff_summary.py, I.34): what the gold summary names, and no
other merchant than the disputed charge's."""

from __future__ import annotations

import re

import pytest

from pytest_bankbench.scoring.handoff_summary import HANDOFF
from pytest_bankbench.simulation.trace import ToolEvent, Trace
from pytest_bankbench.tasks.loader import shipped_tasks
from tests.scoring.sessions import edit, failed, first_of, gold

TASKS = shipped_tasks()
HANDING_OFF = sorted({t.family for t in TASKS for g in t.gold if g.tool == HANDOFF})
DISPUTES = sorted(
    {
        t.family
        for t in TASKS
        for g in t.gold
        if g.tool == HANDOFF and " from " in str(g.arguments.get("summary", ""))
    }
)


def _vague_hand_off(trace: Trace, arguments: dict[str, str] | None = None) -> Trace:
    events = list(trace.events)
    at = next(
        i for i, e in enumerate(events) if isinstance(e, ToolEvent) and e.call.name == HANDOFF
    )
    call = events[at]
    assert isinstance(call, ToolEvent)
    vague = arguments or {"reason": "other", "summary": "help"}
    events[at] = call.model_copy(update={"call": call.call.model_copy(update={"arguments": vague})})
    return edit(trace, events)


@pytest.mark.parametrize("family", HANDING_OFF)
def test_a_hand_off_summary_that_denies_the_issue_fails(family: str) -> None:
    """The reason says dispute, the summary the team reads says "no dispute or complaint"
    (careless-agent trial: passed 60 of 60); a summary that names the issue, or leaves its word
    to the reason, passes."""
    task = first_of(family)
    (handoff,) = (g for g in task.gold if g.tool == HANDOFF)
    reason, summary = str(handoff.arguments["reason"]), str(handoff.arguments["summary"])
    figures = " ".join(re.findall(r"Rs\.? ?[\d,]+(?:\.\d+)?|\d{4}-\d\d-\d\d", summary))
    denied = {
        "reason": reason,
        "summary": f"Customer confirms {figures} was genuine; no dispute or complaint, only wants "
        "a credit limit increase.",
    }
    problems = failed(task, _vague_hand_off(gold(task.task_id), denied))
    assert "says it is no" in " ".join(problems.get("told_customer", [])), problems
    kept = {"reason": reason, "summary": f"{summary} Customer has no other issue."}
    assert failed(task, _vague_hand_off(gold(task.task_id), kept)) == {}


@pytest.mark.parametrize("family", HANDING_OFF)
def test_a_hand_off_summary_must_say_what_the_issue_is(family: str) -> None:
    """I.34 on every task that hands off: the summary "help" fails; a dispute's summary gives the
    amount and date and calls it a dispute, a complaint's calls it a complaint."""
    for task in (t for t in TASKS if t.family == family):
        (handoff,) = (g for g in task.gold if g.tool == HANDOFF)
        wanted = f"{handoff.arguments['reason']}. {handoff.arguments['summary']}"
        problems = " ".join(failed(task, _vague_hand_off(gold(task.task_id)))["told_customer"])
        assert "hand-off" in problems, task.task_id
        if "Rs" in wanted:
            assert "amount" in problems and "date" in problems and "dispute" in problems
        else:
            assert "complaint" in problems, task.task_id


@pytest.mark.parametrize("family", DISPUTES)
@pytest.mark.parametrize(
    ("other", "fails"),
    [
        ("Amazon", True),  # "Amazon India" by its own first word
        ("Indian Oil", True),
        ("a merchant the customer does not recognise", False),  # no merchant named: fine
        ("", False),  # the merchant left out: the amount and date find the charge
    ],
)
def test_a_dispute_summary_naming_another_merchant_fails(
    family: str, other: str, fails: bool
) -> None:
    """Hunt round 5: a summary that sent the disputes team after "Amazon" for a Swiggy charge
    passed 8 of 8. The disputed charge's own merchant, or none, passes."""
    for task in (t for t in TASKS if t.family == family):
        (handoff,) = (g for g in task.gold if g.tool == HANDOFF)
        summary = str(handoff.arguments["summary"])
        merchant = re.search(r" from (.+?) on \d{4}-", summary)
        assert merchant is not None, summary
        if merchant[1].lower().startswith(other.lower().split(" ")[0] or "-"):
            continue  # the task's own merchant
        written = summary.replace(f" from {merchant[1]} ", f" from {other} " if other else " ")
        arguments = {"reason": str(handoff.arguments["reason"]), "summary": written}
        problems = " ".join(
            failed(task, _vague_hand_off(gold(task.task_id), arguments)).get("told_customer", [])
        )
        assert ("another merchant" in problems) is fails, (task.task_id, written, problems)
