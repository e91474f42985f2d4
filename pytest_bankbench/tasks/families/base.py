"""What a task family writes: a draft of the scenario and gold chain for one customer and date."""

from __future__ import annotations

import random
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from typing import Any

from pytest_bankbench.bank.store import template_image
from pytest_bankbench.money import indian, lakh_words, to_rupees
from pytest_bankbench.tasks.model import Category, Instruction, ServiceArea

Results = dict[str, dict[str, Any]]


@dataclass(frozen=True)
class Ref:
    """An argument taken from an earlier gold call's result (e.g. the id of a new beneficiary)."""

    call: str
    key: str


@dataclass
class Call:
    """A gold call in a draft; ids are c1, c2, ... in order."""

    tool: str
    args: dict[str, Any]
    match: tuple[str, ...] = ()
    after: tuple[str, ...] = ()
    instruction: int = 0


@dataclass
class Out:
    """A value the customer asks to be told, read from the gold replay's results."""

    label: str
    kind: str
    source: Callable[[Results], str]
    instruction: int = 0


@dataclass
class Draft:
    """Everything a family decides for one task."""

    customer_id: str
    persona: str
    instructions: list[Instruction]
    narrative: str
    calls: list[Call]
    facts: list[str] = field(default_factory=list)
    withheld: list[str] = field(default_factory=list)
    outputs: list[Out] = field(default_factory=list)
    greeting: str = ""


Maker = Callable[["Context", random.Random, sqlite3.Row], Draft | None]


@dataclass(frozen=True)
class Family:
    name: str
    category: Category
    service_area: ServiceArea
    eligible: str  # SQL returning customer_id rows for customers this family can use
    make: Maker


FAMILIES: dict[str, Family] = {}


def family(
    name: str, category: Category, area: ServiceArea, eligible: str
) -> Callable[[Maker], Maker]:
    """Register a family: its maker gets a context, a seeded rng and an eligible customer row."""

    def register(make: Maker) -> Maker:
        if name in FAMILIES:
            raise ValueError(f"family {name} registered twice")
        FAMILIES[name] = Family(name, category, area, eligible, make)
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


# -- phrasing helpers shared by the families ----------------------------------------------------

GREETINGS = ("Hello,", "Hi,", "Good morning,", "Namaste,", "Hi there,", "Hello there,", "")


def say(rng: random.Random, *variants: str) -> str:
    """One of several phrasings."""
    return rng.choice(variants)


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


def persona(row: sqlite3.Row, today: date) -> str:
    born = date.fromisoformat(row["date_of_birth"])
    age = today.year - born.year - ((today.month, today.day) < (born.month, born.day))
    return (
        f"{row['name']}, {age}, lives in {row['city']}; banks with the {row['home_branch']} branch."
    )
