"""as_action: what a step takes, and an ActionError naming the field for what it does not."""

from __future__ import annotations

import pytest

from pytest_bankbench.environment import ActionError, BankEnv, EnvError, SessionOver
from pytest_bankbench.environment.observation import as_action
from pytest_bankbench.simulation import session
from pytest_bankbench.simulation.agents import AgentAction


@pytest.mark.parametrize(
    ("step", "field", "accepted"),
    [
        ({"tool_calls": "lookup"}, "tool_calls", "a list"),
        ({"tool_calls": [42]}, "tool_calls.0", "a dict"),
        ({"content": 42}, "content", "a string"),
        ({"content": "hi", "end": "maybe"}, "end", "a boolean"),
        ({"content": "hi", "colour": "red"}, "colour", "not a field"),
        ({"message": 42}, "message", "a string"),
        ({"message": "hi", "tool_calls": "x"}, "tool_calls", "a list"),
        ({"message": "hi", "tool_calls": [{"name": 1}]}, "tool_calls.0", "call_id"),
    ],
)
def test_a_malformed_field_is_an_action_error_naming_it(
    step: dict[str, object], field: str, accepted: str
) -> None:
    with pytest.raises(ActionError) as raised:
        as_action(step, 1)
    text = str(raised.value)
    assert f"field '{field}" in text and accepted in text


NEEDS_A_NAME = (
    'step field \'tool_calls.0\': a tool call needs a "function" holding its "name" (a string) '
    'and "arguments" (JSON text, or an object), got {given}; accepted: a list of OpenAI tool '
    'calls, each a dict {{"id": ..., "type": "function", "function": {{"name": ..., '
    '"arguments": "<JSON>"}}}}'
)


@pytest.mark.parametrize(
    "call",
    [
        {"foo": 1},
        {"name": "list_accounts", "arguments": "{}"},
        {"function": "list_accounts"},
        {"function": {"name": "", "arguments": "{}"}},
        {"function": {"name": 7, "arguments": "{}"}},
        {"function": {"name": "list_accounts"}},
        {"function": {"name": "list_accounts", "arguments": [1, 2]}},
    ],
)
def test_a_tool_call_without_a_name_or_arguments_is_an_action_error(
    call: dict[str, object],
) -> None:
    """{"foo": 1} ran as an unknown tool named '' (a user trial); a function that was a string,
    or arguments that were a list, raised a bare AttributeError or ValidationError."""
    with pytest.raises(ActionError) as raised:
        as_action({"tool_calls": [call]}, 1)
    assert str(raised.value) == NEEDS_A_NAME.format(given=repr(call))


@pytest.mark.parametrize("arguments", ["{}", {}, "[1,2]", "{oops"])
def test_a_named_call_with_arguments_is_taken_as_it_is(arguments: object) -> None:
    """Arguments that are no JSON object are the agent's mistake, answered by the tool."""
    call = {"id": "c1", "type": "function", "function": {"name": "x", "arguments": arguments}}
    (taken,) = as_action({"tool_calls": [call]}, 1).tool_calls
    assert (taken.call_id, taken.name) == ("c1", "x")


def test_an_empty_step_is_an_action_error_saying_what_a_step_needs() -> None:
    with pytest.raises(ActionError, match=r'content, tool_calls, or \{"end": true\}'):
        as_action({}, 1)


@pytest.mark.parametrize("step", [{"content": ""}, {"content": None}, {"tool_calls": []}])
def test_an_empty_assistant_message_ends_the_session_as_in_the_plugin(
    step: dict[str, object],
) -> None:
    assert as_action(step, 1) == AgentAction(end=True)


def test_session_over_is_an_env_error_exported_and_caught_as_before() -> None:
    env = BankEnv()
    env.reset("fd_closure-008" if "fd_closure-008" in {t.task_id for t in env.tasks} else None)
    env.step(AgentAction(end=True))
    for caught in (SessionOver, EnvError, session.SessionOver):
        with pytest.raises(caught):
            env.step(AgentAction(message="hello?"))
    env.close()


def test_an_openai_assistant_message_is_taken_whole() -> None:
    """`response.choices[0].message.model_dump()` carries role, refusal, annotations, audio and
    function_call beside content and tool_calls: a step takes it as it is (it was refused for
    'role'); another role is no agent's step."""
    message: dict[str, object] = {
        "content": "Your FD is closed.",
        "role": "assistant",
        "refusal": None,
        "annotations": [],
        "audio": None,
        "function_call": None,
        "tool_calls": None,
    }
    assert as_action(message, 1) == AgentAction(message="Your FD is closed.")
    with pytest.raises(ActionError, match=r"step field 'role'.*accepted: \"assistant\""):
        as_action({"role": "user", "content": "hi"}, 1)
