"""Scripted policies that see only what a model would: the chat messages of the observations."""

from __future__ import annotations

import json
from typing import Any

from pytest_bankbench.simulation.agents import BUILTIN_AGENTS
from pytest_bankbench.tasks.model import Task
from tests.models.fakes import history_events


class ChatPolicy:
    """A built-in agent reading the conversation back from the observed chat messages, and
    answering with assistant messages in the OpenAI format (the way a model's sampler would)."""

    def __init__(self, task: Task, agent: str = "gold") -> None:
        self.agent = BUILTIN_AGENTS[agent](task)
        self.messages: list[dict[str, Any]] = []

    def observe(self, messages: list[dict[str, Any]]) -> None:
        self.messages.extend(messages)

    def act(self) -> dict[str, Any]:
        action = self.agent.act(history_events(self.messages))
        if action.end:
            return {"end": True}
        if action.tool_calls:  # the plugin says no text beside calls; tests send it next move
            calls = [
                {
                    "id": c.call_id,
                    "type": "function",
                    "function": {"name": c.name, "arguments": json.dumps(c.arguments)},
                }
                for c in action.tool_calls
            ]
            message: dict[str, Any] = {"role": "assistant", "content": None, "tool_calls": calls}
        else:
            message = {"role": "assistant", "content": action.message}
        self.messages.append(message)
        return {k: v for k, v in message.items() if k != "role"}
