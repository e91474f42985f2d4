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
