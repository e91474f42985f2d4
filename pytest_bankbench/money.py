"""Money as integer paise: conversion, Indian formatting, and amounts found in text."""

from __future__ import annotations

import re
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation

PAISE_PER_RUPEE = 100
_TWO_PLACES = Decimal("0.01")


def to_paise(rupees: Decimal | int | str) -> int:
    """Convert rupees (Decimal, int or numeric string) to integer paise, rounding half up."""
    value = Decimal(str(rupees)).quantize(_TWO_PLACES, rounding=ROUND_HALF_UP)
    return int(value * PAISE_PER_RUPEE)


def to_rupees(paise: int) -> Decimal:
    """Integer paise as a Decimal of rupees with two places."""
    return (Decimal(paise) / PAISE_PER_RUPEE).quantize(_TWO_PLACES)


def round_paise(value: Decimal) -> int:
    """Round a Decimal amount of paise to whole paise, half up."""
    return int(value.quantize(Decimal(1), rounding=ROUND_HALF_UP))


def plain(paise: int) -> str:
    """Plain rupee string as tools return it: '200000.00'."""
    return f"{to_rupees(paise):.2f}"


# Integer columns of the bank's tables that hold paise: what a person reads of them is rupees.
PAISE_FIELDS = frozenset(
    {
        "amount",
        "balance",
        "balance_after",
        "credit_limit",
        "daily_limit",
        "emi",
        "hold_amount",
        "instalment",
        "minimum_due",
        "outstanding",
        "payout",
        "principal",
    }
)


def _grouped(whole: int) -> str:
    """Whole rupees in Indian digit grouping: 1,23,45,678."""
    digits = str(whole)
    if len(digits) <= 3:
        return digits
    head, tail = digits[:-3], digits[-3:]
    groups: list[str] = []
    while len(head) > 2:
        groups.insert(0, head[-2:])
        head = head[:-2]
    if head:
        groups.insert(0, head)
    return ",".join([*groups, tail])


def indian(paise: int) -> str:
    """Indian digit grouping with the rupee prefix: 'Rs. 2,00,000.50' (paise shown when non-zero)."""
    sign = "-" if paise < 0 else ""
    whole, frac = divmod(abs(paise), PAISE_PER_RUPEE)
    return f"{sign}Rs. {_grouped(whole)}" + (f".{frac:02d}" if frac else "")


def rupees(paise: int) -> str:
    """An amount as every report shows it to a person: 'Rs 95,648.19', 'Rs 1,30,867.00'."""
    sign = "-" if paise < 0 else ""
    whole, frac = divmod(abs(paise), PAISE_PER_RUPEE)
    return f"{sign}Rs {_grouped(whole)}.{frac:02d}"


def shown_value(field: str, value: object) -> str:
    """A stored field's value as a person reads it: paise fields in rupees, the rest as repr."""
    if field in PAISE_FIELDS and isinstance(value, int) and not isinstance(value, bool):
        return rupees(value)
    return repr(value)


def lakh_words(paise: int) -> str:
    """Spoken form a customer would use: '2 lakh', '1.5 crore', or the Indian figure."""
    rupees = to_rupees(paise)
    for unit, size in (("crore", Decimal(10_000_000)), ("lakh", Decimal(100_000))):
        if rupees >= size and (rupees / size * 100) % 1 == 0:
            number = (rupees / size).normalize()
            return f"{number:f} {unit}"
    return indian(paise)


# International grouping first (1,000,000), then Indian (10,00,000), then plain digits; a number
# may follow "Rs." directly, but the digits after a decimal point or comma are not a new number.
# Its first digit looked for first: the engine leaves the other positions after one test.
_NUMBER = re.compile(
    r"(?=\d)(?<!\w)(?<!\d[.,])(\d{1,3}(?:,\d{3})+(?![\d,])|\d{1,3}(?:,\d{2})*,\d{3}(?![\d,])|\d+)"
    r"(\.\d+)?"
    r"(?:\s*(lakhs?|lacs?|crores?|cr|k)\b)?",
    re.IGNORECASE,
)
_DIGIT = re.compile(r"\d")
_SCALE = {"lakh": 100_000, "lac": 100_000, "crore": 10_000_000, "cr": 10_000_000, "k": 1_000}


def amounts_in(text: str) -> set[Decimal]:
    """Every number in a text, read in Indian or international grouping, with lakh/crore words."""
    found: set[Decimal] = set()
    if _DIGIT.search(text) is None:  # every number opens with a digit; many texts hold none
        return found
    for match in _NUMBER.finditer(text):
        whole, frac, unit = match.group(1), match.group(2) or "", match.group(3)
        try:
            value = Decimal(whole.replace(",", "") + frac)
        except InvalidOperation:  # pragma: no cover - the pattern admits only digits
            continue
        if unit:
            key = unit.lower().rstrip("s")
            value *= _SCALE.get(key, 1)
        found.add(value.normalize())
    return found


def mentions_amount(text: str, expected: Decimal) -> bool:
    """True when `expected` (rupees) appears in the text in any accepted number format."""
    target = expected.normalize()
    return any(value == target for value in amounts_in(text))


# Amounts said in words ("five thousand rupees", "one lakh fifty thousand", "a lakh"), as a voice
# agent or a careful writer says them: a run of number words holding a scale word, opening with
# a number ("a"/"an" only before a scale word). "A few thousand", "thousands of", "lakhs of
# customers" open with no number and name none; "five" alone is a count, not an amount.
_UNITS = [
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
]
_TENS = ["twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]
_WORD_VALUE = {w: n for n, w in enumerate(_UNITS)} | {w: 10 * (n + 2) for n, w in enumerate(_TENS)}
NUMBER_WORDS: dict[str, int] = (
    _WORD_VALUE  # "zero" .. "ninety" (scoring/rule_figures.py reads counts)
)
_WORD_SCALE = {"thousand": 1_000, "lakh": 100_000, "lakhs": 100_000, "lac": 100_000}
_WORD_SCALE |= {"lacs": 100_000, "crore": 10_000_000, "crores": 10_000_000, "million": 1_000_000}
_NUMBER_WORD = "|".join(sorted([*_WORD_VALUE, "hundred", *_WORD_SCALE], key=len, reverse=True))
_SPOKEN = re.compile(
    rf"(?<![\w-])(?:(?:an?[\s-]+)(?=(?:hundred|{'|'.join(_WORD_SCALE)})\b)|(?=(?:{'|'.join(_WORD_VALUE)})\b))"
    rf"(?:{_NUMBER_WORD})(?:(?:[\s-]+(?:and[\s-]+)?)(?:{_NUMBER_WORD}))*(?![\w-])"
)
# The scale words' common opening letters, looked for before the pattern is tried (most texts
# hold none of them).
_SCALE_HINT = re.compile(r"hundred|thousand|la(?:kh|c)|crore|million")


def spoken_amounts(lowered: str) -> tuple[tuple[Decimal, int, int], ...]:
    """Each amount said in words in a lower-case text: its value and its span. A scale as large
    as the one before it opens another amount ("five thousand and ten thousand" is two)."""
    if _SCALE_HINT.search(lowered) is None:
        return ()
    found: list[tuple[Decimal, int, int]] = []
    for m in _SPOKEN.finditer(lowered):
        total = current = last = 0  # last: the last scale said ("hundred" is none)
        # The amount's start, its last group's, its end, and the end of its last scale word.
        start = group = end = closed = m.start()
        scaled = False
        for word in _WORD.finditer(lowered, m.start(), m.end()):
            value = word.group()
            if value in _WORD_VALUE or value in ("a", "an"):
                if not current:
                    group = word.start()
                current += _WORD_VALUE.get(value, 0)
            elif value == "hundred":
                current, scaled = (current or 1) * 100, True
            elif (scale := _WORD_SCALE.get(value, 0)) != 0:
                if last and scale >= last:  # a second amount begins at this group
                    found.append((Decimal(total), start, closed))
                    total, start = 0, group
                total, current, last, scaled = total + (current or 1) * scale, 0, scale, True
                end = closed = word.end()
                continue
            else:
                continue  # "and"
            end = word.end()
        if scaled:  # "five" alone is no amount
            found.append((Decimal(total + current), start, end))
    return tuple(found)


_WORD = re.compile(r"[a-z]+")
