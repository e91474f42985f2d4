"""The gold agent reads each value it tells at its source, never from the task's value."""

from __future__ import annotations

from typing import Any

from pytest_bankbench.bank.knowledge import documents
from pytest_bankbench.simulation.evidence import shown_value
from pytest_bankbench.simulation.trace import Event, ToolCall, ToolEvent
from pytest_bankbench.tasks.model import Source, ToldValue


def _event(name: str, output: dict[str, Any], call_id: str = "x") -> ToolEvent:
    return ToolEvent(
        call=ToolCall(call_id=call_id, name=name, arguments={}),
        tool_kind="read",
        ok=True,
        output=output,
    )


def _told(value: ToldValue, events: list[Event], plan: dict[str, dict[str, Any]]) -> str | None:
    """What the agent tells for the value written wrong ("1"): the value at its source."""
    shown = shown_value(value.model_copy(update={"value": "1"}), events, plan)
    return None if shown is None else shown.value


def _value(kind: str, value: str, **source: Any) -> ToldValue:
    return ToldValue(label="v", kind=kind, value=value, source=Source.model_validate(source))


KB = next(doc for doc in documents() if doc.doc_id == "15-lost-or-stolen-card")
CARD = {"slabs": [{"tenure_days": "366-730", "applicable_rate_percent": "7.25"}]}


def test_each_kind_is_read_at_its_place_whatever_the_task_says() -> None:
    events: list[Event] = [
        _event("get_deposit_rate_card", CARD),
        _event("search_knowledge_base", {"results": [{"doc_id": KB.doc_id, "text": KB.text}]}),
    ]
    plan = {"c3": {"amount": 15000, "mode": "NEFT"}}
    cases = [
        (_value("amount", "15000.00", call="c3", arg="amount"), "15000"),
        (_value("amount", "200", policy="F.24"), "200"),
        (_value("count", "7", policy="F.24", near="registered address in"), "7"),
        (_value("amount", "200.00", article=KB.doc_id, near="Replacement fee:"), "200"),
        (_value("percent", "7.25", tenure_days=400, field="applicable_rate_percent"), "7.25"),
    ]
    assert [_told(v, events, plan) for v, _ in cases] == [got for _, got in cases]


def test_a_place_the_agent_has_not_seen_tells_nothing() -> None:
    """No rate card read, no article found, no such argument: nothing to tell (the session
    then fails on the value, as a task whose gold chain does not show it should)."""
    rate = _value("percent", "7.25", tenure_days=400, field="applicable_rate_percent")
    article = _value("amount", "200.00", article=KB.doc_id, near="Replacement fee:")
    argument = _value("amount", "15000.00", call="c3", arg="amount")
    assert [_told(v, [], {}) for v in (rate, article, argument)] == [None, None, None]


def test_a_word_of_a_clause_is_told_only_if_the_clause_says_it() -> None:
    permanent = _value("text", "permanent", policy="F.24")
    assert shown_value(permanent, [], {}) == permanent
    assert shown_value(permanent.model_copy(update={"value": "temporary"}), [], {}) is None
