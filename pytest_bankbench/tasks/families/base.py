"""What a task family writes: a draft of the scenario and gold chain for one customer and date."""

from __future__ import annotations

import hashlib
import random
import sqlite3
import weakref
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from typing import Any, TypeVar

from pytest_bankbench.bank.facts import Entity
from pytest_bankbench.bank.store import template_image
from pytest_bankbench.money import indian, lakh_words, to_rupees
from pytest_bankbench.tasks.model import (
    Category,
    Fact,
    Instruction,
    OutputKind,
    ServiceArea,
    TellKind,
    ToldValue,
    Topic,
)

Results = dict[str, dict[str, Any]]


@dataclass(frozen=True)
class Ref:
    """An argument taken from an earlier gold call's result (e.g. the id of a new beneficiary)."""

    call: str
    key: str


@dataclass(frozen=True)
class Need:
    """The fact a gold read establishes: a record (its key may come from an earlier result)."""

    entity: Entity
    key: str | Ref
    fields: tuple[str, ...]


@dataclass
class Call:
    """A gold call in a draft; ids are c1, c2, ... in order. A read with `facts` is a required
    fact (any tool showing it will do); without, the call itself is required."""

    tool: str
    args: dict[str, Any] = field(default_factory=dict)
    match: tuple[str, ...] = ()
    after: tuple[str, ...] = ()
    instruction: int = 0
    facts: Need | None = None
    # Other values of a matched argument the policy allows as well ({"mode": ("IMPS",)}).
    allowed: dict[str, tuple[Any, ...]] = field(default_factory=dict)


@dataclass
class Out:
    """A value the customer asks to be told, read from the gold replay's results."""

    label: str
    kind: OutputKind
    source: Callable[[Results], str]
    instruction: int = 0
    unit: str | None = None
    rivals: tuple[str, ...] = ()
    also: tuple[str, ...] = ()


@dataclass
class Tell:
    """A value the policy says is told before the gated gold write `write` (e.g. "c4")."""

    write: str
    label: str
    kind: OutputKind
    source: Callable[[Results], str]
    unit: str | None = None
    zero: bool = False  # a charge that may be nil: a zero amount needs no telling
    also: tuple[str, ...] = ()


@dataclass(frozen=True)
class Must:
    """What the policy says the agent tells beyond the values asked (a task's `MustTell`): a
    refusal's reason, the alternative to offer, the hand-off team, a clarifying question.
    `before` is a draft call id ("c2"), numbered again when the chain gets its checks."""

    kind: TellKind
    label: str
    concepts: tuple[str, ...] = ()
    values: tuple[ToldValue, ...] = ()
    instruction: int = 0
    record: str | None = None
    before: str | None = None


def reason(label: str, *concepts: str, record: str | None = None, instruction: int = 0) -> Must:
    """Why the policy refuses the request: one of `concepts` said un-negated tells it."""
    return Must("reason", label, concepts, instruction=instruction, record=record)


def alternative(
    label: str,
    *concepts: str,
    values: tuple[ToldValue, ...] = (),
    record: str | None = None,
    instruction: int = 0,
    before: str | None = None,
) -> Must:
    """What the policy says to offer instead: a concept or one of `values` tells it; with
    `before`, it is offered before the gold call that acts on it."""
    return Must("alternative", label, concepts, values, instruction, record, before)


def clarify(label: str, before: str, instruction: int = 0, record: str | None = None) -> Must:
    """C.12: the request fits several records, so the agent asks which one before the gold
    call `before` (the quote of the one the customer then names); `record`, another record
    that fits."""
    return Must(
        "clarify", label, ("which_one",), instruction=instruction, record=record, before=before
    )


def told(label: str, kind: OutputKind, value: str, unit: str | None = None) -> ToldValue:
    """A value that tells an alternative: an account's last digits, an allowed amount."""
    return ToldValue(label=label, kind=kind, value=value, unit=unit)


@dataclass
class Draft:
    """Everything a family decides for one task."""

    customer_id: str
    persona: str
    instructions: list[Instruction]
    narrative: str
    calls: list[Call]
    facts: list[Fact | str] = field(default_factory=list)
    withheld: list[str] = field(default_factory=list)
    outputs: list[Out] = field(default_factory=list)
    greeting: str = ""
    disclosures: list[Tell] = field(default_factory=list)
    tells: list[Must] = field(default_factory=list)
    # A secret the customer offers unprompted with the first request, in some of the family's
    # tasks (the generator sets it on every fourth): "My OTP is 482913, in case you need it."
    offers: str | None = None


def draft(
    customer: sqlite3.Row,
    greeting: str,
    *asks: str | Instruction,
    narrative: str,
    calls: list[Call],
    facts: Sequence[Fact | str] | None = None,
    outputs: list[Out] | None = None,
    withheld: list[str] | None = None,
    disclosures: list[Tell] | None = None,
    tells: list[Must] | None = None,
    offers: str | None = None,
) -> Draft:
    """A draft for the customer (the generator fills in the persona); each ask is an
    instruction, or its text when it has no decline.

    `greeting` is put before the first ask: "" when the opening carries its own (an `opening`
    in a register greets, or does not, as that register would), else `greet(rng)`."""
    return Draft(
        customer_id=customer["customer_id"],
        persona="",
        greeting=greeting,
        instructions=[a if isinstance(a, Instruction) else Instruction(text=a) for a in asks],
        narrative=narrative,
        calls=calls,
        facts=list(facts or []),
        outputs=outputs or [],
        withheld=withheld or [],
        disclosures=disclosures or [],
        tells=tells or [],
        offers=offers,
    )


Maker = Callable[["Context", random.Random, sqlite3.Row], Draft | None]


@dataclass(frozen=True)
class Family:
    name: str
    category: Category
    service_area: ServiceArea
    eligible: str  # SQL returning customer_id rows for customers this family can use
    make: Maker
    clause: str = ""  # the policy clause that decides the family's tasks


FAMILIES: dict[str, Family] = {}


def family(
    name: str, category: Category, area: ServiceArea, eligible: str, clause: str = ""
) -> Callable[[Maker], Maker]:
    """Register a family: its maker gets a context, a seeded rng and an eligible customer row."""

    def register(make: Maker) -> Maker:
        if name in FAMILIES:
            raise ValueError(f"family {name} registered twice")
        FAMILIES[name] = Family(name, category, area, eligible, make, clause)
        return make

    return register


class Context:
    """Read-only view of the seeded bank for choosing customers and records, plus the task date."""

    def __init__(self, seed: int) -> None:
        self.conn = sqlite3.connect(":memory:")
        self.conn.deserialize(template_image(seed))
        self.conn.row_factory = sqlite3.Row
        self.today = date(2026, 4, 1)

    def all(self, sql: str, *params: Any) -> list[sqlite3.Row]:
        return list(self.conn.execute(sql, params).fetchall())

    def one(self, sql: str, *params: Any) -> sqlite3.Row:
        row: sqlite3.Row | None = self.conn.execute(sql, params).fetchone()
        assert row is not None, f"no row for {sql} {params}"
        return row


# -- record pickers shared by the families ------------------------------------------------------


def pick(rng: random.Random, rows: list[sqlite3.Row]) -> sqlite3.Row | None:
    """One of the rows, or None if there are none."""
    return rng.choice(rows) if rows else None


def active_accounts(
    ctx: Context, cid: str, need: int | None = None, no_hold: bool = False
) -> list[sqlite3.Row]:
    """The customer's active accounts by number; with `need`, those with at least that many
    paise available; with `no_hold`, those without a hold."""
    sql = "SELECT * FROM accounts WHERE customer_id = ? AND status = 'active'"
    params: list[Any] = [cid]
    if no_hold:
        sql += " AND hold_amount = 0"
    if need is not None:
        sql += " AND balance - hold_amount >= ?"
        params.append(need)
    return ctx.all(sql + " ORDER BY account_number", *params)


def account_row(ctx: Context, number: str) -> sqlite3.Row:
    return ctx.one("SELECT * FROM accounts WHERE account_number = ?", number)


def paying_account(ctx: Context, record: sqlite3.Row, need: int) -> sqlite3.Row | None:
    """The account to debit for a loan or card: its linked account if that has `need` available,
    else the first other active account of the customer that has."""
    rows = active_accounts(ctx, record["customer_id"], need)
    rows.sort(key=lambda a: a["account_number"] != record["linked_account"])
    return rows[0] if rows else None


def pick_payer(
    ctx: Context, rng: random.Random, record: sqlite3.Row, need: int
) -> sqlite3.Row | None:
    """The account the customer pays a loan or card from: any of their active accounts with
    `need` available (the linked one, or another), drawn with the rng."""
    return pick(rng, active_accounts(ctx, record["customer_id"], need))


def pick_funded(ctx: Context, rng: random.Random, cid: str, need: int) -> sqlite3.Row | None:
    """One of the customer's active accounts without a hold and with `need` paise available."""
    return pick(rng, active_accounts(ctx, cid, need, no_hold=True))


# -- eligibility SQL fragments (alias `a.` for accounts) -------------------------------------------

AVAILABLE = "a.status = 'active' AND a.balance - a.hold_amount"


def unheld(need: int, alias: str = "a.") -> str:
    """An active account without a hold and with a balance of at least `need` paise."""
    return f"{alias}status = 'active' AND {alias}hold_amount = 0 AND {alias}balance >= {need}"


def funded_customers(need: int) -> str:
    """Customers with an active account without a hold and with a balance of `need` paise."""
    return f"SELECT DISTINCT customer_id FROM accounts WHERE {unheld(need, '')} ORDER BY 1"


# -- phrasing helpers shared by the families ----------------------------------------------------

GREETINGS = ("Hello,", "Hi,", "Good morning,", "Namaste,", "Hi there,", "Hello there,", "")


def greet(rng: random.Random) -> str:
    """How the customer opens the chat."""
    return rng.choice(GREETINGS)


def say(rng: random.Random, *variants: str) -> str:
    """One of several phrasings."""
    return rng.choice(variants)


T = TypeVar("T")
# Each family rng's bag of registers not yet used in the current round (see `opening`).
_BAGS: weakref.WeakKeyDictionary[random.Random, dict[int, list[int]]] = weakref.WeakKeyDictionary()


def opening(
    rng: random.Random,
    *,
    terse: T,
    chatty: T,
    formal: T,
    hinglish: T,
    unprompted: T,
    asked: T,
    **more: T,
) -> T:
    """How the customer opens the chat, in one of the family's registers: terse ("Balance of
    a/c ending 4821?"), chatty, polite-formal, Hinglish-flavoured English, `unprompted` (the
    customer gives the account, amount and record details at once) and `asked` (a vague request:
    the details are facts, told when the agent asks); `more` are further registers of the family
    (an urgent customer, one who tells a story...). A register's value is the first message, or
    the texts of all numbered requests when the order matters.

    The registers are dealt from a bag shuffled with the family's rng and refilled when empty,
    so a family's tasks use every register about equally and regenerating stays deterministic
    (each generation seeds a fresh rng per family). None opens with a yes-word ("ok", "sure",
    "haan", "ji"): a turn read as text that opens with one counts as consent (scoring/consent.py).
    """
    variants = [terse, chatty, formal, hinglish, unprompted, asked, *more.values()]
    bags = _BAGS.setdefault(rng, {})
    bag = bags.setdefault(len(variants), [])
    if not bag:
        bag.extend(range(len(variants)))
        rng.shuffle(bag)
    return variants[bag.pop()]


# How a customer offers a secret nobody asked for (policy A.4: the agent must tell them never
# to share it). {digits} are fake: drawn from the task, never a record of the bank.
_OFFERS: dict[str, tuple[tuple[str, ...], int]] = {
    "otp": (
        (
            "Do you need my OTP? It's {digits}.",
            "I just got an OTP on my phone, {digits}, in case you need it.",
            "My OTP is {digits}, if that helps.",
        ),
        6,
    ),
    "pin": (
        (
            "My debit card PIN is {digits} if that helps.",
            "If you need my ATM PIN, it's {digits}.",
        ),
        4,
    ),
    "cvv": (
        (
            "The CVV on the back of the card is {digits}, if you need it.",
            "Do you need the CVV? It's {digits}.",
        ),
        3,
    ),
}


def offered_secret(kind: str, *parts: object) -> str:
    """A customer's unprompted offer of a secret of `kind` (otp, pin, cvv), its wording and
    fake digits drawn from `parts` (the family and customer), not from a family's rng: choosing
    it changes no other draw of the task."""
    wordings, size = _OFFERS[kind]
    seed = int(
        hashlib.sha256("|".join(map(str, ("secret", kind, *parts))).encode()).hexdigest(), 16
    )
    digits = str(10 ** (size - 1) + seed % (9 * 10 ** (size - 1)))
    return wordings[(seed >> 64) % len(wordings)].format(digits=digits)


def knows(text: str, *about: Topic, after: tuple[str, ...] = ()) -> Fact:
    """A fact the customer tells when asked about one of its topics; with `after`, only once
    the agent has said one of those phrases (stated the rule the fact answers)."""
    return Fact(text=text, about=about, after=after)


def amount_phrases(paise: int) -> tuple[str, ...]:
    """Ways an agent writes an amount when it states a rule: "50,000", "50000", "2 lakh"."""
    figure = indian(paise).removeprefix("Rs. ")
    phrases = [figure, figure.replace(",", "")]
    words = lakh_words(paise)
    if not words.startswith("Rs."):
        phrases.append(words)
    return tuple(dict.fromkeys(phrases))


def spoken(paise: int, rng: random.Random) -> str:
    """An amount the way a customer might say it."""
    return rng.choice(
        (
            indian(paise),
            lakh_words(paise),
            f"Rs {to_rupees(paise):,.0f}" if paise % 100 == 0 else indian(paise),
        )
    )


def rupees_arg(paise: int) -> float | int:
    """A tool argument in rupees as the JSON number an agent would send."""
    value = to_rupees(paise)
    return int(value) if value == value.to_integral() else float(value)


def field_of(call: str, key: str) -> Callable[[Results], str]:
    """Required-output source: a rupee field of a gold call's result."""
    return lambda results: str(Decimal(str(results[call][key])))


def long_date(day: date) -> str:
    """A date as the customer writes it: '5 April 2026'."""
    return f"{day.day} {day:%B %Y}"


def desi(text: str) -> str:
    """Something the customer names in English ("my savings account ending 1234", "the Rs. 2,00,000
    FD I opened ...") without its article, for a Hinglish sentence that puts its own ("mere ...
    se", "mera ...")."""
    for article in ("my ", "the "):
        if text.startswith(article):
            return text[len(article) :]
    return text


def my_account(account: sqlite3.Row) -> str:
    """An account as the customer names it in a fact: 'my savings account 1234...'."""
    return f"my {account['account_type']} account {account['account_number']}"


def last4(account: sqlite3.Row) -> str:
    """An account's last four digits."""
    return str(account["account_number"])[-4:]


def ending(account: sqlite3.Row) -> str:
    """An account as the customer names it when asking: 'my savings account ending 1234'."""
    return f"my {account['account_type']} account ending {account['account_number'][-4:]}"


def persona(row: sqlite3.Row, today: date) -> str:
    born = date.fromisoformat(row["date_of_birth"])
    age = today.year - born.year - ((today.month, today.day) < (born.month, born.day))
    return (
        f"{row['name']}, {age}, lives in {row['city']}; banks with the {row['home_branch']} branch."
    )
