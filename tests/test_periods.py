"""pytest_bankbench/periods.py: a statement period said by month or relative to the task's date
names the days that bound it; one said otherwise names other days."""

from __future__ import annotations

from datetime import date

import pytest

from pytest_bankbench.periods import period_days
from pytest_bankbench.simulation.customer import NOT_WHAT_I_ASKED, Say, ScriptedCustomer
from pytest_bankbench.tasks.loader import shipped_tasks
from pytest_bankbench.tasks.model import Instruction, Scenario

TODAY = date(2026, 5, 12)
Q1 = {date(2026, 1, 1), date(2026, 3, 31)}


@pytest.mark.parametrize(
    ("text", "days"),
    [
        ("from 1 January 2026 to 31 March 2026", Q1),
        ("the statement for Jan-Mar 2026", Q1),
        ("for Jan–Mar 2026", Q1),
        ("January to March 2026", Q1),
        ("from 1 Jan to 31 Mar 2026", Q1),
        ("01/01/2026 - 31/03/2026", Q1),
        ("for March 2026", {date(2026, 3, 1), date(2026, 3, 31)}),
        ("for February 2028", {date(2028, 2, 1), date(2028, 2, 29)}),
        ("April 2025 to March 2026", {date(2025, 4, 1), date(2026, 3, 31)}),
        ("Nov-Feb 2026", {date(2025, 11, 1), date(2026, 2, 28)}),
        ("the last 3 months", {date(2026, 2, 12), TODAY}),
        ("for the past six months", {date(2025, 11, 12), TODAY}),
        ("the latest 12 months", {date(2025, 5, 12), TODAY}),
        ("the last 90 days", {date(2026, 2, 11), TODAY}),
        ("from 1 June 2024 to today", {date(2024, 6, 1), TODAY}),
    ],
)
def test_a_period_names_its_first_and_last_day(text: str, days: set[date]) -> None:
    assert period_days(text, TODAY) == days


@pytest.mark.parametrize(
    "text",
    [
        "for February 2026",  # another month
        "Feb-Mar 2026",
        "the last 3 months",  # on 12 May 2026: 12 February to 12 May
        "the last 6 months",
        "January to March 2025",  # another year
        "1 January 2026 to 30 June 2026",
    ],
)
def test_another_period_names_days_outside_the_one_asked(text: str) -> None:
    assert not period_days(text, TODAY) <= Q1


@pytest.mark.parametrize(
    "text",
    [
        "It takes 3 working days to reach you.",
        "Your FD of Rs 50,000 matures in 12 months.",
        "May I send it by post?",  # "may" the verb, no year
        "I can do that by March.",  # a month without its year names no day
    ],
)
def test_no_period_no_days(text: str) -> None:
    assert period_days(text, TODAY) == frozenset()


STATEMENT = Instruction(
    text="Please send me a statement of my savings account ending 7477 from 1 January 2026 "
    "to 31 March 2026, by post."
)


@pytest.mark.parametrize(
    ("proposal", "agrees"),
    [
        ("Shall I request your statement for Jan-Mar 2026 by post?", True),
        (
            "To confirm, you'd like me to request your statement for January to March 2026 "
            "by post?",
            True,
        ),
        ("Shall I request your statement for February 2026 by post?", False),
        ("Shall I request the statement for the last 3 months by post?", False),
    ],
)
def test_the_customer_reading_periods_corrects_only_another_period(
    proposal: str, agrees: bool
) -> None:
    task = next(t for t in shipped_tasks() if t.family == "statement_request")
    scenario = Scenario(
        persona="A customer.",
        first_message=STATEMENT.text,
        instructions=(STATEMENT,),
        narrative="What the customer wants.",
    )
    reply = ScriptedCustomer(
        task.model_copy(update={"scenario": scenario, "task_date": TODAY})
    ).respond(proposal)
    assert isinstance(reply, Say) and reply.agrees is agrees, reply
    if not agrees:
        assert reply.text.startswith(NOT_WHAT_I_ASKED) and "1 January 2026" in reply.text
