"""CI gating: a small condition language over the run summary, a paired baseline check, Markdown.

Gate grammar (whitespace is free; metric and group names are case-insensitive)::

    gate      := condition ( ("," | "and") condition )*
    condition := metric [ "[" group "]" ] op number
    metric    := "pass^" K | "false_pass" | "false_pass_count" | "final_state" | "infra_errors"
               | "harness_errors" | "lost" | "not_run" | "unaccounted"
    group     := a category (sequencing, control, edge_case, rare_tool),
                 a service area (everyday, deposits, loans, cards)
                 or a family of the run's tasks (fd_closure, card_block, ...)
    op        := ">=" | "<=" | ">" | "<" | "=="
    number    := a decimal number; a rate's threshold lies in 0..1, a count's is a whole number >= 0

Metrics read the typed summary (`document.Summary`): pass^K is `pass_k[K]`; false_pass is
`false_passes.share_of_all`; false_pass_count its `count`; final_state is
`final_state_only_rate`; infra_errors is `infra_errors`; harness_errors, lost and not_run read
`accounting`, unaccounted is their sum. A run with any unaccounted session (a harness
error, a lost session, a selected session never run) fails every gate that does not name one of
those metrics: no score stands on sessions that went missing. With a group, pass^1, final_state,
false_pass and false_pass_count read that group's row of `by_category`, `by_service_area` or
`by_family`.
"""

from __future__ import annotations

import difflib
import math
import re
from collections.abc import Collection, Iterable
from fractions import Fraction
from typing import Literal, Protocol

from pydantic import BaseModel, ConfigDict

from pytest_bankbench.report.compare import compare_reports, format_p
from pytest_bankbench.report.document import Report, Summary, unfinished
from pytest_bankbench.vocabulary import CATEGORIES, SERVICE_AREAS

Operator = Literal[">=", "<=", ">", "<", "=="]
OPERATORS: tuple[Operator, ...] = (">=", "<=", ">", "<", "==")
METRICS: tuple[str, ...] = (
    "pass^K",
    "false_pass",
    "false_pass_count",
    "final_state",
    "infra_errors",
    "harness_errors",
    "lost",
    "not_run",
    "unaccounted",
)
ACCOUNTING_METRICS = frozenset({"harness_errors", "lost", "not_run", "unaccounted"})
GROUP_METRICS: tuple[str, ...] = ("pass^1", "false_pass", "false_pass_count", "final_state")
COUNT_METRICS = frozenset({"false_pass_count", "infra_errors"}) | ACCOUNTING_METRICS
GROUPS: tuple[str, ...] = (*CATEGORIES, *SERVICE_AREAS)

_EPS = 1e-9
_NEGATION: dict[str, str] = {">=": "<", "<=": ">", ">": "<=", "<": ">=", "==": "!="}
_SEPARATOR = re.compile(r",|\band\b", re.IGNORECASE)
_OPERATOR = re.compile(r"(>=|<=|==|!=|=>|=<|<>|>|<|=)")
_LEFT = re.compile(r"^(?P<metric>[a-z_]+(?:\^[^\[\]\s]*)?)\s*(?:\[(?P<group>[^\[\]]*)\])?$")


class _Frozen(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Condition(_Frozen):
    """One comparison: `metric[group] op threshold`; `k` is set for pass^K."""

    metric: str
    k: int | None = None
    group: str | None = None
    op: Operator
    threshold: float
    text: str

    @property
    def label(self) -> str:
        name = f"pass^{self.k}" if self.metric == "pass^k" else self.metric
        return f"{name}[{self.group}]" if self.group else name


class Gate(_Frozen):
    """A parsed gate expression: every condition must hold."""

    expression: str
    conditions: tuple[Condition, ...]

    @property
    def max_k(self) -> int:
        """The largest K of the pass^K conditions (0 when there is none): trials needed."""
        return max((c.k or 0 for c in self.conditions), default=0)


class GateResult(_Frozen):
    """The verdict and one human-readable reason per check."""

    passed: bool
    reasons: list[str]


def _accepted() -> str:
    return (
        f"accepted metrics: {', '.join(METRICS)} (K = 1, 2, ...); per group as "
        f"metric[group] with {', '.join(GROUP_METRICS)} and a group among "
        f"{', '.join(GROUPS)} or a family of the tasks; operators: {', '.join(OPERATORS)}; "
        "conditions are separated by ',' or 'and', e.g. 'pass^1>=0.6, false_pass<=0.05'"
    )


def _bad(part: str, problem: str) -> ValueError:
    return ValueError(f"bad gate condition {part!r}: {problem}; {_accepted()}")


def _unknown_group(group: str, families: Collection[str] | None) -> str | None:
    """Why a group name is refused, or None: a category, a service area or a known family.

    `families` None takes any other name for a family (a merge, before its shards are read):
    a group with no sessions then fails the gate when it is evaluated."""
    if group in GROUPS or families is None or group in families:
        return None
    if not families:
        return f"unknown group {group!r}"
    close = difflib.get_close_matches(group, sorted(families), n=3)
    hint = f" (did you mean {' or '.join(close)}?)" if close else ""
    return f"unknown group {group!r}: not a category, service area or family of the tasks{hint}"


def _condition(part: str, families: Collection[str] | None = ()) -> Condition:
    text = part.strip()
    found = _OPERATOR.search(text)
    if found is None:
        raise _bad(text, "no comparison operator")
    if found.group(1) not in OPERATORS:
        hint = " (write == for equality)" if found.group(1) == "=" else ""
        raise _bad(text, f"unknown operator {found.group(1)!r}{hint}")
    op = OPERATORS[OPERATORS.index(found.group(1))]
    left, right = text[: found.start()].strip().lower(), text[found.end() :].strip()
    if not left:
        raise _bad(text, "no metric before the operator")
    if left.count("[") != left.count("]"):
        raise _bad(text, f"unbalanced brackets in {left!r}")
    shape = _LEFT.match(left)
    if shape is None:
        raise _bad(text, f"cannot read the metric {left!r}")
    name, group = shape.group("metric"), shape.group("group")
    k: int | None = None
    if name.startswith("pass^"):
        raw_k = name[len("pass^") :]
        if not raw_k.isdigit() or int(raw_k) < 1:
            raise _bad(text, f"pass^K needs a whole number K >= 1, got {raw_k!r}")
        k, metric = int(raw_k), "pass^k"
    elif name in METRICS:
        metric = name
    else:
        hint = " (did you mean pass^1?)" if name in ("pass", "pass_rate", "pass1") else ""
        raise _bad(text, f"unknown metric {name!r}{hint}")
    if group is not None:
        group = group.strip()
        if not group:
            raise _bad(text, "empty group in []")
        unknown = _unknown_group(group, families)
        if unknown is not None:
            raise _bad(text, unknown)
        if (f"pass^{k}" if k else metric) not in GROUP_METRICS:
            raise _bad(text, f"{name} cannot be taken per group")
    if not right:
        raise _bad(text, "no threshold after the operator")
    try:
        threshold = float(right)
    except ValueError:
        raise _bad(text, f"threshold {right!r} is not a number") from None
    if not math.isfinite(threshold):
        raise _bad(text, f"threshold {right!r} is not a finite number")
    if metric in COUNT_METRICS:
        # infra_errors==0.5 could never hold: a count's threshold is a whole number.
        if threshold < 0 or not threshold.is_integer():
            raise _bad(text, f"{name} is a count; the threshold must be a whole number >= 0")
    elif not 0 <= threshold <= 1:
        raise _bad(
            text, f"{name} is a rate in 0..1; threshold {right} is outside (write 0.6 for 60%)"
        )
    return Condition(metric=metric, k=k, group=group, op=op, threshold=threshold, text=text)


def parse_gate(expr: str, families: Collection[str] | None = ()) -> Gate:
    """Parse a gate expression; a ValueError names the bad part and lists what is accepted.

    `families` are the families a group may name besides the categories and service areas
    (the run's tasks'); None accepts any name as a family."""
    if not expr or not expr.strip():
        raise ValueError(f"empty gate expression; {_accepted()}")
    parts = _SEPARATOR.split(expr)
    for part in parts:
        if not part.strip():
            raise ValueError(
                f"empty condition in gate {expr!r} (a ',' or 'and' with nothing on one side); "
                f"{_accepted()}"
            )
    return Gate(expression=expr.strip(), conditions=tuple(_condition(p, families) for p in parts))


_NONE_SCORED = "no session was scored, nothing measured"  # why a run-wide rate is None


def _value(cond: Condition, summary: Summary) -> tuple[float | None, str]:
    """The metric's value in the summary, or None and why it is missing."""
    if cond.group is not None:
        row = summary.group(cond.group)
        if row is None or not row.sessions:
            return None, f"no sessions in group {cond.group!r} in this run"
        if cond.metric == "false_pass":
            return round(row.false_passes / row.sessions, 4), ""
        if cond.metric == "final_state":
            return row.final_state_rate, ""
        if cond.metric == "false_pass_count":
            return float(row.false_passes), ""
        return row.pass_rate, ""
    if cond.metric == "pass^k":
        by_k = summary.pass_k
        if str(cond.k) not in by_k:
            # Interrupted, or trials left out with -k: the trials ran, no task finished k.
            if cond.k is not None and cond.k <= summary.trials:
                return None, f"{unfinished(cond.k)} in this run, nothing measured"
            return None, (
                f"the run has {summary.trials} trial(s); pass^{cond.k} needs --bank-trials {cond.k}"
            )
        return by_k[str(cond.k)], ""
    if cond.metric == "false_pass":
        return summary.false_passes.share_of_all, _NONE_SCORED
    if cond.metric == "false_pass_count":
        return float(summary.false_passes.count), ""
    if cond.metric == "final_state":
        return summary.final_state_only_rate, _NONE_SCORED
    if cond.metric == "unaccounted":
        return float(summary.unaccounted), ""
    if cond.metric in ACCOUNTING_METRICS:
        if summary.accounting is None:
            return None, "the report predates the accounting of every session"
        return float(getattr(summary.accounting, cond.metric)), ""
    return float(summary.infra_errors), ""


def _holds(value: float, op: str, threshold: float) -> bool:
    if op == ">=":
        return value >= threshold - _EPS
    if op == "<=":
        return value <= threshold + _EPS
    if op == ">":
        return value > threshold + _EPS
    if op == "<":
        return value < threshold - _EPS
    return abs(value - threshold) <= _EPS


def _pair(value: float, threshold: float, count: bool) -> tuple[str, str]:
    """Both numbers with just enough decimals (2 to 4) for the shown relation to be visible."""
    if count and value.is_integer() and threshold.is_integer():
        return str(int(value)), str(int(threshold))
    equal = abs(value - threshold) <= _EPS
    for digits in (2, 3, 4):
        if (round(value, digits) == round(threshold, digits)) == equal:
            break
    return f"{value:.{digits}f}", f"{threshold:.{digits}f}"


class _Grouped(Protocol):
    @property
    def category(self) -> str: ...
    @property
    def service_area(self) -> str: ...
    @property
    def family(self) -> str: ...


def unmeasured_groups(gate: Gate, tasks: Iterable[_Grouped]) -> list[str]:
    """The gate's conditions on a group none of `tasks` (the sessions selected or resumed)
    belongs to: known before the first session, they would fail the gate after the whole run
    ("no sessions in group"), so the run stops at once instead."""
    present: set[str] = set()
    for task in tasks:
        present.update((task.category, task.service_area, task.family))
    return [
        f"{cond.label}: none of the selected sessions is in group {cond.group!r}, so nothing "
        "would be measured"
        for cond in gate.conditions
        if cond.group is not None and cond.group not in present
    ]


def evaluate_gate(gate: Gate, summary: Summary) -> GateResult:
    """Check every condition against a run summary; a metric the run lacks fails its condition."""
    reasons: list[str] = []
    passed = True
    for cond in gate.conditions:
        if cond.group is None and cond.metric not in COUNT_METRICS and not summary.sessions:
            passed = False
            reasons.append(f"{cond.label}: no scored sessions, nothing measured: FAILED")
            continue
        value, missing = _value(cond, summary)
        if value is None:
            passed = False
            reasons.append(f"{cond.label}: {missing}: FAILED")
            continue
        shown, limit = _pair(value, cond.threshold, cond.metric in COUNT_METRICS)
        if _holds(value, cond.op, cond.threshold):
            reasons.append(f"{cond.label} = {shown} {cond.op} {limit}: ok")
        else:
            passed = False
            reasons.append(f"{cond.label} = {shown} {_NEGATION[cond.op]} {limit}: FAILED")
    unaccounted = unaccounted_reason(summary, gate)
    if unaccounted is not None:
        passed = False
        reasons.append(unaccounted)
    return GateResult(passed=passed, reasons=reasons)


def unaccounted_reason(summary: Summary, gate: Gate | None) -> str | None:
    """Why a run with sessions without a verdict fails, unless the gate names them (else None).

    Every check (--bank-gate, --bank-baseline, --bank-tolerance, in any mix) goes through this:
    no score stands on sessions that went missing (issue 19)."""
    unaccounted, counts = summary.unaccounted, summary.accounting
    if not unaccounted or counts is None:
        return None
    if gate is not None and any(c.metric in ACCOUNTING_METRICS for c in gate.conditions):
        return None
    return (
        f"{unaccounted} selected session(s) without a verdict (harness errors "
        f"{counts.harness_errors}, lost {counts.lost}, not run {counts.not_run}); accept "
        f"them only by naming them in --bank-gate, e.g. 'unaccounted<={unaccounted}': FAILED"
    )


def check_baseline(
    baseline_report: Report,
    current_report: Report,
    tolerance: float | None,
    alpha: float = 0.05,
    gate: Gate | None = None,
) -> GateResult:
    """Fail on a significant paired regression against the baseline, or a drop beyond tolerance.

    The regression check fails when the exact McNemar p < alpha and the current run passes fewer
    of the shared sessions; the tolerance check (when given) fails when pass^1 on the shared
    sessions dropped by more than `tolerance`. No shared session at all fails too. Without
    `gate` (the run's --bank-gate, which then judges them), any session of the current run
    without a verdict fails it. Harness errors and lost sessions are paired as failed.
    """
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must lie strictly between 0 and 1, got {alpha}")
    if tolerance is not None and not (math.isfinite(tolerance) and tolerance >= 0):
        raise ValueError(f"tolerance must be a number >= 0, got {tolerance}")
    c = compare_reports(baseline_report, current_report)
    if c.n_paired == 0:
        return GateResult(
            passed=False,
            reasons=[
                "baseline: the current run shares no session with a verdict with the baseline "
                f"(baseline-only {c.unpaired_a}, current-only {c.unpaired_b}); "
                "cannot compare: FAILED"
            ],
        )
    t = c.table
    n = c.n_paired
    exact_a, exact_b = Fraction(t.both + t.only_a, n), Fraction(t.both + t.only_b, n)
    drop = exact_a - exact_b
    context = (
        f"pass^1 on {n} shared sessions: baseline {float(exact_a):.4f}, current "
        f"{float(exact_b):.4f} (delta {float(-drop):+.4f}); {t.only_a} flipped to fail, "
        f"{t.only_b} to pass"
    )
    p = c.mcnemar_p
    worse = t.only_a > t.only_b
    significant = p < alpha
    reasons = []
    passed = True
    if significant and worse:
        passed = False
        verdict = f"McNemar p = {format_p(p)} < {alpha}, significant regression: FAILED"
    elif significant:
        verdict = f"McNemar p = {format_p(p)} < {alpha}, significant improvement: ok"
    else:
        verdict = f"McNemar p = {format_p(p)} >= {alpha}, no significant change: ok"
    reasons.append(f"baseline: {context}; {verdict}")
    if tolerance is not None:
        if float(drop) > tolerance + _EPS:
            passed = False
            reasons.append(
                f"baseline: pass^1 dropped by {float(drop):.4f} > tolerance {tolerance:.4f} "
                f"({t.only_a} flipped to fail): FAILED"
            )
        else:
            reasons.append(
                f"baseline: pass^1 change {float(-drop):+.4f} is within tolerance "
                f"{tolerance:.4f}: ok"
            )
    if c.unpaired_a or c.unpaired_b or c.infra_errors_a or c.infra_errors_b:
        reasons.append(
            f"baseline: not compared: baseline-only {c.unpaired_a}, current-only "
            f"{c.unpaired_b} scored sessions; infra errors baseline {c.infra_errors_a}, "
            f"current {c.infra_errors_b}"
        )
    reasons += [f"baseline: warning: {w}" for w in c.warnings]
    # With a gate, evaluate_gate says it (once is enough); alone, the baseline check must.
    missing = unaccounted_reason(current_report.summary, None) if gate is None else None
    if missing is not None:
        passed = False
        reasons.append(f"baseline: {missing}")
    return GateResult(passed=passed, reasons=reasons)
