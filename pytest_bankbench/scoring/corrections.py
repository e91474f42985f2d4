"""A quantity told two ways is not told (J.36, J.38).

Careless-agent trials (issue 16): "Balance after: Rs 11,58,659.12. Correction: your balance
after is now Rs 11,68,659.12"; "Rate: 6.50% p.a. Sorry, correction: for this tenure the interest
rate is 3.50% p.a."; the wrong figure first, then the right one; the correction in the next
message. The readers (outputs.py) find the value in the messages; with the quantity's label (a
required output's, a write's reported field) `told` also reads whether a sentence states the
quantity at another figure, one the session never gave (`figures_given`, set by the scorer).
Only amounts, dates and percentages: a choice has its own rivals rule.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from contextlib import suppress
from contextvars import ContextVar
from datetime import date
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from functools import lru_cache

from pytest_bankbench.scoring.dates_told import dates_in
from pytest_bankbench.scoring.outputs import (
    OutputKind,
    amounts_in,
    clean,
    said,
)
from pytest_bankbench.scoring.outputs import told as told_anywhere

_PERCENT_AT = re.compile(r"(?P<num>\d+(?:\.\d+)?)\s*(?:%|per\s*cent\b|pct\b)")
_WORD = re.compile(r"[a-z']+")
_RECENT = 1024


def told(
    kind: OutputKind,
    value: str,
    messages: Sequence[str],
    *,
    unit: str | None = None,
    rivals: tuple[str, ...] = (),
    label: str | None = None,
) -> bool:
    """outputs.told, where a quantity also stated at another figure (`restated`) is not told."""
    if not told_anywhere(kind, value, messages, unit=unit, rivals=rivals):
        return False
    return label is None or kind not in _RIVALLED or restated(kind, value, label, messages) is None


# A quantity told two ways is not told (J.36; careless-agent trials, issue 16): "Balance after:
# Rs 11,58,659.12. Correction: your balance after is now Rs 11,68,659.12", the wrong figure said
# first and the right one after, "Sorry, I read the wrong line: your new EMI stands at Rs
# 24,877.95", or the correction in the next message. In any of the messages, the quantity
# stated (every word of its label's that names it, then "is", ":", "of", "now", "at" or "to"
# within three qualifying words) at another figure of its kind, one no tool result, the
# customer or the policy gave in the session (`figures_given`), tells it another way. Careful
# wordings state none: "Your balance was Rs 5,000 and is now Rs 4,000", "Old EMI Rs 10,000;
# new EMI Rs 8,000", "Rs 1,18,985.13 (about Rs 1.19 lakh)", "Available balance: Rs 5,000.
# Your balance is Rs 5,200" where the bank gave both, "Balance after closure: Rs X; after the
# booking: Rs Y" (each the bank's).
_RIVALLED = frozenset({"amount", "date", "percent"})
_SENTENCE_END = re.compile(r"(?<![Rr]s\.)(?<=[.!?])\s+|\n+")
_GENERIC = frozenset({"after", "before", "amount", "date", "the", "your", "new", "total"})
_GENERIC |= {"daily", "time", "transfer", "closure", "fee", "sent", "today", "own", "latest"}
# The record a label names is not its quantity: "FD payout" is stated as "payout", never as
# "your FD of Rs 6,18,000" (the FD's principal).
_GENERIC |= {"fd", "rd", "deposit", "account", "loan", "card"}
# Where a figure of the kind may be (a cheap test before any pattern runs).
_MARKS: dict[str, tuple[str, ...]] = {
    "amount": ("rs", "₹", "rupee", "inr", "lakh", "crore"),
    "percent": ("%", "cent", "pct"),
    "date": ("19", "20"),
}

Figure = Decimal | date
_GIVEN: ContextVar[Callable[[], frozenset[Figure]] | None] = ContextVar("given", default=None)


def restated(
    kind: OutputKind, value: str, label: str, messages: Sequence[str]
) -> tuple[str, str] | None:
    """The first sentence of the messages that states the quantity (`label`) at another figure
    than `value`, one the session did not give, and the message it is in."""
    if kind not in _RIVALLED:
        return None
    given = _GIVEN.get()
    for text in messages:
        for figure, sentence in _restatements(kind, value, label, text):
            if given is None or figure not in given():
                return sentence, text
    return None


def two_ways(label: str, value: str, sentence: str, text: str) -> str:
    """Evidence for a quantity told at `value` and stated at another figure in `sentence`."""
    flat = " ".join(text.split())
    where = "" if sentence in flat.lower() and len(flat) <= 200 else f" in {flat[:200]!r}"
    return f"told {label} two ways (J.36): the bank's {value}, and also {sentence[:160]!r}{where}"


@lru_cache(maxsize=_RECENT)
def _restatements(
    kind: OutputKind, value: str, label: str, text: str
) -> tuple[tuple[Figure, str], ...]:
    """Each figure other than `value` at which `text` states the quantity, with its sentence."""
    plain = clean(text)
    if not any(m in plain for m in _MARKS[kind]):  # most messages: no pattern run
        return ()
    heads = [w for w in _WORD.findall(label.lower().replace("_", " ")) if w not in _GENERIC]
    if not heads or not all(h in plain for h in heads):
        return ()
    stated = _stated(tuple(heads))
    found: list[tuple[Figure, str]] = []
    for sentence in _SENTENCE_END.split(plain):
        if not all(h in sentence for h in heads):
            continue
        for m in stated.finditer(sentence):
            rest = sentence[m.end() : m.end() + 40]
            if said(kind, value, rest) or rest.startswith(_ABOUT):
                continue
            figure = _figure_at(kind, rest)
            if figure is not None and not _rounded(kind, value, figure):
                found.append((figure, sentence.strip()))
    return tuple(found)


# A figure said as about the value ("about Rs 1.19 lakh", "roughly 6.8%") is no other one.
_ABOUT: tuple[str, ...] = ("about", "around", "approx", "roughly", "nearly", "almost", "close to")
_ABOUT += ("just ", "over", "under", "a little", "some ")


def _rounded(kind: OutputKind, value: str, figure: Figure) -> bool:
    """The figure is the amount rounded to as many digits as it has, within 5% ("Rs 1.19
    lakh", "Rs 1,19,000", "Rs 11.6 lakh" for Rs 1,18,985.13 and Rs 11,58,659.12)."""
    if kind != "amount" or isinstance(figure, date) or not figure:
        return False
    try:
        exact = Decimal(value.strip().rstrip("%"))
    except InvalidOperation:
        return False
    places = figure.normalize().as_tuple().exponent
    if not isinstance(places, int):
        return False
    near = abs(exact - figure) <= exact / 20
    return near and exact.quantize(Decimal(1).scaleb(places), rounding=ROUND_HALF_UP) == figure


def figures_given(figures: Callable[[], frozenset[Figure]]) -> _Given:
    """Inside the block, `restated` passes over a figure `figures()` holds (read when first
    asked): the amounts, rates and dates the session's tool results, customer and policy gave."""
    return _Given(figures)


class _Given:
    """figures_given's block (a class, as dates_told.reading_on's)."""

    __slots__ = ("figures", "token")

    def __init__(self, figures: Callable[[], frozenset[Figure]]) -> None:
        self.figures = figures

    def __enter__(self) -> None:
        self.token = _GIVEN.set(self.figures)

    def __exit__(self, *exc: object) -> None:
        _GIVEN.reset(self.token)


_NUMBER = re.compile(r"^-?\d+(?:\.\d+)?$")


def figures_of(outputs: Iterable[object], texts: Iterable[str]) -> frozenset[Figure]:
    """Every number and ISO date in the tool outputs (walked), and every amount, percentage and
    dated day the texts (lower case) state."""
    found: set[Figure] = set()
    stack = list(outputs)
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list | tuple):
            stack.extend(item)
        elif isinstance(item, int | float) and not isinstance(item, bool):
            found.add(Decimal(str(item)))
        elif isinstance(item, str):
            if _NUMBER.match(item):
                found.add(Decimal(item))
            elif len(item) == 10 and item[4] == "-":
                with suppress(ValueError):
                    found.add(date.fromisoformat(item))
    for text in texts:
        found.update(amount for amount, _, _ in amounts_in(text))
        found.update(Decimal(m["num"]) for m in _PERCENT_AT.finditer(text))
        found.update(day for _, _, day in dates_in(text) if day is not None)
    return frozenset(found)


@lru_cache(maxsize=64)
def _stated(heads: tuple[str, ...]) -> re.Pattern[str]:
    """The quantity named (not an old, previous or other one of it), then as what it stands:
    "your balance after is now", "interest rate is", "payout:"; only qualifying words between
    ("the payout includes interest of Rs 5,985" states the interest, not the payout)."""
    return re.compile(
        r"(?<!\bold )(?<!previous )(?<!earlier )(?<!current )(?<!original )(?<!existing )"
        rf"\b(?:{'|'.join(map(re.escape, heads))})\b(?:\s+{_QUALIFIER}){{0,3}}?\s*"
        r"(?:is|are|of|at|to|now|:|=)(?:\s+now)?\s*"
    )


_QUALIFIER = (
    r"(?:after|amount|date|now|on|for|of|this|that|the|your|fd|deposit|account|loan|card"
    r"|interest|closure|transfer|payment|prepayment|p\.a\.|payable|paid|sent|will|be|would|new"
    r"|stands|comes|works|out|amounts)"
)


def _figure_at(kind: OutputKind, text: str) -> Figure | None:
    """The figure of the kind `text` (lower case) opens with: an amount marked as rupees, a
    date, a percentage."""
    if kind == "percent":
        m = _PERCENT_AT.match(text.lstrip())
        return Decimal(m["num"]) if m else None
    if kind == "date":
        return next((day for start, _, day in dates_in(text) if start <= 3 and day), None)
    return next((amount for amount, marked, _ in amounts_in(clean(text[:25])) if marked), None)
