"""D.15 on a cheque book request: the account, the leaves and the delivery are stated before
the yes (task audit finding 8). The leaves and the delivery are the two options the request
sends; a proposal that leaves either out asks a yes to less than "exactly what will be done"."""

from __future__ import annotations

import re

import pytest

from pytest_bankbench.runner import builtin_agent, expected_changes, run_task
from pytest_bankbench.scoring.scorer import Verdict, score
from pytest_bankbench.simulation.trace import Trace
from pytest_bankbench.tasks.model import Task
from tests.authoring.families.shipped import gold_call, tasks_of

TASKS = tasks_of("cheque_book_request")
# How the gold proposal states each option ("of 25 leaves", "delivered to your registered
# address"), cut out to make a proposal that names only the action and the account.
OPTIONS = {
    "leaves": re.compile(r" of \d+ leaves"),
    "delivery": re.compile(r", delivered to your (registered address|home branch)"),
}


def _gold(task: Task) -> Trace:
    result = run_task(task, builtin_agent("gold", task))
    assert result.verdict.passed, result.verdict.evidence
    return result.trace


def _proposed_without(task: Task, option: str) -> Verdict:
    """The gold session, its proposal not stating `option` (neither the disclosure's line nor
    the plan's words); the customer's yes and the write as before."""
    kept = tuple(d for d in task.disclosures if d.label != option)
    trace = _gold(task.model_copy(update={"disclosures": kept}))
    events = []
    for event in trace.events:
        text = getattr(event, "text", None)
        if event.kind == "message" and event.role == "agent" and text:
            cut = OPTIONS[option].sub("", text)
            if cut != text:
                event = event.model_copy(update={"text": cut})
        events.append(event)
    changed = trace.model_copy(update={"events": events})
    assert changed.events != trace.events, f"the gold proposal states no {option}"
    return score(task, changed, expected_changes(task))


def test_every_request_discloses_the_options_it_sends() -> None:
    for task in TASKS:
        sent = gold_call(task, "request_cheque_book").arguments
        told = {d.label: d.value for d in task.disclosures}
        assert told["leaves"] == str(sent["leaves"]), task.task_id
        assert told["delivery"] == str(sent["delivery"]).replace("_", " "), task.task_id


# One task of each delivery, so both wordings are proven.
BY_DELIVERY = [
    next(t for t in TASKS if gold_call(t, "request_cheque_book").arguments["delivery"] == where)
    for where in ("registered_address", "home_branch")
]


@pytest.mark.parametrize("task", BY_DELIVERY, ids=lambda t: t.task_id)
def test_the_gold_proposal_states_both_options_and_passes(task: Task) -> None:
    said = " ".join(e.text for e in _gold(task).events if e.kind == "message" and e.role == "agent")
    assert all(pattern.search(said) for pattern in OPTIONS.values()), said


@pytest.mark.parametrize("task", BY_DELIVERY, ids=lambda t: t.task_id)
@pytest.mark.parametrize("label", OPTIONS)
def test_a_request_without_an_option_stated_fails_and_with_it_passes(
    task: Task, label: str
) -> None:
    verdict = _proposed_without(task, label)
    assert not verdict.passed and verdict.failure_type == "acted_without_consent", verdict.evidence
    assert any(label in line for line in verdict.evidence["disclosure_consent"]), verdict.evidence
