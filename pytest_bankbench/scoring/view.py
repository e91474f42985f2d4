"""One session as every check reads it: the trace taken apart once, shared and immutable.

The checks of scoring/ (procedure, consent, what was told, secrets, forbidden access) each read
the same trace: its tool calls, the successful ones, the writes that took effect, the agent's
messages and the customer's turns. Each check used to rebuild those lists from the events (the
tool events seven times per session), look each tool up again and lower each message again;
`SessionView.of(trace)` builds them in one pass and every check reads the same tuples. A call
carries its tool and its arguments as the tool runs them (defaults filled in), a message its
lower-case text.

Plain named tuples, not dataclasses: the view is built for every session scored, and building
frozen dataclasses per event cost more than the rebuilt lists it replaces.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from pytest_bankbench.bank.registry import ToolSpec, all_tools
from pytest_bankbench.simulation.trace import Event, MessageEvent, ToolEvent, Trace


class Message(NamedTuple):
    """One message, where it is in the trace, and its text in lower case."""

    position: int
    event: MessageEvent
    lowered: str

    @property
    def text(self) -> str:
        return self.event.text

    @property
    def role(self) -> str:
        return self.event.role


class Call(NamedTuple):
    """One tool event, where it is in the trace, its tool (None when unknown) and its arguments
    with the tool's defaults filled in (None when the agent's JSON could not be read)."""

    position: int
    event: ToolEvent
    spec: ToolSpec | None
    arguments: dict[str, Any] | None


def call_of(position: int, event: ToolEvent, tools: dict[str, ToolSpec]) -> Call:
    spec = tools.get(event.call.name)
    args = event.call.arguments
    if args is not None:
        args = {**spec.defaults, **args} if spec is not None else dict(args)
    return Call(position, event, spec, args)


class SessionView(NamedTuple):
    """The trace's events split by kind, in trace order, each with its position."""

    trace: Trace
    events: tuple[Event, ...]
    calls: tuple[Call, ...]
    successful: tuple[Call, ...]  # the calls the bank answered
    effective: tuple[Call, ...]  # the calls that took effect (writes that changed something)
    messages: tuple[Message, ...]  # both sides, in order
    agent: tuple[Message, ...]
    tools: dict[str, ToolSpec]

    @classmethod
    def of(cls, trace: Trace) -> SessionView:
        tools = all_tools()
        calls: list[Call] = []
        successful: list[Call] = []
        effective: list[Call] = []
        messages: list[Message] = []
        agent: list[Message] = []
        for position, event in enumerate(trace.events):  # one pass fills every list
            if isinstance(event, ToolEvent):
                call = call_of(position, event, tools)
                calls.append(call)
                if event.ok:
                    successful.append(call)
                if event.took_effect:
                    effective.append(call)
            else:
                message = Message(position, event, event.text.lower())
                messages.append(message)
                if event.role == "agent":
                    agent.append(message)
        return cls(
            trace,
            trace.events,
            tuple(calls),
            tuple(successful),
            tuple(effective),
            tuple(messages),
            tuple(agent),
            tools,
        )

    @property
    def tool_events(self) -> list[ToolEvent]:
        return [c.event for c in self.calls]
