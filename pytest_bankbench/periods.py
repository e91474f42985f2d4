"""A statement period as people say it: the days that bound it, read from the task's date.

`period_days(text, today)` is every bounding day a text names, for comparing a proposal's
period with the one the customer asked for (the scripted customer corrects a period it did not
ask for, issue 16):

- a full date ("1 January 2026", "01/01/2026", "2026-01-01") is itself;
- a day-and-month range whose year comes once, at its end ("1 Jan to 31 Mar 2026"): both days
  in that year (the start in the year before when its month comes later, "1 Nov to 28 Feb");
- a month range ("Jan-Mar 2026", "January to March 2026", "April 2025 to March 2026"): the
  first day of the first month and the last day of the last;
- a month alone ("for March 2026"): its first and last day;
- a period relative to today ("the last 3 months", "past six months", "last 90 days"): the
  same day that many months (or days) back, and today; "to today", "till date": today.

`named_periods(text)` is the (first, last) days of each period named as a whole ("Q1 2026", "FY
2025-26", "calendar year 2025", "H2 2025", "January 1 to December 31, 2025"): a proposal's
period said so is stated (scoring/consent.py).

`today` is the task's date (its `task_date`), never the clock. Accepted: "Jan-Mar 2026" names
1 January and 31 March 2026, the period "1 January 2026 to 31 March 2026". Refused: "for
February 2026" names 1 and 28 February, neither a day of that request; "the last 3 months" on
12 May 2026 names 12 February and 12 May 2026, not 1 January.
"""

from __future__ import annotations

import calendar
import re
from datetime import date, timedelta
from functools import lru_cache

from pytest_bankbench.bank.rules import add_months
from pytest_bankbench.records import dates_in, month_number

_NAME = (
    r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?"
    r"|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)(?![a-z])\.?"
)
_TO = r"\s*(?:-|–|—|to|till|until|through|thru)\s*"
_ORD = r"(?:st|nd|rd|th)?"
_DAY_RANGE = re.compile(
    rf"(?<!\d)(?P<d1>\d{{1,2}}){_ORD}\s+(?:of\s+)?(?P<m1>{_NAME}){_TO}"
    rf"(?P<d2>\d{{1,2}}){_ORD}\s+(?:of\s+)?(?P<m2>{_NAME}),?\s+(?P<y>\d{{4}})(?!\d)"
)
_FULL_DATE = re.compile(
    rf"(?<![\d/.-])\d{{4}}-\d{{1,2}}-\d{{1,2}}(?!\d)|(?<![\d/.-])\d{{1,2}}([/.-])\d{{1,2}}\1\d{{4}}"
    rf"(?!\d)|(?<!\d)\d{{1,2}}{_ORD}\s+(?:of\s+)?{_NAME},?\s+\d{{4}}(?!\d)"
    rf"|(?<![a-z]){_NAME}\s+\d{{1,2}}{_ORD},?\s+\d{{4}}(?!\d)"
)
_MONTH_RANGE = re.compile(
    rf"(?<![a-z\d])(?P<m1>{_NAME})(?:\s+(?P<y1>\d{{4}}))?{_TO}(?P<m2>{_NAME}),?\s+(?P<y2>\d{{4}})"
    r"(?!\d)"
)
_MONTH_ALONE = re.compile(rf"(?<![a-z\d])(?P<m>{_NAME}),?\s+(?P<y>\d{{4}})(?!\d)")
_NUMBERS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "nine": 9}
_NUMBERS |= {"twelve": 12, "eighteen": 18, "twenty-four": 24, "a": 1}
_RELATIVE = re.compile(
    r"\b(?:last|latest|past|previous|preceding)\s+(?P<n>\d{1,3}|"
    + "|".join(_NUMBERS)
    + r")\s+(?P<unit>months?|days?)\b"
)
_TO_TODAY = re.compile(r"\b(?:to|till|until|through|up to)\s+(?:today|date|now)\b")


def _last(year: int, month: int) -> date:
    return date(year, month, calendar.monthrange(year, month)[1])


def _blank(text: str, span: tuple[int, int]) -> str:
    return text[: span[0]] + " " * (span[1] - span[0]) + text[span[1] :]


@lru_cache(maxsize=1024)
def period_days(text: str, today: date) -> frozenset[date]:
    """Every day bounding a period the text names (see the module's rules)."""
    lowered = text.lower().replace("’", "'")
    found: set[date] = set()
    for m in list(_DAY_RANGE.finditer(lowered)):
        year, m1, m2 = int(m["y"]), month_number(m["m1"]), month_number(m["m2"])
        try:
            found |= {date(year - (m1 > m2), m1, int(m["d1"])), date(year, m2, int(m["d2"]))}
        except ValueError:
            continue
        lowered = _blank(lowered, m.span())
    for m in list(_FULL_DATE.finditer(lowered)):
        found |= dates_in(m.group())
        lowered = _blank(lowered, m.span())
    for m in list(_MONTH_RANGE.finditer(lowered)):
        m1, m2, y2 = month_number(m["m1"]), month_number(m["m2"]), int(m["y2"])
        y1 = int(m["y1"]) if m["y1"] else y2 - (m1 > m2)
        found |= {date(y1, m1, 1), _last(y2, m2)}
        lowered = _blank(lowered, m.span())
    for m in _MONTH_ALONE.finditer(lowered):
        year, month = int(m["y"]), month_number(m["m"])
        found |= {date(year, month, 1), _last(year, month)}
    for m in _RELATIVE.finditer(lowered):
        n = int(m["n"]) if m["n"].isdigit() else _NUMBERS[m["n"]]
        back = add_months(today, -n) if m["unit"].startswith("month") else today - timedelta(n)
        found |= {back, today}
    if _TO_TODAY.search(lowered):
        found.add(today)
    return frozenset(found)


# A period named as a whole (issue 16, post-merge hunt: a proposal so worded failed consent): a calendar quarter or half ("Q1
# 2026", "the first quarter of 2026", "H2 2025"), an Indian financial year ("FY 2025-26", "the
# financial year 2025-26": 1 April to 31 March), a calendar year ("calendar year 2025", "the
# whole of 2025"), and "January 1 to December 31, 2025" (period_days reads the day-first form).
_ORDINALS = {"first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3, "fourth": 4}
_ORDINALS |= {"4th": 4}
_QUARTER = re.compile(
    r"\bq([1-4])\s*(?:of\s+)?(\d{4})\b|\b(first|second|third|fourth|1st|2nd|3rd|4th) quarter"
    r" of (\d{4})\b"
)
_HALF = re.compile(r"\bh([12])\s*(\d{4})\b|\b(first|second) half of (\d{4})\b")
_FY = re.compile(r"\b(?:fy|f\.y\.|financial year)\s*(\d{4})\s*[-–/]\s*(\d{2}|\d{4})\b")
_YEAR = re.compile(r"\b(?:calendar year|the whole of|all of|the full year|the year)\s+(\d{4})\b")
_MONTH_DAY = (
    r"(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?"
    r"|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?\s+(\d{1,2})(?:st|nd|rd|th)?"
)
_US_RANGE = re.compile(
    rf"\b{_MONTH_DAY}\s*(?:to|-|–|—|through|till|until)\s*{_MONTH_DAY},?\s+(\d{{4}})\b"
)


def named_periods(lowered: str) -> list[tuple[date, date]]:
    """The (first, last) days of each period the text names as a whole."""
    found: list[tuple[date, date]] = []
    if "q" in lowered or "quarter" in lowered:
        for m in _QUARTER.finditer(lowered):
            n = int(m[1]) if m[1] else _ORDINALS[m[3]]
            year = int(m[2] or m[4])
            found.append((date(year, 3 * n - 2, 1), _last(year, 3 * n)))
    for m in _HALF.finditer(lowered) if "h" in lowered else ():
        n = int(m[1]) if m[1] else _ORDINALS[m[3]]
        year = int(m[2] or m[4])
        found.append((date(year, 6 * n - 5, 1), _last(year, 6 * n)))
    for m in _FY.finditer(lowered):
        start = int(m[1])
        end = int(m[2]) if len(m[2]) == 4 else start // 100 * 100 + int(m[2])
        if end == start + 1:
            found.append((date(start, 4, 1), date(end, 3, 31)))
    for m in _YEAR.finditer(lowered):
        found.append((date(int(m[1]), 1, 1), date(int(m[1]), 12, 31)))
    for m in _US_RANGE.finditer(lowered):
        year = int(m[5])
        try:
            found.append(
                (
                    date(year, month_number(m[1]), int(m[2])),
                    date(year, month_number(m[3]), int(m[4])),
                )
            )
        except ValueError:
            continue
    return found
