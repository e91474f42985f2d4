"""The end of a run: summary, JSON report, HTML, Markdown, and the CI gate's verdict."""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from pytest_bankbench.report.document import Report, Summary, build_report
from pytest_bankbench.report.metrics import summarize
from pytest_bankbench.report.output import provenance, write_report
from pytest_bankbench.report.terminal import render

if TYPE_CHECKING:
    from pytest_bankbench.bench_plugin import BankBench
    from pytest_bankbench.report.gate import GateResult


@dataclass(frozen=True)
class RunOutcome:
    lines: list[str]
    exitstatus: int | None  # set when a gate decides the exit status


def validate_gate_options(run: BankBench) -> None:
    """Parse --bank-gate and load --bank-baseline at start-up, so a typo stops the run at once."""
    from pytest_bankbench.report.compare import ReportError, load_report
    from pytest_bankbench.report.gate import parse_gate

    if run.options.gate is not None:
        try:
            gate = parse_gate(run.options.gate)
        except ValueError as exc:
            raise pytest.UsageError(f"--bank-gate: {exc}") from None
        if gate.max_k > run.options.trials:
            # Known before the first session: say so now, not after the whole run.
            raise pytest.UsageError(
                f"--bank-gate {run.options.gate!r}: pass^{gate.max_k} needs "
                f"--bank-trials {gate.max_k} or more (this run has {run.options.trials})"
            )
    if run.options.baseline is not None:
        try:
            load_report(run.options.baseline)
        except ReportError as exc:
            raise pytest.UsageError(f"--bank-baseline: {exc}") from None


def _gate(run: BankBench, summary: Summary, report: Report) -> GateResult | None:
    from pytest_bankbench.report.compare import load_report
    from pytest_bankbench.report.gate import (
        GateResult,
        check_baseline,
        evaluate_gate,
        parse_gate,
    )

    options = run.options
    results = []
    if options.gate is not None:
        results.append(evaluate_gate(parse_gate(options.gate), summary))
    if options.baseline is not None:
        results.append(check_baseline(load_report(options.baseline), report, options.tolerance))
    if not results:
        return None
    return GateResult(
        passed=all(r.passed for r in results),
        reasons=[reason for r in results for reason in r.reasons],
    )


def _write_text(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


def finish_run(run: BankBench, exitstatus: int) -> RunOutcome:
    """Summarize every session (resumed ones included) and write the requested outputs."""
    options = run.options
    records = run.all_records()
    wall = time.perf_counter() - run.started
    summary = summarize(records, options.trials, run.selected_count())
    prov = provenance(run, records)
    outputs: list[str] = []
    report = build_report(prov, summary, records, wall, run.run_config())
    report_path = run.report_path or options.report
    if report_path is not None:
        write_report(report_path, report)
        outputs.append(f"JSON report: {report_path}")
    if run.log is not None:
        outputs.append(f"session log: {run.log.path}")
    if options.traces is not None:
        outputs.append(f"traces: {options.traces / 'traces.jsonl'}")
    if options.html is not None:
        from pytest_bankbench.report.html import write_html

        write_html(options.html, report, run.traces)
        outputs.append(f"HTML report: {options.html}")
    gate = _gate(run, summary, report)
    if options.summary_md is not None:
        from pytest_bankbench.report.markdown import summary_markdown

        _write_text(options.summary_md, summary_markdown(summary, prov, gate))
        outputs.append(f"Markdown summary: {options.summary_md}")
    lines = render(summary, prov, wall, outputs)
    decided: int | None = None
    if gate is not None:
        lines.append(
            f"gate: {'PASSED' if gate.passed else 'FAILED'} (the exit status follows "
            "the gate, not individual task failures)"
        )
        lines.extend(f"  {reason}" for reason in gate.reasons)
        # An interrupted or broken run keeps its own status; a finished one follows the gate.
        if exitstatus in (pytest.ExitCode.OK, pytest.ExitCode.TESTS_FAILED):
            decided = pytest.ExitCode.OK if gate.passed else pytest.ExitCode.TESTS_FAILED
    return RunOutcome(lines, decided)
