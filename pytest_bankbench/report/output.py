"""The JSON report written atomically (its provenance is built by the run, run/provenance.py)."""

from __future__ import annotations

import os
from pathlib import Path

from pytest_bankbench.report.document import REPORT_VERSION as REPORT_VERSION
from pytest_bankbench.report.document import Report


def write_report(path: Path, report: Report) -> None:
    """Write the report through a temporary file so a reader never sees half of it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(report.dumps(), encoding="utf-8")
    os.replace(tmp, path)
