"""Figures, dates and nil phrases a careful agent says (issue 16, stop 27): each form read
where a person would read it, and its near-miss not."""

from __future__ import annotations

import re
from datetime import date, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pytest_bankbench.scoring.dates_told import occurrence, reading_on
from pytest_bankbench.scoring.outputs import said
from tests.scoring.sessions import agent_turns, failed, first_of, gold, say, text_at

TASK_DAY = date(2026, 3, 10)

# --- dates without a year, read from the task's date ------------------------------------------

YEARLESS_TOLD = [
    ("2026-03-14", "Your FD matures on 14 March."),  # ahead: the next 14 March
    ("2026-04-01", "The card will be delivered by April 1st."),
    ("2026-04-01", "Your next EMI is due on 1st April."),
    ("2026-03-14", "It matures on the 14th of March."),
    ("2025-04-01", "The account was opened on 1st April."),  # behind: the last 1 April
    ("2026-03-02", "A debit of Rs 500 on 2 Mar."),
    ("2027-02-28", "It matures on 28 February."),  # 355 days ahead: still the next one
    ("2026-03-10", "The transfer was made on 10 March."),  # the task's own day
    ("2025-03-14", "It was opened on 14 March."),  # 361 days back: the last 14 March
    ("2026-05-03", "The card reaches you by May 3."),
]
YEARLESS_NOT_TOLD = [
    ("2027-03-14", "Your FD matures on 14 March."),  # the next 14 March is 2026's
    ("2025-03-09", "It was opened on 9 March."),  # behind: the last 9 March is 2026's
    ("2024-04-01", "The account was opened on 1st April."),  # two years back: the year is news
    ("2026-03-15", "Your FD matures on 14 March."),
    ("2026-03-14", "Your FD matures on 14/03."),  # numerals without a year may be month-first
    ("2026-03-14", "Your FD matures on 14 March 2027."),  # a year said is the year read
    ("2026-03-14", "Your FD matures on March 14, 2027."),
    ("2026-03-14", "It runs for 14 months."),
    ("2026-05-03", "You may 3 times change the limit."),  # "may" the verb
]


@pytest.mark.parametrize(("value", "text"), YEARLESS_TOLD)
def test_a_yearless_date_is_told_when_the_task_date_makes_its_year_plain(
    value: str, text: str
) -> None:
    with reading_on(TASK_DAY):
        assert said("date", value, text)
    assert not said("date", value, text)  # with no task date, never: a date needs its year


@pytest.mark.parametrize(("value", "text"), YEARLESS_NOT_TOLD)
def test_a_yearless_date_a_year_or_more_away_or_another_day_is_not_told(
    value: str, text: str
) -> None:
    with reading_on(TASK_DAY):
        assert not said("date", value, text)


@given(st.dates(date(2020, 1, 1), date(2030, 12, 31)), st.integers(-800, 800))
def test_a_yearless_date_tells_exactly_the_values_within_a_year(on: date, shift: int) -> None:
    value = on + timedelta(days=shift)
    text = f"It falls on {value.day} {value:%B}."
    near = occurrence(value.month, value.day, on, value >= on) == value
    with reading_on(on):
        assert said("date", value.isoformat(), text) == near
    if abs(shift) <= 365 and not (value.month == 2 and value.day == 29):
        assert near or abs(shift) == 365  # within a year is the occurrence (a leap year aside)
    if abs(shift) > 366:
        assert not near


# A two-digit year, its century read from the task's date (red team, issue 16).
SHORT_YEAR_TOLD = [
    ("2026-03-15", "Your FD matures on 15/03/26."),
    ("2026-03-15", "It matures on 15-Mar-26."),
    ("2026-03-15", "It matures on March 15, '26."),
    ("2026-03-15", "It matures on 15th March '26."),
    ("2026-03-15", "Matures: 15.03.26"),
    ("2015-03-26", "It was opened on 26/03/15."),  # day first, as four-digit years are
    ("1999-12-31", "It was opened on 31/12/99."),  # the century nearest the task's date
]
SHORT_YEAR_NOT_TOLD = [
    ("2026-03-15", "It matures on 03/15/26."),  # month first: no 15th month
    ("2026-03-15", "It was opened on 26/03/15."),  # year first is not read
    ("2026-05-03", "It matures on 05/03/26."),  # day first: 5 March
    ("2026-03-15", "It matures on 15/03/25."),
    ("2026-03-15", "It matures on 15 March 26 days from now."),  # a count, not a year
    ("2126-03-15", "It matures on 15/03/26."),
    ("2026-03-15", "Build 1.15.03.26 is out."),
]


@pytest.mark.parametrize(("value", "text"), SHORT_YEAR_TOLD)
def test_a_two_digit_year_is_read_from_the_task_date(value: str, text: str) -> None:
    with reading_on(TASK_DAY):
        assert said("date", value, text)
    assert not said("date", value, text)  # with no task date, the century is a guess


@pytest.mark.parametrize(("value", "text"), SHORT_YEAR_NOT_TOLD)
def test_a_two_digit_year_tells_no_other_date(value: str, text: str) -> None:
    with reading_on(TASK_DAY):
        assert not said("date", value, text)


@given(st.dates(date(1960, 1, 1), date(2090, 12, 31)))
def test_a_two_digit_year_tells_what_the_four_digit_one_does(day: date) -> None:
    full, short = f"{day:%d/%m/%Y}", f"{day:%d/%m/%y}"
    with reading_on(TASK_DAY):
        if abs(day.year - 2026) != 50:  # 50 years either way: the two centuries tie
            assert said("date", day.isoformat(), f"on {short}") == (abs(day.year - 2026) < 50)
        assert said("date", day.isoformat(), f"on {full}")
        assert not said("date", (day + timedelta(days=1)).isoformat(), f"on {short}")


def test_the_reading_ends_with_its_block() -> None:
    with reading_on(TASK_DAY):
        pass
    assert not said("date", "2026-03-14", "on 14 March")


# --- a day said relative to the task's date ----------------------------------------------------

# Careful-wording hunt (issue 16): "The cooling period ends tomorrow" failed J.38 10 of 10.
RELATIVE_TOLD = [
    ("2026-03-11", "The cooling period ends tomorrow."),
    ("2026-03-11", "Cooling period: until tomorrow."),
    ("2026-03-11", "Payee added ✅ (cooling period ends tomorrow)."),
    ("2026-03-11", "You can send the rest from tomorrow, when the cooling period ends."),
    ("2026-03-11", "The payee's cooling period lifts tomorrow, so full transfers work from then."),
    ("2026-03-10", "The transfer was made today."),
    ("2026-03-12", "It will reach you the day after tomorrow."),
    ("2026-03-09", "The debit was posted yesterday."),
]
RELATIVE_NOT_TOLD = [
    ("2026-03-11", "The cooling period ends in 3 days."),
    ("2026-03-11", "The cooling period ends today."),
    ("2026-03-11", "Cooling period: until the day after tomorrow."),
    ("2026-03-13", "The cooling period ends tomorrow."),
    ("2026-03-11", "The day before yesterday it was blocked."),
    ("2026-03-11", "Tomorrowland is a festival."),
]


@pytest.mark.parametrize(("value", "text"), RELATIVE_TOLD)
def test_a_day_said_relative_to_the_task_date_is_that_day(value: str, text: str) -> None:
    with reading_on(TASK_DAY):
        assert said("date", value, text)
    assert not said("date", value, text)  # with no task date, never: not the wall clock


@pytest.mark.parametrize(("value", "text"), RELATIVE_NOT_TOLD)
def test_a_relative_day_tells_no_other_date(value: str, text: str) -> None:
    with reading_on(TASK_DAY):
        assert not said("date", value, text)


def test_tomorrow_is_read_against_the_task_date_in_a_session() -> None:
    """A payee's cooling period told as ending tomorrow tells add_beneficiary's result (J.38),
    and one a wrong number of days away does not."""
    for family in ("new_payee_transfer", "cooling_period_limit"):
        task = first_of(family)
        trace = gold(task.task_id)
        assert failed(task, trace) == {}
        at = next(i for i in agent_turns(trace) if "Cooling period until" in text_at(trace, i))
        for new, ok in (
            ("The cooling period ends tomorrow.", True),
            ("Payee added ✅ (cooling period ends tomorrow).", True),
            ("You can send the rest from tomorrow, when the cooling period ends.", True),
            ("The cooling period ends in 3 days.", False),
            ("Cooling period: until the day after tomorrow.", False),
        ):
            text = re.sub(r"Cooling period until: [^.]+\.", new, text_at(trace, at))
            problems = failed(task, say(trace, at, text))
            assert (problems == {}) == ok, (new, problems)
            if not ok:
                assert "never told the result of add_beneficiary" in str(problems), problems


# --- lakh and crore abbreviations -------------------------------------------------------------

SHORT_AMOUNTS = [
    ("150000.00", "Your FD of ₹1.5L matures soon."),
    ("150000.00", "I can send Rs 1.5 L now."),
    ("150000.00", "That is 1.5 lac."),
    ("150000.00", "That is 1.5 lacs."),
    ("150000.00", "That is 1.5 lakh."),
    ("125000.00", "A loan of ₹1.25 lakhs."),
    ("15000.00", "A limit of 15K a day."),
    ("15000.00", "A limit of Rs 15k a day."),
    ("20000000.00", "The cover is Rs. 2 cr."),
    ("25000000.00", "The cover is ₹2.5Cr."),
    ("200000.00", "₹2L was credited."),
]
SHORT_NOT_AMOUNTS = [
    ("150000.00", "The tank holds 1.5 litres."),
    ("150000.00", "It holds 1.5 L of water."),  # an L without a currency sign may be litres
    ("150000.00", "Raise it with L1 support."),
    ("150000.00", "A rate of 1.5%."),
    ("150000.00", "Rs 1.5 lakh% more."),  # a percentage is no amount
    ("1.50", "Your FD of ₹1.5L matures soon."),
    ("100000.00", "Your FD of ₹1.5L matures soon."),
    ("15000.00", "15 km away."),
]


@pytest.mark.parametrize(("value", "text"), SHORT_AMOUNTS)
def test_lakh_crore_and_thousand_abbreviations_are_amounts(value: str, text: str) -> None:
    assert said("amount", value, text)


@pytest.mark.parametrize(("value", "text"), SHORT_NOT_AMOUNTS)
def test_litres_support_levels_and_percentages_are_not_amounts(value: str, text: str) -> None:
    assert not said("amount", value, text)


# --- a nil said of its quantity ---------------------------------------------------------------

NIL_OF_INTEREST = [
    "No interest has accrued since your last EMI.",
    "There is nil accrued interest.",
    "Interest accrued: nil",
    "Accrued interest is zero, and the charge is Rs 2,000.",
    "Interest accrued: Rs 0.00, foreclosure charge: Rs 0.00.",
    "| Item | Amount (₹) |\n|---|---|\n| Interest accrued | 0.00 |",
    "- Interest accrued: ₹0.00",
]
NOT_NIL_OF_INTEREST = [
    "There is no foreclosure charge.",  # a nil, of another quantity
    "Nothing is outstanding after this.",
    "Foreclosure charge: Rs 0.00. Interest accrued: Rs 12.00.",
    "Interest accrued is not nil.",
    "It isn't true that no interest has accrued.",
    "The loan is fully paid.",
]


@pytest.mark.parametrize("text", NIL_OF_INTEREST)
def test_a_nil_said_of_the_quantity_tells_its_zero(text: str) -> None:
    assert said("amount", "0.00", text, unit="interest")


@pytest.mark.parametrize("text", NOT_NIL_OF_INTEREST)
def test_a_nil_of_another_quantity_or_a_negated_one_tells_no_zero_of_it(text: str) -> None:
    assert not said("amount", "0.00", text, unit="interest")


def test_a_nil_of_the_quantity_is_no_other_amount() -> None:
    assert not said("amount", "12.00", "No interest has accrued.", unit="interest")
    assert said("amount", "12.00", "Interest accrued: Rs 12.00.", unit="interest")


# --- nothing left owed, in a debt's words -----------------------------------------------------

# Careful-wording hunt (issue 16): 6 of 6 credit_card_bill_payment failed "remaining
# outstanding: Rs 0" with these.
NONE_OWED = [
    "You now owe nothing on this card.",
    "Your card has a zero outstanding balance now.",
    "Dues cleared in full.",
    "Outstanding dues: none.",
    "Your bill has been cleared in full.",
    "Your card bill has now been cleared.",
    "You no longer owe anything on this card.",
    "Outstanding balance: none ✅",
]
NOT_NONE_OWED = [
    "Your dues are not cleared yet.",
    "Your bill isn't fully cleared.",
    "The payment has cleared.",
    "You don't owe nothing... just kidding, Rs 500 is left.",
    "Your card balance is Rs 500.",
]


@pytest.mark.parametrize("text", NONE_OWED)
def test_nothing_owed_tells_a_zero(text: str) -> None:
    assert said("amount", "0.00", text)
    assert not said("amount", "500.00", text)  # said of a debt that is not nil, nothing told


@pytest.mark.parametrize("text", NOT_NONE_OWED)
def test_a_debt_not_cleared_tells_no_zero(text: str) -> None:
    assert not said("amount", "0.00", text)


@pytest.mark.parametrize("zero", [True, False])
def test_nothing_owed_tells_the_card_s_remaining_outstanding_only_when_it_is_nil(
    zero: bool,
) -> None:
    """credit_card_bill_payment: "You now owe nothing on this card." tells a remaining
    outstanding of Rs 0, and after a part payment tells none (required_outputs fails)."""
    pattern = r"Remaining outstanding: Rs\. 0\." if zero else r"Remaining outstanding: Rs\. [1-9]"
    task = first_of(
        "credit_card_bill_payment",
        lambda t: any(
            re.search(pattern, text_at(gold(t.task_id), i)) for i in agent_turns(gold(t.task_id))
        ),
    )
    trace = gold(task.task_id)
    at = next(i for i in agent_turns(trace) if re.search(pattern, text_at(trace, i)))
    text = re.sub(
        r"Remaining outstanding: Rs\. [\d,.]*\d\.",
        "You now owe nothing on this card.",
        text_at(trace, at),
    )
    problems = failed(task, say(trace, at, text))
    if zero:
        assert problems == {}, problems
    else:
        assert "never told remaining outstanding" in str(problems.get("required_outputs")), problems
