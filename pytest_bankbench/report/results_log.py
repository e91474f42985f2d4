"""The run's durable results: one JSON line per finished session, written at once.

Each line reaches the operating system as soon as its session ends, so a killed worker, Ctrl-C,
SIGTERM or a crashed controller keeps every session already written; a later run resumes from
the same file when its configuration is the same. Against a crash of the machine itself the
file is also synced to disk, at most once a second and when the run ends: an fsync per session
cost ~2.6 ms on the thread that reports every test, a tenth of the budget at 64 in flight.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from pytest_bankbench.errors import BankBenchError
from pytest_bankbench.redaction import scrub
from pytest_bankbench.report.record import SessionRecord, foreign_session, load_json

LOG_SUFFIX = ".sessions.jsonl"
# Fields of the configuration that must match for a resume (or a merge of shards) to be honest.
# Left out on purpose, since they do not change a session's verdict: timeouts, retries, API
# bases, the response cache and prices. The session deadline does (past it a session fails). Temperature and other sampling settings
# are inside agent_parameters / customer_parameters.
CONFIG_FIELDS = (
    "agent",
    "agent_parameters",
    "customer",
    "customer_parameters",
    "split",
    "tasks_file",
    "task_data_sha256",
    "max_steps",
    "max_errors",
    "trials",
    "regrade",
    "shard",
    "package_version",
    "session_deadline",
)
# What a log written before a field existed meant by its absence.
CONFIG_DEFAULTS: dict[str, Any] = {
    "customer_parameters": {},
    "shard": None,
    "package_version": None,
    "session_deadline": None,
}
SYNC_EVERY_S = 1.0  # the longest a finished session waits for its line to reach the disk


class ResumeError(BankBenchError, ValueError):
    """The resume file cannot be used for this run; the message says why."""


def log_path_for(report: Path) -> Path:
    """Where the session log of a report lives: beside it, `<stem>.sessions.jsonl`."""
    return report.with_name(report.stem + LOG_SUFFIX)


def report_path_for(log: Path) -> Path:
    """The report a session log belongs to: `r.sessions.jsonl` -> `r.json`."""
    name = log.name
    stem = name[: -len(LOG_SUFFIX)] if name.endswith(LOG_SUFFIX) else log.stem
    return log.with_name(stem + ".json")


def resume_pair(path: Path) -> tuple[Path, Path]:
    """(report, session log) of a --bank-resume argument, whichever of the two it names."""
    if path.suffix == ".jsonl":
        return report_path_for(path), path
    return path, log_path_for(path)


def config_value(config: dict[str, Any], name: str) -> Any:
    return config.get(name, CONFIG_DEFAULTS.get(name))


class ResultsLog:
    """Append-only JSONL of session records, headed by the run's configuration.

    The file stays open for the run (opening it per session cost the reporting thread two more
    system calls, each a wait for the GIL at 64 sessions in flight); `close` ends it.
    """

    def __init__(self, path: Path, config: dict[str, Any], append: bool) -> None:
        from pytest_bankbench.report.output_paths import check_output

        self.path = check_output("the session log", path)
        self.synced_at = float("-inf")  # time.monotonic() of the last fsync
        path.parent.mkdir(parents=True, exist_ok=True)
        fresh = not append or not path.exists()
        self._file = path.open("w" if fresh else "a", encoding="utf-8")
        if fresh:
            self._write(json.dumps({"kind": "config", "config": config}, sort_keys=True))

    def _write(self, line: str) -> None:
        self._file.write(scrub(line) + "\n")
        self._file.flush()  # one write(2) of the whole line: the process may die now, not the line
        if time.monotonic() - self.synced_at >= SYNC_EVERY_S:
            self.sync()

    def sync(self) -> None:
        """Everything written so far on disk (the run's end)."""
        if not self._file.closed:
            os.fsync(self._file.fileno())
        self.synced_at = time.monotonic()

    def append(self, record: SessionRecord) -> None:
        self._write(f'{{"kind": "session", "record": {record.model_dump_json()}}}')

    def note_selected(self, keys: Iterable[tuple[str, int]]) -> None:
        """The sessions the run set out to play, so a merge of a killed shard's log counts the
        ones it never reached as not run (issue 19)."""
        sessions = sorted(keys)
        if sessions:
            self._write(json.dumps({"kind": "selected", "sessions": sessions}))

    def close(self) -> None:
        if not self._file.closed:
            self.sync()
            self._file.close()


def _parses(line: bytes) -> bool:
    try:
        json.loads(line)
    except ValueError:
        return False
    return True


def cut_short(text: str, lineno: int, last: int) -> bool:
    """Whether line `lineno` of a file read as `text` is its last non-blank one (`last`) with
    no newline after it: what a crash mid-write leaves (a line was written whole, newline and
    all). The readers of saved traces drop such a line, and refuse any other that is no trace."""
    return lineno == last and not text.endswith("\n")


def repair_log(path: Path) -> str | None:
    """Cut a last line torn by a crash mid-write, so the next append starts on a clean line.

    Returns what was dropped (for a warning), or None when the log was intact.
    """
    data = path.read_bytes()
    if not data:
        return None
    body, sep, tail = data.rpartition(b"\n")
    keep = body + sep
    if not tail.strip():
        # Ends with a newline: the last line is torn only if it does not parse.
        body, sep, tail = body.rpartition(b"\n")
        if _parses(tail) or not tail.strip():
            return None
        keep = body + sep
    elif _parses(tail):
        # Whole, only the newline was lost: keep the line and end it.
        with path.open("ab") as fh:
            fh.write(b"\n")
            fh.flush()
            os.fsync(fh.fileno())
        return None
    lineno = keep.count(b"\n") + 1
    with path.open("r+b") as fh:
        fh.truncate(len(keep))
        fh.flush()
        os.fsync(fh.fileno())
    return (
        f"{path}:{lineno}: the last line was cut short by a crash mid-write "
        f"({len(tail)} bytes, not valid JSON); dropped it, its session will run again"
    )


def read_log(path: Path) -> tuple[dict[str, Any], list[SessionRecord]]:
    """Configuration and records of a session log, or of a JSON report (its `sessions`).

    A report is read through its session log when the log exists (the log has every session,
    the report only those of the last finish); a report whose log is gone is read itself.
    """
    if path.suffix == ".json":
        log = log_path_for(path)
        if log.is_file():
            return read_log(log)
    if not path.is_file():
        raise ResumeError(f"{path}: no such file; give a report JSON or its {LOG_SUFFIX} log")
    if path.suffix == ".json":
        return _read_report_file(path)
    config: dict[str, Any] | None = None
    records: list[SessionRecord] = []
    lines = path.read_text(encoding="utf-8").splitlines()
    for lineno, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            entry = load_json(line)
        except json.JSONDecodeError:
            # A last line cut short by a crash: everything before it is intact (repair_log
            # removes it before anything is appended).
            if lineno == len(lines):
                break
            raise ResumeError(
                f"{path}:{lineno}: not valid JSON; only the last line of a session log may be "
                "torn by a crash. Remove the broken line to resume"
            ) from None
        except ValueError as exc:
            raise ResumeError(f"{path}:{lineno}: {exc}") from None
        if entry.get("kind") == "config":
            config = entry["config"]
        elif entry.get("kind") == "session":
            try:
                record = SessionRecord.model_validate(entry["record"])
            except ValidationError as exc:
                problem = exc.errors()[0]["msg"].removeprefix("Value error, ")
                raise ResumeError(f"{path}:{lineno}: not a session record: {problem}") from None
            foreign = foreign_session([record], (config or {}).get("trials"))
            if foreign is not None:
                raise ResumeError(f"{path}:{lineno}: {foreign}")
            records.append(record)
    if config is None:
        raise ResumeError(f"{path}: no configuration line; is this a bankbench session log?")
    return config, records


def _read_report_file(path: Path) -> tuple[dict[str, Any], list[SessionRecord]]:
    """Configuration and records of a JSON report read as a log (its own log is gone)."""
    try:
        data = load_json(path.read_text(encoding="utf-8"))
        config = data["run_config"]
        records = [SessionRecord.model_validate(s) for s in data["sessions"]]
    except (json.JSONDecodeError, KeyError, TypeError, ValueError) as exc:
        raise ResumeError(f"{path}: not a bankbench report ({exc})") from None
    provenance = data.get("provenance")
    task_ids = provenance.get("task_ids") if isinstance(provenance, dict) else None
    trials = config.get("trials") if isinstance(config, dict) else None
    foreign = foreign_session(records, trials, task_ids)
    if foreign is not None:
        raise ResumeError(f"{path}: {foreign}")
    return config, records


def config_differences(
    saved: dict[str, Any], current: dict[str, Any], skip: tuple[str, ...] = ()
) -> list[str]:
    """The configuration fields whose values differ, described for an error message."""
    return [
        f"{name}: saved {config_value(saved, name)!r}, now {config_value(current, name)!r}"
        for name in CONFIG_FIELDS
        if name not in skip and config_value(saved, name) != config_value(current, name)
    ]


def finished(records: list[SessionRecord]) -> dict[tuple[str, int], SessionRecord]:
    """Scored sessions by (task, trial); the last wins. Infra errors are left to be re-run."""
    return {(r.task_id, r.trial): r for r in records if r.outcome == "scored"}


def read_selected(path: Path) -> set[tuple[str, int]]:
    """The (task, trial) keys a session log says its run selected (none in a log written before
    the selection was recorded). A torn line is skipped: read_log judges the file itself."""
    keys: set[tuple[str, int]] = set()
    for line in path.read_text(encoding="utf-8").splitlines():
        if '"selected"' not in line:
            continue
        try:
            entry = load_json(line)
        except ValueError:
            continue
        if isinstance(entry, dict) and entry.get("kind") == "selected":
            for item in entry.get("sessions", []):
                if isinstance(item, list) and len(item) == 2:
                    keys.add((str(item[0]), int(item[1])))
    return keys
