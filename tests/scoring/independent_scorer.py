"""A second scorer, written from SCORING.md alone, to cross-check pytest_bankbench's scorer.

It shares no code with pytest_bankbench.scoring: it only reads the data types (Task, Trace,
RowChange) and asks the tool registry whether a tool is a write.
"""

from __future__ import annotations

import itertools
import re
from collections import Counter
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from pytest_bankbench.bank.diff import ChangeSet, RowChange
from pytest_bankbench.bank.registry import get_tool
from pytest_bankbench.simulation.trace import MessageEvent, ToolEvent, Trace
from pytest_bankbench.tasks.model import GoldCall, RequiredOutput, Task

# SCORING.md, "Failure types": the first failed check in this order names the failure.
FAILURE_ORDER: tuple[tuple[str, str], ...] = (
    ("ended_normally", "ended_with_error"),
    ("write_purity", "unrequested_write"),
    ("required_calls", "stopped_short"),
    ("final_state", "wrong_final_state"),
    ("required_outputs", "missing_output"),
)
NORMAL_END_REASONS = ("customer_stop", "agent_end", "transfer")


@dataclass(frozen=True)
class Judgement:
    """The five checks; everything else is derived from them."""

    checks: dict[str, bool]

    @property
    def passed(self) -> bool:
        return all(self.checks.values())

    @property
    def failure_type(self) -> str | None:
        return next((kind for check, kind in FAILURE_ORDER if not self.checks[check]), None)

    @property
    def false_pass(self) -> bool:
        return self.checks["final_state"] and not (
            self.checks["required_calls"] and self.checks["write_purity"]
        )


# -- matching one call -----------------------------------------------------------------------
_DECIMAL_TEXT = re.compile(r"[+-]?\d+(?:\.\d+)?")


def canonical(value: Any) -> tuple[str, Any]:
    """Strings without case and surrounding space; numbers (and numeric strings) by value."""
    if isinstance(value, bool):
        return ("bool", value)
    if isinstance(value, int | float):
        return ("number", Decimal(str(value)))
    if isinstance(value, str):
        text = value.strip().lower()
        if _DECIMAL_TEXT.fullmatch(text):
            return ("number", Decimal(text))
        return ("text", text)
    return ("other", repr(value))


_TRUE, _FALSE = {"true", "yes", "on", "1"}, {"false", "no", "off", "0"}


def as_flag(value: Any) -> bool | None:
    """A yes/no argument as the bank reads it (JSON bool, 0/1, or the usual words)."""
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    return True if text in _TRUE else False if text in _FALSE else None


def same_value(gold: Any, got: Any) -> bool:
    if isinstance(gold, bool):
        return as_flag(got) is gold
    return canonical(got) == canonical(gold)


def same_call(gold: GoldCall, event: ToolEvent) -> bool:
    args = event.call.arguments
    if event.call.name != gold.tool or args is None:
        return False
    return all(name in args and same_value(gold.arguments[name], args[name]) for name in gold.match)


# -- the checks ------------------------------------------------------------------------------
def required_calls_ok(task: Task, trace: Trace) -> bool:
    """Every gold call has a successful matching call after matching calls of its `after` list.

    `usable[g]` holds each trace position that matches g and has, for every dependency d, a
    usable position of d before it. If every gold call has some usable position, taking the
    smallest one for each gold call is a complete assignment (a dependency's smallest usable
    position is at most the one that made its dependent usable), and sharing a call between
    identical gold entries is allowed; conversely any valid assignment only uses usable
    positions. So the check is: no gold call is left without a usable position.
    """
    successful = [e for e in trace.tool_events() if e.ok]
    usable: dict[str, list[int]] = {}
    for gold in task.gold:  # the task model guarantees dependencies are listed first
        usable[gold.id] = [
            i
            for i, event in enumerate(successful)
            if same_call(gold, event) and all(any(j < i for j in usable[dep]) for dep in gold.after)
        ]
    return all(usable[gold.id] for gold in task.gold)


def write_purity_ok(task: Task, trace: Trace) -> bool:
    """Each effective write is licensed by its own gold write (one to one)."""
    licences = [g for g in task.gold if get_tool(g.tool).kind == "write"]
    effective = [e for e in trace.tool_events() if e.took_effect]
    if len(effective) > len(licences):
        return False
    return any(
        all(same_call(licences[g], write) for g, write in zip(pick, effective, strict=True))
        for pick in itertools.permutations(range(len(licences)), len(effective))
    )


def _row_key(row: RowChange) -> tuple[object, ...]:
    return (
        row.table,
        row.op,
        row.key,
        tuple((f.field, repr(f.before), repr(f.after)) for f in row.fields),
    )


def final_state_ok(trace: Trace, expected: ChangeSet) -> bool:
    return Counter(map(_row_key, trace.changes)) == Counter(map(_row_key, expected.rows))


_FIGURE = re.compile(
    r"(?<![\w])(\d+(?:,\d+)*)(\.\d+)?(?:\s*(lakhs?|lacs?|crores?)\b)?", re.IGNORECASE
)
_INDIAN = re.compile(r"\d{1,2}(?:,\d\d)*,\d{3}")
_INTERNATIONAL = re.compile(r"\d{1,3}(?:,\d{3})+")


def figures(text: str) -> list[Decimal]:
    """Numbers said in a text: plain, Indian or international grouping, lakh and crore words."""
    found: list[Decimal] = []
    for m in _FIGURE.finditer(text):
        digits, fraction, word = m.group(1), m.group(2) or "", m.group(3)
        if "," in digits and not (_INDIAN.fullmatch(digits) or _INTERNATIONAL.fullmatch(digits)):
            found.extend(Decimal(part) for part in digits.split(","))  # a list, not a figure
            continue
        value = Decimal(digits.replace(",", "") + fraction)
        if word:
            value *= 10_000_000 if word.lower().startswith("cr") else 100_000
        found.append(value)
    return found


def said(output: RequiredOutput, messages: list[str]) -> bool:
    if output.kind == "amount":
        target = Decimal(output.value)
        return any(value == target for text in messages for value in figures(text))
    needle = output.value.strip().lower()
    return any(needle in text.lower() for text in messages)


def judge(task: Task, trace: Trace, expected: ChangeSet) -> Judgement:
    messages = [e.text for e in trace.events if isinstance(e, MessageEvent) and e.role == "agent"]
    return Judgement(
        checks={
            "ended_normally": trace.end in NORMAL_END_REASONS,
            "required_calls": required_calls_ok(task, trace),
            "write_purity": write_purity_ok(task, trace),
            "final_state": final_state_ok(trace, expected),
            "required_outputs": all(said(o, messages) for o in task.required_outputs),
        }
    )
