"""The run's files written atomically: the JSON report, and any text output (HTML, Markdown).

The report's provenance is built by the run (run/provenance.py)."""

from __future__ import annotations

import os
from pathlib import Path

from pytest_bankbench.report.document import REPORT_VERSION as REPORT_VERSION
from pytest_bankbench.report.document import Report


def write_atomic(path: Path, text: str) -> None:
    """Write through a temporary file in the same folder, then os.replace: a reader never
    sees half of it, and a failed write leaves no temporary file behind."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def write_report(path: Path, report: Report) -> None:
    write_atomic(path, report.dumps())
