"""scoring/senior_rate.py: the senior-citizen rate or status told as the customer's, where the
bank says the customer is no senior citizen, fails told_customer (careless-agent trial
fake_senior); the rule said of others, negated or as a condition passes."""

from __future__ import annotations

import pytest

from pytest_bankbench.simulation.trace import ToolEvent
from pytest_bankbench.tasks.model import Task
from tests.scoring.sessions import failed, first_of, gold, said_last


def _flags(task: Task) -> list[object]:
    """What the gold session's results say of the customer being a senior citizen."""
    return [
        e.output["customer_is_senior"]
        for e in gold(task.task_id).events
        if isinstance(e, ToolEvent) and e.output and "customer_is_senior" in e.output
    ]


def _not_senior(task: Task) -> bool:
    return bool(_flags(task)) and True not in _flags(task)


def _senior(task: Task) -> bool:
    return True in _flags(task)


CLAIMS = [
    "Since you are a senior citizen, you get an extra 0.50%, so your rate is 5.50% p.a.",
    "As a senior citizen, you get 0.50% more on this deposit.",
    "You're a senior citizen, so the higher rate applies.",
    "Good news: you qualify for the senior citizen rate on this FD.",
    "Your senior citizen rate for this tenure is 0.50% above the card rate.",
    "The senior citizen benefit applies to your deposit too.",
]
NO_CLAIMS = [
    "Senior citizens get an extra 0.50% on this slab.",
    "As you're not a senior citizen, the general rate applies to you.",
    "If you were a senior citizen, you would get 0.50% more.",
    "Once you turn 60, you'll get the senior citizen rate of an extra 0.50%.",
    "The senior citizen rate is 0.50% higher; yours is the general rate.",
    "You are not eligible for the senior citizen rate, which is for customers 60 or older.",
    "Note that the senior-citizen rate (an extra 0.50%) only applies from age 60.",
]


@pytest.mark.parametrize("words", CLAIMS)
def test_the_senior_rate_told_as_a_non_senior_customers_fails(words: str) -> None:
    task = first_of("fd_rate_query", _not_senior)
    [line] = said_last(task, words)["told_customer"]
    assert "senior" in line and "not a senior citizen" in line, line
    assert words[:20].lower() in line, line


@pytest.mark.parametrize("words", NO_CLAIMS)
def test_the_senior_rule_said_of_others_or_as_a_condition_passes(words: str) -> None:
    task = first_of("fd_rate_query", _not_senior)
    assert said_last(task, words) == {}


def test_the_senior_rate_told_to_a_senior_customer_passes() -> None:
    task = first_of("fd_close_and_rebook", _senior)
    assert failed(task, gold(task.task_id)) == {}
    assert said_last(task, "As a senior citizen, you get an extra 0.50% on this FD.") == {}


@pytest.mark.parametrize(
    ("said", "wrong"),
    [
        # Hunt round 5: told in words the grounded values' check grounds (1% is the policy's
        # premature-closure cut) or reads as no rate.
        ("Senior citizens get 1% more.", True),
        ("Senior citizens get an extra 0.75%.", True),
        ("If you were a senior citizen, you'd get an extra 1% on this.", True),
        ("Senior citizens get an extra 75 basis points.", True),
        ("Senior citizens get an extra 0.50%.", False),
        ("Senior citizens (60+) earn 0.5% more than the general rate.", False),
        (
            "Customers aged 60 or above, i.e. senior citizens, get an additional 50 basis points.",
            False,
        ),
        ("If you were a senior citizen, you'd get half a percent more.", False),
        ("Senior citizens get +0.50% on top of the card rate.", False),
        ("The senior citizen rate for this tenure is 5.50% p.a.", False),
    ],
)
def test_senior_citizens_extra_rate_is_the_policy_s(said: str, wrong: bool) -> None:
    """Policy 19 and the rate table: senior citizens (60+) get +0.50%; told as another extra
    rate, of anyone, it fails naming the policy's."""
    problems = said_last(first_of("fd_rate_query"), said)
    evidence = " ".join(problems.get("told_customer", []))
    assert bool(problems) is wrong, problems
    if wrong:
        assert "0.75%" in evidence or "senior citizens (60+) +0.50%" in evidence, evidence
