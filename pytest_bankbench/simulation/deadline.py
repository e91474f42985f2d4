"""The session deadline (--bank-session-deadline): each session charged for its own time only.

A session's clock starts after its parties' one-time setup (litellm's import, which took 42.7 s
in a cold process against 0.4 s for the session) and is checked after every step: the agent's
turn, each tool call, the customer's turn, and the scoring. Past the deadline the session ends
with `deadline_exceeded`, the agent's failure (issue 19): never infrastructure, never another
session's.

What a session is charged, at --bank-concurrency K where K sessions share one interpreter:

    charged = max(own CPU, wall time - process stalls)

A process stall is a stretch in which no thread of the process could run Python: one thread
held the interpreter lock in C code (a backtracking regex, a huge-integer conversion, an agent
burning CPU in a builtin). `StallMeter`, a heartbeat thread that wakes every TICK_S, measures
each stretch it woke late by more than GRACE_S. The sessions frozen by the stall are not
charged for it; the session that caused it is, because its own threads' CPU time
(`time.thread_time`: the session's thread and the worker each move runs on, bounded.py) covers
it. A session that waits (a model call, a synchronous sleep) is
charged its wall time, as it frees the interpreter for the others.
"""

from __future__ import annotations

import contextvars
import threading
import time

from pytest_bankbench.errors import BankBenchError

TICK_S = 0.01  # the heartbeat
GRACE_S = 0.05  # lateness the scheduler alone can cause: not a stall


class DeadlineExceeded(BankBenchError):
    """The session ran past --bank-session-deadline: the agent's failure (end deadline_exceeded).

    Not an InfraError: a slow agent is no outage, and retrying it would not make it faster."""


class StallMeter:
    """Measures the process's stalls: the time a heartbeat thread woke later than it asked.

    One per process (`METER`); it beats only while a session with a deadline is in flight.
    """

    def __init__(self, tick_s: float = TICK_S, grace_s: float = GRACE_S) -> None:
        self.tick_s = tick_s
        self.grace_s = grace_s
        self._lock = threading.Lock()
        self._wake = threading.Condition(self._lock)
        self._users = 0
        self._stalled = 0.0
        self._beat = time.monotonic()
        self._thread: threading.Thread | None = None

    def acquire(self) -> None:
        """A session with a deadline starts: beat while it is in flight."""
        with self._lock:
            self._users += 1
            if self._users == 1:
                self._beat = time.monotonic()  # the pause before is no stall
                self._wake.notify()
            if self._thread is None:
                self._thread = threading.Thread(
                    target=self._run, name="bankbench-stall-meter", daemon=True
                )
                self._thread.start()

    def release(self) -> None:
        with self._lock:
            self._users = max(0, self._users - 1)

    def stalled(self) -> float:
        """Seconds the process stood still so far, the stall in progress included (a session
        frozen by it may read this before the heartbeat runs again)."""
        with self._lock:
            return self._stalled + self._late(time.monotonic())

    def _late(self, now: float) -> float:
        late = now - self._beat - self.tick_s
        return late if self._users and late > self.grace_s else 0.0

    def _run(self) -> None:
        while True:
            with self._lock:
                while not self._users:
                    self._wake.wait()
            time.sleep(self.tick_s)
            with self._lock:
                now = time.monotonic()
                self._stalled += self._late(now)
                self._beat = now


METER = StallMeter()


def _cpu_clock(ident: int) -> int | None:
    """The CPU-time clock of thread `ident`, to read it from another thread (None where the
    platform has none: that thread's time is then charged once it leaves)."""
    clock_of = getattr(time, "pthread_getcpuclockid", None)
    return None if clock_of is None else int(clock_of(ident))


class SessionClock:
    """One session's charged time against its deadline, from `start` (after its parties' setup).

    Its CPU time is that of the threads working for it: the one that started it, and each
    worker a move runs on (bounded.py) from `join` to `leave`. A thread is read only while it
    is known to be alive (joined and not yet left, under the lock it takes to leave), as
    reading an ended thread's clock is undefined."""

    def __init__(self, deadline_s: float, meter: StallMeter = METER) -> None:
        self.deadline_s = deadline_s
        self.meter = meter
        self._started = False
        self._closed = False
        self._wall = self._stalled = 0.0
        self._lock = threading.Lock()
        self._owner: int | None = None
        self._threads: dict[int, tuple[int | None, float]] = {}  # ident -> (its clock, CPU then)
        self._cpu_left = 0.0  # the CPU time of the threads that left

    def start(self) -> None:
        if not self._started:
            self.meter.acquire()
            self._started = True
            self._closed = False
            self._wall = time.monotonic()
            with self._lock:
                self._threads.clear()
                self._cpu_left = 0.0
            self._owner = threading.get_ident()
            self.join()
            self._stalled = self.meter.stalled()

    def join(self) -> None:
        """This thread works for the session now: its CPU time is charged to it."""
        ident = threading.get_ident()
        with self._lock:
            if self._started:
                self._threads[ident] = (_cpu_clock(ident), time.thread_time())

    def leave(self, ident: int | None = None) -> None:
        """This thread's work for the session is done; with `ident`, a thread given up on (its
        CPU time so far is charged, none after)."""
        with self._lock:
            ident = threading.get_ident() if ident is None else ident
            entry = self._threads.pop(ident, None)
            if entry is not None:
                self._cpu_left += self._cpu_of(ident, entry)

    def _cpu_of(self, ident: int, entry: tuple[int | None, float]) -> float:
        clock, since = entry
        if ident == threading.get_ident():
            return time.thread_time() - since
        return 0.0 if clock is None else time.clock_gettime(clock) - since

    def cpu(self) -> float:
        """The CPU time of the session's threads since it started."""
        with self._lock:
            return self._cpu_left + sum(self._cpu_of(i, e) for i, e in self._threads.items())

    def charged(self) -> float:
        """Seconds charged to this session so far (see the module's docstring)."""
        if not self._started:
            return 0.0
        wall = time.monotonic() - self._wall
        stalls = self.meter.stalled() - self._stalled
        return max(self.cpu(), wall - stalls)

    def left(self) -> float:
        """Seconds left; DeadlineExceeded once none are, and for good once the session closed:
        a move given up on (bounded.py) still runs, and its model client must not start
        another attempt on a clock that reads 0 s charged again."""
        if self._closed:
            raise DeadlineExceeded(f"the session is over ({self.passed_text()})")
        left = self.deadline_s - self.charged()
        if left <= 0:
            raise DeadlineExceeded(self.passed_text())
        return left

    def passed(self) -> bool:
        return self.charged() >= self.deadline_s

    def passed_text(self) -> str:
        return (
            f"session deadline of {self.deadline_s:g} s passed (--bank-session-deadline; "
            f"{self.charged():.2f} s charged)"
        )

    def check(self) -> None:
        self.left()

    def close(self) -> None:
        """The session ended: the meter need not beat for it any more."""
        if self._started:
            if self._owner is not None:
                self.leave(self._owner)
            self._started = False
            self._closed = True
            self.meter.release()


# A ContextVar, not a thread-local: a move's worker thread runs in a copy of the session
# thread's context (bounded.py), so a model client there reads the session's clock too.
_CURRENT: contextvars.ContextVar[SessionClock | None] = contextvars.ContextVar(
    "bankbench_session_clock", default=None
)


def current_clock() -> SessionClock | None:
    """The clock of the session this thread is playing (a model client caps its calls by it)."""
    return _CURRENT.get()


def set_current(clock: SessionClock | None) -> None:
    _CURRENT.set(clock)
