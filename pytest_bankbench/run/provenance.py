"""What produced a run's results (its provenance), for the report and beside saved traces."""

from __future__ import annotations

import json
import platform
import sys
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pytest_bankbench import __version__
from pytest_bankbench.redaction import redacted

if TYPE_CHECKING:
    from pytest_bankbench.run.bench_run import BenchRun

# Written beside traces.jsonl: what produced the traces, for the provenance of a re-grade.
PROVENANCE_FILE = "provenance.json"


def utc_iso(moment: datetime) -> str:
    """A moment as provenance records it: UTC, ISO 8601, to the second ('2026-12-02T15:04:05Z')."""
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def provenance(run: BenchRun) -> dict[str, Any]:
    """What produced the results (tau-bench's list). API keys are never part of it."""
    options = run.settings
    pytest = sys.modules.get("pytest")  # the front end that runs the benchmark, if it is pytest
    config = options.run_config
    document = {
        "package": "pytest-bankbench",
        "version": __version__,
        "task_data_sha256": config["task_data_sha256"],
        "tasks_file": config["tasks_file"],
        "split": config["split"],
        "shard": config["shard"],
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
        "seeds": {f"{c.task.task_id}#{c.trial}": c.seed for c in run.all_cases()},
        "run_started": utc_iso(run.started_at),
        "python": platform.python_version(),
        "pytest": getattr(pytest, "__version__", None),
        # The installed distribution's (litellm has no __version__ and is imported lazily:
        # reading sys.modules recorded null in every run, user trial).
        "litellm": _installed("litellm"),
    }
    if options.regrade is not None:
        document.update(_traced(run, options.regrade))
    return document


def _installed(distribution: str) -> str | None:
    """The installed version of a distribution, without importing it; None when not installed."""
    try:
        return metadata.version(distribution)
    except metadata.PackageNotFoundError:
        return None


def _traced(run: BenchRun, traces_file: Path) -> dict[str, Any]:
    """A re-grade keeps what produced the traces: the run's own provenance when it was saved
    beside them, else the agent and customer each trace names."""
    saved = traces_file.with_name(PROVENANCE_FILE)
    if saved.is_file():
        try:
            original = json.loads(saved.read_text(encoding="utf-8"))
        except ValueError:
            original = None
        if isinstance(original, dict):
            kept = ("agent", "customer", "split", "tasks_file", "max_steps", "max_errors")
            document = {key: original[key] for key in kept if key in original}
            if isinstance(original.get("run_started"), str):  # when the traces were played
                document["traces_run_started"] = original["run_started"]
            return document
    traces = run.saved_traces.values()
    agents = sorted({t.agent for t in traces})
    customers = sorted({t.customer for t in traces})
    return {
        "agent": {"model": ", ".join(agents), "builtin": None, "parameters": None},
        "customer": {"model": ", ".join(customers), "parameters": None},
    }
