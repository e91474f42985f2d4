"""The run summary as Markdown, for a CI job summary (e.g. $GITHUB_STEP_SUMMARY)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from pytest_bankbench.report.document import Rate, Report, unfinished
from pytest_bankbench.report.failure_line import failure_of
from pytest_bankbench.report.record import SessionRecord
from pytest_bankbench.scoring.scorer import FAILURE_TYPES

if TYPE_CHECKING:
    from pytest_bankbench.report.gate import GateResult

# A job summary lists this many failing sessions; the JSON report keeps every one.
FAILING_SHOWN = 20
EVIDENCE_CHARS = 200


def _cell(value: Any) -> str:
    return str(value).replace("|", "\\|").replace("\n", " ")


def _pct(value: float | None) -> str:
    """A share as a percentage; n/a for none (a rate over no session)."""
    return "n/a" if value is None else f"{100 * value:.1f}%"


def _dec(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.4f}"


def _group_table(title: str, rows: Mapping[str, Rate]) -> list[str]:
    lines = [
        f"### By {title}",
        "",
        f"| {title} | sessions | passed | pass^1 | 95% CI | final state | false passes |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for name, row in rows.items():  # a group holds a session at least: its rates are set
        low, high = row.ci95 or (None, None)
        lines.append(
            f"| {_cell(name)} | {row.sessions} | {row.passed} | {_dec(row.pass_rate)} | "
            f"{_dec(low)} to {_dec(high)} | {_dec(row.final_state_rate)} | {row.false_passes} |"
        )
    return [*lines, ""]


def _session_id(record: SessionRecord) -> str:
    """The session's test id, as `-k` selects it (run/cases.py's BankCase.id)."""
    base = f"{record.category}-{record.task_id}"
    return base if record.trial == 0 else f"{base}-t{record.trial + 1}"


def _rank(record: SessionRecord) -> tuple[int, str, int]:
    """Sessions without a verdict first (a crash or a lost worker), then the failure types in
    their order of precedence, infrastructure errors last; by task within each."""
    if record.outcome in ("harness_error", "lost"):
        rank = 0
    elif record.outcome == "infra_error" or record.failure_type not in FAILURE_TYPES:
        rank = len(FAILURE_TYPES) + 1
    else:
        rank = FAILURE_TYPES.index(record.failure_type) + 1
    return rank, record.task_id, record.trial


def _failing_sessions(sessions: Sequence[SessionRecord]) -> list[str]:
    """The failing sessions, each with its failure type and first evidence line, capped."""
    failing = sorted((r for r in sessions if not r.passed), key=_rank)
    if not failing:
        return []
    lines = [
        f"### Failing sessions ({len(failing)})",
        "",
        "| session | failure type | first evidence |",
        "|---|---|---|",
    ]
    for record in failing[:FAILING_SHOWN]:
        failure = failure_of(record)
        evidence = failure.evidence
        if len(evidence) > EVIDENCE_CHARS:
            evidence = evidence[: EVIDENCE_CHARS - 3] + "..."
        lines.append(
            f"| `{_cell(_session_id(record))}` | {_cell(failure.kind)} | {_cell(evidence)} |"
        )
    rest = len(failing) - FAILING_SHOWN
    if rest > 0:
        lines += ["", f"... and {rest} more (the JSON report, --bank-report, holds every one)."]
    return [*lines, ""]


def summary_markdown(
    report: Report, gate_result: GateResult | None, gate_unapplied: str | None = None
) -> str:
    """A Markdown run summary for a CI job summary (e.g. $GITHUB_STEP_SUMMARY); a gate not
    applied (`gate_unapplied`: why) is said to be, with no verdict."""
    summary, provenance = report.summary, report.provenance
    agent = provenance.get("agent") or {}
    customer = provenance.get("customer") or {}
    model = agent.get("model", "?") if isinstance(agent, Mapping) else "?"
    split = provenance.get("split", "?")
    verdict = ""
    if gate_result is not None:
        verdict = " - gate PASSED" if gate_result.passed else " - gate FAILED"
        if gate_unapplied is not None:
            verdict = " - gate not applied"
    low, high = summary.pass_1_ci95 or (None, None)
    fp = summary.false_passes
    trials = summary.trials
    lines = [
        f"## pytest-bankbench: {_cell(model)} on {_cell(split)}{verdict}",
        "",
        "| metric | value |",
        "|---|---|",
        f"| agent | {_cell(model)} |",
    ]
    if isinstance(customer, Mapping) and customer.get("model"):
        lines.append(f"| customer | {_cell(customer['model'])} |")
    scored = summary.sessions > 0  # else every rate is 0/0: n/a, not a measured 0
    pass_1 = (
        f"**{_dec(summary.pass_1)}** ({summary.passed} passed; 95% CI {_dec(low)} to {_dec(high)})"
        if scored
        else "**n/a** (no session was scored)"
    )
    sessions = (
        f"{summary.sessions} ({summary.tasks} tasks x {trials} trial{'s' if trials != 1 else ''})"
    )
    counts = summary.accounting
    if counts is not None and counts.selected != summary.sessions:
        # User trial: "0 (0 tasks x 1 trial)" beside 4 selected, all infrastructure errors.
        sessions = counts.short()
    lines += [
        f"| sessions | {sessions} |",
        f"| **pass^1** | {pass_1} |",
    ]
    for k in range(2, trials + 1):  # n/a where no task finished k trials, never a 0
        value = summary.pass_k.get(str(k))
        if not scored:
            shown = "n/a"
        elif value is None:
            shown = f"n/a ({unfinished(k)})"
        else:
            shown = f"{value:.4f}"
        lines.append(f"| pass^{k} | {shown} |")
    false_passes = (
        f"{fp.count} ({_pct(fp.share_of_all)} of all, "
        f"{_pct(fp.share_of_final_state_passes)} of final-state passes)"
    )
    lines += [
        f"| final-state-only rate | {_dec(summary.final_state_only_rate)} |",
        f"| false passes | {false_passes if scored else 'n/a'} |",
        f"| infra errors | {summary.infra_errors} |",
    ]
    if summary.accounting is not None:
        lines.append(f"| sessions accounted for | {summary.accounting.line()} |")
    if summary.cost_usd is not None:
        lines.append(f"| cost | ${summary.cost_usd:.4f} |")
    if provenance.get("version"):
        sha = str(provenance.get("task_data_sha256", ""))[:12]
        lines.append(
            f"| pytest-bankbench | {_cell(provenance['version'])}"
            + (f" (task data {sha})" if sha else "")
            + " |"
        )
    lines.append("")
    lines += _group_table("category", summary.by_category)
    lines += _group_table("service area", summary.by_service_area)
    lines += ["### Failure types", "", "| failure type | sessions |", "|---|---:|"]
    lines += [f"| {_cell(k)} | {v} |" for k, v in summary.failure_types.items()]
    lines.append("")
    if gate_result is not None and gate_unapplied is not None:
        lines += ["### Gate", "", f"**not applied**: {_cell(gate_unapplied)}", ""]
    elif gate_result is not None:
        lines += ["### Gate", "", "**PASSED**" if gate_result.passed else "**FAILED**", ""]
        lines += [f"- `{reason}`" for reason in gate_result.reasons]
        lines.append("")
    lines += _failing_sessions(report.sessions)
    return "\n".join(lines)
