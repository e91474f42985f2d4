"""The typed record of one session: messages, tool calls with results, how it ended, timings."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import ConfigDict, Field

from pytest_bankbench.bank.diff import RowChange
from pytest_bankbench.bank.frozen import FrozenRecord

__all__ = [
    "NORMAL_ENDS",
    "TRACE_VERSION",
    "EndReason",
    "Event",
    "MessageEvent",
    "ToolCall",
    "ToolEvent",
    "ToolKindSeen",
    "Trace",
    "Usage",
]

TRACE_VERSION = 1
EndReason = Literal[
    "customer_stop",
    "agent_end",
    "transfer",
    "max_steps",
    "max_errors",
    "agent_error",
    "customer_error",
    "infra_error",
    "deadline_exceeded",
]
NORMAL_ENDS: frozenset[str] = frozenset({"customer_stop", "agent_end", "transfer"})
ToolKindSeen = Literal["read", "write", "human", "unknown"]


class _Strict(FrozenRecord):
    model_config = ConfigDict(extra="forbid", frozen=True)


class ToolCall(_Strict):
    """A call the agent asked for; `arguments` is None when the agent's JSON could not be read."""

    call_id: str
    name: str
    arguments: dict[str, Any] | None
    raw_arguments: str | None = None


class MessageEvent(_Strict):
    kind: Literal["message"] = "message"
    role: Literal["customer", "agent"]
    text: str
    # The customer's own reading of its turn: True when it agrees to what the agent proposed.
    # None when the simulator did not say (an LLM customer); the scorer then reads the text.
    agrees: bool | None = None


class ToolEvent(_Strict):
    """A call and what the bank answered."""

    kind: Literal["tool"] = "tool"
    call: ToolCall
    tool_kind: ToolKindSeen
    ok: bool
    output: dict[str, Any] | None = None
    error_code: str | None = None
    error: str | None = None
    took_effect: bool = False
    # Calls the agent asked for in one move share a batch number (one assistant message).
    batch: int = 0


Event = Annotated[MessageEvent | ToolEvent, Field(discriminator="kind")]


class Usage(_Strict):
    """Model usage of one session (zero for built-in agents)."""

    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost_usd: float | None = None
    model_calls: int = 0
    cache_hits: int = 0
    latencies_s: tuple[float, ...] = ()


class Trace(_Strict):
    """Everything one session did; enough to re-grade it without the model."""

    trace_version: Literal[1] = 1
    task_id: str
    trial: int
    seed: int
    agent: str
    customer: str
    events: tuple[Event, ...]
    end: EndReason
    end_detail: str = ""
    steps: int
    failed_calls: int
    changes: tuple[RowChange, ...]
    duration_s: float = 0.0
    usage: Usage = Usage()
    # The LLM customer's usage (zero for the scripted customer), kept apart from the agent's.
    customer_usage: Usage = Usage()

    @property
    def ended_normally(self) -> bool:
        return self.end in NORMAL_ENDS

    def tool_events(self) -> list[ToolEvent]:
        return [e for e in self.events if isinstance(e, ToolEvent)]

    def agent_messages(self) -> list[str]:
        return [e.text for e in self.events if isinstance(e, MessageEvent) and e.role == "agent"]
