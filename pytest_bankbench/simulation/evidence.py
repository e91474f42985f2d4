"""What the gold agent's own tool results show of a value it is to tell (issue 17, item 3).

The gold agent tells what its tools returned, never the task's expectation: a custom task whose
expected value is wrong then fails `--bank-model gold`, as it should. A value that names its
record and field (`source`, tasks/sources.py) is read there: the latest of the agent's own results
that shows that record with that field (the account the customer named, after the transfer), or
the result of the gold call named. A value that names none (a rule, an article's answer) is found
as a result field equal to it, else in an article or the policy that states it (the card-block
terms, knowledge-base answers), else as the field its label names (the tools' figure is told).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from decimal import Decimal
from typing import Any, TypeVar

from pytest_bankbench.bank.facts import field_value
from pytest_bankbench.bank.registry import get_tool
from pytest_bankbench.simulation.chat import policy_text
from pytest_bankbench.simulation.trace import Event, ToolEvent
from pytest_bankbench.tasks.model import Source, ToldValue
from pytest_bankbench.tasks.sources import as_kind, read_result, same

V = TypeVar("V", bound=ToldValue)
# Results longer than this are prose (a knowledge-base article), searched as text.
_PROSE = 80
_LABEL_NOISE = frozenset({"the", "of", "a", "to", "your", "you", "in", "on", "with", "for"})


def _fields(value: Any, key: str = "") -> Iterator[tuple[str, Any]]:
    """Every field of a tool result, with the name it sits under (list items keep the list's)."""
    if isinstance(value, dict):
        for name, item in value.items():
            yield from _fields(item, name)
    elif isinstance(value, list):
        for item in value:
            yield from _fields(item, key)
    else:
        yield key, value


def _in_prose(value: ToldValue, text: str) -> bool:
    """The value is written in a text (an article, the policy): an amount after a currency
    sign, a percentage, a count before its unit, a phrase as whole words."""
    number = re.escape(value.value)
    if value.kind == "amount":
        found = re.findall(r"(?:Rs\.?|₹|INR)\s*(\d[\d,]*(?:\.\d+)?)", text)
        return any(Decimal(f.replace(",", "")) == value.amount() for f in found)
    if value.kind == "percent":
        return any(
            Decimal(f) == Decimal(value.value) for f in re.findall(r"(\d+(?:\.\d+)?)\s*%", text)
        )
    if value.kind == "count":
        unit = (value.unit or "").split()[-1:]
        tail = rf"\s+(?:[a-z-]+\s+)?{re.escape(unit[0].rstrip('s'))}s?\b" if unit else r"\b"
        return bool(re.search(rf"(?<![\d.,]){number}{tail}", text, re.IGNORECASE))
    return bool(re.search(rf"(?<!\w){number}(?!\w)", text, re.IGNORECASE))


def sourced(source: Source, kind: str, events: Sequence[Event]) -> str | None:
    """What the agent's own results show at a value's source: the latest result showing the
    record with the field, or the named gold call's result (the gold agent's call ids are
    `gold-cN`); None when none shows it."""
    for event in reversed(events):
        if not (isinstance(event, ToolEvent) and event.ok and event.output):
            continue
        if source.call is not None:
            if event.call.call_id != f"gold-{source.call}":
                continue
            found = read_result({source.call: event.output}, source.call, source.field)
        else:
            found = field_value(
                get_tool(event.call.name).reveals,
                event.call.arguments or {},
                event.output,
                "",
                str(source.entity),
                str(source.key),
                source.field,
            )
        got = as_kind(kind, found[1]) if found[0] else None
        if got is not None:
            return got[-4:] if kind == "digits" else got
    return None


def shown_value(value: V, events: Sequence[Event]) -> V | None:
    """The value as the agent's own tool results show it, for a value it is to tell.

    Read at its source when it names one. Else the field holding the expected value, else an
    article or the policy that states it, else the field its label names (then the tools'
    figure is told, and a wrong expectation fails the session, issue 17), else nothing."""
    if value.source is not None:
        got = sourced(value.source, value.kind, events)
        return None if got is None else value.model_copy(update={"value": got})
    fields = [
        item
        for e in events
        if isinstance(e, ToolEvent) and e.ok and e.output
        for item in _fields(e.output)
    ]
    for _, raw in fields:
        got = as_kind(value.kind, raw)
        if got is not None and same(value.kind, value.value, got):
            got = got[-len(value.value) :] if value.kind == "digits" else got
            return value.model_copy(update={"value": got})
    prose = [str(raw) for _, raw in fields if isinstance(raw, str) and len(raw) > _PROSE]
    if any(_in_prose(value, text) for text in [*prose, policy_text()]):
        return value
    words = set(re.findall(r"[a-z]+", value.label.lower())) - _LABEL_NOISE
    best: tuple[int, str] | None = None
    for key, raw in fields:
        got = as_kind(value.kind, raw)
        score = len(words & set(key.split("_")))
        if got is not None and score and (best is None or score >= best[0]):
            best = (score, got[-len(value.value) :] if value.kind == "digits" else got)
    return value.model_copy(update={"value": best[1]}) if best else None
