"""The run summary as text, printed after pytest's own."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pytest_bankbench.report.document import Accounting, Rate, Summary, unfinished

if TYPE_CHECKING:
    from pytest_bankbench.report.gate import GateResult


def _pct(value: float | None) -> str:
    """A share as a percentage; n/a for none (a rate over no session)."""
    return "  n/a" if value is None else f"{100 * value:5.1f}%"


def _rate(value: float | None, sessions: int) -> str:
    """A rate over `sessions`; n/a over none (0/0 is not a measured 0%)."""
    return _pct(value) if sessions else "n/a"


def _pass_k(summary: Summary, k: int, sessions: int) -> str:
    """pass^k, or n/a where no task finished k trials (an interrupted run, trials left out)."""
    value = summary.pass_k.get(str(k))
    if value is None:
        return f"n/a ({unfinished(k)})" if sessions else "n/a"
    return _rate(value, sessions).strip()


def _table(title: str, rows: dict[str, Rate]) -> list[str]:
    lines = [f"{title:<22} {'n':>5} {'pass^1':>7} {'final-state':>11} {'false-pass':>10}"]
    for name, row in rows.items():
        lines.append(
            f"  {name:<20} {row.sessions:>5} {_pct(row.pass_rate):>7} "
            f"{_pct(row.final_state_rate):>11} {row.false_passes:>10}"
        )
    return lines


def _plural(count: int, one: str, many: str) -> str:
    return f"{count} {one if count == 1 else many}"


def without_verdict(accounting: Accounting, resume: object) -> str:
    """What became of the sessions without a verdict, saying only what applies: which count as
    failed, how many were not run, and, when the run wrote a report, how to play them."""
    failed = [
        _plural(accounting.harness_errors, "harness error", "harness errors"),
        _plural(accounting.lost, "lost session", "lost sessions"),
    ]
    failed = [part for part in failed if not part.startswith("0 ")]
    parts = []
    if failed:
        verb = "counts" if accounting.harness_errors + accounting.lost == 1 else "count"
        parts.append(f"{' and '.join(failed)} {verb} as failed in pass^1")
    if accounting.not_run:
        parts.append(f"{accounting.not_run} not run")
    unaccounted = accounting.harness_errors + accounting.lost + accounting.not_run
    line = f"  {unaccounted} without a verdict: {', '.join(parts)}"
    return line if resume is None else f"{line}; re-run them with --bank-resume {resume}"


def render(
    summary: Summary,
    provenance: dict[str, Any],
    wall_s: float,
    outputs: list[str],
    resume: object = None,
) -> list[str]:
    """Lines of the summary; timings are the only thing that varies between identical runs.
    `resume`: the report --bank-resume would finish the run from (None: no report written)."""
    low, high = summary.pass_1_ci95 or (None, None)  # None: no session scored, said below
    fp = summary.false_passes
    head = (
        f"agent: {provenance['agent']['model']}   customer: {provenance['customer']['model']}   "
        f"split: {provenance['split']}   trials: {summary.trials}"
    )
    if not summary.sessions:
        # 0/0 is not a measured 0%.
        pass1 = "pass^1: n/a (no session was scored)"
    else:
        pass1 = (
            f"pass^1: {_pct(summary.pass_1)}  ({summary.passed}/{summary.sessions} "
            f"sessions, 95% CI {_pct(low).strip()} - {_pct(high).strip()})"
        )
    n = summary.sessions
    false_passes = (
        f"{fp.count}  ({_pct(fp.share_of_all).strip()} of all, "
        f"{_pct(fp.share_of_final_state_passes).strip()} of final-state passes)"
    )
    lines = [
        head,
        pass1,
        f"final-state-only rate: {_rate(summary.final_state_only_rate, n)}",
        f"false passes: {false_passes if n else 'n/a'}",
    ]
    if summary.trials > 1:
        lines.append(
            "pass^k: "
            + "  ".join(f"k={k}: {_pass_k(summary, k, n)}" for k in range(1, summary.trials + 1))
        )
    if summary.accounting is not None:
        lines.append(f"sessions: {summary.accounting.line()}")
        if summary.unaccounted:
            lines.append(without_verdict(summary.accounting, resume))
    if summary.infra_errors:
        lines.append(f"infrastructure errors (not task failures): {summary.infra_errors}")
    graded, control = summary.graded, summary.control
    lines.append(
        f"graded: {_rate(graded.pass_rate, graded.sessions).strip()} of {graded.sessions}   "
        f"control: {_rate(control.pass_rate, control.sessions).strip()} of {control.sessions}"
    )
    lines.append("")
    lines += _table("by category", summary.by_category)
    lines += _table("by service area", summary.by_service_area)
    lines += _table("by gold-chain length", summary.by_chain_length)
    lines.append("")
    lines.append(
        "failure types: " + ", ".join(f"{k}={v}" for k, v in summary.failure_types.items())
    )
    tokens = summary.tokens
    cost = summary.cost_usd
    customer = ""
    if tokens.customer_prompt or tokens.customer_completion:
        customer_cost = summary.customer_cost_usd
        customer = (
            f"   customer tokens: prompt {tokens.customer_prompt}, completion "
            f"{tokens.customer_completion}, cost "
            f"{'n/a' if customer_cost is None else f'${customer_cost:.4f}'}"
        )
    lines.append(
        f"tokens: prompt {tokens.prompt}, completion {tokens.completion}   "
        f"cost: {'n/a' if cost is None else f'${cost:.4f}'}{customer}   wall time: {wall_s:.1f}s"
    )
    lines += outputs
    return lines


def gate_unapplied(exit_status: int, sessions: int) -> str | None:
    """Why the gate is not applied to a run that ended with pytest's `exit_status` and holds
    `sessions` records (resumed ones included); None: it is applied. A run that played its
    sessions (0 all passed, 1 some failed) is gated, and so is one with nothing left to play
    (5) that resumed some; an interrupted or broken run keeps its own status."""
    if exit_status in (0, 1) or (exit_status == 5 and sessions):
        return None
    if exit_status == 5:
        return "no benchmark session was selected (exit status 5)"
    return f"the run did not finish (exit status {exit_status})"


def gate_lines(gate: GateResult, unapplied: str | None) -> list[str]:
    """The gate in the summary block: the same verdict as the run's last line (user trial: the
    block said FAILED where the last line said "not applied")."""
    if unapplied is not None:
        return [f"gate: not applied, {unapplied}"]
    verdict = "PASSED" if gate.passed else "FAILED"
    head = f"gate: {verdict} (the exit status follows the gate, not individual task failures)"
    return [head, *(f"  {reason}" for reason in gate.reasons)]


def gate_verdict(gate: GateResult, exit_status: int, unapplied: str | None) -> str:
    """The run's last line: the gate's verdict and the exit status it gave (issue 18, item 3).

    Printed after pytest's own `N failed` line, so a CI log ends with why the run passed."""
    if unapplied is not None:
        return f"bank benchmark gate: not applied, {unapplied}"
    verdict = "PASSED" if gate.passed else "FAILED"
    return (
        f"bank benchmark gate: {verdict}, exit status {exit_status} (the gate decides, "
        "not individual test failures)"
    )
