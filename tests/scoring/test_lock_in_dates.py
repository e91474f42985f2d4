"""scoring/lock_in_dates.py: the end of a lock-in told as a date is the records' (a tax-saver
FD's start plus 5 years, its maturity date), as precisely as it is told (hunt round 5: "It stays
locked until December 2026" for a deposit locked until December 2028 passed 8 of 8). Known gap:
a year alone ("from 2027 onwards") agrees with any record's date after today in that year (the
customer's other deposits)."""

from __future__ import annotations

from datetime import date

import pytest

from pytest_bankbench.simulation.trace import ToolEvent
from tests.scoring.sessions import first_of, gold, said_last

_MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September",
           "October", "November", "December"]  # fmt: skip


def _maturity() -> date:
    """The tax-saver deposit's maturity date in the first tax-saver task's gold session."""
    task = first_of("tax_saver_lock_in")
    for event in gold(task.task_id).events:
        if isinstance(event, ToolEvent) and event.call.name == "get_deposit_details":
            assert isinstance(event.output, dict)
            return date.fromisoformat(event.output["maturity_date"])
    raise AssertionError("no deposit read")


@pytest.mark.parametrize(
    ("said", "wrong"),
    [
        ("It stays locked until {month} {early}.", True),
        ("It becomes withdrawable in {month} {early}, after 3 years.", True),
        ("It stays locked until {month} {year}.", False),
        ("It stays locked until {day} {month} {year}.", False),
        ("You can withdraw it from {year} onwards, once it matures.", False),
        ("It can't be closed before {month} {day}, {year}.", False),
        ("Since the lock-in is 5 years, you can close it from {month} {year}.", False),
    ],
)
def test_a_lock_in_s_end_is_the_records(said: str, wrong: bool) -> None:
    end = _maturity()
    words = said.format(
        day=end.day,
        month=_MONTHS[end.month - 1],
        year=end.year,
        early=end.year - 2,
        before=end.year - 1,
    )
    problems = said_last(first_of("tax_saver_lock_in"), words)
    evidence = " ".join(problems.get("told_customer", []))
    assert ("told the end of a lock-in as" in evidence) is wrong, problems


def test_a_loan_s_lock_in_ends_after_its_twelfth_emi() -> None:
    """A personal loan disbursed in December 2025 can be foreclosed from December 2026 (12
    EMIs); "from July 2026" fails."""
    task = first_of("personal_loan_lock_in")
    assert said_last(task, "You can foreclose it from December 2026, once 12 EMIs are paid.") == {}
    problems = said_last(task, "You can prepay it from July 2026.")
    assert "told the end of a lock-in as july 2026" in " ".join(problems["told_customer"])
