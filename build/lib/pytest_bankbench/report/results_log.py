"""The run's durable results: one JSON line per finished session, appended and synced at once.

A killed worker, Ctrl-C or a crashed controller keeps every session already written; a later
run resumes from the same file when its configuration is the same.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from pytest_bankbench.report.metrics import SessionRecord

LOG_SUFFIX = ".sessions.jsonl"
# Fields of the configuration that must match for a resume to be honest.
CONFIG_FIELDS = (
    "agent",
    "agent_parameters",
    "customer",
    "split",
    "tasks_file",
    "task_data_sha256",
    "max_steps",
    "max_errors",
    "trials",
    "regrade",
)


class ResumeError(ValueError):
    """The resume file cannot be used for this run; the message says why."""


def log_path_for(report: Path) -> Path:
    """Where the session log of a report lives: beside it, `<stem>.sessions.jsonl`."""
    return report.with_name(report.stem + LOG_SUFFIX)


class ResultsLog:
    """Append-only JSONL of session records, headed by the run's configuration."""

    def __init__(self, path: Path, config: dict[str, Any], append: bool) -> None:
        self.path = path
        path.parent.mkdir(parents=True, exist_ok=True)
        if not append or not path.exists():
            self._write({"kind": "config", "config": config}, mode="w")

    def _write(self, entry: dict[str, Any], mode: str = "a") -> None:
        with self.path.open(mode, encoding="utf-8") as fh:
            fh.write(json.dumps(entry, sort_keys=True) + "\n")
            fh.flush()
            os.fsync(fh.fileno())

    def append(self, record: SessionRecord) -> None:
        self._write({"kind": "session", "record": record.model_dump(mode="json")})


def read_log(path: Path) -> tuple[dict[str, Any], list[SessionRecord]]:
    """Configuration and records of a session log, or of a JSON report (its `sessions`)."""
    if not path.is_file():
        raise ResumeError(f"{path}: no such file; give a report JSON or its {LOG_SUFFIX} log")
    if path.suffix == ".json":
        log = log_path_for(path)
        if log.is_file():
            return read_log(log)
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            return data["run_config"], [SessionRecord.model_validate(s) for s in data["sessions"]]
        except (json.JSONDecodeError, KeyError, TypeError, ValueError) as exc:
            raise ResumeError(f"{path}: not a bankbench report ({exc})") from None
    config: dict[str, Any] | None = None
    records: list[SessionRecord] = []
    for lineno, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            entry = json.loads(line)
        except json.JSONDecodeError:
            # A line cut short by a crash: everything before it is intact.
            if lineno == len(path.read_text(encoding="utf-8").splitlines()):
                break
            raise ResumeError(f"{path}:{lineno}: not valid JSON") from None
        if entry.get("kind") == "config":
            config = entry["config"]
        elif entry.get("kind") == "session":
            records.append(SessionRecord.model_validate(entry["record"]))
    if config is None:
        raise ResumeError(f"{path}: no configuration line; is this a bankbench session log?")
    return config, records


def config_differences(saved: dict[str, Any], current: dict[str, Any]) -> list[str]:
    """The configuration fields whose values differ, described for an error message."""
    return [
        f"{name}: saved {saved.get(name)!r}, now {current.get(name)!r}"
        for name in CONFIG_FIELDS
        if saved.get(name) != current.get(name)
    ]


def finished(records: list[SessionRecord]) -> dict[tuple[str, int], SessionRecord]:
    """Scored sessions by (task, trial); the last wins. Infra errors are left to be re-run."""
    return {(r.task_id, r.trial): r for r in records if r.outcome == "scored"}
