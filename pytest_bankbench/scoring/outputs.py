"""Whether the assistant told the customer a required value, read the way a person reads a chat."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from datetime import date
from decimal import Decimal, InvalidOperation
from functools import lru_cache
from typing import Literal

from pytest_bankbench.money import rupees, to_paise

# Amounts and raw tool output are read in their own modules; amounts_in and strip_raw are read
# from here too.
from pytest_bankbench.scoring.amounts import _amounts_in, _may_say
from pytest_bankbench.scoring.amounts import amounts_in as amounts_in
from pytest_bankbench.scoring.dates_told import said_date as _said_date
from pytest_bankbench.scoring.dates_told import task_day
from pytest_bankbench.scoring.plain_figures import (
    clauses_naming,
    marked_columns,
    says_zero,
    says_zero_of,
)
from pytest_bankbench.scoring.raw_output import strip_raw as strip_raw

OutputKind = Literal["amount", "date", "count", "percent", "choice", "digits", "text"]
Reader = Callable[[str, str, str | None, tuple[str, ...]], bool]

# Messages read lately: a session asks about each of its messages several times, a worker
# sees many sessions; more kept would be memory for hits that never come (issue 11, item 7).
_RECENT = 1024


_WORDS: tuple[str, ...] = ("zero", "one", "two", "three", "four", "five", "six", "seven")
_WORDS += ("eight", "nine", "ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen")
_WORDS += ("sixteen", "seventeen", "eighteen", "nineteen", "twenty")
_NUMBER_WORD = {word: n for n, word in enumerate(_WORDS)}
_TENS = {"twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety", "hundred"}
_NOT_ADJECTIVE = {"of", "or", "and", "to", "than", "per", "in", "out", "from", "for", "by", "x"}
_NOT_ADJECTIVE |= {"the", "a", "an", "hundred", "thousand", "lakh", "crore", *_WORDS}
_SYNONYMS = (
    frozenset({"emi", "emis", "instalment", "instalments", "installment", "installments"}),
    frozenset({"month", "months", "mo", "mos"}),
    frozenset({"year", "years", "yr", "yrs"}),
    frozenset({"working days", "working day", "business days", "business day"}),
    frozenset({"leaves", "leaf"}),  # a cheque book's size: "50 leaves", "a 50-leaf book"
)
# Its first digit looked for first: the engine leaves the other positions after one test.
_PERCENT = re.compile(r"(?=\d)(?<![\w.])(?<!\d,)(?P<num>\d+(?:\.\d+)?)\s*(?:%|per\s*cent\b|pct\b)")
_CLAUSE_BREAK = re.compile(
    r"[.,;:!?()\[\]\n–—]|\s-\s|\b(?:but|and|however|whereas|while|though|instead)\b",
)
_NEGATORS = {"not", "never", "no", "nor", "neither", "cannot", "without", "none"}
_WORD = re.compile(r"[a-z']+")


def _said_amount(value: str, text: str, unit: str | None, rivals: tuple[str, ...]) -> bool:
    """Rupees in any grouping or currency form, lakh/crore words, paise said apart; exact to
    the paisa; a figure in another currency ("$5,000") is none. A zero
    that names its quantity (`unit`: "interest") is told only of it: a nil said of it, or a 0
    in a clause that names it (scoring/plain_figures.py)."""
    target = Decimal(value.strip())
    if target == 0 and unit:
        return says_zero_of(text, unit) or any(
            found == 0 and marked
            for piece in clauses_naming(marked_columns(text), unit)
            for found, marked, _ in _amounts_in(piece)
        )
    if target == 0 and (says_zero(text) or _none_owed(text)):  # "nothing is outstanding"
        return True
    if target >= 1 and not _may_say(target, text):  # most messages a value is looked for in
        return False
    for found, marked, bare_ok in _amounts_in(marked_columns(text)):  # a loop, as in told()
        if found == target and (marked or (bare_ok and target >= 100)):
            return True
    return False


# Nothing left owed, in the words of a debt rather than of a figure (careful-wording hunt, issue
# 16: 6 of 6 credit_card_bill_payment failed "remaining outstanding: Rs 0"): "You now owe
# nothing on this card", "a zero outstanding balance", "Dues cleared in full", "Outstanding dues:
# none", "Your bill has been cleared in full". Beside plain_figures.says_zero's forms, read only
# for a zero; un-negated as those are ("your dues are not cleared yet" is none).
_NONE_OWED = re.compile(
    r"\bowe (?:us |the bank )?(?:nothing|zero)\b|\bno longer owe\b|\bnothing owed\b"
    r"|\bzero (?:outstanding|balance|dues?|amount due)\b"
    r"|\b(?:outstanding|dues?|balance)(?: dues| balance| amount)?\s*(?::|=|\bis\b|\bare\b)\s*none\b"
    r"|\b(?:bill|dues?|balance|outstanding)(?: amount)?(?: (?:has|have|is|are|was|were))?"
    r"(?: now)?(?: been)?(?: now)? (?:fully |completely )?cleared\b"
)
_OWED_HINTS = ("owe", "zero", "none", "cleared")


def _none_owed(text: str) -> bool:
    """A debt said to be nothing now, un-negated (no "not" or "yet" just before it)."""
    if not any(h in text for h in _OWED_HINTS):  # most messages
        return False
    for m in _NONE_OWED.finditer(text):
        before = _WORD.findall(text[max(0, m.start() - 30) : m.start()])[-3:]
        if not any(w in _NEGATORS or w.endswith("n't") or w == "yet" for w in before):
            return True
    return False


def _unit_forms(unit: str) -> set[str]:
    """The unit, its singular and plural, and its synonyms (EMIs = instalments)."""
    word = " ".join(unit.lower().split())
    stem = word[:-1] if word.endswith("s") else word
    forms = {word, stem, stem + "s"}
    if word.endswith("ies"):
        forms.add(word[:-3] + "y")
    for group in _SYNONYMS:
        if forms & group:
            forms |= group
    return forms


def _said_count(value: str, text: str, unit: str | None, rivals: tuple[str, ...]) -> bool:
    """The number (digits or a word up to twenty) followed by its unit, one adjective allowed,
    or joined to it by a hyphen ("a 7-day FD")."""
    target = int(value.strip())
    number = r"(?P<num>\d+|" + "|".join(_WORDS) + r")"
    if unit:
        forms = sorted(_unit_forms(unit), key=len, reverse=True)
        units = "|".join(r"\s+".join(map(re.escape, form.split())) for form in forms)
        # "50 leaves", "25 more leaves", or hyphened as an adjective: "a 50-leaf book".
        tail = rf"(?:(?:\s+(?P<mid>[a-z]+))?\s+|-)(?:{units})(?![\w-])"
    else:
        tail = r"(?![\w%-]|[.,/:]\d|\s*(?:per\s*cent|percent)\b)"
    pattern = re.compile(rf"(?<![\w.,/:-]){number}{tail}")  # the text is lower case
    for m in pattern.finditer(text):
        num = m["num"].lower()
        words_before = _WORD.findall(text[: m.start()].lower())
        if not num.isdigit() and words_before[-1:] and words_before[-1] in _TENS:
            continue
        if unit and m["mid"] and m["mid"].lower() in _NOT_ADJECTIVE:
            continue
        if (int(num) if num.isdigit() else _NUMBER_WORD[num]) == target:
            return True
    return False


def _said_percent(value: str, text: str, unit: str | None, rivals: tuple[str, ...]) -> bool:
    """A number followed by %, percent or per cent, compared numerically."""
    target = Decimal(value.strip().rstrip("%"))
    return any(Decimal(m["num"]) == target for m in _PERCENT.finditer(text))


@lru_cache(maxsize=_RECENT)
def _phrase(words: str) -> re.Pattern[str]:
    """A case-insensitive whole-word pattern for a phrase (spaces, hyphens or _ between words)."""
    parts = words.lower().split()
    body = r"[\s_-]+".join(map(re.escape, parts))
    # Its first letter looked for first: the engine leaves the other positions after one test.
    first = f"(?={re.escape(parts[0][0])})" if parts else ""
    return re.compile(rf"{first}(?<![\w-]){body}(?![\w-])")  # the text is lower case (_clean)


def _negated(text: str, start: int) -> bool:
    """A negator among the three words before `start` in the same clause."""
    breaks = [m.end() for m in _CLAUSE_BREAK.finditer(text, 0, start)]
    words = _WORD.findall(text[breaks[-1] if breaks else 0 : start].lower())[-3:]
    negator = any(w in _NEGATORS or w.endswith("n't") for w in words)
    return negator or "yet to" in " ".join(words)


def _said_choice(value: str, text: str, unit: str | None, rivals: tuple[str, ...]) -> bool:
    """The value said un-negated, and every rival said only negated (or not at all)."""
    spans = [(m.start(), m.end(), True) for m in _phrase(value).finditer(text)]
    if not spans:  # the value is not said at all: what rivals say does not matter
        return False
    for rival in rivals:
        spans += [(m.start(), m.end(), False) for m in _phrase(rival).finditer(text)]

    def inside_longer(s: int, e: int) -> bool:
        return any(s2 <= s and e <= e2 and e2 - s2 > e - s for s2, e2, _ in spans)

    real = [(s, e, own) for s, e, own in spans if not inside_longer(s, e)]
    value_said = any(own and not _negated(text, s) for s, _, own in real)
    return value_said and all(
        own or _negated(text, s) or not _asserted(text, s, e) for s, e, own in real
    )


# Words that make what follows them a statement about the record ("yours is pending", "status:
# active"); a rival elsewhere ("an FD needs full KYC") is not said about it.
_ASSERTING = frozenset({"is", "are", "was", "were", "be", "been", "it's", "its", "status", "shows"})
_ASSERTING |= {"showing", "currently", "now", "remains", "still", "marked", "as", "stands"}
_ASSERTING |= {"reads", "says"}


# Words that put what follows in the future or a condition: "it will be closed", "once it is
# resolved" say nothing of the record's status now (audit2).
_NOT_YET = frozenset(
    {"will", "would", "should", "shall", "may", "might", "once", "when", "until", "after", "if"}
)


# A rival said as the rule names what a record must be, not what this one is: "FDs need full
# KYC", "requires full KYC", "only for customers whose KYC is full" (a relative clause about
# such customers, not one opening its own clause: "your KYC, whose status is full"), or "full
# KYC is required" (lite kyc_blocks_new_fd: a careful refusal failed on the rule it stated).
_RULE_BEFORE = re.compile(
    r"\b(?:needs?|needed|requir(?:es?|ed|ing|ements?)|must|eligib\w*|only\s+(?:for|to))\b"
    r"|\w\s+whose\b"
)
_RULE_AFTER = frozenset({"required", "needed", "mandatory", "necessary", "must"})
# A word glossed in parentheses ("complete (full)"): the gloss stands where the word does.
_GLOSS = re.compile(r"[a-z]\s*\(\s*$")


def _asserted(text: str, start: int, end: int) -> bool:
    """The word at `start` (to `end`) is asserted about the record: it opens its clause, or one
    of the four words before it in the clause asserts it, and the clause does not state it as
    the rule."""
    gloss = _GLOSS.search(text, max(0, start - 8), start)
    if gloss:  # read where the word it glosses stands
        start = gloss.start() + 1
    breaks = [m.end() for m in _CLAUSE_BREAK.finditer(text, 0, start)]
    clause = text[breaks[-1] if breaks else 0 : start]
    rest = _CLAUSE_BREAK.search(text, end)
    if _RULE_BEFORE.search(clause) or not _RULE_AFTER.isdisjoint(
        _WORD.findall(text[end : rest.start() if rest else len(text)])[:4]
    ):
        return False
    if ":" in text[max(0, start - 3) : start]:
        return True
    words = _WORD.findall(clause.lower())
    if any(w in _NOT_YET for w in words[-4:]):  # "will be closed in 7 days": not its status now
        return False
    return not words or any(w in _ASSERTING for w in words[-4:])


def _said_digits(value: str, text: str, unit: str | None, rivals: tuple[str, ...]) -> bool:
    """The digit run standing alone, not inside a longer number."""
    run = value.strip()
    if run.isdigit():
        return run in _digit_runs(text)
    grouped = re.escape(run)  # "95284 64538": the groups as written
    return re.search(rf"(?<!\d)(?<!\d[.,]){grouped}(?!\d)(?![.,]\d)", text) is not None


_NUMBER_RUN = re.compile(r"\d\d*(?:[.,]\d+)*")  # \d+, opening with a class: scanned for it in C


@lru_cache(maxsize=_RECENT)
def _digit_runs(text: str) -> frozenset[str]:
    """Every number of the text written as bare digits ("9028", not "50,000" or "1.5")."""
    return frozenset(filter(str.isdigit, _NUMBER_RUN.findall(text)))  # each run, whole


def _said_text(value: str, text: str, unit: str | None, rivals: tuple[str, ...]) -> bool:
    """Case-insensitive substring after collapsing whitespace."""
    return " ".join(value.split()).casefold() in " ".join(text.split()).casefold()


_READERS: Mapping[str, Reader] = {
    "amount": _said_amount,
    "date": _said_date,
    "count": _said_count,
    "percent": _said_percent,
    "choice": _said_choice,
    "digits": _said_digits,
    "text": _said_text,
}


def day_key(kind: OutputKind) -> date | None:
    """The part of a reading's memo key that is not the text (_day_key)."""
    return _day_key(kind)


def _day_key(kind: OutputKind) -> date | None:
    """The part of a reading's memo key that is not the text: a date's reading depends on the
    task's date (a yearless "14 March"), every other kind's on nothing."""
    return task_day() if kind == "date" else None


def said(
    kind: OutputKind,
    value: str,
    text: str,
    *,
    unit: str | None = None,
    rivals: tuple[str, ...] = (),
) -> bool:
    """True when one assistant message (raw tool output aside) tells `value`."""
    if kind not in _READERS:
        raise ValueError(f"unknown output kind {kind!r}")
    return _said(kind, value, text, unit, rivals, _day_key(kind))


@lru_cache(maxsize=2 * _RECENT)
def _said(
    kind: OutputKind,
    value: str,
    text: str,
    unit: str | None,
    rivals: tuple[str, ...],
    on: date | None,
) -> bool:
    # Memoized: one session asks about the same message for several values and writes.
    return _READERS[kind](value, _clean(text), unit, rivals)


def shown(kind: OutputKind, value: str) -> str:
    """A value as evidence shows it to a person: an amount in rupees (Rs 1,18,985.13)."""
    if kind == "amount":
        try:
            return rupees(to_paise(value))
        except InvalidOperation:  # not a number: shown as the task wrote it
            return value
    return value


def clean(text: str) -> str:
    """The message as the readers see it: raw tool output out, spaces and quotes plain."""
    return _clean(text)


@lru_cache(maxsize=_RECENT)
def _clean(text: str) -> str:
    # Lower case once here, so the readers' patterns need no IGNORECASE: matching a pattern
    # case-free cost several times more than lowering the text (most of the scoring cost).
    text = strip_raw(text).replace("\u00a0", " ").replace("\u202f", " ").replace("’", "'")
    return text.lower()


def told(
    kind: OutputKind,
    value: str,
    messages: Sequence[str],
    *,
    unit: str | None = None,
    rivals: tuple[str, ...] = (),
) -> bool:
    """said() over any of the messages (its memo asked directly: one call less per message)."""
    if messages and kind not in _READERS:
        raise ValueError(f"unknown output kind {kind!r}")
    on = _day_key(kind)
    # A loop, not any() over a generator: the readers are asked this for every value and
    # proposal of every session, and the generator cost more than the memo's answer.
    for text in messages:  # noqa: SIM110
        if _said(kind, value, text, unit, rivals, on):
            return True
    return False
