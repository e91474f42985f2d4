"""What the environment shows a policy and what it takes from one: observations, actions, info.

An observation carries the new chat messages in the OpenAI format a trainer's chat template
reads (simulation/chat.py writes them the same way for `export-sft`): on reset the system
prompt (the bank's policy) and the customer's opening, with the tool schemas beside them;
after a step, the results of the step's tool calls and the customer's reply, if any.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationError
from pydantic_core import PydanticCustomError

from pytest_bankbench.environment.rewards import RewardConfig, Rewards
from pytest_bankbench.errors import BankBenchError
from pytest_bankbench.models.agent import action_of
from pytest_bankbench.scoring.scorer import Verdict
from pytest_bankbench.simulation.agents import AgentAction
from pytest_bankbench.simulation.chat import Message, tool_result_content
from pytest_bankbench.simulation.trace import EndReason, Event, MessageEvent, ToolCall, ToolEvent

__all__ = [
    "ActionError",
    "ChatAction",
    "Observation",
    "StepInfo",
    "StepResult",
    "as_action",
    "new_messages",
]


class ActionError(BankBenchError, ValueError):
    """A step was given something that is not a move (neither an AgentAction nor a message), or
    a dict with a field that is not one (a number for `content`, a string for `tool_calls`, a
    tool call with no function name)."""


class _Record(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


def _named_call(call: dict[str, Any]) -> dict[str, Any]:
    """An OpenAI tool call whose function names the tool and holds its arguments (JSON text, or
    an object); without them it ran as an unknown tool named '' (a user trial)."""
    function = call.get("function")
    if not (
        isinstance(function, dict)
        and isinstance(function.get("name"), str)
        and function["name"]
        and isinstance(function.get("arguments"), str | dict)
    ):
        raise PydanticCustomError(
            "tool_call",
            'a tool call needs a "function" holding its "name" (a string) and "arguments" '
            "(JSON text, or an object)",
        )
    return call


class ChatAction(_Record):
    """A move as an assistant message: text, OpenAI-format tool calls, or an explicit end.

    Read the way the plugin reads a model's reply (models/agent.py `action_of`): with tool
    calls, the text beside them is thinking aloud and is not said; with neither, the agent
    ends the conversation."""

    content: str | None = None
    # None, as an OpenAI client gives no calls
    tool_calls: list[Annotated[dict[str, Any], AfterValidator(_named_call)]] | None = None
    end: bool = False
    # The rest of an assistant message as an OpenAI client returns it
    # (`response.choices[0].message.model_dump()`): taken, and never said.
    role: Literal["assistant"] = "assistant"
    refusal: str | None = None
    annotations: list[Any] | None = None
    audio: Any = None
    function_call: Any = None
    reasoning_content: str | None = None

    def action(self, move: int) -> AgentAction:
        if self.end:
            return AgentAction(end=True)
        return action_of({"content": self.content, "tool_calls": self.tool_calls or []}, move)


class Observation(_Record):
    """What the policy sees after a reset or a step."""

    task_id: str
    messages: list[Message]  # new since the last observation: system, user and tool messages
    customer: str | None = None  # the customer's new message, when it spoke
    tool_results: list[ToolEvent] = Field(default_factory=list)
    tools: list[dict[str, Any]] = Field(default_factory=list)  # on reset only
    system_prompt: str = ""  # on reset only: the bank's policy


class StepInfo(_Record):
    """How the session stands: its end, counts, the verdict and rewards, and the reward used.

    `verdict` and `rewards` are the final ones once `done`; before that they are the verdict
    so far (the session scored as if the agent ended now) when the environment scores every
    step, else None."""

    task_id: str
    trial: int
    seed: int
    split: str | None
    moves: int
    steps: int
    failed_calls: int
    end: EndReason | None = None
    end_detail: str = ""
    verdict: Verdict | None = None
    rewards: Rewards | None = None
    reward_config: RewardConfig  # the run's provenance: which reward was paid, its weights


class StepResult(_Record):
    observation: Observation
    reward: float
    done: bool
    truncated: bool  # ended by a limit (steps, failed calls) rather than by either party
    info: StepInfo


class _AgentActionFields(_Record):
    """A dict of AgentAction's own fields (`message` rather than `content`), as read from JSON."""

    tool_calls: list[ToolCall] = Field(default_factory=list)
    message: str | None = None
    end: bool = False


STEP_NEEDS = 'a step needs content, tool_calls, or {"end": true}'
TOOL_CALL = '{"id": ..., "type": "function", "function": {"name": ..., "arguments": "<JSON>"}}'
_CHAT_ACCEPTS = {
    "content": "a string or null (the text said to the customer)",
    "tool_calls": f"a list of OpenAI tool calls, each a dict {TOOL_CALL}",
    "end": "a boolean (true ends the session)",
    "role": '"assistant" (a step is the agent\'s message)',
}
_AGENT_ACCEPTS = {
    "message": "a string or null (the text said to the customer)",
    "tool_calls": "a list of ToolCall, or dicts of its fields (call_id, name, arguments)",
    "end": "a boolean (true ends the session)",
}


def _refused(exc: ValidationError, accepts: dict[str, str]) -> ActionError:
    """The first bad field of a step's dict, what was wrong with it and what it accepts."""
    error = exc.errors()[0]
    field = ".".join(str(part) for part in error["loc"])
    top = str(error["loc"][0]) if error["loc"] else ""
    if error["type"] == "extra_forbidden":
        fields = ", ".join(accepts)
        return ActionError(f"step field {field!r} is not a field of a step; accepted: {fields}")
    given = repr(error.get("input"))
    given = given if len(given) <= 80 else f"{given[:77]}..."
    accepted = accepts.get(top, ", ".join(accepts))
    return ActionError(f"step field {field!r}: {error['msg']}, got {given}; accepted: {accepted}")


def as_action(action: object, move: int) -> AgentAction:
    """An AgentAction, a ChatAction, or a dict of either's fields, as the move to play.

    A dict with a malformed field, or with none of a step's fields, is an ActionError; an
    assistant message with empty content and no calls ends the session, as in the plugin."""
    if isinstance(action, AgentAction):
        return action
    if isinstance(action, ChatAction):
        return action.action(move)
    if isinstance(action, dict):
        if not any(key in action for key in ("content", "tool_calls", "end", "message")):
            raise ActionError(f"{STEP_NEEDS} (an assistant message), not {action!r}")
        if "message" in action and "content" not in action:  # AgentAction's own fields
            try:
                fields = _AgentActionFields.model_validate(action)
            except ValidationError as exc:
                raise _refused(exc, _AGENT_ACCEPTS) from None
            return AgentAction(list(fields.tool_calls), fields.message, fields.end)
        try:
            chat = ChatAction.model_validate(action)
        except ValidationError as exc:
            raise _refused(exc, _CHAT_ACCEPTS) from None
        return chat.action(move)
    raise ActionError(f"a step takes an AgentAction, a ChatAction or a dict, not {action!r}")


def new_messages(events: Sequence[Event]) -> list[Message]:
    """The environment's side of new events as chat messages (the agent's own are left out)."""
    messages: list[Message] = []
    for event in events:
        if isinstance(event, ToolEvent):
            content = tool_result_content(event)
            messages.append(
                {"role": "tool", "tool_call_id": event.call.call_id, "content": content}
            )
        elif isinstance(event, MessageEvent) and event.role == "customer":
            messages.append({"role": "user", "content": event.text})
    return messages
