"""Reading the place a told value names (`Source`), and comparing the value with it.

A required output or a quote value names where it comes from: a record of the seeded bank (the
account the customer named and its `balance`), a gold call's result (the closure quote's
`payout`) or argument (the amount a transfer sends), a passage of the policy or of an article
(the replacement fee of F.24, tasks/passages.py), or a row of the deposit rate card. After the
gold replay a record is read from the bank as it then stands, through the read tools that show
it (bank/facts.py), so the value is what any agent's tools would show the customer at the end
of a correct session; the rate card is read the same way. The generator and `validate-tasks`
compare each expected value with its place (a mismatch is named by task and field); the gold
agent reads the same place in its own tool calls and results to tell it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from typing import Any

from pytest_bankbench.bank.errors import ToolError
from pytest_bankbench.bank.facts import ARG_PREFIX, LOGGED_IN, field_value
from pytest_bankbench.bank.registry import ToolSpec, all_tools, get_tool
from pytest_bankbench.bank.store import Bank
from pytest_bankbench.tasks.model import Source, Task, ToldValue
from pytest_bankbench.tasks.passages import article_text, passage_problem, policy_clauses

_NUMERIC = ("amount", "percent", "count")
_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")

RecordKey = tuple[str, str, str]  # entity, key, field
RATE_CARD_TOOL = "get_deposit_rate_card"


@dataclass(frozen=True)
class Places:
    """What a gold replay leaves at the places a source can name: each gold call's result and
    arguments by id, the record fields the task's values name, and the rate card."""

    results: Mapping[str, Mapping[str, Any]]
    arguments: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    records: Mapping[RecordKey, tuple[bool, Any]] = field(default_factory=dict)
    rate_card: Mapping[str, Any] | None = None


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


UNSOURCED = (
    "names no source: say where the value is found (a record's field, a gold call's result or "
    "argument, a policy clause or article passage, a rate-card row; README, Writing tasks)"
)


def unsourced(task: Task) -> list[tuple[str, str]]:
    """(field, why) of every told value that names no source: such a value could only be found
    loosely, anywhere in a result or the policy, so a wrong one would pass (issue 17)."""
    return [
        (f"{field}.source", f"{value.label!r} {UNSOURCED}")
        for field, value in told_sources(task)
        if value.source is None
    ]


def record_keys(task: Task) -> list[RecordKey]:
    """The records and fields the task's told values name, to be read after the replay."""
    keys = (
        (s.entity, s.key, s.field)
        for _, v in told_sources(task)
        if (s := v.source) is not None
        and s.entity is not None
        and s.key is not None
        and s.field is not None
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
            if reveal.entity != entity or field not in (*reveal.field_map(), reveal.key):
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


def names_rate_card(task: Task) -> bool:
    return any(v.source is not None and v.source.kind == "rate card" for _, v in told_sources(task))


def read_rate_card(bank: Bank) -> Mapping[str, Any]:
    """The deposit rate card as the bank shows this customer today."""
    return get_tool(RATE_CARD_TOOL).invoke(bank, {})


def rate_row(card: Mapping[str, Any], days: int, column: str) -> tuple[bool, Any]:
    """A column of the rate card's slab holding a tenure ("400" days: the "366-730" slab)."""
    for slab in card.get("slabs", ()):
        low, _, high = str(slab.get("tenure_days", "")).partition("-")
        if low.isdigit() and high.isdigit() and int(low) <= days <= int(high) and column in slab:
            return True, slab[column]
    return False, None


def read_argument(
    arguments: Mapping[str, Mapping[str, Any]], call: str, name: str
) -> tuple[bool, Any]:
    found = arguments.get(call, {})
    return (True, found[name]) if name in found else (False, None)


def passage(source: Source) -> str | None:
    """The text of the passage a source names (a policy clause, an article), None if none."""
    if source.policy is not None:
        return policy_clauses().get(source.policy)
    return None if source.article is None else article_text(source.article)


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


def found_at(source: Source, places: Places) -> tuple[bool, Any]:
    """The raw value at a source's place after the gold replay (a passage is read apart)."""
    if source.kind == "result":
        return read_result(places.results, str(source.call), str(source.field))
    if source.kind == "argument":
        return read_argument(places.arguments, str(source.call), str(source.arg))
    if source.kind == "rate card":
        if places.rate_card is None:
            return False, None
        return rate_row(places.rate_card, int(source.tenure_days or 0), str(source.field))
    key = (str(source.entity), str(source.key), str(source.field))
    return places.records.get(key, (False, None))


def source_mismatch(value: ToldValue, places: Places) -> str | None:
    """Why the value is not the one its source holds after the gold replay, or None."""
    source = value.source
    if source is None:
        return None
    if source.kind == "passage":
        text = passage(source)
        why = (
            f"{source} is not in the shipped policy or knowledge base"
            if text is None
            else passage_problem(value.kind, value.value, text, source.near, str(source))
        )
        return None if why is None else f"{value.label!r}: {why}"
    found = found_at(source, places)
    sent = places.arguments.get(str(source.call))
    if not found[0] and source.kind == "argument" and sent is not None:
        return (
            f"{value.label!r}: gold call {source.call} has no argument {source.arg!r}; it has "
            f"{', '.join(sent) or 'none'}"
        )
    result = places.results.get(str(source.call))
    if not found[0] and source.kind == "result" and isinstance(result, Mapping):
        return (  # user trial: the call's fields were found by guessing
            f"{value.label!r}: names {source}, which the gold replay does not show; the "
            f"result of gold call {source.call} has {', '.join(result) or 'no fields'}"
        )
    if not found[0]:
        return f"{value.label!r}: names {source}, which the gold replay does not show"
    got = as_kind(value.kind, found[1])
    if got is not None and same(value.kind, value.value, got):
        return None
    held = found[1] if got is None else got
    shown = (
        f"the bank holds as {held} after the gold replay"
        if source.kind == "record"
        else f"the gold replay shows as {held}"
    )
    return f"{value.label!r}: {value.kind} {value.value} is not the {source}, which {shown}"
