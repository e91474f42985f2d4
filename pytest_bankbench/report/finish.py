"""The end of a run: summary, JSON report, HTML, Markdown, and the CI gate's verdict."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pytest_bankbench.report.metrics import summarize
from pytest_bankbench.report.output import provenance, report_document, write_report
from pytest_bankbench.report.terminal import render

if TYPE_CHECKING:
    from pytest_bankbench.bench_plugin import BankBench


@dataclass(frozen=True)
class RunOutcome:
    lines: list[str]
    exitstatus: int | None  # set when a gate decides the exit status


def finish_run(run: BankBench, exitstatus: int) -> RunOutcome:
    """Summarize every session (resumed ones included) and write the requested outputs."""
    options = run.options
    records = run.all_records()
    wall = time.perf_counter() - run.started
    summary = summarize(records, options.trials)
    prov = provenance(run, records)
    outputs: list[str] = []
    report_path = run.report_path or options.report
    document: dict[str, Any] | None = None
    if report_path is not None:
        document = write_report(report_path, prov, summary, records, wall, run.run_config())
        outputs.append(f"JSON report: {report_path}")
    if run.log is not None:
        outputs.append(f"session log: {run.log.path}")
    if options.traces is not None:
        outputs.append(f"traces: {options.traces / 'traces.jsonl'}")
    if options.html is not None:
        from pytest_bankbench.report.html import write_html

        if document is None:
            document = report_document(prov, summary, records, wall, run.run_config())
        write_html(options.html, document, run.traces)
        outputs.append(f"HTML report: {options.html}")
    lines = render(summary, prov, wall, outputs)
    return RunOutcome(lines, None)
