"""Paired comparison of two JSON reports: the 2x2 table, an exact McNemar test, flips, breakdowns.

A is the reference (baseline), B the candidate; every delta is B - A. Sessions are paired by
(task_id, trial). Infra-error sessions are no verdict on the agent, so they are left out of the
pairing and counted on their own; a harness error or a lost session is paired as failed (issue
19: a run whose crashed sessions were exactly the baseline's passes must not look unchanged).
"""

from __future__ import annotations

import sys
from collections import defaultdict
from collections.abc import Iterable
from fractions import Fraction
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from pytest_bankbench.report.document import Report, ReportError, read_report
from pytest_bankbench.report.output import write_atomic
from pytest_bankbench.report.output_paths import OutputPathError
from pytest_bankbench.report.record import SessionRecord

__all__ = ["Comparison", "ReportError", "compare_reports", "render_comparison"]

SessionKey = tuple[str, int]


class _Frozen(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class GroupDelta(_Frozen):
    """Pass rates of A and B on the paired sessions of one category or service area."""

    n: int
    pass_a: float
    pass_b: float
    delta: float


class Table2x2(_Frozen):
    """Paired verdicts: both pass, only A passes, only B passes, neither passes."""

    both: int
    only_a: int
    only_b: int
    neither: int


class Comparison(_Frozen):
    """The paired comparison of report A (reference) with report B (candidate)."""

    label_a: str
    label_b: str
    n_paired: int
    shared_tasks: int
    unpaired_a: int
    unpaired_b: int
    infra_errors_a: int
    infra_errors_b: int
    pass_a: float
    pass_b: float
    delta: float
    table: Table2x2
    mcnemar_p: float
    by_category: dict[str, GroupDelta]
    by_service_area: dict[str, GroupDelta]
    pass_to_fail: list[str]
    fail_to_pass: list[str]
    warnings: list[str]


def mcnemar_exact(b: int, c: int) -> Fraction:
    """Exact two-sided McNemar p-value: the binomial test of the b + c discordant pairs at 1/2.

    p = min(1, 2 * sum_{i <= min(b, c)} C(b + c, i) / 2^(b + c)), and 1 when b + c = 0.
    Integer arithmetic throughout, so the value is exact whatever the counts.
    """
    if b < 0 or c < 0:
        raise ValueError(f"discordant counts must be >= 0, got b={b}, c={c}")
    n = b + c
    if n == 0:
        return Fraction(1)
    term, tail = 1, 1  # C(n, 0)
    for i in range(1, min(b, c) + 1):
        term = term * (n - i + 1) // i
        tail += term
    return min(Fraction(1), Fraction(2 * tail, 2**n))


def _r(value: Fraction) -> float:
    return round(float(value), 4)


def _rate(passed: int, n: int) -> Fraction:
    return Fraction(passed, n) if n else Fraction(0)


def _groups(
    pairs: Iterable[tuple[str, SessionRecord, SessionRecord]],
) -> dict[str, GroupDelta]:
    counts: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    for group, a, b in pairs:
        row = counts[group]
        row[0] += 1
        row[1] += a.passed
        row[2] += b.passed
    out: dict[str, GroupDelta] = {}
    for group in sorted(counts):
        n, pa, pb = counts[group]
        out[group] = GroupDelta(
            n=n,
            pass_a=_r(_rate(pa, n)),
            pass_b=_r(_rate(pb, n)),
            delta=_r(_rate(pb, n) - _rate(pa, n)),
        )
    return out


def _provenance_warnings(a: Report, b: Report) -> list[str]:
    prov_a, prov_b = a.provenance, b.provenance
    warnings = []
    sha_a, sha_b = prov_a.get("task_data_sha256"), prov_b.get("task_data_sha256")
    if sha_a and sha_b and sha_a != sha_b:
        warnings.append(
            "the reports were run on different task data (task_data_sha256 differs); "
            "a task id may not mean the same task in both"
        )
    if prov_a.get("split") != prov_b.get("split"):
        warnings.append(
            f"the reports were run on different splits ({prov_a.get('split')} vs "
            f"{prov_b.get('split')}); only the shared sessions are compared"
        )
    return warnings


def _paired(sessions: Iterable[SessionRecord]) -> dict[SessionKey, SessionRecord]:
    """The sessions with a verdict to pair, by (task_id, trial): all but infra errors.

    A harness error or a lost session pairs as failed (its record never has passed=True, and
    one that claims it is made to fail here)."""
    out: dict[SessionKey, SessionRecord] = {}
    for s in sessions:
        if s.outcome == "infra_error":
            continue
        if s.outcome != "scored" and s.passed:
            s = s.model_copy(update={"passed": False})
        out[(s.task_id, s.trial)] = s
    return out


def compare_reports(a: Report, b: Report) -> Comparison:
    """Pair the sessions of A and B with a verdict by (task_id, trial) and compare them.

    Harness errors and lost sessions pair as failed; infra errors are left out. `unpaired_a`
    counts A's paired sessions without a partner in B (absent from B, or an infra error there),
    and the other way round for `unpaired_b`. Flip lists hold task ids (sorted, each once even
    when several of its trials flipped).
    """
    sessions_a, sessions_b = a.sessions, b.sessions
    scored_a = _paired(sessions_a)
    scored_b = _paired(sessions_b)
    keys = sorted(scored_a.keys() & scored_b.keys())
    pairs = [(scored_a[k], scored_b[k]) for k in keys]
    both = sum(x.passed and y.passed for x, y in pairs)
    only_a = sum(x.passed and not y.passed for x, y in pairs)
    only_b = sum(y.passed and not x.passed for x, y in pairs)
    n = len(pairs)
    pass_a, pass_b = _rate(both + only_a, n), _rate(both + only_b, n)
    warnings = _provenance_warnings(a, b)
    if not n:
        warnings.append("the reports share no scored session; nothing to compare")
    return Comparison(
        label_a=a.label("A"),
        label_b=b.label("B"),
        n_paired=n,
        shared_tasks=len({k[0] for k in keys}),
        unpaired_a=len(scored_a.keys() - scored_b.keys()),
        unpaired_b=len(scored_b.keys() - scored_a.keys()),
        infra_errors_a=sum(s.outcome == "infra_error" for s in sessions_a),
        infra_errors_b=sum(s.outcome == "infra_error" for s in sessions_b),
        pass_a=_r(pass_a),
        pass_b=_r(pass_b),
        delta=_r(pass_b - pass_a),
        table=Table2x2(both=both, only_a=only_a, only_b=only_b, neither=n - both - only_a - only_b),
        mcnemar_p=float(mcnemar_exact(only_a, only_b)),
        by_category=_groups((x.category, x, y) for x, y in pairs),
        by_service_area=_groups((x.service_area, x, y) for x, y in pairs),
        pass_to_fail=sorted({x.task_id for x, y in pairs if x.passed and not y.passed}),
        fail_to_pass=sorted({x.task_id for x, y in pairs if y.passed and not x.passed}),
        warnings=warnings,
    )


def format_p(p: float) -> str:
    """A p-value for people: four decimals, or two significant digits when tiny."""
    return f"{p:.4f}" if p >= 0.001 else f"{p:.2e}"


def _group_lines(title: str, groups: dict[str, GroupDelta]) -> list[str]:
    lines = [f"{title:<20} {'n':>5} {'A':>7} {'B':>7} {'B - A':>8}"]
    for name, g in groups.items():
        lines.append(f"  {name:<18} {g.n:>5} {g.pass_a:>7.4f} {g.pass_b:>7.4f} {g.delta:>+8.4f}")
    return lines


def _id_lines(title: str, ids: list[str], max_ids: int) -> list[str]:
    lines = [f"{title} ({len(ids)} tasks)" + (":" if ids else ": none")]
    shown = ids if max_ids < 0 else ids[:max_ids]
    lines += [f"  {task}" for task in shown]
    if len(shown) < len(ids):
        lines.append(f"  ... and {len(ids) - len(shown)} more (the --json output lists all)")
    return lines


def render_comparison(c: Comparison, max_ids: int = 25) -> list[str]:
    """Lines for the terminal; at most `max_ids` task ids per flip list (negative: all)."""
    t = c.table
    lines = [
        f"A: {c.label_a}   B: {c.label_b}   (deltas are B - A)",
        f"paired sessions: {c.n_paired} ({c.shared_tasks} tasks)   "
        f"unpaired: A {c.unpaired_a}, B {c.unpaired_b}   "
        f"infra errors (excluded): A {c.infra_errors_a}, B {c.infra_errors_b}",
        (
            f"pass^1 on the paired sessions: A {c.pass_a:.4f}   B {c.pass_b:.4f}   "
            f"delta {c.delta:+.4f}"
            if c.n_paired
            else "pass^1 on the paired sessions: n/a (no session is in both reports)"
        ),
        "",
        f"{'':<10} {'B pass':>8} {'B fail':>8}",
        f"{'A pass':<10} {t.both:>8} {t.only_a:>8}",
        f"{'A fail':<10} {t.only_b:>8} {t.neither:>8}",
        f"exact McNemar test (two-sided): discordant {t.only_a} (A only) vs {t.only_b} (B only),"
        f" p = {format_p(c.mcnemar_p)}",
        "",
    ]
    lines += _group_lines("by category", c.by_category)
    lines += _group_lines("by service area", c.by_service_area)
    lines.append("")
    lines += _id_lines("pass -> fail (passed in A, failed in B)", c.pass_to_fail, max_ids)
    lines += _id_lines("fail -> pass (failed in A, passed in B)", c.fail_to_pass, max_ids)
    lines += [f"warning: {w}" for w in c.warnings]
    return lines


def compare_command(path_a: Path, path_b: Path, json_out: Path | None) -> int:
    """`python -m pytest_bankbench compare A.json B.json [--json OUT]`; returns the exit code."""
    try:
        a, b = read_report(path_a), read_report(path_b)
    except ReportError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    comparison = compare_reports(a, b)
    print(f"A = {path_a}\nB = {path_b}")
    print("\n".join(render_comparison(comparison)))
    if json_out is not None:
        try:
            write_atomic(json_out, comparison.model_dump_json(indent=1) + "\n")
        except OutputPathError as exc:  # a device, a FIFO, a folder: refused, never replaced
            print(f"error: --json {exc}", file=sys.stderr)
            return 2
        except OSError as exc:
            print(f"error: {json_out}: cannot be written ({exc.strerror or exc})", file=sys.stderr)
            return 2
        print(f"comparison written to {json_out}")
    return 0
