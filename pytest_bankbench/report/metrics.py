"""Run-level metrics: pass^1 with a Wilson interval, final-state-only, false-pass, pass^k, breakdowns."""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable
from math import comb
from typing import Any

from pytest_bankbench.report.document import (
    Accounting,
    FalsePasses,
    Rate,
    Summary,
    Tokens,
)
from pytest_bankbench.report.record import SessionRecord as SessionRecord
from pytest_bankbench.scoring.scorer import FAILURE_TYPES


def wilson(successes: int, n: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """95% Wilson score interval of a proportion."""
    if n == 0:
        return (0.0, 0.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def pass_hat_k(successes_by_task: dict[str, tuple[int, int]], k: int) -> float | None:
    """tau-bench's estimator: mean over tasks of C(c, k) / C(n, k), for tasks with n >= k;
    None when no task has k finished trials (an interrupted run, or trials left out with -k):
    nothing was measured, which is not a measured 0."""
    values = [comb(c, k) / comb(n, k) for c, n in successes_by_task.values() if n >= k]
    return sum(values) / len(values) if values else None


def _rate(records: list[SessionRecord]) -> Rate:
    n = len(records)
    passed = sum(r.passed for r in records)
    low, high = wilson(passed, n)
    return Rate(
        sessions=n,
        passed=passed,
        pass_rate=_share(passed, n),
        ci95=(_r(low), _r(high)) if n else None,
        final_state_rate=_share(sum(bool(r.final_state_pass) for r in records), n),
        false_passes=sum(bool(r.false_pass) for r in records),
    )


def _r(value: float) -> float:
    return round(value, 4)


def _share(part: int, whole: int) -> float | None:
    """part / whole, or None over nothing (0 of 0 is no measured 0%)."""
    return _r(part / whole) if whole else None


def _by(records: list[SessionRecord], key: Callable[[SessionRecord], Any]) -> dict[str, Rate]:
    groups: dict[str, list[SessionRecord]] = defaultdict(list)
    for record in records:
        groups[str(key(record))].append(record)
    return {name: _rate(groups[name]) for name in sorted(groups, key=_natural)}


def _natural(text: str) -> tuple[int, str]:
    return (int(text), "") if text.isdigit() else (10**9, text)


# Outcomes whose session counts in pass^1: a harness error or a lost session is a failed
# session, so nothing that escapes the harness can remove itself from the score.
COUNTED = frozenset({"scored", "harness_error", "lost"})


def accounting(records: list[SessionRecord], selected: int | None) -> Accounting:
    """Where every selected session went; `not_run` is what has no record at all."""
    outcomes = Counter(r.outcome for r in records)
    total = len(records)
    chosen = max(selected, total) if selected is not None else total
    return Accounting(
        selected=chosen,
        scored=outcomes["scored"],
        infra_errors=outcomes["infra_error"],
        harness_errors=outcomes["harness_error"],
        lost=outcomes["lost"],
        not_run=chosen - total,
    )


def summarize(
    records: Iterable[SessionRecord], trials: int, selected: int | None = None
) -> Summary:
    """The run summary: the same numbers whatever order the sessions finished in.

    `selected` is how many sessions the run set out to play (resumed ones included); sessions
    without a record are counted as not run.
    """
    ordered = sorted(records, key=lambda r: (r.task_id, r.trial))
    # Infrastructure errors are not the agent's doing: reported apart, re-run with --bank-resume.
    everything = [r for r in ordered if r.outcome in COUNTED]
    scored = [r for r in ordered if r.outcome == "scored"]
    n = len(everything)
    passed = sum(r.passed for r in everything)
    final = sum(bool(r.final_state_pass) for r in everything)
    false = sum(bool(r.false_pass) for r in everything)
    low, high = wilson(passed, n)
    per_task: dict[str, tuple[int, int]] = {}
    for r in everything:
        c, m = per_task.get(r.task_id, (0, 0))
        per_task[r.task_id] = (c + r.passed, m + 1)
    failures = Counter(r.failure_type for r in scored if r.failure_type)
    counts = accounting(ordered, selected)
    return Summary(
        sessions=n,
        tasks=len(per_task),
        trials=trials,
        passed=passed,
        pass_1=_share(passed, n),
        pass_1_ci95=(_r(low), _r(high)) if n else None,
        final_state_only_rate=_share(final, n),
        false_passes=FalsePasses(
            count=false,
            share_of_all=_share(false, n),
            share_of_final_state_passes=_share(false, final),
        ),
        # Only the k some task finished k trials of: the others are n/a, never a 0.
        pass_k={
            str(k): _r(value)
            for k in range(1, trials + 1)
            if (value := pass_hat_k(per_task, k)) is not None
        },
        infra_errors=counts.infra_errors,
        accounting=counts,
        unaccounted=counts.harness_errors + counts.lost + counts.not_run,
        failure_types={name: failures.get(name, 0) for name in FAILURE_TYPES},
        by_category=_by(everything, lambda r: r.category),
        by_service_area=_by(everything, lambda r: r.service_area),
        by_chain_length=_by(everything, lambda r: r.chain_length),
        by_family=_by(everything, lambda r: r.family),
        graded=_rate([r for r in everything if r.graded]),
        control=_rate([r for r in everything if not r.graded]),
        # Usage of every session, infrastructure errors included: their calls were paid for.
        tokens=Tokens(
            prompt=sum(r.prompt_tokens for r in ordered),
            completion=sum(r.completion_tokens for r in ordered),
            customer_prompt=sum(r.customer_prompt_tokens for r in ordered),
            customer_completion=sum(r.customer_completion_tokens for r in ordered),
        ),
        cost_usd=_cost([r.cost_usd for r in ordered]),
        customer_cost_usd=_cost([r.customer_cost_usd for r in ordered]),
        model_latency_s=_r(sum(r.model_latency_s for r in ordered)),
        customer_latency_s=_r(sum(r.customer_latency_s for r in ordered)),
        per_task_successes=dict(sorted(per_task.items())),
    )


def _cost(values: list[float | None]) -> float | None:
    costs = [c for c in values if c is not None]
    return round(sum(costs), 6) if costs else None
