"""Gold sessions of shipped tasks, and edits of them, for the unit tests of single checks."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache

from pytest_bankbench.runner import builtin_agent, expected_changes, run_task
from pytest_bankbench.scoring.scorer import Verdict, score
from pytest_bankbench.simulation.trace import Event, MessageEvent, ToolEvent, Trace
from pytest_bankbench.tasks.loader import shipped_tasks
from pytest_bankbench.tasks.model import Task


@cache
def _tasks() -> dict[str, Task]:
    return {t.task_id: t for t in shipped_tasks()}


def first_of(family: str, where: Callable[[Task], bool] = lambda t: True) -> Task:
    """The first shipped task of a family (that meets `where`)."""
    return next(t for t in _tasks().values() if t.family == family and where(t))


@cache
def gold(task_id: str) -> Trace:
    """The gold agent's session of a task, with the scripted customer."""
    task = _tasks()[task_id]
    result = run_task(task, builtin_agent("gold", task))
    assert result.verdict.passed, result.verdict.evidence
    return result.trace


def verdict(task: Task, trace: Trace) -> Verdict:
    return score(task, trace, expected_changes(task))


def failed(task: Task, trace: Trace) -> dict[str, list[str]]:
    """The failed checks of a session and their evidence."""
    found = verdict(task, trace)
    return {name: found.evidence[name] for name, ok in found.checks.items() if not ok}


def edit(trace: Trace, events: Sequence[Event]) -> Trace:
    return trace.model_copy(update={"events": tuple(events)})


def agent_turns(trace: Trace) -> list[int]:
    """Positions of the agent's messages."""
    return [
        i for i, e in enumerate(trace.events) if isinstance(e, MessageEvent) and e.role == "agent"
    ]


def text_at(trace: Trace, position: int) -> str:
    """The text of the message at `position`."""
    event = trace.events[position]
    assert isinstance(event, MessageEvent)
    return event.text


def say(trace: Trace, position: int, text: str) -> Trace:
    """The trace with the message at `position` saying `text` instead."""
    events = list(trace.events)
    event = events[position]
    assert isinstance(event, MessageEvent)
    events[position] = event.model_copy(update={"text": text})
    return edit(trace, events)


def said_last(task: Task, added: str) -> dict[str, list[str]]:
    """The failed checks of the task's gold session with `added` said at the end of its last
    agent message."""
    trace = gold(task.task_id)
    last = agent_turns(trace)[-1]
    return failed(task, say(trace, last, text_at(trace, last) + " " + added))


def insert(trace: Trace, position: int, *new: Event) -> Trace:
    events = list(trace.events)
    events[position:position] = new
    return edit(trace, events)


def after_last_write(trace: Trace) -> int:
    """The first agent message after the session's last effective write."""
    writes = [i for i, e in enumerate(trace.events) if isinstance(e, ToolEvent) and e.took_effect]
    return next(i for i in agent_turns(trace) if i > writes[-1])


def customer(text: str, agrees: bool | None = False) -> MessageEvent:
    return MessageEvent(role="customer", text=text, agrees=agrees)


def agent(text: str) -> MessageEvent:
    return MessageEvent(role="agent", text=text)
