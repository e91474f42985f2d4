"""What a customer hears named in a text: amounts, accounts, transfer modes and terms.

The scripted customer (simulation/customer.py) matches its script's constraints in the agent's
words as heard here ("Rs. 2,00,000" and "2 lakh" are both 200000), and a proposal's values as
named here, to tell a proposal it asked for from one that names another account or amount.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from decimal import Decimal
from functools import lru_cache
from types import MappingProxyType

from pytest_bankbench.money import spoken_amounts

_SCALE = {"lakh": 100_000, "lac": 100_000, "crore": 10_000_000, "k": 1_000}
# A number starts where no digit or point comes before it: a long run of digits is tried once,
# not from each of its positions (which costs the square of its length).
_SCALED = re.compile(r"(?<![\d.])(\d+(?:\.\d+)?)\s*(lakh|lac|crore|k)s?\b")


@lru_cache(maxsize=4096)
def heard(text: str) -> str:
    """Text as constraints are matched in it: lower case, digits without separators, lakh and
    crore spelled out as digits, no currency words ("Rs. 2,00,000" -> "200000")."""
    text = re.sub(r"(?<=\d),(?=\d)", "", _in_digits(text.lower()))
    text = _SCALED.sub(lambda m: f"{Decimal(m[1]) * _SCALE[m[2]]:f}".split(".")[0], text)
    text = re.sub(r"\b(rs|inr|rupees?)\b", " ", text)
    text = re.sub(r"(?<!\d)\.|\.(?!\d)", " ", text)
    return " " + " ".join(re.sub(r"[^0-9a-z.%]+", " ", text).split()) + " "


def _in_digits(lowered: str) -> str:
    """Amounts said in words written in digits ("five thousand rupees" -> "5000 rupees"): heard
    as the figure is."""
    for amount, start, end in reversed(spoken_amounts(lowered)):
        lowered = f"{lowered[:start]}{amount}{lowered[end:]}"
    return lowered


def was_said(phrase: str, transcript: str) -> bool:
    """The phrase occurs in the (heard) transcript as whole words or a whole number."""
    wanted = heard(phrase).strip()
    return bool(wanted) and bool(
        re.search(rf"(?<![0-9a-z.]){re.escape(wanted)}(?![0-9a-z])", transcript)
    )


_ENDING = re.compile(
    # A mask run is taken whole from its start (possessive): tried from each of its letters it
    # would cost the square of its length.
    r"\b(?:ending|ends)\s*(?:in|with)?\s*[x*•.]*+\s*(\d{4})\b"
    r"|(?<![x*•])[x*•]{2,}+\s?(\d{4})\b|(?<!\.)\.{3,}+\s?(\d{4})\b",
    re.IGNORECASE,
)
_ACCOUNT_NUMBER = re.compile(
    r"\b(?:account|a/c|acct)\.?(?:\s+(?:number|no\.?))?(?:\s+is)?\s*:?\s*(\d{9,18})\b",
    re.IGNORECASE,
)
_MODE = re.compile(r"\b(neft|imps|rtgs)\b", re.IGNORECASE)
_AMOUNT = re.compile(r"(?:\brs\.?|₹|\binr|\brupees)\s*(\d+(?:\.\d+)?)", re.IGNORECASE)
_DAYS = re.compile(r"\b(\d{1,4})[\s-]*(days?|years?)\b", re.IGNORECASE)


@lru_cache(maxsize=4096)
def named(text: str) -> Mapping[str, frozenset[str]]:
    """The accounts (as last four digits), transfer modes, amounts and day counts a text names
    (cached: a script's own texts are read again at every proposal)."""
    plain = re.sub(r"(?<=\d),(?=\d)", "", _in_digits(text.lower()))
    scaled = {Decimal(m[1]) * _SCALE[m[2]] for m in _SCALED.finditer(plain)}  # "5 lakh" is money
    plain = _SCALED.sub(lambda m: f"{Decimal(m[1]) * _SCALE[m[2]]:f}".split(".")[0], plain)
    accounts = {next(g for g in m.groups() if g) for m in _ENDING.finditer(plain)}
    accounts |= {m[1][-4:] for m in _ACCOUNT_NUMBER.finditer(plain)}
    return MappingProxyType(
        {
            "account": frozenset(accounts),
            "mode": frozenset(m[1] for m in _MODE.finditer(plain)),
            "amount": frozenset(str(Decimal(m[1]).normalize()) for m in _AMOUNT.finditer(plain))
            | {str(value.normalize()) for value in scaled},
            # A term in years is its days ("1 year" is the 365 days a quote names).
            "days": frozenset(
                str(int(m[1]) * (365 if m[2].startswith("year") else 1))
                for m in _DAYS.finditer(plain)
            ),
        }
    )
