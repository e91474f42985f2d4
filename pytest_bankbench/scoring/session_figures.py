"""The amounts, counts and periods a session gave (its results, errors, arguments and the
customer's words), and the counts a text tells with their units: what a rule's figures may say as
the session's (scoring/rule_figures.py). Read only for a figure the policy does not give (few).
"""

from __future__ import annotations

import json
import re
from datetime import date
from decimal import Decimal
from fractions import Fraction
from functools import cached_property

from pytest_bankbench.scoring.dates_told import dates_in, task_day
from pytest_bankbench.scoring.grounded import numbers_in
from pytest_bankbench.scoring.outputs import amounts_in, clean
from pytest_bankbench.scoring.view import SessionView

# A count and its unit; the unit's first letters name it.
COUNT = re.compile(
    r"(?<![\d.,])(\d{1,4})(?:\s*|-)(?:(?:more|further|additional|full|working|business|calendar)\s+)?"
    r"(emis?|instal+ments?|years?|yrs?|months?|days?|hours?|hrs?|weeks?|wks?)\b(?!-old)"
)  # not "a 45-year-old"
UNITS = {"e": "emi", "i": "emi", "y": "year", "m": "month", "d": "day", "h": "hour", "w": "week"}


def same_period(count: Decimal, kind: str) -> list[tuple[Decimal, str]]:
    """The count, and the same period in the policy's other units ("3650 days (10 years)", "120
    months", "60 months" for 5 years, "365 days" for 12 months: a year is 365 days (rule 10) and
    12 months)."""
    if kind not in DAYS:
        return [(count, kind)]
    days = Fraction(count) * DAYS[kind]
    return [(count, kind)] + [
        (Decimal(same.numerator), unit)
        for unit, per in DAYS.items()
        if unit != kind and (same := days / per).denominator == 1
    ]


# A week is 7 days; hours are a clock's, no calendar or business day's (the cooling period "is
# based on the bank's business date, not on 24 hours from the time of adding": KB 09).
DAYS = {"year": Fraction(365), "month": Fraction(365, 12), "week": Fraction(7), "day": Fraction(1)}


class SessionFigures:
    """The amounts and counts the session gave: results, errors, arguments, the customer's words
    (a count in a result's field named for its unit: "tenure_days": 365, "emis_paid": 10), each
    read when first asked for."""

    def __init__(self, view: SessionView) -> None:
        self.view = view

    @cached_property
    def results(self) -> list[str]:
        """Each call's result and arguments as JSON, dumped once for the readings below."""
        return [json.dumps([c.event.output, c.event.call.arguments]) for c in self.view.calls]

    @cached_property
    def amounts(self) -> set[Decimal]:
        found: set[Decimal] = set()
        for call, raw in zip(self.view.calls, self.results, strict=True):
            found |= numbers_in(raw)
            found |= numbers_in(call.event.error or "")
        for message in self.view.messages:
            if message.role == "customer":
                found |= {a for a, _, _ in amounts_in(clean(message.text))}
        return found

    @cached_property
    def counts(self) -> set[tuple[Decimal, str]]:
        found: set[tuple[Decimal, str]] = set()
        for raw in self.results:
            for field, number in _FIELD.findall(raw):
                kind = next((k for part, k in _FIELDUNITS if part in field), None)
                if kind is not None:
                    found.add((Decimal(number), kind))
            # and said in a result's text ("within 90 days of the complaint": an article)
            found |= {(Decimal(n), UNITS[u[0]]) for n, u in COUNT.findall(raw.lower())}
        for message in self.view.messages:
            if message.role == "customer":
                lowered = clean(message.text)
                found |= {(Decimal(n), UNITS[u[0]]) for n, u in COUNT.findall(lowered)}
        return found

    @cached_property
    def dates(self) -> set[date]:
        """The dates the session's results and calls gave (a deposit's start and maturity)."""
        found: set[date] = set()
        for raw in self.results:
            for iso in _ISO.findall(raw):
                try:
                    found.add(date.fromisoformat(iso))
                except ValueError:
                    continue
        return found

    @cached_property
    def spans(self) -> set[tuple[Decimal, str]]:
        """The periods between the session's dates: from each date a result, a call or the
        customer gave to the task's day, and between two the customer gave, in days and in whole
        months and years either side (a deposit run 27 months 10 days has run 27 or 28 months)."""
        today = task_day()
        if today is None:
            return set()
        found = self.dates
        said = [
            d
            for m in self.view.messages
            if m.role == "customer"
            for *_, d in dates_in(clean(m.text))
        ]
        pairs = [(d, today) for d in found | {d for d in said if d}]
        pairs += [(a, b) for a in said for b in said if a and b and a < b]
        spans: set[tuple[Decimal, str]] = set()
        for a, b in pairs:
            a, b = min(a, b), max(a, b)
            months = (b.year - a.year) * 12 + b.month - a.month - (b.day < a.day)
            years, part = divmod(months, 12)
            spans |= {(Decimal(months), "month"), (Decimal(months + 1), "month")}
            spans |= {(Decimal(years), "year"), (Decimal(years + (part > 0)), "year")}
            spans.add((Decimal((b - a).days), "day"))
        return spans

    def spans_give(self, count: Decimal, kind: str, periods: set[tuple[Decimal, str]]) -> bool:
        """The count is a period between the session's dates, or what is between one and a
        period of the policy's ("another 33 months" of a 60-month lock-in run 27 months)."""
        spans = self.spans
        for same, unit in same_period(count, kind):
            had = {s for s, u in spans if u == unit}
            rule = {p for p, u in periods if u == unit}
            if same in had or any(same + s in rule for s in had):
                return True
            if any(same + r in had for r in rule):
                return True
        return False


_ISO = re.compile(r"\b(\d{4}-\d\d-\d\d)\b")
_FIELD = re.compile(r'"([a-z_]+)": "?(\d{1,4})\b')
_FIELDUNITS = (("emis", "emi"), ("days", "day"), ("months", "month"), ("years", "year"))
