"""The JSON report: provenance, summary, every session's verdict; written atomically."""

from __future__ import annotations

import json
import os
import platform
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from pytest_bankbench import __version__
from pytest_bankbench.options import redacted
from pytest_bankbench.report.metrics import SessionRecord

if TYPE_CHECKING:
    from pytest_bankbench.bench_plugin import BankBench

REPORT_VERSION = 1


def provenance(run: BankBench, records: list[SessionRecord]) -> dict[str, Any]:
    """What produced the results (tau-bench's list). API keys are never part of it."""
    options = run.options
    litellm = sys.modules.get("litellm")
    return {
        "package": "pytest-bankbench",
        "version": __version__,
        "task_data_sha256": run.run_config()["task_data_sha256"],
        "tasks_file": "shipped" if options.tasks_path is None else str(options.tasks_path),
        "split": options.split if options.tasks_path is None else "custom",
        "task_ids": [t.task_id for t in run.tasks],
        "agent": {
            "model": options.model,
            "builtin": options.builtin,
            "parameters": redacted(options.model_args),
        },
        "customer": {"model": options.user_model, "parameters": redacted(options.user_model_args)},
        "max_steps": options.max_steps,
        "max_errors": options.max_errors,
        "trials": options.trials,
        "seeds": {f"{c.task.task_id}#{c.trial}": c.seed for c in run.cases},
        "python": platform.python_version(),
        "pytest": pytest.__version__,
        "litellm": getattr(litellm, "__version__", None) if litellm else None,
    }


def report_document(
    prov: dict[str, Any],
    summary: dict[str, Any],
    records: list[SessionRecord],
    wall_s: float,
    run_config: dict[str, Any],
) -> dict[str, Any]:
    """The report as a JSON-able dict; sessions sorted so that parallel runs write the same."""
    sessions = [
        r.model_dump(mode="json") for r in sorted(records, key=lambda r: (r.task_id, r.trial))
    ]
    return {
        "report_version": REPORT_VERSION,
        "provenance": prov,
        "run_config": run_config,
        "summary": summary,
        "wall_time_s": round(wall_s, 3),
        "sessions": sessions,
    }


def write_report(
    path: Path,
    prov: dict[str, Any],
    summary: dict[str, Any],
    records: list[SessionRecord],
    wall_s: float,
    run_config: dict[str, Any],
) -> dict[str, Any]:
    """Write the report through a temporary file so a reader never sees half of it."""
    document = report_document(prov, summary, records, wall_s, run_config)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(document, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    os.replace(tmp, path)
    return document
