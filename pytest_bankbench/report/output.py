"""The run's files written atomically: the JSON report, and any text output (HTML, Markdown).

The report's provenance is built by the run (run/provenance.py)."""

from __future__ import annotations

import os
from pathlib import Path

from pytest_bankbench.redaction import scrub
from pytest_bankbench.report.document import REPORT_VERSION as REPORT_VERSION
from pytest_bankbench.report.document import Report
from pytest_bankbench.report.output_paths import check_output, target_of


def write_atomic(path: Path, text: str) -> None:
    """Write through a temporary file in the same folder, then os.replace: a reader never
    sees half of it, and a failed write leaves no temporary file behind. A path that is not a
    regular file (device, FIFO, folder, under /proc) is refused, never replaced. No remembered
    credential is written (redaction.scrub)."""
    check_output("output", path)
    text = scrub(text)
    # A symlink is written through: its target is replaced, the link stays (issue 19).
    target = target_of(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    try:
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, target)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def write_report(path: Path, report: Report) -> None:
    write_atomic(path, report.dumps())
