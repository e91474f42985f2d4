"""One benchmark run, pytest-free: its tasks and cases, what a resumed run finished, the durable
results log, the traces file, and every record as it arrives.

The plugin (plugin/bench.py) drives it from pytest's hooks; a RunStartError (a setting that
only fails once the files are read) reaches the user as pytest's usage error.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Collection, Iterable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pytest_bankbench.redaction import scrub
from pytest_bankbench.report.record import SessionRecord
from pytest_bankbench.report.results_log import (
    ResultsLog,
    ResumeError,
    config_differences,
    cut_short,
    finished,
    log_path_for,
    read_log,
    repair_log,
    resume_pair,
)
from pytest_bankbench.run.cases import (
    BankCase,
    CaseKey,
    in_shard,
    iter_cases,
    pending_cases,
    session_seed,
)
from pytest_bankbench.run.settings import RunSettings, SettingsError
from pytest_bankbench.tasks.loader import (
    TaskFileError,
    load_tasks,
    select,
    select_from_file,
    shipped_tasks,
)

if TYPE_CHECKING:
    from pytest_bankbench.simulation.trace import Trace
    from pytest_bankbench.tasks.model import Task


class RunStartError(SettingsError):
    """The run cannot start as asked: a task file, a trace file or a report that does not fit."""


def load_traces(path: Path, warn: Callable[[str], None] = print) -> dict[CaseKey, Trace]:
    """Saved traces by (task id, trial), for --bank-regrade. A last line cut short by a crash
    mid-write (no newline after it) is dropped with a warning (issue 19); a broken line before
    it, or a whole line that is not a trace, stops the run, as do traces of two agents. A
    session saved twice (a resumed run appends the sessions it plays again) is graded from its
    later line, with a warning."""
    from pytest_bankbench.simulation.trace import Trace

    traces: dict[CaseKey, Trace] = {}
    where: dict[CaseKey, int] = {}
    again: list[tuple[CaseKey, int, int]] = []
    agent: tuple[str, int] | None = None
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines()
    last = max((n for n, line in enumerate(lines, start=1) if line.strip()), default=0)
    for lineno, line in enumerate(lines, start=1):
        if line.strip():
            try:
                trace = Trace.model_validate_json(line)
            except ValueError as exc:
                if cut_short(text, lineno, last) and _torn(line):
                    warn(
                        f"--bank-regrade {path}:{lineno}: the last line was cut short by a crash "
                        f"mid-write ({len(line)} bytes, not valid JSON); dropped it, its session "
                        "is not re-graded"
                    )
                    break
                raise RunStartError(
                    f"--bank-regrade {path}:{lineno}: not a trace ({_why_not(exc)}); give the "
                    "traces.jsonl a run wrote with --bank-traces DIR"
                ) from None
            if agent is None:
                agent = (trace.agent, lineno)
            elif trace.agent != agent[0]:
                raise RunStartError(
                    f"--bank-regrade {path}:{lineno}: a trace of agent {trace.agent!r}, line "
                    f"{agent[1]} one of {agent[0]!r}; a traces file holds one run's sessions"
                )
            key = (trace.task_id, trace.trial)
            if key in where:
                again.append((key, where[key], lineno))
            traces[key] = trace
            where[key] = lineno
    if again:
        (task_id, trial), first, later = again[0]
        warn(
            f"--bank-regrade {path}: {len(again)} session(s) saved twice (e.g. {task_id} trial "
            f"{trial}, lines {first} and {later}); each is graded from its later line, as a "
            "resumed run appends the sessions it plays again"
        )
    return traces


def _why_not(exc: ValueError) -> str:
    """A line's fault in a few words: the fields a trace needs that it lacks or gets wrong (a
    task line lacks a dozen), or the JSON error."""
    from pydantic import ValidationError

    if not isinstance(exc, ValidationError):
        return str(exc)[:200]
    errors = exc.errors()
    if errors and errors[0]["type"] == "json_invalid":
        return f"not valid JSON: {errors[0]['msg'].removeprefix('Invalid JSON: ')}"
    shown = "; ".join(
        f"{'.'.join(map(str, e['loc'])) or 'the line'}: {e['msg'].lower()}" for e in errors[:3]
    )
    return f"{len(errors)} problem(s), e.g. {shown}" if len(errors) > 3 else shown


def stray_traces(traces: Collection[CaseKey], tasks: Iterable[Task], trials: int) -> str | None:
    """Why saved traces fall outside the run (a task the task set lacks, a trial past
    --bank-trials), or None: a trace the run cannot place would leave its session silently out
    of the re-grade and of its count."""
    known = {t.task_id for t in tasks}
    unknown = sorted(k for k in traces if k[0] not in known)
    if unknown:
        shown = ", ".join(f"{t} trial {n}" for t, n in unknown[:3])
        return (
            f"{len(unknown)} trace(s) of tasks not in the task set ({shown}); re-grade with "
            "the --bank-tasks file the traces were played on"
        )
    beyond = sorted(k for k in traces if k[1] >= trials)
    if beyond:
        most = max(n for _, n in beyond) + 1
        return f"traces of up to {most} trials; re-grade them with --bank-trials {most}"
    return None


def _torn(line: str) -> bool:
    """Whether a line is not JSON at all (cut short), rather than JSON that is not a trace."""
    try:
        json.loads(line)
    except (ValueError, RecursionError):
        return True
    return False


class BenchRun:
    """The state of one run in one process (the controller, or an xdist worker)."""

    def __init__(
        self, settings: RunSettings, is_worker: bool, warn: Callable[[str], None] = print
    ) -> None:
        self.settings = settings
        self.is_worker = is_worker
        self.warn = warn
        try:
            if settings.tasks_path is None:
                pool: tuple[Task, ...] | list[Task] = shipped_tasks()
                self.tasks = select(pool, str(settings.split))
            else:
                pool = load_tasks(settings.tasks_path)
                self.tasks = select_from_file(pool, settings.split, settings.tasks_path)
        except TaskFileError as exc:
            raise RunStartError(f"--bank-tasks: {exc}") from None
        # The cases are made when selected (pending_cases) or named (case_by_id), never all at
        # once: --bank-trials 100 on the shipped tasks is 100,000 (issue 19, item 6).
        self._by_base = {f"{t.category}-{t.task_id}": t for t in self.tasks}
        self.saved_traces = load_traces(settings.regrade, warn) if settings.regrade else {}
        stray = stray_traces(self.saved_traces, pool, settings.trials)
        if stray is not None:
            raise RunStartError(f"--bank-regrade {settings.regrade}: {stray}")
        self.selected: set[CaseKey] = set()
        self.records: list[SessionRecord] = []
        self.traces: list[dict[str, Any]] = []  # for the HTML report
        self.previous: dict[CaseKey, SessionRecord] = {}
        self.log: ResultsLog | None = None
        self.report_path: Path | None = None
        self.started = time.perf_counter()
        # When the run started, for its provenance only (the bank keeps the task's date).
        self.started_at = datetime.now(UTC)
        self._cleanups: list[Callable[[], None]] = []

    def open(self) -> None:
        """Read what a resumed run finished, lock the report, open the log and the traces file."""
        try:
            self._resume_and_log()
            if self.settings.traces is not None and not self.is_worker:
                self._open_traces(self.settings.traces)
        except BaseException:
            self.close()
            raise

    def close(self) -> None:
        """Release the report's lock and the SIGTERM handler (last taken, first given back)."""
        while self._cleanups:
            self._cleanups.pop()()

    # -- resume and the durable log ----------------------------------------------------------
    def _resume_and_log(self) -> None:
        from pytest_bankbench.report.run_guard import ReportLock, ReportLocked, end_on_sigterm

        o = self.settings
        resumed_log: Path | None = None
        report = o.report
        if o.resume is not None:
            resumed_report, resumed_log = resume_pair(o.resume)
            if not self.is_worker and resumed_log.is_file():
                # A crash mid-write leaves a torn last line: cut it before anything is appended.
                torn = repair_log(resumed_log)
                if torn:
                    self.warn(f"--bank-resume {torn}")
            try:
                saved, records = read_log(resumed_log if resumed_log.is_file() else resumed_report)
            except ResumeError as exc:
                raise RunStartError(f"--bank-resume: {exc}") from None
            differences = config_differences(saved, o.run_config)
            if differences:
                raise RunStartError(
                    f"--bank-resume {o.resume}: the saved run has a different configuration; "
                    "resume it with the same options, or start a new report. Differences: "
                    + "; ".join(differences)
                )
            self.previous = finished(records)
            report = report or resumed_report
        if self.is_worker:
            return
        self._cleanups.append(end_on_sigterm())
        if report is None:
            return
        lock = ReportLock(report)
        try:
            lock.acquire()
        except ReportLocked as exc:
            raise RunStartError(f"--bank-report: {exc}") from None
        self._cleanups.append(lock.release)
        self.report_path = report
        log_file = log_path_for(report)
        if resumed_log is not None and log_file == resumed_log and log_file.is_file():
            self.log = ResultsLog(log_file, o.run_config, append=True)
        else:
            # A new log (or a resume into another report): it starts with what was resumed,
            # so that it alone can resume this run later.
            self.log = ResultsLog(log_file, o.run_config, append=False)
            for record in self.previous.values():
                self.log.append(record)
        self._cleanups.append(self.log.close)

    def _open_traces(self, folder: Path) -> None:
        """Start traces.jsonl (kept on resume), with the run's provenance beside it for regrade."""
        from pytest_bankbench.report.run_guard import ReportLock, ReportLocked, lock_of
        from pytest_bankbench.run.provenance import PROVENANCE_FILE, provenance

        folder.mkdir(parents=True, exist_ok=True)
        traces_file = folder / "traces.jsonl"
        # Appended to all run long, like the session log: one run at a time (issue 19).
        lock = ReportLock(traces_file, lock_of(traces_file), "--bank-traces")
        try:
            lock.acquire()
        except ReportLocked as exc:
            raise RunStartError(f"--bank-traces: {exc}") from None
        self._cleanups.append(lock.release)
        if not (self.settings.resume and traces_file.exists()):
            traces_file.write_text("", encoding="utf-8")
        elif self.settings.resume:
            torn = repair_log(traces_file)
            if torn:
                self.warn(f"--bank-traces {torn}")
            if self.settings.html is not None:
                self.traces.extend(self._earlier_traces(traces_file))
        if self.settings.regrade is None:
            (folder / PROVENANCE_FILE).write_text(
                scrub(json.dumps(provenance(self), indent=1, sort_keys=True)) + "\n",
                encoding="utf-8",
            )

    def _earlier_traces(self, traces_file: Path) -> list[dict[str, Any]]:
        """Traces of the resumed sessions, so the HTML of a resumed run shows every session."""
        from pytest_bankbench.simulation.trace import Trace

        found: dict[CaseKey, dict[str, Any]] = {}
        for line in traces_file.read_text(encoding="utf-8").splitlines():
            if not line.strip():
                continue
            try:
                trace = Trace.model_validate_json(line)
            except ValueError:
                continue  # an unreadable trace only costs the HTML that one trace
            if (trace.task_id, trace.trial) in self.previous:
                found[(trace.task_id, trace.trial)] = trace.model_dump(mode="json")
        return list(found.values())

    # -- the sessions -------------------------------------------------------------------------
    def all_cases(self) -> Iterator[BankCase]:
        """Every (task, trial) session of the run's configuration, one at a time."""
        return iter_cases(self.tasks, self.settings.trials)

    def pending_cases(self) -> list[BankCase]:
        """The cases this run plays: not resumed, with a saved trace to re-grade, in its shard."""
        saved = self.saved_traces if self.settings.regrade is not None else None
        shard = self.settings.shard
        mine = None
        if shard is not None:
            mine = in_shard((t.task_id for t in self.tasks), self.settings.trials, *shard)
        return pending_cases(self.all_cases(), self.previous, saved, mine)

    def case_by_id(self, case_id: str) -> BankCase | None:
        """The case of a test id (`category-task_id`, `-tK` for trial K-1 past the first)."""
        task, trial = self._by_base.get(case_id), 0
        if task is None:
            base, _, number = case_id.rpartition("-t")
            task = self._by_base.get(base)
            if task is None or not number.isdigit() or str(int(number)) != number:
                return None
            trial = int(number) - 1
            if not 1 <= trial < self.settings.trials:
                return None
        return BankCase(task, trial, session_seed(task.task_id, trial))

    def note_selected(self, cases: Iterable[BankCase]) -> None:
        new = {case.key for case in cases} - self.selected
        self.selected.update(new)
        if self.log is not None:
            self.log.note_selected((key[0], key[1]) for key in new)

    def selected_count(self) -> int:
        """Sessions this run set out to account for: the ones selected now plus resumed ones."""
        return len(self.selected | set(self.previous))

    def add(self, record: SessionRecord, trace_json: str | None = None) -> None:
        """Keep a finished session's record (durably, with a log) and its trace if asked for."""
        self.records.append(record)
        if self.log is not None:
            self.log.append(record)
        if trace_json is None:
            return
        if self.settings.traces is not None:
            with (self.settings.traces / "traces.jsonl").open("a", encoding="utf-8") as fh:
                fh.write(scrub(trace_json) + "\n")
        if self.settings.html is not None:
            from pytest_bankbench.simulation.trace import Trace

            self.traces.append(Trace.model_validate_json(trace_json).model_dump(mode="json"))

    def all_records(self) -> list[SessionRecord]:
        """This run's sessions plus those a resumed run had already finished."""
        merged = dict(self.previous)
        merged.update({(r.task_id, r.trial): r for r in self.records})
        return list(merged.values())

    def sync(self) -> None:
        if self.log is not None:
            self.log.sync()
