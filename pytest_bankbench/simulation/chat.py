"""A trace as OpenAI-format chat messages: the agent's view of the conversation (and SFT data)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import cache
from typing import Any

from pytest_bankbench.paths import data_dir
from pytest_bankbench.simulation.trace import Event, MessageEvent, ToolEvent

__all__ = [
    "Message",
    "policy_text",
    "to_chat",
    "tool_call_message",
    "tool_result_content",
]

Message = dict[str, Any]


@cache
def policy_text() -> str:
    """The bank's policy: the agent's system prompt."""
    return (data_dir() / "policy.md").read_text(encoding="utf-8")


def tool_call_message(event: ToolEvent) -> dict[str, Any]:
    """One call in the OpenAI `tool_calls` shape (arguments as a JSON string)."""
    call = event.call
    arguments = (
        call.raw_arguments
        if call.arguments is None
        else json.dumps(call.arguments, ensure_ascii=False)
    )
    return {
        "id": call.call_id,
        "type": "function",
        "function": {"name": call.name, "arguments": arguments or ""},
    }


def tool_result_content(event: ToolEvent) -> str:
    """What the agent reads back: the output, or the error code and its explanation."""
    if event.ok:
        return json.dumps(event.output, ensure_ascii=False)
    return json.dumps({"error": event.error_code, "message": event.error}, ensure_ascii=False)


def to_chat(events: Sequence[Event], system_prompt: str | None = None) -> list[Message]:
    """System prompt, then customer turns as `user`, agent turns as `assistant`, results as `tool`.

    Calls the agent made in one move become one assistant message with several tool calls.
    """
    messages: list[Message] = [{"role": "system", "content": system_prompt or policy_text()}]
    index = 0
    while index < len(events):
        event = events[index]
        if isinstance(event, MessageEvent):
            role = "user" if event.role == "customer" else "assistant"
            messages.append({"role": role, "content": event.text})
            index += 1
            continue
        batch: list[ToolEvent] = []
        while index < len(events):
            candidate = events[index]
            if not isinstance(candidate, ToolEvent) or (
                batch and candidate.batch != batch[0].batch
            ):
                break
            batch.append(candidate)
            index += 1
        messages.append(
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [tool_call_message(e) for e in batch],
            }
        )
        messages.extend(
            {"role": "tool", "tool_call_id": e.call.call_id, "content": tool_result_content(e)}
            for e in batch
        )
    return messages
