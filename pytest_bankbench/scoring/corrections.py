"""A value told, then corrected to another figure of its quantity, is not told (J.36, J.38).

Careless-agent trial (issue 16): "Balance after: Rs 11,58,659.12. Correction: your balance
after is now Rs 11,68,659.12"; "Rate: 6.50% p.a. Sorry, correction: for this tenure the interest
rate is 3.50% p.a." The readers (outputs.py) find the value in the message; with the quantity's
label (a required output's, a write's reported field) `told` also reads whether a later
sentence takes it back. Only amounts, dates and percentages: a choice has its own rivals rule.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
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
    """outputs.told, where a message that corrects the value (`retracted`) tells it no more."""
    if label is None or kind not in _RIVALLED:
        return told_anywhere(kind, value, messages, unit=unit, rivals=rivals)
    for text in messages:
        if told_anywhere(kind, value, [text], unit=unit, rivals=rivals) and not retracted(
            kind, value, label, text
        ):
            return True
    return False


# A value said, then corrected (careless-agent trial, issue 16): "Balance after: Rs 11,58,659.12.
# Correction: your balance after is now Rs 11,68,659.12", "Sorry, correction: for this tenure
# the interest rate is 3.50% p.a." After the sentence that tells it, a correction word
# ("correction", "actually", "to be clear", "is now") opens the correction, to the message's
# end; there, the quantity stated (every word of its label's that names it, then "is", ":",
# "of", "now", "at" or "to" within three qualifying words) at another figure of its kind, and
# not at the value, takes it back. Careful wordings state no correction: "Your balance was Rs
# 5,000 and is now Rs 4,000", "Old EMI Rs 10,000; new EMI Rs 8,000", "Rs 1,18,985.13 (about Rs
# 1.19 lakh)", "Available balance: Rs 5,000. Your balance is now Rs 5,200" (another quantity).
_RIVALLED = frozenset({"amount", "date", "percent"})
_CORRECTS: tuple[str, ...] = ("correct", "actually", "misspoke", "meant", "to be clear", "mistake")
_CORRECTS += ("typo", "is now", "are now")
_SENTENCE_END = re.compile(r"(?<![Rr]s\.)(?<=[.!?])\s+|\n+")
_GENERIC = frozenset({"after", "before", "amount", "date", "the", "your", "new", "total"})
_GENERIC |= {"daily", "time", "transfer", "closure", "fee", "sent", "today", "own", "latest"}


@lru_cache(maxsize=_RECENT)
def retracted(kind: OutputKind, value: str, label: str, text: str) -> bool:
    """`text` tells the value, then a correction states its quantity at another figure."""
    plain = clean(text)
    if not any(k in plain for k in _CORRECTS):  # most messages: no pattern run
        return False
    heads = [w for w in _WORD.findall(label.lower().replace("_", " ")) if w not in _GENERIC]
    if not heads:
        return False
    stated = _stated(tuple(heads))
    told_yet = correcting = False
    for sentence in _SENTENCE_END.split(plain):
        if not told_yet:
            told_yet = said(kind, value, sentence)
            continue
        correcting = correcting or any(k in sentence for k in _CORRECTS)
        if not correcting or not all(h in sentence for h in heads):
            continue
        for m in stated.finditer(sentence):
            rest = sentence[m.end() : m.end() + 40]
            if not said(kind, value, rest) and _states_any(kind, rest):
                return True
    return False


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
    r"|interest|closure|transfer|payment|prepayment|p\.a\.|payable|paid|sent|will|be|would|new)"
)


def _states_any(kind: OutputKind, text: str) -> bool:
    """`text` (lower case) opens with a figure of the kind: an amount marked as rupees, a date,
    a percentage."""
    if kind == "percent":
        return _PERCENT_AT.match(text.lstrip()) is not None
    if kind == "date":
        return any(start <= 3 for start, _, _ in dates_in(text))
    return any(marked for _, marked, _ in amounts_in(clean(text[:25])))
