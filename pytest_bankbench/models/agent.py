"""The agent under test as a litellm chat model with tool calling."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

from pytest_bankbench.bank.registry import tool_schemas
from pytest_bankbench.models.errors import InfraError, ModelFailure
from pytest_bankbench.models.llm import ModelClient
from pytest_bankbench.simulation.agents import AgentAction
from pytest_bankbench.simulation.chat import to_chat
from pytest_bankbench.simulation.session import AgentError
from pytest_bankbench.simulation.trace import Event, ToolCall, Usage


def parse_tool_calls(message: dict[str, Any], move: int) -> list[ToolCall]:
    """Tool calls of a response; arguments that are not a JSON object keep their raw text."""
    calls = []
    for index, call in enumerate(message.get("tool_calls") or []):
        function = call.get("function") or {}
        raw = function.get("arguments")
        try:
            arguments = json.loads(raw) if isinstance(raw, str) else raw
        except (ValueError, RecursionError):  # not JSON, nested too deep, a 5,000-digit number
            arguments = None
        if not isinstance(arguments, dict):
            arguments = None
        calls.append(
            ToolCall(
                call_id=str(call.get("id") or f"call-{move}-{index}"),
                name=str(function.get("name") or ""),
                arguments=arguments,
                raw_arguments=raw if arguments is None else None,
            )
        )
    return calls


class LiteLLMAgent:
    """System prompt = the policy; tools = the 34 schemas; several calls per turn run in order."""

    def __init__(self, client: ModelClient) -> None:
        self.client = client
        self.name = client.settings.model
        self.moves = 0
        self._tools = tool_schemas()

    @property
    def usage(self) -> Usage:
        return self.client.usage

    def start_clock(self) -> None:
        """The session starts: its deadline counts from now."""
        self.client.start_clock()

    def act(self, events: Sequence[Event]) -> AgentAction:
        self.moves += 1
        try:
            response = self.client.complete(to_chat(events), self._tools)
        except ModelFailure as exc:  # a bad request, a refusal, an overflow: the agent's failure
            raise AgentError(str(exc)) from None
        except InfraError as exc:
            raise InfraError(str(exc)) from None
        choices = response.get("choices") or [{}]
        return action_of(choices[0].get("message") or {}, self.moves)


# A reasoning block a model writes into its reply's content ("<think>...</think>": Qwen3 or
# DeepSeek-R1 served without a reasoning parser), up to its close or, left open, to the end.
_REASONING = re.compile(r"<(think|thinking)>.*?(?:</\1>|\Z)", re.DOTALL | re.IGNORECASE)


def reply_of(content: str) -> str:
    """What a model's content says to the customer: its reasoning blocks out, spaces stripped."""
    if "<" in content:
        content = _REASONING.sub("", content)
    return content.strip()


def action_of(message: dict[str, Any], move: int) -> AgentAction:
    """An assistant message (OpenAI format) as a move: its tool calls, else its text, else the
    end. The environment reads a policy's messages the same way (environment/observation.py)."""
    calls = parse_tool_calls(message, move)
    if calls:
        # Text beside tool calls is the model thinking aloud, not a reply to the customer.
        return AgentAction(tool_calls=calls)
    # So is a reasoning block: neither the customer hears it nor the scorer counts it as told
    # (a secret asked for, a result reported, inside the model's thinking, was never said).
    text = reply_of(message.get("content") or "")
    return AgentAction(message=text) if text else AgentAction(end=True)
