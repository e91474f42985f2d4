"""Which records and fields a tool's result shows, declared once with each tool.

A gold read is a required fact: a record (entity and key) and some of its fields. Any successful
tool result that shows them satisfies it, whichever tool it came from, a write's own result
included (`transfer_funds` shows the source account's balance after the debit). Each tool
declares what it shows with `Reveal`s; nothing is listed per task family.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import lru_cache
from types import MappingProxyType
from typing import Any, Literal

Entity = Literal["account", "deposit", "loan", "card", "beneficiary", "customer", "service_request"]
ENTITIES: tuple[Entity, ...] = (
    "account",
    "deposit",
    "loan",
    "card",
    "beneficiary",
    "customer",
    "service_request",
)
# The key of a record shown by a Reveal: an output field, `arg:NAME` for a call argument, or
# `@customer` for the logged-in customer (whose id a tool may not repeat in its result).
ARG_PREFIX = "arg:"
LOGGED_IN = "@customer"


@dataclass(frozen=True)
class Reveal:
    """Records of one entity in a tool's result: where they are, their key, the fields shown.

    `fields` entries are `name` (the fact has the output field's name) or `fact=output_field`
    (the result names it differently, e.g. `balance=balance_after`). `at` names a list in the
    result holding such records; empty for the result itself.
    """

    entity: Entity
    key: str
    fields: tuple[str, ...]
    at: str = ""

    def field_map(self) -> Mapping[str, str]:
        """Fact name -> output field (read, never changed: the scorer asks it of every result
        that may show a required fact, so it is built once per reveal)."""
        return _field_map(self)


@lru_cache(maxsize=256)  # the registry declares fewer reveals than this
def _field_map(reveal: Reveal) -> Mapping[str, str]:
    pairs = (f.split("=", 1) if "=" in f else (f, f) for f in reveal.fields)
    return MappingProxyType({fact: source for fact, source in pairs})


@dataclass(frozen=True)
class Shown:
    """One record as a result shows it: its entity, key and the fact fields present."""

    entity: Entity
    key: str
    fields: frozenset[str]


def _records(reveal: Reveal, output: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    if not reveal.at:
        return [output]
    items = output.get(reveal.at)
    return [item for item in items if isinstance(item, Mapping)] if isinstance(items, list) else []


def shown(
    reveals: tuple[Reveal, ...],
    arguments: Mapping[str, Any],
    output: Mapping[str, Any],
    customer_id: str,
) -> Iterator[Shown]:
    """Every record a successful call's result shows, with the fact fields it carries."""
    for reveal in reveals:
        mapping = reveal.field_map()
        for record in _records(reveal, output):
            key = _key(reveal, record, arguments, customer_id)
            if key is None:
                continue
            present = frozenset(fact for fact, src in mapping.items() if src in record)
            yield Shown(reveal.entity, key, present)


def _key(
    reveal: Reveal, record: Mapping[str, Any], arguments: Mapping[str, Any], customer_id: str
) -> str | None:
    """The key of one record a result shows, upper-cased, or None when it has none."""
    if reveal.key == LOGGED_IN:
        key: Any = customer_id
    elif reveal.key.startswith(ARG_PREFIX):
        key = arguments.get(reveal.key.removeprefix(ARG_PREFIX))
    else:
        key = record.get(reveal.key)
    return None if key is None else str(key).strip().upper()


def shows(
    reveals: tuple[Reveal, ...],
    arguments: Mapping[str, Any],
    output: Mapping[str, Any],
    customer_id: str,
    entity: str,
    key: str,
    fields: tuple[str, ...],
) -> bool:
    """True when the result shows the record `entity`/`key` with every one of `fields`.

    shown() narrowed to the one record asked about: a reveal of another entity, or one that
    cannot carry every field, is passed over before its records are read, and a record's
    fields are looked up only once its key is the one wanted (the scorer asks this of every
    result that might show a required fact; a list of accounts shows several records)."""
    want_key = key.strip().upper()
    for reveal in reveals:
        if reveal.entity != entity:
            continue
        mapping = reveal.field_map()
        if any(f not in mapping for f in fields):
            continue
        sources = [mapping[f] for f in fields]
        for record in _records(reveal, output):
            if _key(reveal, record, arguments, customer_id) == want_key and all(
                source in record for source in sources
            ):
                return True
    return False


def fact_fields(reveals: tuple[Reveal, ...], entity: str) -> frozenset[str]:
    """The fact fields of `entity` that a tool with these reveals can show."""
    return frozenset(fact for r in reveals if r.entity == entity for fact in r.field_map())


def field_value(
    reveals: tuple[Reveal, ...],
    arguments: Mapping[str, Any],
    output: Mapping[str, Any],
    customer_id: str,
    entity: str,
    key: str,
    fact: str,
) -> tuple[bool, Any]:
    """(True, value) when the result shows the record `entity`/`key` with the fact field
    `fact`, the value as the result holds it; (False, None) when it does not show it. The
    record's key is one of its fields too (an account's `account_number`: its last digits
    told)."""
    want_key = key.strip().upper()
    for reveal in reveals:
        source = reveal.field_map().get(fact) or (fact if fact == reveal.key else None)
        if reveal.entity != entity or source is None:
            continue
        for record in _records(reveal, output):
            if source in record and _key(reveal, record, arguments, customer_id) == want_key:
                return True, record[source]
    return False, None
