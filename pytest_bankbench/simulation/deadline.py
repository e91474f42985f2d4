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
charged for it; the session that caused it is, because its own thread's CPU time
(`time.thread_time`) covers it. A session that waits (a model call, a synchronous sleep) is
charged its wall time, as it frees the interpreter for the others.
"""

from __future__ import annotations

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


class SessionClock:
    """One session's charged time against its deadline, from `start` (after its parties' setup);
    read from the session's own thread (its CPU time is that thread's)."""

    def __init__(self, deadline_s: float, meter: StallMeter = METER) -> None:
        self.deadline_s = deadline_s
        self.meter = meter
        self._started = False
        self._wall = self._cpu = self._stalled = 0.0

    def start(self) -> None:
        if not self._started:
            self.meter.acquire()
            self._started = True
            self._wall = time.monotonic()
            self._cpu = time.thread_time()
            self._stalled = self.meter.stalled()

    def charged(self) -> float:
        """Seconds charged to this session so far (see the module's docstring)."""
        if not self._started:
            return 0.0
        wall = time.monotonic() - self._wall
        stalls = self.meter.stalled() - self._stalled
        return max(time.thread_time() - self._cpu, wall - stalls)

    def left(self) -> float:
        """Seconds left; DeadlineExceeded once none are."""
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
            self._started = False
            self.meter.release()


_CURRENT = threading.local()


def current_clock() -> SessionClock | None:
    """The clock of the session this thread is playing (a model client caps its calls by it)."""
    clock: SessionClock | None = getattr(_CURRENT, "clock", None)
    return clock


def set_current(clock: SessionClock | None) -> None:
    _CURRENT.clock = clock
