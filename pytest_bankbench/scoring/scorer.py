"""The verdict of one session, per SCORING.md: five checks, a failure type, and evidence."""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from pytest_bankbench.bank.diff import ChangeSet, compare
from pytest_bankbench.money import mentions_amount
from pytest_bankbench.simulation.trace import ToolEvent, Trace
from pytest_bankbench.tasks.model import GoldCall, RequiredOutput, Task

CheckName = Literal[
    "ended_normally", "required_calls", "write_purity", "final_state", "required_outputs"
]
CHECKS: tuple[CheckName, ...] = (
    "ended_normally",
    "required_calls",
    "write_purity",
    "final_state",
    "required_outputs",
)
FailureType = Literal[
    "ended_with_error", "unrequested_write", "stopped_short", "wrong_final_state", "missing_output"
]
FAILURE_TYPES: tuple[FailureType, ...] = (
    "ended_with_error",
    "unrequested_write",
    "stopped_short",
    "wrong_final_state",
    "missing_output",
)


class Verdict(BaseModel):
    """Each check's result with its evidence lines; `failure_type` is the first that applies."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    task_id: str
    trial: int
    passed: bool
    checks: dict[CheckName, bool]
    failure_type: FailureType | None
    false_pass: bool
    evidence: dict[CheckName, list[str]]

    @property
    def final_state_pass(self) -> bool:
        return self.checks["final_state"]


_NUMBER = re.compile(r"^[+-]?\d+(\.\d+)?$")


def normalize(value: Any) -> Any:
    """Matched-argument normal form: numbers by value, strings by case-free trimmed text."""
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, int | float):
        return Decimal(str(value)).normalize()
    if isinstance(value, str):
        text = value.strip().lower()
        if _NUMBER.match(text):
            try:
                return Decimal(text).normalize()
            except InvalidOperation:  # pragma: no cover - guarded by the pattern
                return text
        return text
    return value


_TRUTHY, _FALSY = frozenset({"true", "yes", "on", "1"}), frozenset({"false", "no", "off", "0"})


def _flag(value: Any) -> bool | None:
    """A yes/no argument read the way the bank's validation reads it."""
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    return True if text in _TRUTHY else False if text in _FALSY else None


def same_value(gold: Any, got: Any) -> bool:
    """Matched-argument equality: flags by truth value, else by normal form."""
    if isinstance(gold, bool):
        return _flag(got) is gold
    if isinstance(got, bool):
        return False
    return bool(normalize(got) == normalize(gold))


def matches(gold: GoldCall, event: ToolEvent) -> bool:
    """Same tool, and every matched argument equal after normalization."""
    if event.call.name != gold.tool or event.call.arguments is None:
        return False
    args = event.call.arguments
    return all(name in args and same_value(gold.arguments[name], args[name]) for name in gold.match)


def _successful(trace: Trace) -> list[ToolEvent]:
    return [e for e in trace.tool_events() if e.ok]


def assign_required(task: Task, calls: list[ToolEvent]) -> dict[str, int | None]:
    """Earliest trace call satisfying each gold call after its dependencies (None when missing).

    Earliest-feasible in chain order is optimal: dependencies only set lower bounds, so taking
    the smallest index for each call never blocks a later one.
    """
    placed: dict[str, int | None] = {}
    for gold in task.gold:
        deps = [placed[d] for d in gold.after]
        if any(d is None for d in deps):
            placed[gold.id] = None
            continue
        floor = max((d for d in deps if d is not None), default=-1)
        placed[gold.id] = next(
            (i for i, e in enumerate(calls) if i > floor and matches(gold, e)), None
        )
    return placed


def _closest(gold: GoldCall, trace: Trace) -> str:
    same = [e for e in trace.tool_events() if e.call.name == gold.tool]
    if not same:
        return f"no call to {gold.tool} was made"
    shown = []
    for e in same[:3]:
        args = e.call.arguments or {}
        diffs = [
            f"{n}={args.get(n)!r} (want {gold.arguments[n]!r})"
            for n in gold.match
            if n not in args or not same_value(gold.arguments[n], args[n])
        ]
        status = "ok" if e.ok else f"failed: {e.error_code}"
        shown.append(f"{gold.tool}({', '.join(diffs) or 'arguments match'}) [{status}]")
    return "closest: " + "; ".join(shown)


def _describe(gold: GoldCall) -> str:
    args = ", ".join(f"{n}={gold.arguments[n]!r}" for n in gold.match)
    order = f" after {', '.join(gold.after)}" if gold.after else ""
    return f"{gold.id} {gold.tool}({args}){order}"


def unrequested_writes(task: Task, trace: Trace) -> list[ToolEvent]:
    """Effective writes left over after matching each gold write to at most one of them."""
    from pytest_bankbench.bank.registry import get_tool

    golds = [g for g in task.gold if get_tool(g.tool).kind == "write"]
    writes = [e for e in trace.tool_events() if e.took_effect]
    owner: dict[int, int] = {}  # gold index -> write index

    def augment(w: int, seen: set[int]) -> bool:
        for g, gold in enumerate(golds):
            if g in seen or not matches(gold, writes[w]):
                continue
            seen.add(g)
            if g not in owner or augment(owner[g], seen):
                owner[g] = w
                return True
        return False

    matched = {w for w in range(len(writes)) if augment(w, set())}
    return [writes[w] for w in range(len(writes)) if w not in matched]


def output_said(output: RequiredOutput, messages: list[str]) -> bool:
    """A required value appears in some assistant message (numbers in any accepted format)."""
    if output.kind == "amount":
        value = output.amount()
        return any(mentions_amount(text, value) for text in messages)
    needle = output.value.strip().lower()
    return any(needle in text.lower() for text in messages)


def score(task: Task, trace: Trace, expected: ChangeSet) -> Verdict:
    """All checks of one session against its task and the gold replay's change set."""
    evidence: dict[CheckName, list[str]] = {name: [] for name in CHECKS}
    if not trace.ended_normally:
        evidence["ended_normally"].append(f"ended by {trace.end}: {trace.end_detail}")
    placed = assign_required(task, _successful(trace))
    for gold in task.gold:
        if placed[gold.id] is None:
            evidence["required_calls"].append(f"missing {_describe(gold)}; {_closest(gold, trace)}")
    for event in unrequested_writes(task, trace):
        evidence["write_purity"].append(
            f"unrequested {event.call.name}({event.call.arguments}) took effect"
        )
    diff = compare(ChangeSet.of(list(trace.changes)), expected)
    if not diff.equal:
        evidence["final_state"].extend(line.strip() for line in diff.describe().splitlines())
    messages = trace.agent_messages()
    for output in task.required_outputs:
        if not output_said(output, messages):
            evidence["required_outputs"].append(f"never said {output.label}: {output.value}")
    checks = {name: not evidence[name] for name in CHECKS}
    failure = _failure_type(checks)
    false_pass = checks["final_state"] and not (checks["required_calls"] and checks["write_purity"])
    return Verdict(
        task_id=task.task_id,
        trial=trace.trial,
        passed=failure is None,
        checks=checks,
        failure_type=failure,
        false_pass=false_pass,
        evidence=evidence,
    )


def _failure_type(checks: dict[CheckName, bool]) -> FailureType | None:
    order: tuple[tuple[CheckName, FailureType], ...] = (
        ("ended_normally", "ended_with_error"),
        ("write_purity", "unrequested_write"),
        ("required_calls", "stopped_short"),
        ("final_state", "wrong_final_state"),
        ("required_outputs", "missing_output"),
    )
    return next((failure for check, failure in order if not checks[check]), None)
