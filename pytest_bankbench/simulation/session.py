"""The session loop: agent and customer alternate on a fresh bank until a stop, an end, or a limit."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import partial
from typing import Protocol, TypeVar, runtime_checkable

from pytest_bankbench.bank.errors import InvalidArguments, ToolError
from pytest_bankbench.bank.registry import get_tool
from pytest_bankbench.bank.store import Bank
from pytest_bankbench.errors import BankBenchError, InfraError
from pytest_bankbench.simulation.agents import Agent
from pytest_bankbench.simulation.customer import Customer, Stop
from pytest_bankbench.simulation.deadline import DeadlineExceeded, SessionClock, set_current
from pytest_bankbench.simulation.trace import (
    EndReason,
    Event,
    MessageEvent,
    ToolCall,
    ToolEvent,
    ToolKindSeen,
    Trace,
    Usage,
)
from pytest_bankbench.tasks.model import Task
from pytest_bankbench.vocabulary import DEFAULT_MAX_ERRORS, DEFAULT_MAX_STEPS

T = TypeVar("T")


class AgentError(BankBenchError):
    """The agent could not produce a move (a provider or model error): the session ends with error."""


class CustomerError(BankBenchError):
    """The customer simulator failed (for a model-backed one): the session ends with error."""


@dataclass(frozen=True)
class Limits:
    max_steps: int = DEFAULT_MAX_STEPS
    max_errors: int = DEFAULT_MAX_ERRORS
    deadline_s: float | None = None  # --bank-session-deadline (simulation/deadline.py)


@runtime_checkable
class Clocked(Protocol):
    """A model-backed party whose calls keep to the session's deadline (--bank-session-deadline)."""

    def start_clock(self) -> None: ...


def _usage(party: object) -> Usage:
    """A party's model usage; zero for one without a model (a built-in agent, the script)."""
    usage = getattr(party, "usage", None)
    return usage if isinstance(usage, Usage) else Usage()


class _Ended(BankBenchError):
    def __init__(self, reason: EndReason, detail: str) -> None:
        super().__init__(detail)
        self.reason: EndReason = reason
        self.detail = detail


# A tool's refusal quotes an argument it refused at most this long: the call holds it already,
# and a 1 MB argument echoed in full stored it twice in the trace and the HTML (issue 19).
QUOTE_CHARS = 200
ERROR_CHARS = 2_000  # a refusal's whole text


def _long_strings(value: object) -> Iterator[str]:
    if isinstance(value, str):
        if len(value) > QUOTE_CHARS:
            yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _long_strings(key)
            yield from _long_strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _long_strings(item)


def _quote(text: str) -> str:
    if len(text) <= QUOTE_CHARS:
        return repr(text)
    return f"{text[:40]!r}... ({len(text):,} characters)"


def refusal_text(message: str, call: ToolCall) -> str:
    """The refusal the agent reads, each long argument it quotes shortened to a mention."""
    quoted = set(_long_strings([call.name, call.arguments, call.raw_arguments]))
    for value in sorted(quoted, key=len, reverse=True):
        if value in message:
            short = f"{value[:40]}... ({len(value):,} characters)"
            message = message.replace(repr(value), _quote(value)).replace(value, short)
    if len(message) > ERROR_CHARS:
        message = f"{message[:ERROR_CHARS]}... ({len(message):,} characters)"
    return message


def _refused(call: ToolCall, kind: ToolKindSeen, exc: ToolError, batch: int) -> ToolEvent:
    return ToolEvent(
        call=call,
        tool_kind=kind,
        ok=False,
        error_code=exc.code,
        error=refusal_text(exc.message, call),
        batch=batch,
    )


def execute(bank: Bank, call: ToolCall, batch: int = 0) -> ToolEvent:
    """Run one call; a refusal becomes a failed tool result the agent can read."""
    try:
        spec = get_tool(call.name)
    except ToolError as exc:
        return _refused(call, "unknown", exc, batch)
    try:
        if call.arguments is None:
            raise InvalidArguments(
                f"the arguments of {call.name} are not valid JSON: "
                f"{_quote(call.raw_arguments or '')}; send a JSON object"
            )
        output = spec.invoke(bank, call.arguments)
    except ToolError as exc:
        return _refused(call, spec.kind, exc, batch)
    return ToolEvent(
        call=call,
        tool_kind=spec.kind,
        ok=True,
        output=output,
        took_effect=spec.kind == "write",
        batch=batch,
    )


class _Run:
    def __init__(self, bank: Bank, limits: Limits, clock: SessionClock | None) -> None:
        self.bank = bank
        self.limits = limits
        self.clock = clock
        self.events: list[Event] = []
        self.steps = 0
        self.failed = 0

    def add(self, event: Event) -> None:
        """Record a step (a message, a tool call) and check the limits and the deadline."""
        self.steps += 1
        self.events.append(event)
        if self.clock is not None:
            self.clock.check()
        if self.steps >= self.limits.max_steps:
            raise _Ended("max_steps", f"reached {self.limits.max_steps} steps")

    def call(self, call: ToolCall, batch: int) -> None:
        event = execute(self.bank, call, batch)
        if not event.ok:
            self.failed += 1
        self.add(event)
        if not event.ok and self.failed >= self.limits.max_errors:
            raise _Ended("max_errors", f"reached {self.limits.max_errors} failed tool calls")
        if event.ok and event.tool_kind == "human":
            raise _Ended("transfer", "transferred to a human agent")


def run_session(
    task: Task,
    agent: Agent,
    customer: Customer,
    bank: Bank,
    limits: Limits = Limits(),
    trial: int = 0,
    seed: int = 0,
    usage: Usage | None = None,
    clock: SessionClock | None = None,
) -> Trace:
    """Play one conversation and return its trace; only bugs raise.

    With a deadline (`limits.deadline_s`, or a `clock` the caller keeps running for the
    scoring), every step is checked against it: past it the session ends deadline_exceeded.
    """
    for party in (agent, customer):
        if isinstance(party, Clocked):
            party.start_clock()  # the one-time setup (litellm's import) is not the session's
    started = time.perf_counter()
    own = clock is None and limits.deadline_s is not None
    if clock is None and limits.deadline_s is not None:
        clock = SessionClock(limits.deadline_s)
    if clock is not None:
        clock.start()
    set_current(clock)
    run = _Run(bank, limits, clock)
    try:
        _play(run, agent, customer)
    except _Ended as end:
        reason, detail = end.reason, end.detail
    except DeadlineExceeded as exc:  # a step ran past it, or a model call found it passed
        reason, detail = "deadline_exceeded", str(exc)
    finally:
        set_current(None)
        if own and clock is not None:
            clock.close()
    return Trace(
        task_id=task.task_id,
        trial=trial,
        seed=seed,
        agent=agent.name,
        customer=customer.name,
        events=tuple(run.events),
        end=reason,
        end_detail=detail,
        steps=run.steps,
        failed_calls=run.failed,
        changes=bank.changes().rows,
        duration_s=round(time.perf_counter() - started, 6),
        usage=usage or _usage(agent),
        customer_usage=_usage(customer),
    )


def _turn(move: Callable[[], T], own: type[BankBenchError], reason: EndReason) -> T:
    """One party's turn: its own error, or the provider's past the retries, ends the session."""
    try:
        return move()
    except own as exc:
        raise _Ended(reason, str(exc)) from None
    except InfraError as exc:
        raise _Ended("infra_error", str(exc)) from None


def _play(run: _Run, agent: Agent, customer: Customer) -> None:
    """The turns, until one ends the session (raising _Ended, or DeadlineExceeded)."""
    run.add(MessageEvent(role="customer", text=customer.open()))
    moves = 0
    while True:
        moves += 1
        action = _turn(partial(agent.act, run.events), AgentError, "agent_error")
        if run.clock is not None:
            run.clock.check()  # the agent's turn, before anything it asked for runs
        for call in action.tool_calls:
            run.call(call, moves)
        if action.message:
            run.add(MessageEvent(role="agent", text=action.message))
        if action.end or (not action.tool_calls and not action.message):
            raise _Ended("agent_end", "the agent ended the conversation")
        if not action.message:
            continue
        turn = _turn(partial(customer.respond, action.message), CustomerError, "customer_error")
        if isinstance(turn, Stop):
            raise _Ended("customer_stop", turn.reason)
        run.add(MessageEvent(role="customer", text=turn.text, agrees=turn.agrees))
