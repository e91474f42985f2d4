"""Required calls (scoring/required.py): each gold call placed in the session, the missing ones
named with what would have satisfied them."""

from __future__ import annotations

from pytest_bankbench.scoring.required import assign_required, missing_calls, tools_showing
from pytest_bankbench.scoring.view import SessionView
from pytest_bankbench.simulation.trace import ToolEvent
from pytest_bankbench.tasks.loader import shipped_tasks
from tests.scoring.sessions import edit, gold


def _task_with_a_fact_and_a_call() -> tuple[str, str]:
    """A shipped task whose gold chain has a required fact and a plain required call."""
    for task in shipped_tasks():
        facts = [g for g in task.gold if g.facts]
        calls = [g for g in task.gold if not g.facts]
        if facts and calls:
            return task.task_id, task.family
    raise AssertionError("no shipped task needs both a fact and a call")


def test_the_gold_session_places_every_required_call_and_misses_none() -> None:
    task_id, _ = _task_with_a_fact_and_a_call()
    task = next(t for t in shipped_tasks() if t.task_id == task_id)
    trace = gold(task_id)
    calls = [e for e in trace.events if isinstance(e, ToolEvent) and e.ok]
    placed = assign_required(task, calls)
    assert set(placed) == {g.id for g in task.gold}
    assert all(at is not None for at in placed.values()), placed
    assert missing_calls(task, SessionView.of(trace)) == []


def test_a_session_without_its_tool_calls_misses_each_and_says_what_shows_a_fact() -> None:
    task_id, _ = _task_with_a_fact_and_a_call()
    task = next(t for t in shipped_tasks() if t.task_id == task_id)
    trace = gold(task_id)
    talk = edit(trace, [e for e in trace.events if not isinstance(e, ToolEvent)])
    missing = missing_calls(task, SessionView.of(talk))
    assert len(missing) == len(task.gold)
    for line, need in zip(missing, task.gold, strict=True):
        assert line.startswith(f"missing {need.id} ")
        if need.facts:
            assert f"shown by a successful {', '.join(tools_showing(need.facts))}" in line
        else:
            assert f"no call to {need.tool} was made" in line
