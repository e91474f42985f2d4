"""Amounts told without a currency sign beside them, as real assistants write them.

Two forms the amount reader (scoring/outputs.py) takes as marked although no "Rs" or "₹" stands
next to the figure:

- a markdown table whose column header names the currency ("| Item | Amount (₹) |"): each figure
  in that column is in rupees, however small ("| Penalty | 79.07 |", "| Outstanding | 0 |");
- a zero said in words ("nothing is outstanding", "nil", "no foreclosure charge", "fully paid"),
  un-negated: Rs 0 told.

- a nil said of a named quantity ("no interest has accrued", "nil accrued interest", "interest
  accrued: nil"), for a zero that names its quantity (a value's `unit`, "interest"): there the
  general forms above are not enough, the nil must be said of that quantity.

Accepted: "| Remaining outstanding | 0 |" under "Amount (₹)"; "Your card bill is now fully
paid." for Rs 0.00; "No interest has accrued since your last EMI." for a nil interest accrued.
Refused: "| Penalty | 79.07 |" under "Value" (a bare figure under 100 may be anything); "It is
not fully paid yet." for Rs 0.00; "There is no foreclosure charge." or "Interest accrued is not
nil." for a nil interest accrued.
"""

from __future__ import annotations

import re
from functools import lru_cache

# A table's separator line: "|---|---:|" (the text is lower case here, as the readers see it).
_SEPARATOR = re.compile(r"^\s*\|?\s*:?-{3,}:?\s*(?:\|\s*:?-{3,}:?\s*)*\|?\s*$")
_CURRENCY_HEADER = re.compile(r"₹|\brs\b\.?|\binr\b|\brupees?\b")
_FIGURE = re.compile(r"(?<![\w.,])(?=\d)")
_ZERO = re.compile(
    r"(?:\bnil\b|(?:\b(?:is|are|now|at)|:)\s+zero\b"
    r"|\bno (?:\w+ )?(?:outstanding|dues?|charges?|fees?|penalty|amount due|balance due)\b"
    r"|\bnothing (?:is |remains |left |more )?(?:still )?(?:outstanding|due|owed|to pay|payable)\b"
    r"|\b(?:fully|completely) (?:paid|cleared|settled)\b|\bpaid (?:off )?in full\b)"
)
_NEGATORS = ("not", "never", "isn't", "hasn't", "wasn't", "aren't", "haven't", "yet")


def _cells(line: str) -> list[str]:
    inner = line.strip()
    inner = inner[1:] if inner.startswith("|") else inner
    inner = inner[:-1] if inner.endswith("|") else inner
    return inner.split("|")


def marked_columns(text: str) -> str:
    """The text with "₹" put before each figure of a table column whose header names the
    currency (the rest unchanged)."""
    if "|" not in text or "-" not in text:  # no table (most texts): nothing to keep in the memo
        return text
    return _marked_columns(text)


@lru_cache(maxsize=1024)
def _marked_columns(text: str) -> str:
    lines = text.split("\n")
    out = list(lines)
    for at in range(1, len(lines)):
        if not _SEPARATOR.match(lines[at]) or "|" not in lines[at - 1]:
            continue
        money = [bool(_CURRENCY_HEADER.search(h)) for h in _cells(lines[at - 1])]
        if not any(money):
            continue
        row = at + 1
        while row < len(lines) and "|" in lines[row]:
            cells = _cells(lines[row])
            cells = [
                _FIGURE.sub("₹", cell, count=1) if n < len(money) and money[n] else cell
                for n, cell in enumerate(cells)
            ]
            out[row] = "| " + " | ".join(c.strip() for c in cells) + " |"
            row += 1
    return "\n".join(out)


def says_zero(text: str) -> bool:
    """A zero said in words, un-negated (a "not" or "yet" among the three words before it)."""
    for m in _ZERO.finditer(text):
        before = re.findall(r"[a-z']+", text[max(0, m.start() - 40) : m.start()])[-3:]
        if not any(w in _NEGATORS or w.endswith("n't") for w in before):
            return True
    return False


@lru_cache(maxsize=64)
def _nil_of(quantity: str) -> re.Pattern[str]:
    """A nil said of the quantity: before it ("no interest", "nil accrued interest") or as its
    value after it ("interest accrued: nil", "accrued interest is zero")."""
    q = r"\s+".join(map(re.escape, quantity.lower().split()))
    return re.compile(
        rf"\b(?:no|nil|zero)\s+(?:(?:further|more|accrued|additional|outstanding)\s+)?{q}\b"
        rf"|\b{q}\b(?:\s+(?:accrued|due|payable|charged|so far|to date))?"
        r"\s*(?::|=|-|\bis\b|\bstands at\b|\bcomes to\b|\bamounts to\b)\s*"
        r"(?:(?:rs\.?|₹)\s*)?(?:nil|zero|none|0(?:\.0+)?)(?![\w.,]\d|\w)"
    )


def says_zero_of(text: str, quantity: str) -> bool:
    """A nil said of `quantity` ("no interest has accrued"), un-negated."""
    for m in _nil_of(quantity).finditer(text):
        words = re.findall(r"[a-z']+", text[max(0, m.start() - 40) : m.end()])
        if not any(w in _NEGATORS or w.endswith("n't") for w in words[-8:]):
            return True
    return False


# Clauses of a message: a sentence's end, a line, a comma before a space ("Rs. 0" is no end).
_CLAUSE = re.compile(r"(?<!rs)[.!?;](?=\s|$)|\n|,\s")


def clauses_naming(text: str, quantity: str) -> list[str]:
    """The clauses of the text that name the quantity ("| Interest accrued | ₹0.00 |")."""
    named = re.compile(rf"\b{re.escape(quantity.lower())}\b")
    return [piece for piece in _CLAUSE.split(text) if named.search(piece)]
