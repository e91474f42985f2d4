"""The gold dialogue a bank would publish: every phrasing passes every task with the scripted
customer, the agent never shows tool names or internal ids, and the customer never gives away
an id or a fallback before the agent has stated the rule that calls for it (a concept of the
shared vocabulary said un-negated, or a phrase said as it is: tests/tasks/stated.py)."""

from __future__ import annotations

import re
from functools import cache

import pytest

from pytest_bankbench.bank.registry import all_tools
from pytest_bankbench.runner import run_task
from pytest_bankbench.simulation.agents import GoldAgent
from pytest_bankbench.simulation.dialogue import PHRASINGS
from pytest_bankbench.simulation.trace import MessageEvent, Trace
from pytest_bankbench.tasks.loader import shipped_tasks
from tests.tasks.stated import stated

TASKS = shipped_tasks()
INTERNAL_ID = re.compile(r"\b(FD|RD|SR|LN|CRD|BEN|CUST)\d{3,}\b")


@cache
def _gold_traces() -> tuple[Trace, ...]:
    return tuple(run_task(task, GoldAgent(task)).trace for task in TASKS)


def _messages(trace: Trace, role: str) -> list[tuple[int, str]]:
    return [
        (i, e.text)
        for i, e in enumerate(trace.events)
        if isinstance(e, MessageEvent) and e.role == role
    ]


@pytest.mark.parametrize("phrasing", sorted(PHRASINGS))
def test_every_phrasing_passes_every_task(phrasing: str) -> None:
    failed = [
        f"{t.task_id}: {v.failure_type}"
        for t in TASKS
        if not (v := run_task(t, GoldAgent(t, phrasing)).verdict).passed
    ]
    assert len(PHRASINGS) >= 5
    assert not failed, failed[:5]


def test_the_agent_never_shows_tool_names_or_internal_ids() -> None:
    names = re.compile(r"\b(" + "|".join(sorted(all_tools())) + r")\b")
    for trace in _gold_traces():
        for _, text in _messages(trace, "agent"):
            assert not names.search(text), (trace.task_id, text)
            assert not INTERNAL_ID.search(text), (trace.task_id, text)


def test_the_customer_gives_no_id_and_no_fallback_before_the_rule() -> None:
    tasks = {t.task_id: t for t in TASKS}
    for trace in _gold_traces():
        scenario = tasks[trace.task_id].scenario
        said = _messages(trace, "customer")
        instructions = " ".join(i.text for i in scenario.instructions)
        for _, text in said:
            ids = set(INTERNAL_ID.findall(text)) - set(INTERNAL_ID.findall(instructions))
            assert not ids, (trace.task_id, text)
        agent = _messages(trace, "agent")
        for fact in scenario.structured_facts():
            if not fact.after:
                continue
            first = next((i for i, text in said if fact.text in text), None)
            if first is None:
                continue
            before = [text for i, text in agent if i < first]
            assert any(stated(p, text) for p in fact.after for text in before), (
                trace.task_id,
                fact.text,
            )
