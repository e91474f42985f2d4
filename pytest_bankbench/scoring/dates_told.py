"""Dates a message tells: ISO, day-first numerals, a month's name with day and year, and a day
and month alone where the task's date makes the year plain. Read by scoring/outputs.py: the date
reader, and the amount reader, which takes dates out of a text before it reads figures.

Dates without a year ("matures on 14 March", "on 1st April"), read from the task's date:

A person hears a day and a month as the nearest one in the direction the value lies: a date
after the task's date (a maturity, a due date, a delivery) is the next 14 March on or after
it, a date before it (a transaction, an opening) the last one on or before it. So a yearless
date tells the value only when the value is that occurrence: within a year of the task's date.
Further away, the year is the news and must be said.

The day the bank is seen on is the task's `task_date`, never the wall clock: the scorer sets it
for the session it scores (`reading_on`); with none set, a date needs its year.

A two-digit year ("15/03/26", "15-Mar-26", "March 15, '26") is read the same way: its century
is the one that puts it nearest the task's date, so it too needs a task date.

A day said relative to the task's date ("today", "tomorrow", "the day after tomorrow",
"yesterday") is that day, read against the task's date, never the wall clock: "The cooling
period ends tomorrow" tells a cooling_period_until one day after it (careful-wording hunt,
issue 16: 10 of 10 failed J.38). A day said wrong ("ends in 3 days" of one a day away, "ends
today") tells no such date, and none is read with no task date set.

Accepted (task date 2026-03-10): "Your FD matures on 14 March." for 2026-03-14; "debited on 1st
April" for 2025-04-01; "15/03/26" or "15-Mar-26" for 2026-03-15. Refused: "matures on 14 March"
for 2027-03-14 (the next 14 March is 2026's); "14/03" (numerals without a year may be
month-first); "03/15/26" (numerals are day first) and "15 March 26" (the 26 may be a count); any
yearless date with no task date set.
"""

from __future__ import annotations

import re
from contextvars import ContextVar
from datetime import date
from functools import lru_cache

from pytest_bankbench.records import MONTHS, month_number


def _month(group: str) -> str:
    """A month's name or abbreviation, as the named group `group`."""
    return (
        rf"(?P<{group}>jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?"
        r"|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)(?![a-z])\.?"
    )


_ORDINAL = r"(?:st|nd|rd|th)?"
# Each pattern that opens with a lookbehind first looks ahead for the one character its match can
# begin with: the regex engine then leaves most positions after one test (the readers scan every
# message; the lookbehinds and optional groups tried at each position were most of their cost).
# Two forms share one pattern, so one scan of the text finds both: ISO and day-first numerals;
# a day before a month's name and a month's name before a day. The two of a pair never both
# match at one position and no match of one overlaps a match of the other (each opens where the
# other cannot: after a digit run of another length, at a digit or at a letter), so the one scan
# finds what a scan per form found.
_NUMERIC_DATE = re.compile(
    r"(?=\d)(?<![\d/.-])"
    r"(?:(?P<year>\d{4})(?P<sep>[-/.])(?P<num>\d{1,2})(?P=sep)(?P<day>\d{1,2})"
    r"|(?P<day2>\d{1,2})(?P<sep2>[-/.])(?P<num2>\d{1,2})(?P=sep2)(?P<year2>\d{4}))(?!\d)"
)
_NAMED_DATE = re.compile(
    r"(?=[\djfmasond])"
    rf"(?:(?=\d)(?<!\d)(?P<day>\d{{1,2}}){_ORDINAL}(?:\s*-\s*|\s+)(?:of\s+)?{_month('mon')}"
    r"(?:\s*-\s*|\s*,\s*|\s+)(?P<year>\d{4})(?!\d)"
    rf"|(?<![a-z]){_month('mon2')}\s+(?P<day2>\d{{1,2}}){_ORDINAL}(?:\s*,\s*|\s+)"
    r"(?P<year2>\d{4})(?!\d))"
)


@lru_cache(maxsize=1024)
def dates_in(text: str) -> tuple[tuple[int, int, date | None], ...]:
    """Every date-looking span (start, end, the date read day-first or None when invalid), the
    numeric forms first, each pair of forms in text order."""
    if _YEAR.search(text) is None:  # every form has a four-digit year; most messages none
        return ()
    found: list[tuple[int, int, date | None]] = []
    # Each scan starts where the first match may: no match opens before it, and the text before
    # it is never read (the lookbehinds still see it). A numeric date holds its hint at most
    # three characters in; a named one opens at a digit or a month's name opening a word.
    hint = _NUMERIC_HINT.search(text)
    for m in _NUMERIC_DATE.finditer(text, max(0, hint.start() - 3)) if hint else ():
        first = m["year"] is not None
        year, month, day = m.group(
            *(("year", "num", "day") if first else ("year2", "num2", "day2"))
        )
        found.append((m.start(), m.end(), _date(year, int(month), day)))
    month = _MONTH_NAME.search(text)  # the first month's name: one scan, not one per month
    if month is not None:  # the forms with a month's name need one
        digit = _DIGIT.search(text)
        opens = min(month.start(), digit.start()) if digit else month.start()
        for m in _NAMED_DATE.finditer(text, opens):
            first = m["year"] is not None
            year, name, day = m.group(
                *(("year", "mon", "day") if first else ("year2", "mon2", "day2"))
            )
            found.append((m.start(), m.end(), _date(year, month_number(name), day)))
    return tuple(found)


def _date(year: str, month: int, day: str) -> date | None:
    try:
        return date(int(year), month, int(day))
    except ValueError:
        return None


_YEAR = re.compile(r"\d\d{3}")  # \d{4}, opening with a class: scanned for it in C
# What every numeric date holds, a digit and separator and one or two digits and the same again
# ("4-05-0" of 2024-05-06, "5/06/2" of 05/06/2024): a decimal ("908.52") holds none.
_NUMERIC_HINT = re.compile(r"\d[-/.]\d\d?[-/.]\d")
_DIGIT = re.compile(r"\d")
_MONTH_NAME = re.compile(rf"(?<![a-z])(?:{'|'.join(MONTHS)})")  # opening a word


def said_date(value: str, text: str, unit: str | None, rivals: tuple[str, ...]) -> bool:
    """ISO, day-first numerals, or a month name with day and year; a day and month alone, or
    with a two-digit year, when the task's date makes the year plain (below)."""
    target = date.fromisoformat(value.strip())
    if any(found == target for _, _, found in dates_in(text)):
        return True
    on = task_day()
    if said_yearless(target, text, on) or target in short_year_dates(text, on):
        return True
    return on is not None and said_relative((target - on).days, text)


# A day from the task's date in words: today, tomorrow, the day after tomorrow, yesterday, the
# day before yesterday (the longer phrases taken before the words they hold).
_RELATIVE = re.compile(
    r"\b(?:(?:the\s+)?day\s+after\s+tomorrow|(?:the\s+)?day\s+before\s+yesterday|today"
    r"|tomorrow|yesterday)\b"
)
_RELATIVE_DAYS = {"today": 0, "tomorrow": 1, "yesterday": -1}
_HINTS = ("today", "tomorrow", "yesterday")


def said_relative(days: int, text: str) -> bool:
    """The day `days` from the task's date said in words ("tomorrow" for 1) in a lower-case
    text."""
    if not -2 <= days <= 2 or not any(h in text for h in _HINTS):  # most texts and days
        return False
    for m in _RELATIVE.finditer(text):
        word = m.group()
        told = _RELATIVE_DAYS.get(word, 2 if "after" in word else -2)
        if told == days:
            return True
    return False


# A two-digit year: day-first numerals ("15/03/26", "15.03.26"), a day and a month's name joined
# by hyphens ("15-Mar-26"), or a year after an apostrophe ("15 March '26", "March 15, '26"). A
# bare "15 March 26" is left out: the 26 may be a count that follows the date.
_SHORT_YEAR = re.compile(
    r"(?=[\djfmasond])"
    r"(?:(?<![\d/.-])(?P<day>\d{1,2})(?P<sep>[-/.])(?P<num>\d{1,2})(?P=sep)(?P<year>\d{2})"
    r"|(?<![\d/.-])(?P<day2>\d{1,2})"
    + _ORDINAL
    + r"(?:\s*-\s*|\s+)(?:of\s+)?"
    + _month("mon2")
    + r"(?:\s*-\s*|(?:\s*,\s*|\s+)')(?P<year2>\d{2})"
    r"|(?<![a-z])"
    + _month("mon3")
    + r"\s+(?P<day3>\d{1,2})"
    + _ORDINAL
    + r"(?:\s*,\s*|\s+)'(?P<year3>\d{2}))"
    r"(?![\d/]|[.-]\d)"
)

_SHORT_HINT = re.compile(r"[-/.']\s*\d\d(?!\d)")  # where every two-digit year is said


@lru_cache(maxsize=1024)
def short_year_dates(text: str, on: date | None) -> frozenset[date]:
    """Every date said with a two-digit year, its century the one that puts it nearest the
    task's date (`on`); none with no task date (a century is then a guess)."""
    if on is None or _SHORT_HINT.search(text) is None:
        return frozenset()
    found: set[date] = set()
    for m in _SHORT_YEAR.finditer(text):
        if m["day"] is not None:
            day, month, year = m["day"], int(m["num"]), m["year"]
        elif m["day2"] is not None:
            day, month, year = m["day2"], month_number(m["mon2"]), m["year2"]
        else:
            day, month, year = m["day3"], month_number(m["mon3"]), m["year3"]
        centuries = ((on.year // 100 + d) * 100 for d in (-1, 0, 1))
        full = min((c + int(year) for c in centuries), key=lambda y: abs(y - on.year))
        told = _date(str(full), month, day)
        if told is not None:
            found.add(told)
    return frozenset(found)


_ON: ContextVar[date | None] = ContextVar("bankbench_task_day", default=None)

# No number after it: "14 March 2026" and "March 14, 2026" are the full reader's (above),
# and "14 March '26" has a year this reader does not take for absent.
_NO_YEAR = r"(?!\s*[-,]?\s*'?\d)"
_YEARLESS = re.compile(
    r"(?=[\djfmasond])"
    r"(?:(?<![\d/.,-])(?P<day>\d{1,2})(?:st|nd|rd|th)?(?:\s*-\s*|\s+)(?:of\s+)?"
    + _month("mon")
    + _NO_YEAR
    + r"|(?<![a-z])"
    + _month("mon2")
    + r"\s+(?:the\s+)?(?P<day2>\d{1,2})(?:st|nd|rd|th)?(?![\d:.,/-]\d|\d)"
    + _NO_YEAR
    + ")"
)

_BEFORE_DATE = re.compile(
    r"(?:\b(?:on|by|from|till|until|before|after|since|to|due|dated|of)|[:,])\s*$"
)


def task_day() -> date | None:
    """The day the session being scored is seen on, or None outside a scoring."""
    return _ON.get()


def reading_on(day: date) -> _ReadingOn:
    """Yearless dates read against `day` (a task's task_date) inside the block."""
    return _ReadingOn(day)


class _ReadingOn:
    """reading_on's block: a class, not a generator's context manager (entered for every
    session scored, where contextmanager's machinery cost three times as much)."""

    __slots__ = ("day", "token")

    def __init__(self, day: date) -> None:
        self.day = day

    def __enter__(self) -> None:
        self.token = _ON.set(self.day)

    def __exit__(self, *exc: object) -> None:
        _ON.reset(self.token)


@lru_cache(maxsize=1024)
def day_months(text: str) -> tuple[tuple[int, int], ...]:
    """Every (month, day) said without a year in a lower-case text."""
    if not any(month in text for month in MONTHS):
        return ()
    found: list[tuple[int, int]] = []
    for m in _YEARLESS.finditer(text):
        name, day = (m["mon"], m["day"]) if m["day"] is not None else (m["mon2"], m["day2"])
        if name == "may" and m["day"] is None and not _BEFORE_DATE.search(text, 0, m.start()):
            continue  # "you may 3 times ...": the verb, unless a date's preposition leads it
        found.append((month_number(name), int(day)))
    return tuple(found)


def occurrence(month: int, day: int, on: date, forward: bool) -> date | None:
    """The next (month, day) on or after `on`, or the last on or before it; None when that day
    does not exist in the year it falls in (29 February)."""
    for year in (on.year, on.year + 1) if forward else (on.year, on.year - 1):
        try:
            found = date(year, month, day)
        except ValueError:
            return None
        if (found >= on) if forward else (found <= on):
            return found
    return None


def said_yearless(target: date, text: str, on: date | None) -> bool:
    """The target told as a day and month whose occurrence from `on` is the target."""
    if on is None:
        return False
    forward = target >= on
    return any(occurrence(month, day, on, forward) == target for month, day in day_months(text))
