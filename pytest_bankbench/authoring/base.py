"""What a task family writes: a draft of the scenario and gold chain for one customer and date."""

from __future__ import annotations

import random
import sqlite3
import tomllib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import date
from functools import cache
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict

from pytest_bankbench.bank.facts import Entity
from pytest_bankbench.bank.store import template_image
from pytest_bankbench.errors import BankBenchError
from pytest_bankbench.money import to_rupees
from pytest_bankbench.tasks.model import (
    Category,
    Fact,
    Instruction,
    OutputKind,
    ServiceArea,
    TellKind,
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
    """A gold call in a draft, known by its `step` name (see `as_step`) or else by its position
    (c1, c2, ...). A read with `facts` is a required fact (any tool showing it will do); without,
    the call itself is required."""

    tool: str
    args: dict[str, Any] = field(default_factory=dict)
    match: tuple[str, ...] = ()
    after: tuple[str, ...] = ()
    instruction: int = 0
    facts: Need | None = None
    # Other values of a matched argument the policy allows as well ({"mode": ("IMPS",)}).
    allowed: dict[str, tuple[Any, ...]] = field(default_factory=dict)
    # The name `after`, `Ref`, outputs and tells use for the call; "" for its position ("c2").
    step: str = ""


def as_step(step: str, call: Call) -> Call:
    """The call under a step name ("quote") that later calls, `Ref`s, outputs and tells use
    instead of its position; the task's gold ids are numbered c1, c2, ... all the same."""
    return replace(call, step=step)


@dataclass(frozen=True)
class Of:
    """The place a told value comes from (a task's `Source`): a record of the seeded bank
    (`record`), read as it stands after the gold chain; a gold step's result (`result`), for a
    quote or a calculation no record holds; a gold step's argument (`argument`); a passage of
    the policy or an article (`clause`, `article`); a row of the rate card (`rate_card`)."""

    field: str | None = None
    entity: Entity | None = None
    key: str | Ref | None = None
    step: str | None = None
    arg: str | None = None
    policy: str | None = None
    article: str | None = None
    near: str | None = None
    tenure_days: int | None = None
    # Other places that must hold the same value, checked and not written (a quote told before
    # the write whose result must equal it: the rate booked is the rate the rate card quoted).
    also: tuple[Of, ...] = ()

    @property
    def readable(self) -> bool:
        """The generator can read the value here (a passage only confirms one it is given)."""
        return self.policy is None and self.article is None


def record(entity: Entity, key: str | Ref, field: str) -> Of:
    """The field of a record: `record("account", number, "balance")` for the account the
    customer named, `record("deposit", Ref("booking", "deposit_id"), "maturity_amount")`."""
    return Of(field, entity=entity, key=key)


def result(step: str, field: str) -> Of:
    """A field of a gold step's result by dotted path: `result("quote", "payout")`."""
    return Of(field, step=step)


def argument(step: str, name: str) -> Of:
    """An argument of a gold step, as the agent sends it: `argument("transfer", "amount")`."""
    return Of(step=step, arg=name)


def clause(clause_id: str, near: str | None = None) -> Of:
    """A clause of the policy that states the value ("F.24"); `near`, the phrase the figure
    follows where the clause writes several of its kind ("replacement fee")."""
    return Of(policy=clause_id, near=near)


def article(doc_id: str, near: str | None = None) -> Of:
    """A knowledge-base article that states the value, as `clause`."""
    return Of(article=doc_id, near=near)


def rate_card(days: int, column: str = "applicable_rate_percent") -> Of:
    """The rate card's slab holding a tenure, and its column (the rate that applies to the
    customer on the task's date)."""
    return Of(column, tenure_days=days)


def same_as(of: Of, *others: Of) -> Of:
    """The place, with others that must hold the same value (`Of.also`)."""
    return replace(of, also=others)


@dataclass(frozen=True)
class Known:
    """A value the family states itself and the place `of` that must hold it, written to the
    task as its source and checked there (a wrong fee stops generation, naming the task and
    field): the rule of a policy clause, an article's answer, the amount a transfer sends."""

    value: str
    of: Of


def known(value: str, of: Of) -> Known:
    return Known(value, of)


Source = Of | Known


@dataclass
class Out:
    """A value the customer asks to be told: the record and field it reports, or a value known
    before the replay."""

    label: str
    kind: OutputKind
    source: Source
    instruction: int = 0
    unit: str | None = None
    rivals: tuple[str, ...] = ()
    also: tuple[str, ...] = ()


@dataclass
class Tell:
    """A value the policy says is told before the gated gold write `write` (its step name, e.g.
    "booking"): a quote's field, or a value known before the replay."""

    write: str
    label: str
    kind: OutputKind
    source: Source
    unit: str | None = None  # an amount's: the quantity a nil is said of ("interest")
    also: tuple[str, ...] = ()


@dataclass(frozen=True)
class Say:
    """A value a `Must` tells (an alternative account's last digits, a limit), and its place."""

    label: str
    kind: OutputKind
    source: Source
    unit: str | None = None


@dataclass(frozen=True)
class Must:
    """What the policy says the agent tells beyond the values asked (a task's `MustTell`): a
    refusal's reason, the alternative to offer, the hand-off team, a clarifying question.
    `before` is a draft call id ("quote"), numbered again when the chain gets its checks."""

    kind: TellKind
    label: str
    concepts: tuple[str, ...] = ()
    values: tuple[Say, ...] = ()
    instruction: int = 0
    record: str | None = None
    before: str | None = None


def reason(label: str, *concepts: str, record: str | None = None, instruction: int = 0) -> Must:
    """Why the policy refuses the request: one of `concepts` said un-negated tells it."""
    return Must("reason", label, concepts, instruction=instruction, record=record)


def alternative(
    label: str,
    *concepts: str,
    values: tuple[Say, ...] = (),
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


def agree(label: str, value: Say, before: str, instruction: int = 0) -> Must:
    """C.10: a value agreed with the customer before the gold call `before` (the days of a
    tenure given in months, before the quote): the customer says it, or the agent says it and
    hears a yes (scoring/agreed.py)."""
    return Must("agree", label, values=(value,), instruction=instruction, before=before)


def told(label: str, kind: OutputKind, source: Source, unit: str | None = None) -> Say:
    """A value that tells an alternative or a reason: an account's last digits, a limit."""
    return Say(label, kind, source, unit)


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
    *asks: str | Instruction,
    narrative: str,
    calls: list[Call],
    facts: Sequence[Fact | str] | None = None,
    outputs: list[Out] | None = None,
    withheld: list[str] | None = None,
    disclosures: list[Tell] | None = None,
    tells: list[Must] | None = None,
    offers: str | None = None,
    greeting: str = "",
) -> Draft:
    """A draft for the customer (the generator fills in the persona); each ask is an
    instruction, or its text when it has no decline.

    `greeting` is put before the first ask: none when the opening carries its own (an `opening`
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

REGISTRY = Path(__file__).parent / "families" / "families.toml"


class FamilyRow(BaseModel):
    """A family's row in families/families.toml: what the task says of it."""

    model_config = ConfigDict(extra="forbid")
    category: Category
    area: ServiceArea
    clause: str


class UnlistedFamily(BankBenchError, ValueError):
    """A family maker without its row in families/families.toml, or registered twice."""


@cache
def family_rows() -> dict[str, FamilyRow]:
    """The rows of families/families.toml by family name (validated; loaded once)."""
    rows = tomllib.loads(REGISTRY.read_text(encoding="utf-8"))
    return {name: FamilyRow.model_validate(row) for name, row in rows.items()}


def family(eligible: str) -> Callable[[Maker], Maker]:
    """Register a family named as its maker, with its row of families/families.toml: the maker
    gets a context, a seeded rng and an eligible customer row (`eligible`: SQL returning the
    customer ids it can use)."""

    def register(make: Maker) -> Maker:
        name = make.__name__
        row = family_rows().get(name)
        if row is None:
            raise UnlistedFamily(f"family {name} has no row in {REGISTRY.name}")
        if name in FAMILIES:
            raise UnlistedFamily(f"family {name} registered twice")
        FAMILIES[name] = Family(name, row.category, row.area, eligible, make, row.clause)
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


# -- values a call or an output takes -----------------------------------------------------------


def rupees_arg(paise: int) -> float | int:
    """A tool argument in rupees as the JSON number an agent would send."""
    value = to_rupees(paise)
    return int(value) if value == value.to_integral() else float(value)
