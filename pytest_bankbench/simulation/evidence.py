"""What the gold agent's own tool results show of a value it is to tell (issue 17, item 3).

The gold agent tells what its tools returned, never the task's expectation: a custom task whose
expected value is wrong then fails `--bank-model gold`, as it should. A value that names its
place (`source`, tasks/sources.py) is read there: the latest of the agent's own results that
shows that record with that field (the account the customer named, after the transfer); the
result of the gold call named; the argument the agent sends in that call (the amount of the
transfer it proposes); the figure of the policy clause in its own prompt, or of the article in
its own search results, after the words `near` (a word, "permanent", is told only if the
passage says it); the row of the rate card its own call returned. A value that names none (a
custom task may leave it out) is found as a result field equal to it, else in an article or the
policy that states it, else as the field its label names (the tools' figure is told).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from decimal import Decimal
from typing import Any, TypeVar

from pytest_bankbench.bank.facts import field_value
from pytest_bankbench.bank.registry import get_tool
from pytest_bankbench.simulation.chat import policy_text
from pytest_bankbench.simulation.trace import Event, ToolEvent
from pytest_bankbench.tasks.model import Source, ToldValue
from pytest_bankbench.tasks.passages import NUMERIC, clauses, figure, figures, holds
from pytest_bankbench.tasks.sources import RATE_CARD_TOOL, as_kind, rate_row, read_result, same

V = TypeVar("V", bound=ToldValue)
# The gold calls' arguments by id: what the gold agent sends (or is about to send) in each.
Plan = Mapping[str, Mapping[str, Any]]
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
        return any(Decimal(f) == value.amount() for f in figures("amount", text))
    if value.kind == "percent":
        return any(Decimal(f) == Decimal(value.value) for f in figures("percent", text))
    if value.kind == "count":
        unit = (value.unit or "").split()[-1:]
        tail = rf"\s+(?:[a-z-]+\s+)?{re.escape(unit[0].rstrip('s'))}s?\b" if unit else r"\b"
        return bool(re.search(rf"(?<![\d.,]){number}{tail}", text, re.IGNORECASE))
    return bool(re.search(rf"(?<!\w){number}(?!\w)", text, re.IGNORECASE))


_KB = "search_knowledge_base"


def _passage(source: Source, events: Sequence[Event]) -> str | None:
    """The passage as the agent has it: a clause of its prompt, an article of its results."""
    if source.policy is not None:
        return clauses(policy_text()).get(source.policy)
    for event in reversed(events):
        if isinstance(event, ToolEvent) and event.ok and event.output:
            for article in event.output.get("results", ()) if event.call.name == _KB else ():
                if isinstance(article, Mapping) and article.get("doc_id") == source.article:
                    return str(article.get("text", ""))
    return None


def _from_passage(value: ToldValue, events: Sequence[Event]) -> str | None:
    """The figure the passage gives (a word: the value, if the passage says it)."""
    source = value.source
    assert source is not None
    text = _passage(source, events)
    if text is None:
        return None
    if value.kind in NUMERIC or value.kind == "date":
        return figure(value.kind, text, source.near)
    return value.value if holds(value.kind, value.value, text, source.near) else None


def sourced(value: ToldValue, events: Sequence[Event], plan: Plan) -> str | None:
    """What the agent's own calls and results show at a value's source: the latest result
    showing the record with the field, the named gold call's result (the gold agent's call ids
    are `gold-cN`) or argument, the passage, the latest rate card; None when none shows it."""
    source, kind = value.source, value.kind
    assert source is not None
    if source.kind == "passage":
        return _from_passage(value, events)
    if source.kind == "argument":
        sent = plan.get(str(source.call), {})
        return as_kind(kind, sent[str(source.arg)]) if str(source.arg) in sent else None
    for event in reversed(events):
        if not (isinstance(event, ToolEvent) and event.ok and event.output):
            continue
        if source.kind == "rate card":
            if event.call.name != RATE_CARD_TOOL:
                continue
            found = rate_row(event.output, int(source.tenure_days or 0), str(source.field))
        elif source.call is not None:
            if event.call.call_id != f"gold-{source.call}":
                continue
            found = read_result({source.call: event.output}, source.call, str(source.field))
        else:
            found = field_value(
                get_tool(event.call.name).reveals,
                event.call.arguments or {},
                event.output,
                "",
                str(source.entity),
                str(source.key),
                str(source.field),
            )
        got = as_kind(kind, found[1]) if found[0] else None
        if got is not None:
            return got[-4:] if kind == "digits" else got
    return None


def shown_value(value: V, events: Sequence[Event], plan: Plan | None = None) -> V | None:
    """The value as the agent's own calls and results show it, for a value it is to tell.

    Read at its source when it names one (`plan`: the arguments of the gold calls it sends).
    Else the field holding the expected value, else an article or the policy that states it,
    else the field its label names (then the tools' figure is told, and a wrong expectation
    fails the session, issue 17), else nothing."""
    if value.source is not None:
        got = sourced(value, events, plan or {})
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
