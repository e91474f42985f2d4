"""The session view every check reads (scoring/view.py), and the shortcuts of the scorer's speed
work (issue 16): each gives what the long way gives."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pytest_bankbench.bank.diff import ChangeSet, compare
from pytest_bankbench.bank.registry import get_tool
from pytest_bankbench.runner import expected_changes
from pytest_bankbench.scoring.matching import _flag, normalize, same_value
from pytest_bankbench.scoring.raw_output import _strip_once, strip_raw
from pytest_bankbench.scoring.scorer import _same_changes
from pytest_bankbench.scoring.view import SessionView
from pytest_bankbench.simulation.trace import MessageEvent, ToolEvent
from pytest_bankbench.tasks.loader import shipped_tasks
from tests.scoring.sessions import edit, first_of, gold

TASK = first_of("fd_closure")


def test_the_view_splits_the_trace_by_kind_keeping_positions() -> None:
    trace = gold(TASK.task_id)
    view = SessionView.of(trace)
    tools = [(i, e) for i, e in enumerate(trace.events) if isinstance(e, ToolEvent)]
    messages = [(i, e) for i, e in enumerate(trace.events) if isinstance(e, MessageEvent)]
    assert [(c.position, c.event) for c in view.calls] == tools
    assert [(c.position, c.event) for c in view.successful] == [(i, e) for i, e in tools if e.ok]
    assert [c.event for c in view.effective] == [e for _, e in tools if e.took_effect]
    assert view.effective, "a closure session has a write that took effect"
    assert [(m.position, m.event) for m in view.messages] == messages
    assert [m.text for m in view.agent] == trace.agent_messages()
    assert all(m.lowered == m.text.lower() for m in view.messages)
    assert view.tool_events == trace.tool_events()


def test_a_calls_arguments_carry_the_tools_defaults_and_an_unreadable_call_none() -> None:
    trace = gold(TASK.task_id)
    position, event = next(
        (i, e) for i, e in enumerate(trace.events) if isinstance(e, ToolEvent) and e.took_effect
    )
    spec = get_tool(event.call.name)
    unreadable = event.model_copy(
        update={"call": event.call.model_copy(update={"arguments": None})}
    )
    events = list(trace.events)
    events[position] = unreadable
    view = SessionView.of(edit(trace, events))
    call = next(c for c in SessionView.of(trace).calls if c.position == position)
    assert call.arguments == spec.with_defaults(event.call.arguments or {})
    assert next(c for c in view.calls if c.position == position).arguments is None


# Families whose gold changes two rows or more: a row can be dropped, doubled or reordered.
_CHANGING = sorted(
    {t.family for t in shipped_tasks() if t.expected_changes and len(t.expected_changes) >= 2}
)[:3]


@pytest.mark.parametrize("family", _CHANGING)
def test_same_changes_agrees_with_compare(family: str) -> None:
    """The signature shortcut says equal exactly when bank/diff.compare finds no difference:
    the same rows in any order, a row missing, a row twice, another session's rows."""
    task = first_of(family)
    trace = gold(task.task_id)
    expected = expected_changes(task)
    rows = list(trace.changes)
    assert rows, family
    other = gold(first_of(next(f for f in _CHANGING if f != family)).task_id)
    shuffled = rows[:]
    random.Random(16).shuffle(shuffled)
    for changed in (rows, shuffled, rows[1:], rows + rows[:1], list(other.changes), []):
        edited = trace.model_copy(update={"changes": tuple(changed)})
        want = compare(ChangeSet.of(list(changed)), expected).equal
        assert _same_changes(edited, expected) is want, (family, len(changed))


_VALUES = st.one_of(
    st.booleans(),
    st.none(),
    st.integers(-(10**6), 10**6),
    st.floats(allow_nan=False, allow_infinity=False, width=32),
    st.sampled_from(["NEFT", "neft ", "IMPS", "10", "10.0", "yes", "0", "true", "FD001", ""]),
    st.text(max_size=6),
)


def _same_value_long_way(gold: object, got: object) -> bool:
    if isinstance(gold, bool):
        return _flag(got) is gold
    if isinstance(got, bool):
        return False
    return bool(normalize(got) == normalize(gold))


@given(_VALUES, _VALUES)
def test_same_value_shortcut_agrees_with_normal_forms(gold: object, got: object) -> None:
    if gold == got and type(gold) is type(got):
        assert _same_value_long_way(gold, got)  # an identical value is equal in every reading
    assert same_value(gold, got) is _same_value_long_way(gold, got)


def _strip_long_way(text: str) -> str:
    while (stripped := _strip_once(text)) != text:
        text = stripped
    return text


@given(st.text(alphabet='ab {}[]":,`\n1', max_size=40))
def test_strip_raw_shortcut_changes_nothing(text: str) -> None:
    """A message with no fence, bracket or quote is returned as it is, as the full pass would."""
    assert strip_raw(text) == _strip_long_way(text)
