"""The public agent interface: what an agent of your own implements, sees, returns and is judged by.

An agent is any object with a `name` (recorded in each trace) and `act(events) -> AgentAction`.
The session loop calls `act` with every event so far: the customer's messages and the agent's
own (`MessageEvent`), and each tool call with the bank's answer (`ToolEvent`). The agent answers
with tool calls to run in order (`ToolCall`), a message to the customer, or the end:

    AgentAction(tool_calls=[ToolCall(call_id="c1", name="list_accounts", arguments={})])
    AgentAction(message="Your balance is Rs. 19,689.63.")
    AgentAction(end=True)

A factory makes one agent per session from an `AgentContext`: the task as the agent may know it
(`TaskView`: the policy as its system prompt, the tool schemas, the customer's opening; never
the task's gold calls or expected values), the trial, and a random generator seeded from the
session's seed. `pytest --bank-agent module:factory` runs such a factory on the suite; each
session's `Verdict` holds every check's result with its evidence.

The classes are re-exported from where they live (simulation/, scoring/); importing them from
here (or from `pytest_bankbench` itself) is the stable way.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date
from functools import cached_property
from typing import Any

from pytest_bankbench.scoring.scorer import CheckName, FailureType, Verdict
from pytest_bankbench.simulation.agents import Agent, AgentAction
from pytest_bankbench.simulation.chat import Message, policy_text, to_chat
from pytest_bankbench.simulation.customer import CustomerTurn, Say, Stop, opening
from pytest_bankbench.simulation.trace import (
    EndReason,
    Event,
    MessageEvent,
    ToolCall,
    ToolEvent,
    Trace,
    Usage,
)
from pytest_bankbench.tasks.model import Task

__all__ = [
    "Agent",
    "AgentAction",
    "AgentContext",
    "AgentFactory",
    "CheckName",
    "CustomerTurn",
    "EndReason",
    "Event",
    "FailureType",
    "Message",
    "MessageEvent",
    "Say",
    "Stop",
    "TaskView",
    "ToolCall",
    "ToolEvent",
    "Trace",
    "Usage",
    "Verdict",
    "agent_context",
    "chat_messages",
    "is_agent",
    "task_view",
]


@dataclass(frozen=True)
class TaskView:
    """What an agent may know of a task before the conversation starts.

    `system_prompt` is the bank's policy (what a model agent gets as its system prompt), `tools`
    the JSON schemas of every tool in the OpenAI `tools` shape (a fresh copy per view), `opening`
    the scripted customer's first message (an LLM customer words its own; the events always
    start with the one actually said), `task_date` the bank's today. The gold calls, the
    expected changes and the values the checks look for are not part of it.
    """

    task_id: str
    task_date: date
    opening: str

    @property
    def system_prompt(self) -> str:
        return policy_text()

    @cached_property
    def tools(self) -> tuple[dict[str, Any], ...]:
        # Read on first use: a built-in agent never looks, and 34 schemas cost ~0.5 ms.
        from pytest_bankbench.bank.registry import tool_schemas

        return tuple(tool_schemas())


def task_view(task: Task) -> TaskView:
    """The agent's view of a task: nothing the checks compare against."""
    return TaskView(task.task_id, task.task_date, opening(task.scenario))


@dataclass(frozen=True)
class AgentContext:
    """What a factory gets to make one session's agent.

    `seed` is the session's recorded seed (the same in every process and on every rerun), and
    `rng` a `random.Random` seeded with it: an agent that samples from it is reproducible.
    """

    task: TaskView
    trial: int
    seed: int

    @cached_property
    def rng(self) -> random.Random:
        """The agent's random generator, seeded with the session's seed (made on first use)."""
        return random.Random(self.seed)


AgentFactory = Callable[[AgentContext], Agent]


def agent_context(task: Task, trial: int = 0, seed: int = 0) -> AgentContext:
    """The context a factory gets for one session of a task (what `--bank-agent` passes)."""
    return AgentContext(task_view(task), trial, seed)


def chat_messages(events: Sequence[Event], system_prompt: str | None = None) -> list[Message]:
    """The events as OpenAI chat messages, as a model agent sees them: the policy as the system
    message, the customer as `user`, the agent as `assistant` (its calls as `tool_calls`), and
    each result as a `tool` message."""
    return to_chat(events, system_prompt)


def is_agent(value: object) -> bool:
    """Whether `value` can play a session: a string `name` and a callable `act`."""
    return isinstance(getattr(value, "name", None), str) and callable(getattr(value, "act", None))
