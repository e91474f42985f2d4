"""The session loop: agent and customer alternate on a fresh bank until a stop, an end, or a limit."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Protocol, TypeVar, runtime_checkable

from pytest_bankbench.bank.errors import InvalidArguments, ToolError
from pytest_bankbench.bank.registry import get_tool
from pytest_bankbench.bank.store import Bank
from pytest_bankbench.errors import BankBenchError, InfraError, json_kind
from pytest_bankbench.simulation.agents import Agent, AgentAction
from pytest_bankbench.simulation.bounded import within
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
    """The customer simulator failed (for a model-backed one): the session ends without a
    verdict, as an infrastructure error (a broken simulator says nothing of the agent)."""


class NotAnAction(BankBenchError, TypeError):
    """An agent's act() returned something that is not an AgentAction: a bug of the agent's
    code, not a move, so the session has no verdict (a harness error), and the run goes on."""


ACTION_ACCEPTED = (
    "act(events) must return an AgentAction: AgentAction(tool_calls=[ToolCall(...)]) to call "
    "tools, AgentAction(message=...) to speak to the customer, or AgentAction(end=True) to end "
    '(see the README\'s "Testing your own agent")'
)


def _short(value: object) -> str:
    text = repr(value)
    return f"{type(value).__name__} {text if len(text) <= 80 else text[:77] + '...'}"


def checked(action: object, agent: str) -> AgentAction:
    """The agent's move, or NotAnAction naming the agent, what it returned and what is accepted."""
    problem = ""
    if not isinstance(action, AgentAction):
        problem = f"{_short(action)}, not an AgentAction"
    elif not isinstance(action.tool_calls, list | tuple):
        problem = f"an AgentAction whose tool_calls is {_short(action.tool_calls)}, not a list"
    elif bad := [c for c in action.tool_calls if not isinstance(c, ToolCall)]:
        problem = f"an AgentAction with a tool call {_short(bad[0])}, not a ToolCall"
    elif action.message is not None and not isinstance(action.message, str):
        problem = f"an AgentAction whose message is {_short(action.message)}, not a string"
    if problem:
        raise NotAnAction(f"agent {agent!r} returned {problem}; {ACTION_ACCEPTED}")
    assert isinstance(action, AgentAction)
    return action


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


class SessionOver(BankBenchError):
    """A move was offered to a session that has already ended."""


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


def _unreadable(call: ToolCall) -> InvalidArguments:
    """Why a call's arguments could not be read: not JSON, or JSON but not an object."""
    raw = call.raw_arguments or ""
    try:
        value = json.loads(raw)
    except (ValueError, RecursionError):  # as models/agent.py parse_tool_calls reads them
        return InvalidArguments(
            f"the arguments of {call.name} are not valid JSON: {_quote(raw)}; send a JSON object"
        )
    return InvalidArguments(
        f"the arguments of {call.name} must be a JSON object, got {json_kind(value)}: {_quote(raw)}"
    )


def execute(bank: Bank, call: ToolCall, batch: int = 0) -> ToolEvent:
    """Run one call; a refusal becomes a failed tool result the agent can read."""
    try:
        spec = get_tool(call.name)
    except ToolError as exc:
        return _refused(call, "unknown", exc, batch)
    try:
        if call.arguments is None:
            raise _unreadable(call)
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


class Stepper:
    """One session move by move: the customer's opening, then each agent move with its calls,
    its message and the customer's reply, until a stop, an end or a limit.

    `run_session` drives it with an agent; an environment (pytest_bankbench/environment/)
    drives it with the moves a trainer's policy makes, so both end in the same trace.
    """

    def __init__(
        self,
        customer: Customer,
        bank: Bank,
        limits: Limits = Limits(),
        clock: SessionClock | None = None,
    ) -> None:
        self.customer = customer
        self.bank = bank
        self.limits = limits
        self.clock = clock  # the session deadline, checked after every step
        self.events: list[Event] = []
        self.steps = 0
        self.failed = 0
        self.moves = 0
        self.end: EndReason | None = None
        self.end_detail = ""

    @property
    def over(self) -> bool:
        return self.end is not None

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

    def finish(self, reason: EndReason, detail: str) -> None:
        """End the session (an agent's error, a deadline): later moves are refused."""
        if self.end is None:
            self.end, self.end_detail = reason, detail

    def bounded(self, party: str, move: Callable[[], T]) -> T:
        """A party's move, given up on at the session deadline (bounded.py) when there is one."""
        return move() if self.clock is None else within(self.clock, party, move)

    def open(self) -> str:
        """The customer's opening, as the session's first event."""
        self._guarded(self._open)
        return self.customer_text()

    def move(self, action: AgentAction) -> None:
        """Play one agent move: its calls in order, then its message and the customer's reply."""
        if self.end is not None:
            raise SessionOver(f"the session has ended ({self.end}): no more moves")
        self.moves += 1
        self._guarded(lambda: self._move(action))

    def customer_text(self) -> str:
        last = self.events[-1] if self.events else None
        if isinstance(last, MessageEvent) and last.role == "customer":
            return last.text
        return ""

    def _guarded(self, play: Callable[[], None]) -> None:
        try:
            play()
        except _Ended as end:
            self.finish(end.reason, end.detail)
        except DeadlineExceeded as exc:  # a step ran past it, or a model call found it passed
            self.finish("deadline_exceeded", str(exc))

    def _open(self) -> None:
        opening = self.bounded(self._customer_named, self.customer.open)
        self.add(MessageEvent(role="customer", text=opening))

    def _move(self, action: AgentAction) -> None:
        for call in action.tool_calls:
            self.call(call, self.moves)
        if action.message:
            self.add(MessageEvent(role="agent", text=action.message))
        if action.end or (not action.tool_calls and not action.message):
            raise _Ended("agent_end", "the agent ended the conversation")
        if not action.message:
            return
        try:
            message = action.message
            turn = self.bounded(self._customer_named, lambda: self.customer.respond(message))
        except CustomerError as exc:  # user trial: it failed the agent (ended_with_error)
            raise _Ended("infra_error", str(exc)) from None
        except InfraError as exc:
            raise _Ended("infra_error", str(exc)) from None
        if isinstance(turn, Stop):
            raise _Ended("customer_stop", turn.reason)
        self.add(MessageEvent(role="customer", text=turn.text, agrees=turn.agrees))

    @property
    def _customer_named(self) -> str:
        return f"the customer {self.customer.name!r}"

    def trace(
        self,
        task: Task,
        agent: str,
        trial: int = 0,
        seed: int = 0,
        duration_s: float = 0.0,
        usage: Usage | None = None,
    ) -> Trace:
        """The session's trace so far (an unfinished one reads as ended by the agent)."""
        return Trace(
            task_id=task.task_id,
            trial=trial,
            seed=seed,
            agent=agent,
            customer=self.customer.name,
            events=tuple(self.events),
            end=self.end or "agent_end",
            end_detail=self.end_detail,
            steps=self.steps,
            failed_calls=self.failed,
            changes=self.bank.changes().rows,
            duration_s=round(duration_s, 6),
            usage=usage or Usage(),
            customer_usage=_usage(self.customer),
        )


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
    run = Stepper(customer, bank, limits, clock)
    try:
        run.open()
        while not run.over:
            try:
                action = checked(
                    run.bounded(f"the agent {agent.name!r}", lambda: agent.act(run.events)),
                    agent.name,
                )
                if clock is not None:
                    clock.check()  # the agent's turn, before anything it asked for runs
            except AgentError as exc:
                run.finish("agent_error", str(exc))
                break
            except InfraError as exc:
                run.finish("infra_error", str(exc))
                break
            except DeadlineExceeded as exc:
                run.finish("deadline_exceeded", str(exc))
                break
            run.move(action)
    finally:
        set_current(None)
        if own and clock is not None:
            clock.close()
    return run.trace(
        task,
        agent.name,
        trial,
        seed,
        time.perf_counter() - started,
        usage or _usage(agent),
    )
