"""One writer per report, and SIGTERM ends a run like Ctrl-C (so the report is still written).

The lock is `<stem>.sessions.jsonl.lock` beside the report, named after the session log, so two
reports that differ only in extension (`same.json`, `same.txt`), which share one session log,
share one lock too (issue 19); it is held with flock(2) and holds the writer's pid.
The kernel drops a flock when its process dies, so a lock left by a killed run (kill -9, a lost
CI runner) is simply taken over; only a live run holds it.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from types import FrameType
from typing import IO

from pytest_bankbench.errors import BankBenchError

LOCK_SUFFIX = ".lock"


class ReportLocked(BankBenchError, RuntimeError):
    """Another live run is writing the same report; the message names the lock file and pid."""


def lock_of(path: Path) -> Path:
    """The lock file beside a file a run appends to all along."""
    return path.with_name(path.name + LOCK_SUFFIX)


def lock_path_for(report: Path) -> Path:
    """The lock of every file the run writes beside `report`, the session log included."""
    from pytest_bankbench.report.results_log import log_path_for

    return lock_of(log_path_for(report))


class ReportLock:
    """An exclusive, non-blocking lock on a report and its session log."""

    def __init__(self, report: Path, lock: Path | None = None, option: str = "") -> None:
        """`lock` and `option`: another file a run writes all along (--bank-traces' file)."""
        self.report = report
        self.path = lock_path_for(report) if lock is None else lock
        self.option = option
        self._fh: IO[str] | None = None

    def acquire(self) -> None:
        if sys.platform == "win32":  # pragma: no cover - no flock; one writer is on the user
            return
        import fcntl

        self.path.parent.mkdir(parents=True, exist_ok=True)
        while True:
            fh = self.path.open("a+", encoding="utf-8")
            try:
                fcntl.flock(fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                fh.seek(0)
                holder = fh.read().strip() or "unknown"
                fh.close()
                what, option = ("file", self.option) if self.option else ("report", "--bank-report")
                raise ReportLocked(
                    f"{self.report}: another run (pid {holder}) is writing this {what}; "
                    f"its lock is {self.path}. Wait for that run to end, or write to another "
                    f"{option}"
                ) from None
            # The holder we waited on may have removed the file after we opened it: lock the
            # file that is at the path now, not an unlinked one.
            try:
                same = os.stat(self.path).st_ino == os.fstat(fh.fileno()).st_ino
            except FileNotFoundError:
                same = False
            if same:
                break
            fh.close()
        fh.seek(0)
        fh.truncate()
        fh.write(f"{os.getpid()}\n")
        fh.flush()
        self._fh = fh

    def release(self) -> None:
        if self._fh is None:
            return
        self.path.unlink(missing_ok=True)
        self._fh.close()  # closing drops the flock
        self._fh = None


def _interrupt(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt(f"stopped by signal {signal.Signals(signum).name}")


def end_on_sigterm() -> Callable[[], None]:
    """Make SIGTERM raise KeyboardInterrupt (pytest then finishes as after Ctrl-C).

    Returns the function that puts the previous handler back. CI runners and `timeout` send
    SIGTERM first; without this the process dies at once and no report is written.
    """
    if threading.current_thread() is not threading.main_thread():
        return lambda: None
    previous = signal.signal(signal.SIGTERM, _interrupt)

    def restore() -> None:
        signal.signal(signal.SIGTERM, previous if previous is not None else signal.SIG_DFL)

    return restore
