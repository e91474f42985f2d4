"""The passages a told value may come from: a clause of the policy (`F.24`) or a knowledge-base
article, and the figures of each kind written in them (issue 17, item 3).

A rule of the policy or an article's answer is held by no record, but it is written in one
place: the replacement fee of policy F.24, the TDS rate of article 07. A source naming that
passage (and, where the passage writes several figures of the value's kind, the phrase `near`
the figure follows) is checked by reading the figure there, and only there: the same figure
elsewhere in the policy does not count. A word or a name (a form, "permanent") is not read but
found: as whole words in the passage, or in the line of it that holds `near`. The gold agent reads the figure the same way from the
passage as its own prompt (the policy) or its own search results (an article) show it.
"""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation
from functools import cache

from pytest_bankbench.bank.knowledge import documents
from pytest_bankbench.paths import data_dir

_SECTION = re.compile(r"^## ([A-Z])\. ")
_CLAUSE = re.compile(r"^(\d+)\. (.*)")
_AMOUNT = re.compile(r"(?:Rs\.?|₹|INR)\s*(\d[\d,]*(?:\.\d+)?)")
_PERCENT = re.compile(r"(\d+(?:\.\d+)?)\s*%")
_INTEGER = re.compile(r"(?<![\w.,-])(\d+)(?![\w%]|[.,]\d)")
_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
NUMERIC = ("amount", "percent", "count")


def clauses(policy: str) -> dict[str, str]:
    """The numbered clauses of a policy text by id ("F.24"): each clause's text, its sub-points
    included, without its number."""
    found: dict[str, list[str]] = {}
    section = ""
    current: list[str] | None = None
    for line in policy.splitlines():
        if heading := _SECTION.match(line):
            section, current = heading[1], None
        elif line.startswith("#"):
            section, current = "", None  # a heading without a letter (the quick reference)
        elif (numbered := _CLAUSE.match(line)) and section:
            current = found.setdefault(f"{section}.{numbered[1]}", [numbered[2]])
        elif current is not None and line.startswith(" "):
            current.append(line.strip())
        elif line.strip():
            current = None
    return {clause: "\n".join(lines) for clause, lines in found.items()}


@cache
def policy_clauses() -> dict[str, str]:
    """The shipped policy's clauses (task_data/policy.md)."""
    return clauses((data_dir() / "policy.md").read_text(encoding="utf-8"))


@cache
def article_ids() -> tuple[str, ...]:
    """The ids of the shipped knowledge-base articles ("15-lost-or-stolen-card")."""

    return tuple(doc.doc_id for doc in documents())


def article_text(doc_id: str) -> str | None:

    return next((doc.text for doc in documents() if doc.doc_id == doc_id), None)


def figures(kind: str, text: str) -> list[str]:
    """The values of a kind written in a text, in order: an amount after a currency sign
    ("Rs 2,00,000" -> "200000"), a percentage, a whole number standing alone (a count: "7
    working days"; not a part of "24x7", "DA-3" or an amount), an ISO date."""
    if kind == "amount":
        return [m.replace(",", "") for m in _AMOUNT.findall(text)]
    if kind == "percent":
        return _PERCENT.findall(text)
    if kind == "count":
        taken = [m.span() for m in (*_AMOUNT.finditer(text), *_PERCENT.finditer(text))]
        return [
            m[1]
            for m in _INTEGER.finditer(text)
            if not any(start <= m.start() < end for start, end in taken)
        ]
    if kind == "date":
        return _DATE.findall(text)
    return []


def _equal(kind: str, one: str, other: str) -> bool:
    try:
        return Decimal(one) == Decimal(other)
    except InvalidOperation:
        return kind == "date" and one == other


def _after(text: str, near: str | None) -> str | None:
    """The text from the phrase `near` on (the whole text without one); None when absent."""
    if not near:
        return text
    at = text.casefold().find(near.casefold())
    return None if at < 0 else text[at + len(near) :]


def figure(kind: str, text: str, near: str | None) -> str | None:
    """The figure of a kind the passage gives for a value: the first after `near`, or without
    `near` the passage's only distinct one (None when it writes none, or several)."""
    tail = _after(text, near)
    if tail is None:
        return None
    found = figures(kind, tail)
    if not found:
        return None
    if near or all(_equal(kind, found[0], other) for other in found):
        return found[0]
    return None


def holds(kind: str, value: str, text: str, near: str | None) -> bool:
    """The passage writes a value that is not a figure (a word, a form's name) as whole words,
    ignoring case, in the line holding `near` when there is one (a table row: "| Form 15H |
    Resident senior citizens ..."); digits end a number written there."""
    if near:
        at = text.casefold().find(near.casefold())
        if at < 0:
            return False
        start = text.rfind("\n", 0, at) + 1
        end = text.find("\n", at)
        text = text[start : end if end >= 0 else len(text)]
    if kind == "digits":
        return bool(re.search(rf"{re.escape(value)}(?!\d)", text))
    return bool(re.search(rf"(?<!\w){re.escape(value)}(?!\w)", text, re.IGNORECASE))


def passage_problem(kind: str, value: str, text: str, near: str | None, where: str) -> str | None:
    """Why the passage `where` does not give the value, or None: `near` is not in it, or the
    figure it gives there is another (or it gives several, and `near` must say which)."""
    if near and _after(text, near) is None:
        return f"{where} has no {near!r} for the value to follow"
    if kind not in NUMERIC and kind != "date":
        if holds(kind, value, text, near):
            return None
        return f"{where} does not say {value!r}" + (f" beside {near!r}" if near else "")
    found = figure(kind, text, near)
    if found is None:
        written = sorted(set(figures(kind, _after(text, near) or "")))
        if not written:
            return f"{where} writes no {kind}" + (f" after {near!r}" if near else "")
        return (
            f"{where} writes several of kind {kind} ({', '.join(written)}); name the phrase the "
            "value follows with `near`"
        )
    if _equal(kind, found, value):
        return None
    after = f" after {near!r}" if near else ""
    return f"{kind} {value} is not what {where} says{after}: {found}"
