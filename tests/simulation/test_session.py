"""The session loop: tool errors reach the agent, limits end the session with error, transfers end it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from pytest_bankbench.bank.store import Bank
from pytest_bankbench.simulation.agents import Agent, AgentAction, GoldAgent
from pytest_bankbench.simulation.customer import ScriptedCustomer
from pytest_bankbench.simulation.session import (
    AgentError,
    Limits,
    NotAnAction,
    execute,
    run_session,
)
from pytest_bankbench.simulation.trace import Event, ToolCall, ToolEvent, Trace
from pytest_bankbench.tasks.loader import shipped_tasks
from pytest_bankbench.tasks.model import Task


def _task(family: str) -> Task:
    return next(t for t in shipped_tasks() if t.family == family)


class _Scripted:
    """An agent that plays a fixed list of actions, then ends."""

    name = "scripted-test-agent"

    def __init__(self, actions: list[AgentAction]) -> None:
        self.actions = actions

    def act(self, events: Sequence[Event]) -> AgentAction:
        return self.actions.pop(0) if self.actions else AgentAction(end=True)


def _run(task: Task, agent: Agent, limits: Limits = Limits()) -> Trace:
    with Bank(task.customer_id, task.task_date) as bank:
        return run_session(task, agent, ScriptedCustomer(task), bank, limits)


def test_gold_session_ends_by_customer_stop() -> None:
    task = _task("fd_closure")
    trace = _run(task, GoldAgent(task))
    assert trace.end == "customer_stop"


def test_tool_error_comes_back_as_a_failed_result() -> None:
    task = _task("fd_closure")
    bad = ToolCall(call_id="x", name="get_account_balance", arguments={"account_number": "1"})
    trace = _run(task, _Scripted([AgentAction(tool_calls=[bad])]))
    event = trace.events[1]
    assert isinstance(event, ToolEvent) and not event.ok and event.error_code == "not_found"
    assert trace.failed_calls == 1 and trace.end == "agent_end"


def test_malformed_and_unknown_calls_are_failed_calls() -> None:
    task = _task("fd_closure")
    calls = [
        ToolCall(call_id="a", name="teleport_money", arguments={}),
        ToolCall(call_id="b", name="list_cards", arguments=None, raw_arguments="{oops"),
        ToolCall(call_id="c", name="list_cards", arguments={"extra": 1}),
    ]
    trace = _run(task, _Scripted([AgentAction(tool_calls=calls)]))
    codes = [e.error_code for e in trace.events if isinstance(e, ToolEvent)]
    assert codes == ["unknown_tool", "invalid_arguments", "invalid_arguments"]


@pytest.mark.parametrize(
    ("raw", "said"),
    [
        ("[1,2]", "must be a JSON object, got a list: '[1,2]'"),
        ("null", "must be a JSON object, got null: 'null'"),
        ('"{}"', """must be a JSON object, got a string: '"{}"'"""),
        ("{oops", "are not valid JSON: '{oops'; send a JSON object"),
    ],
)
def test_arguments_that_are_no_object_say_whether_they_are_json(raw: str, said: str) -> None:
    """JSON that is not an object was refused as 'not valid JSON' (a user trial)."""
    task = _task("fd_closure")
    call = ToolCall(call_id="b", name="list_cards", arguments=None, raw_arguments=raw)
    with Bank(task.customer_id, task.task_date) as bank:
        event = execute(bank, call)
    assert event.error_code == "invalid_arguments"
    assert event.error == f"the arguments of list_cards {said}"


def test_error_limit_ends_with_error() -> None:
    task = _task("fd_closure")
    bad = ToolCall(call_id="x", name="get_account_balance", arguments={"account_number": "1"})
    trace = _run(task, _Scripted([AgentAction(tool_calls=[bad] * 20)]), Limits(200, 10))
    assert trace.end == "max_errors" and trace.failed_calls == 10


def test_step_limit_ends_with_error() -> None:
    task = _task("fd_closure")
    read = ToolCall(call_id="r", name="list_accounts", arguments={})
    trace = _run(task, _Scripted([AgentAction(tool_calls=[read] * 50)]), Limits(20, 10))
    assert trace.end == "max_steps" and trace.steps == 20


def test_transfer_to_human_ends_the_session() -> None:
    task = _task("fd_closure")
    human = ToolCall(call_id="h", name="transfer_to_human_agent", arguments={"reason": "dispute"})
    after = ToolCall(call_id="r", name="list_accounts", arguments={})
    trace = _run(task, _Scripted([AgentAction(tool_calls=[human, after])]))
    assert trace.end == "transfer" and len(trace.tool_events()) == 1


def test_agent_error_ends_with_error() -> None:
    class Broken:
        name = "broken"

        def act(self, events: Sequence[Event]) -> AgentAction:
            raise AgentError("provider said 500")

    trace = _run(_task("fd_closure"), Broken())
    assert trace.end == "agent_error"


@pytest.mark.parametrize(
    ("returned", "shown"),
    [
        ({"message": "hi"}, "dict {'message': 'hi'}, not an AgentAction"),
        ("hi", "str 'hi', not an AgentAction"),
        (None, "NoneType None, not an AgentAction"),
        (
            AgentAction(tool_calls=[{"name": "x"}]),  # type: ignore[list-item]
            "a tool call dict {'name': 'x'}, not a ToolCall",
        ),
        (AgentAction(message=42), "message is int 42, not a string"),  # type: ignore[arg-type]
    ],
)
def test_an_agent_returning_no_action_is_an_error_naming_it(returned: Any, shown: str) -> None:
    class Garbage:
        name = "garbage"

        def act(self, events: Sequence[Event]) -> Any:
            return returned

    with pytest.raises(NotAnAction) as raised:
        _run(_task("fd_closure"), Garbage())
    text = str(raised.value)
    assert text.startswith("agent 'garbage' returned ")
    assert shown in text and "AgentAction(end=True)" in text and "Testing your own agent" in text
