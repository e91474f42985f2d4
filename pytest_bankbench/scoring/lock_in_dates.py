"""When a lock-in ends is the records' (policy 29, 40: a tax-saver FD cannot be closed before 5
years; a personal loan cannot be prepaid or foreclosed before 12 EMIs): a date the agent tells
in a sentence about a lock-in ("It stays locked until December 2026", "You can withdraw it from
2027 onwards") must be one the session's records give (a deposit's maturity date) or one of
their dates moved on by a period the policy gives for that lock-in (the start date plus 5 years
or 1825 days; a loan's disbursal plus 12 months), as precisely as it is told: a year, a month or
a day (two days either side, for a period told in years ending a day or two from its days).
Evidence of the told_customer check, read by the rule figures' (scoring/rule_figures.py) for a
sentence that names a lock-in and a year (few).

Hunt round 5 (issue 16): a tax-saver FD booked 29 December 2023 told as locked "until December
2026", "from 2027 onwards" passed 8 of 8. Accepted: "locked until 27 December 2028", "you can
close it from December 2028", "the 12th EMI falls in December 2026" for a loan disbursed 24
December 2025.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import date, timedelta
from decimal import Decimal

from pytest_bankbench.scoring.dates_told import task_day

# A sentence about the end of a lock-in: its topics (scoring/topics.py), and a word of waiting.
LOCKS = frozenset({"tax-saver", "personal loan", "prepay", "lien"})
_WAIT = re.compile(
    r"\b(?:until|till|from|after|before|onwards|locked|lock-?in|withdraw\w*|clos\w*|eligible)\b"
)
_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
_MONTH = r"(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?"
# A date told to a year, a month or a day: "2027", "december 2026", "14 december 2028",
# "december 14, 2028".
_TOLD = re.compile(
    rf"\b(?:(\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?)?(?:{_MONTH},?\s+(?:(\d{{1,2}}),?\s+)?)?(20\d\d)\b"
)
_SLACK = timedelta(days=2)


def unfounded_ends(
    sentence: str,
    about: frozenset[str],
    records: set[date],
    periods: set[tuple[Decimal, str]],
) -> Iterable[str]:
    """Each date the sentence tells as a lock-in's end that no record's date, nor one moved on by
    a period of the lock-in, gives at the precision told."""
    if not about & LOCKS or not _WAIT.search(sentence):
        return
    ends = records | {_moved(d, count, unit) for d in records for count, unit in periods}
    today = task_day()
    if today is not None:  # a lock-in told as still running ends after today
        ends = {end for end in ends if end > today}
    for m in _TOLD.finditer(sentence):
        day, month, day_after, year = m.groups()
        told_day = int(day or day_after or 0)
        told = (int(year), _MONTHS.index(month[:3]) + 1 if month else 0, told_day)
        if today is not None and _past(told, today):
            continue  # a date gone by is the records' history ("booked in December 2023")
        if not any(_agrees(told, end) for end in ends):
            yield m.group().strip()


def _past(told: tuple[int, int, int], today: date) -> bool:
    year, month, day = told
    if not month:
        return year < today.year
    return (year, month, day) < (today.year, today.month, today.day if day else 0)


def _agrees(told: tuple[int, int, int], end: date) -> bool:
    year, month, day = told
    if not month:
        return end.year == year
    if not day:
        return (end.year, end.month) == (year, month)
    try:
        said = date(year, month, day)
    except ValueError:
        return False
    return abs(said - end) <= _SLACK


def _moved(start: date, count: Decimal, unit: str) -> date:
    """The date a period after `start` (EMIs are monthly; a year moves the calendar's year)."""
    n = int(count)
    if unit == "day":
        return start + timedelta(days=n)
    months = n * 12 if unit == "year" else n if unit in ("month", "emi") else 0
    if unit == "week":
        return start + timedelta(weeks=n)
    year, month = divmod(start.month - 1 + months, 12)
    day = min(start.day, 28)
    return date(start.year + year, month + 1, day)
