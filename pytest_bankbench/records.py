"""How a customer's cards, deposits and loans are named in a conversation (policy C.12, D.15).

A bank agent rarely says a record's id. It says "your card ending 2546", "your Suvarna Rewards
credit card", "the FD of Rs. 2,00,000 opened on 12 February 2026", "the FD ending 4821", "your
home loan". Each record has marks a text may say: its id, the last four digits of its number or
id after a cue ("ending", "xxxx", "FD"), its product words, its type, its amount and dates. A
text names a record when the marks it says of that record fit no other record of the same kind
the customer holds, and it says no such distinguishing marks of another: "your credit card"
names the only credit card, and nothing when there are two; "Rs. 31,000" names the one FD of
that amount, and no FD when two share it.

The scorer (consent: a yes counts for a write on a card, FD or loan only if the proposal named
that record) and the scripted customer (which declines a proposal naming another of its
records) read the same marks, and the gold agent names a record with `phrase`. Top level: both
layers import it; it reads the seeded bank (bank/) and nothing above it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from functools import cached_property, lru_cache
from typing import Literal, get_args

from pytest_bankbench.bank.store import Bank
from pytest_bankbench.money import amounts_in, indian

RecordKind = Literal["card", "deposit", "loan"]
# The write arguments that name a record of each kind.
RECORD_ARGS: dict[str, RecordKind] = {"card_id": "card", "deposit_id": "deposit", "loan_id": "loan"}
RECORD_KINDS: tuple[RecordKind, ...] = get_args(RecordKind)

MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")


def month_number(name: str) -> int:
    """1 for "jan", "January" or "Jan."; the first three letters name the month."""
    return MONTHS.index(name[:3]) + 1


_MONTH_NAMES = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)
_MONTH = r"(?P<mon>jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?"
# A pattern that opens with a lookbehind first looks ahead for the character its match opens
# with: the engine then leaves most positions after one test (as scoring/dates_told.py).
_DATES = (
    re.compile(r"(?=\d)(?<![\d/.-])(?P<y>\d{4})-(?P<m>\d{1,2})-(?P<d>\d{1,2})(?!\d)"),
    re.compile(r"(?=\d)(?<![\d/.-])(?P<d>\d{1,2})([/.-])(?P<m>\d{1,2})\2(?P<y>\d{4})(?!\d)"),
    re.compile(
        rf"(?=\d)(?<!\d)(?P<d>\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?{_MONTH},?\s+(?P<y>\d{{4}})"
    ),
    re.compile(rf"(?<![a-z]){_MONTH}\s+(?P<d>\d{{1,2}})(?:st|nd|rd|th)?,?\s+(?P<y>\d{{4}})"),
)
_YEAR = re.compile(r"\d\d{3}")  # \d{4}, opening with a class: scanned for it in C
# What may come just before the last digits of a card's number or a record's id.
_CUE = r"(?:ending|ends|end|no\.?|number|#|id|fd|rd|deposit|loan|card|[x*•.]{2,})"
_TAIL = r"\s*(?:in|with|:|-)?\s*[x*•.\s-]*?"
_KIND_WORDS: dict[str, tuple[str, ...]] = {
    # A deposit's type and the words that name it; a tax-saver FD is a fixed deposit too.
    "fd": (r"fds?", r"fixed deposits?"),
    "tax_saver_fd": (r"fds?", r"fixed deposits?", r"tax[- ]?saver"),
    "rd": (r"rds?", r"recurring deposits?"),
}
# A sentence ends before a capital ("Rs. 28,000" goes on).
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z])")
_KIND_NAMES = {"fd": "FD", "tax_saver_fd": "tax-saver FD", "rd": "RD"}


def dates_in(text: str) -> frozenset[date]:
    """Every calendar date a text says (ISO, day-first numerals, a month's name either side)."""
    lowered = text.lower()
    found: set[date] = set()
    if _YEAR.search(lowered) is None:  # every form has a four-digit year; most sentences none
        return frozenset(found)
    named = any(month in lowered for month in MONTHS)  # the last two forms need a month's name
    for form in _DATES if named else _DATES[:2]:
        for m in form.finditer(lowered):
            groups = m.groupdict()
            month = month_number(groups["mon"]) if groups.get("mon") else int(groups["m"])
            try:
                found.add(date(int(groups["y"]), month, int(groups["d"])))
            except ValueError:
                continue
    return frozenset(found)


Told = tuple[str, ...]  # the keys of the records a text tells (_told)


class Heard:
    """A text as the marks are looked for in it, each part read once and only when a mark asks
    (a card is named by words and digits: its amounts and dates are never read)."""

    def __init__(self, text: str) -> None:
        self.lowered = text.lower().replace("’", "'")
        # Each words pattern's answer (records of a kind share their kind's words), and named()'s
        # per records read (kept with them: an answer is reused only for the same records).
        self.words: dict[str, bool] = {}
        self.named: dict[tuple[int, RecordKind, bool], tuple[Sequence[Holding], Told]] = {}

    @cached_property
    def amounts(self) -> frozenset[Decimal]:
        return frozenset(a.normalize() for a in amounts_in(self.lowered))

    @cached_property
    def days(self) -> frozenset[date]:
        return dates_in(self.lowered)

    @cached_property
    def ids(self) -> frozenset[str]:
        """Record ids, lower case ("fd001219")."""
        return frozenset(_ID.findall(self.lowered))

    @cached_property
    def tails(self) -> frozenset[str]:
        """Digit runs after a cue ("ending 1219", "xxxx 2546")."""
        return frozenset(_TAILS.findall(self.lowered))


_ID = re.compile(r"(?<![\w-])[a-z]{2,4}\d{3,}(?![\w-])")
_TAILS = re.compile(rf"(?=[enifrdlcx#*•.])(?<![\w-]){_CUE}{_TAIL}(\d{{4,}})(?!\d|[.,]\d)")


@lru_cache(maxsize=2048)
def heard(text: str) -> Heard:
    return Heard(text)


@lru_cache(maxsize=256)
def _pattern(words: str) -> re.Pattern[str]:
    """A whole-word pattern: there are few (product words, kinds, loan types), compiled once.
    When every match opens with the same letter (the words open with one, not optional, and
    offer no alternative), it is looked for first: the engine leaves most positions after one
    test."""
    first = words[:1]
    opens = first.isalnum() and words[1:2] not in ("?", "*", "{") and "|" not in words
    return re.compile(rf"{f'(?={first})' if opens else ''}(?<![\w-])(?:{words})(?![\w-])")


@dataclass(frozen=True, slots=True)
class Mark:
    """One thing a text may say of a record: words, its id, its digits after a cue, an amount
    (rupees) or a date."""

    name: str
    words: str | None = None  # a pattern's source
    ids: tuple[str, ...] = ()  # the id, or the digit runs that name it
    amount: Decimal | None = None
    day: date | None = None
    # Only a word for the kind ("card", "FD", "loan"): it names the customer's one record of
    # the kind, but a proposal of a new FD says "FD" of no existing one (names_another).
    weak: bool = False

    # The mark and its value: two records share a mark when they share this (made once).
    identity: tuple[str, str | None, tuple[str, ...], Decimal | None, date | None] = field(
        init=False, compare=False, repr=False
    )

    def __post_init__(self) -> None:
        identity = (self.name, self.words, self.ids, self.amount, self.day)
        object.__setattr__(self, "identity", identity)

    def said(self, text: Heard) -> bool:
        if self.words is not None:
            found = text.words.get(self.words)
            if found is None:
                found = text.words[self.words] = (
                    _pattern(self.words).search(text.lowered) is not None
                )
            return found
        if self.ids:
            runs = text.ids if self.name == "id" else text.tails
            return any(i in runs for i in self.ids)
        if self.amount is not None:
            return self.amount in text.amounts
        return self.day in text.days


@dataclass(frozen=True, slots=True)
class Holding:
    """One of the customer's records as a conversation names it."""

    kind: RecordKind
    key: str
    marks: tuple[Mark, ...]
    # The words the gold agent names it by, most telling last (phrase() takes as many as needed).
    words: tuple[str, ...]


def _id_marks(key: str, tail: bool = True) -> list[Mark]:
    """The id, and (`tail`) its last four digits after a cue: "FD ending 1219"."""
    digits = re.sub(r"\D", "", key)
    marks = [Mark("id", ids=(key.lower(),))]
    if tail and len(digits) >= 4:
        marks.append(Mark("id digits", ids=(digits, digits[-4:])))
    return marks


def _rupees(paise: object) -> Decimal | None:
    return (Decimal(paise) / 100).normalize() if isinstance(paise, int) and paise > 0 else None


def _day(value: object) -> date | None:
    return date.fromisoformat(value) if isinstance(value, str) and value else None


def _spoken(day: date) -> str:
    return f"{day.day} {_MONTH_NAMES[day.month - 1]} {day.year}"  # strftime costs ten times more


def _card(row: dict[str, object]) -> Holding:
    product, kind, last4 = str(row["product"]), str(row["card_kind"]), str(row["last4"])
    marks = [*_id_marks(str(row["card_id"]), tail=False), Mark("last digits", ids=(last4,))]
    for word in product.lower().split():
        if word not in ("debit", "credit"):  # "Suvarna Bank" is the bank, not a card
            marks.append(Mark(f"product {word}", rf"{re.escape(word)}(?!\s+bank)"))
    marks += [
        Mark(f"{kind} card", rf"{kind}\s+cards?"),
        Mark("card", "cards?", weak=True),
    ]
    return Holding(
        "card", str(row["card_id"]), tuple(marks), (f"your {product} card ending {last4}",)
    )


def _deposit(row: dict[str, object]) -> Holding:
    kind = str(row["deposit_type"])
    marks = _id_marks(str(row["deposit_id"]))
    # Named by the words, not the type: "FD" says as much of a tax-saver FD as of any other.
    marks += [Mark(f"says {w}", w, weak=True) for w in _KIND_WORDS.get(kind, ())]
    marks.append(Mark("deposit", "deposits?", weak=True))
    amount = _rupees(row["principal"]) or _rupees(row["instalment"])
    opened, matures = _day(row["start_date"]), _day(row["maturity_date"])
    if amount is not None:
        marks.append(Mark("amount", amount=amount))
    marks += [Mark("opened", day=opened)] if opened else []
    marks += [Mark("matures", day=matures)] if matures else []
    name = f"your {_KIND_NAMES.get(kind, 'deposit')}"
    if amount is not None:
        name += f" of {indian(int(amount * 100))}" + (" a month" if kind == "rd" else "")
    words = [f"{name} opened on {_spoken(opened)}" if opened else name]
    words += [f"maturing on {_spoken(matures)}"] if matures else []
    return Holding("deposit", str(row["deposit_id"]), tuple(marks), tuple(words))


def _loan(row: dict[str, object]) -> Holding:
    kind = str(row["loan_type"])
    marks = _id_marks(str(row["loan_id"]))
    marks += [
        Mark(f"{kind} loan", rf"{re.escape(kind)}\s+loans?"),
        Mark("loan", "loans?", weak=True),
    ]
    amount, disbursed = _rupees(row["principal"]), _day(row["disbursed_on"])
    words = [f"your {kind} loan"]
    if amount is not None:
        marks.append(Mark("amount", amount=amount))
        words.append(f"of {indian(int(amount * 100))}")
    if disbursed is not None:
        marks.append(Mark("disbursed", day=disbursed))
        words.append(f"disbursed on {_spoken(disbursed)}")
    return Holding("loan", str(row["loan_id"]), tuple(marks), tuple(words))


_TABLES: dict[RecordKind, tuple[str, str, Callable[[dict[str, object]], Holding]]] = {
    "card": ("cards", "card_id", _card),
    "deposit": ("deposits", "deposit_id", _deposit),
    "loan": ("loans", "loan_id", _loan),
}


def holding(table: str, row: Mapping[str, object]) -> Holding:
    """One row of the bank's `cards`, `deposits` or `loans` table as a conversation names it."""
    make = next(m for name, _, m in _TABLES.values() if name == table)
    return make(dict(row))


@lru_cache(maxsize=1024)
def holdings(
    customer_id: str, day: date, seed: int, kinds: tuple[RecordKind, ...] = RECORD_KINDS
) -> tuple[Holding, ...]:
    """The customer's records of `kinds` (cards, deposits, loans) in the seeded bank (their
    marks do not change in a session: a closed FD keeps its amount and dates). Only the kinds
    asked for are read: the scorer needs one, and making a record's marks is most of the cost."""
    with Bank(customer_id, day, seed) as bank:
        return tuple(
            make(dict(row))
            for table, key, make in (_TABLES[k] for k in kinds)
            for row in bank.all(
                f"SELECT * FROM {table} WHERE customer_id = ? ORDER BY {key}", customer_id
            )
        )


def named(text: str, held: Sequence[Holding], kind: RecordKind, strong: bool = False) -> str | None:
    """The key of the one record of `kind` the text names, or None (none, or several);
    `strong`: by more than a word for its kind."""
    told = _told(text, held, kind, strong)
    return told[0] if len(told) == 1 else None


def _told(text: str, held: Sequence[Holding], kind: RecordKind, strong: bool) -> Told:
    """The records of `kind` whose marks the text says and no other record of the kind has
    them all: named() names the one when there is one. A part of the text (a sentence) says
    fewer marks of each record, so it tells none that the whole does not."""
    said_in = heard(text)
    known = said_in.named.get((id(held), kind, strong))
    if known is not None and known[0] is held:  # a proposal's texts are read for each write
        return known[1]
    same = [h for h in held if h.kind == kind]
    marks: dict[str, set[tuple[object, ...]]] | None = None  # only once some record is named
    told: list[str] = []
    for record in same:
        said = {m.identity for m in record.marks if not (strong and m.weak) and m.said(said_in)}
        if not said:
            continue
        if marks is None:
            marks = {h.key: {m.identity for m in h.marks} for h in same}
        if not any(o.key != record.key and said <= marks[o.key] for o in same):
            told.append(record.key)
    said_in.named[(id(held), kind, strong)] = (held, tuple(told))
    return tuple(told)


def sentences(text: str) -> list[str]:
    """The text's sentences ("Rs. 28,000" does not end one)."""
    return _SENTENCE.split(text)


def named_in(
    texts: Sequence[str], held: Sequence[Holding], kind: RecordKind, strong: bool = False
) -> set[str]:
    """The records of `kind` some text names, read whole or sentence by sentence (a proposal
    may name the card it refuses and, a sentence later, the one it offers)."""
    found: set[str] = set()
    for text in texts:
        told = _told(text, held, kind, strong)
        if len(told) < 2:  # its sentences tell none but these (_told)
            found.update(told)
            continue
        for part in sentences(text):
            key = named(part, held, kind, strong)
            if key is not None:
                found.add(key)
    return found


def names(key: str, texts: Sequence[str], held: Sequence[Holding]) -> bool:
    """Some text names the record `key` (a record the customer does not hold is never named)."""
    record = _holding(key, held)
    return record is not None and record.key in named_in(texts, held, record.kind)


def own_records(
    task_keys: Sequence[str], script: Sequence[str], held: Sequence[Holding]
) -> frozenset[str]:
    """The records a customer means: those its task acts on and those its own words name."""
    own = {h.key for h in held for k in task_keys if h.key.upper() == k.strip().upper()}
    for kind in RECORD_KINDS:
        own |= named_in(script, held, kind)
    return frozenset(own)


def names_another(
    text: str, held: Sequence[Holding], own: frozenset[str], kinds: Sequence[RecordKind]
) -> RecordKind | None:
    """The kind (of `kinds`: those the proposed action acts on) of record the text names only
    others of, by more than a word for the kind: a card, FD or loan of the customer's that is
    not one it means, and none that is. A new deposit is no existing one, whatever its amount:
    a booking is read for no kind."""
    for kind in kinds:
        said = named_in([text], held, kind, strong=True)
        if said and not said & own:
            return kind
    return None


def _holding(key: str, held: Sequence[Holding]) -> Holding | None:
    return next((h for h in held if h.key.upper() == key.strip().upper()), None)


def phrase(key: str, held: Sequence[Holding]) -> str | None:
    """How the gold agent names the record: its first words, and more until they name it alone
    ("your home loan"; "your FD of Rs. 31,000 opened on 25 January 2026"); None for a record
    the customer does not hold."""
    record = _holding(key, held)
    if record is None:
        return None
    for n in range(1, len(record.words) + 1):
        said = " ".join(record.words[:n])
        if named(said, held, record.kind) == record.key:
            return said
    digits = re.sub(r"\D", "", key)[-4:]
    return f"{' '.join(record.words)} (ending {digits})"
