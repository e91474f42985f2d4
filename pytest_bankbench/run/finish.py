"""The end of a run: its records made into a typed result (report, gate) and the outputs asked for.

Pytest-free: the plugin turns the result into the exit status and the terminal summary. The
reports take the Report built here, never the run object.
"""

from __future__ import annotations

import time
from collections.abc import Collection
from dataclasses import dataclass
from typing import TYPE_CHECKING

from pytest_bankbench.report.document import Report, Summary, build_report
from pytest_bankbench.report.metrics import summarize
from pytest_bankbench.report.output import write_atomic, write_report
from pytest_bankbench.report.terminal import gate_lines, gate_unapplied, render
from pytest_bankbench.run.provenance import provenance
from pytest_bankbench.run.settings import RunSettings, SettingsError
from pytest_bankbench.vocabulary import GOLD

if TYPE_CHECKING:
    from pytest_bankbench.report.gate import GateResult
    from pytest_bankbench.run.bench_run import BenchRun


@dataclass(frozen=True)
class RunResult:
    """A finished run: its report, the gate's decision (None without a gate), the summary lines."""

    report: Report
    gate: GateResult | None
    lines: list[str]
    # Why the gate is not applied (the run did not finish, or selected nothing); None: it is.
    gate_unapplied: str | None = None


def validate_gate_options(settings: RunSettings, families: Collection[str]) -> None:
    """Parse --bank-gate and load --bank-baseline at start-up, so a typo stops the run at once.

    A gate's group may name one of `families`, the families of the run's tasks."""
    from pytest_bankbench.report.document import ReportError, read_report
    from pytest_bankbench.report.gate import parse_gate

    if settings.gate is not None:
        try:
            gate = parse_gate(settings.gate, families)
        except ValueError as exc:
            raise SettingsError(f"--bank-gate: {exc}") from None
        if gate.max_k > settings.trials:
            # Known before the first session: say so now, not after the whole run.
            raise SettingsError(
                f"--bank-gate {settings.gate!r}: pass^{gate.max_k} needs "
                f"--bank-trials {gate.max_k} or more (this run has {settings.trials})"
            )
    if settings.baseline is not None:
        try:
            read_report(settings.baseline)
        except ReportError as exc:
            raise SettingsError(f"--bank-baseline: {exc}") from None


def _gate(settings: RunSettings, report: Report) -> GateResult | None:
    from pytest_bankbench.report.document import read_report
    from pytest_bankbench.report.gate import (
        GateResult,
        check_baseline,
        evaluate_gate,
        parse_gate,
    )

    results = []
    # Checked against the run's families at start-up (validate_gate_options).
    gate = parse_gate(settings.gate, None) if settings.gate is not None else None
    if gate is not None:
        results.append(evaluate_gate(gate, report.summary))
    if settings.baseline is not None:
        base = read_report(settings.baseline)
        # With --bank-gate, evaluate_gate already fails (or accepts) the sessions without a
        # verdict; the baseline check does it only when it is the run's one check.
        results.append(check_baseline(base, report, settings.tolerance, gate=gate))
    if not results:
        return None
    return GateResult(
        passed=all(r.passed for r in results),
        reasons=[reason for r in results for reason in r.reasons],
    )


def _gold_failed_a_task_file(settings: RunSettings, summary: Summary) -> list[str]:
    """Where the gold agent fails tasks of one's own file, the line that says whose fault it is
    and which command names the task's line and field (issue 17: a wrong expected value fails
    the gold agent, whose evidence names only the task and the value)."""
    failed = summary.sessions - summary.passed
    if settings.model != GOLD or settings.tasks_path is None or failed <= 0:
        return []
    path = settings.tasks_path
    return [
        f"gold failed {failed} of {summary.sessions} sessions of {path}: the gold agent follows "
        "each task's gold chain and tells what its tool results show, so the task is wrong; "
        f"`python -m pytest_bankbench validate-tasks {path}` names each problem's line and field"
    ]


def finish_run(run: BenchRun, exit_status: int = 0) -> RunResult:
    """Summarize every session (resumed ones included) and write the requested outputs;
    `exit_status` is pytest's, which decides whether the gate is applied."""
    settings = run.settings
    records = run.all_records()
    wall = time.perf_counter() - run.started
    summary = summarize(records, settings.trials, run.selected_count())
    prov = provenance(run)
    outputs: list[str] = []
    report = build_report(prov, summary, records, wall, settings.run_config)
    report_path = run.report_path or settings.report
    if report_path is not None:
        write_report(report_path, report)
        outputs.append(f"JSON report: {report_path}")
    if run.log is not None:
        outputs.append(f"session log: {run.log.path}")
    if settings.traces is not None:
        outputs.append(f"traces: {settings.traces / 'traces.jsonl'}")
    if settings.html is not None:
        from pytest_bankbench.report.html import write_html

        write_html(settings.html, report, run.traces)
        outputs.append(f"HTML report: {settings.html}")
    gate = _gate(settings, report)
    unapplied = gate_unapplied(exit_status, len(records)) if gate is not None else None
    if settings.summary_md is not None:
        from pytest_bankbench.report.markdown import summary_markdown

        write_atomic(settings.summary_md, summary_markdown(report, gate, unapplied))
        outputs.append(f"Markdown summary: {settings.summary_md}")
    if not outputs:  # a newcomer's first run (fourth user trial: "where is the report?")
        outputs.append(
            "no report written: add --bank-report r.json (and --bank-html r.html, --bank-traces "
            "DIR) to keep this run's sessions, verdicts and evidence"
        )
    lines = render(summary, prov, wall, outputs, resume=report_path)
    lines += _gold_failed_a_task_file(settings, summary)
    if gate is not None:
        lines += gate_lines(gate, unapplied)
    return RunResult(report, gate, lines, unapplied)
