"""Reading the record and field a told value names (`Source`), and comparing a value with it.

A required output or a quote value names where it comes from: a record of the seeded bank (the
account the customer named and its `balance`) or a gold call's result (the closure quote's
`payout`). After the gold replay the record is read from the bank as it then stands, through
the read tools that show it (bank/facts.py), so the value is what any agent's tools would show
the customer at the end of a correct session. The generator and `validate-tasks` compare each
expected value with it (a mismatch is named by task and field); the gold agent reads the same
place in its own tool results to tell it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from decimal import Decimal, InvalidOperation
from typing import Any

from pytest_bankbench.bank.errors import ToolError
from pytest_bankbench.bank.facts import ARG_PREFIX, LOGGED_IN, field_value
from pytest_bankbench.bank.registry import ToolSpec, all_tools
from pytest_bankbench.bank.store import Bank
from pytest_bankbench.tasks.model import Task, ToldValue

_NUMERIC = ("amount", "percent", "count")
_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")

RecordKey = tuple[str, str, str]  # entity, key, field


def as_kind(kind: str, raw: Any) -> str | None:
    """A raw field as a value of this kind (a told value's `value`), or None when it cannot be
    one: "12500.5" for an amount, "2026-05-01" for a date, "4321" for digits."""
    if raw is None or isinstance(raw, bool):
        return None
    text = str(raw)
    if kind in ("amount", "percent"):
        try:
            return text if Decimal(text).is_finite() else None
        except InvalidOperation:
            return None
    if kind == "count":
        return text if text.isdigit() else None
    if kind == "date":
        return text[:10] if _DATE.fullmatch(text[:10]) else None
    if kind == "digits":
        return re.sub(r"\D", "", text) or None
    return text


def same(kind: str, expected: str, got: str) -> bool:
    """The expected value and a field read as `as_kind` are the same value of this kind."""
    if kind in _NUMERIC:
        try:
            return Decimal(got) == Decimal(expected)
        except InvalidOperation:
            return False
    if kind == "digits":
        return got.endswith(expected)
    return got.replace("_", " ").casefold() == expected.replace("_", " ").casefold()


def told_sources(task: Task) -> Iterable[tuple[str, ToldValue]]:
    """Every value of the task that is told, with the field of the task it sits in."""
    for i, output in enumerate(task.required_outputs):
        yield f"required_outputs.{i}", output
    for i, disclosure in enumerate(task.disclosures):
        yield f"disclosures.{i}", disclosure
    for i, tell in enumerate(task.tells):
        for j, value in enumerate(tell.values):
            yield f"tells.{i}.values.{j}", value


def record_keys(task: Task) -> list[RecordKey]:
    """The records and fields the task's told values name, to be read after the replay."""
    keys = (
        (s.entity, s.key, s.field)
        for _, v in told_sources(task)
        if (s := v.source) is not None and s.entity is not None and s.key is not None
    )
    return list(dict.fromkeys(keys))


def _key_argument(spec: ToolSpec, reveal_key: str) -> str | None:
    """The argument a read tool takes the record's key in, or "" for a tool taking none."""
    names = spec.arguments.model_fields
    required = [n for n, info in names.items() if info.is_required()]
    if reveal_key.startswith(ARG_PREFIX):
        return reveal_key.removeprefix(ARG_PREFIX)
    if reveal_key in names:
        return reveal_key
    return "" if not required else None


def read_record(bank: Bank, entity: str, key: str, field: str) -> tuple[bool, Any]:
    """The field of a record as the bank now holds it, read through the first read tool (by
    name) that shows it; (False, None) when no read tool shows that record with that field."""
    for _name, spec in sorted(all_tools().items()):
        if spec.kind != "read":
            continue
        for reveal in spec.reveals:
            if reveal.entity != entity or field not in reveal.field_map():
                continue
            argument = "" if reveal.key == LOGGED_IN else _key_argument(spec, reveal.key)
            if argument is None:
                continue
            arguments = {argument: key} if argument else {}
            try:
                output = spec.invoke(bank, arguments)
            except ToolError:
                continue
            found = field_value(
                spec.reveals, arguments, output, bank.customer_id, entity, key, field
            )
            if found[0]:
                return found
    return False, None


def read_result(results: Mapping[str, Mapping[str, Any]], call: str, path: str) -> tuple[bool, Any]:
    """A field of a gold call's result by dotted path ("details.status"; a number is a list
    index: "transactions.0.amount")."""
    value: Any = results.get(call)
    for part in path.split("."):
        if isinstance(value, list) and part.isdigit() and int(part) < len(value):
            value = value[int(part)]
        elif isinstance(value, Mapping) and part in value:
            value = value[part]
        else:
            return False, None
    return True, value


def source_mismatch(
    value: ToldValue,
    results: Mapping[str, Mapping[str, Any]],
    records: Mapping[RecordKey, tuple[bool, Any]],
) -> str | None:
    """Why the value is not the one its source holds after the gold replay, or None."""
    source = value.source
    if source is None:
        return None
    found = (
        read_result(results, source.call, source.field)
        if source.call is not None
        else records.get((str(source.entity), str(source.key), source.field), (False, None))
    )
    if not found[0]:
        return f"{value.label!r}: names {source}, which the gold replay does not show"
    got = as_kind(value.kind, found[1])
    if got is not None and same(value.kind, value.value, got):
        return None
    held = found[1] if got is None else got
    return (
        f"{value.label!r}: {value.kind} {value.value} is not the {source}, which the bank holds "
        f"as {held} after the gold replay"
    )
