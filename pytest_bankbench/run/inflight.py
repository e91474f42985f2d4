"""Work played ahead in background daemon threads, at most K at a time, each taken by its owner.

The pytest-free core of --bank-concurrency (the pytest glue is prefetch.py): the owner says which
keys come next (`want`), K daemon threads play them in that order, and `take` waits for one
key's result, re-raising the exception (with its traceback) if playing it failed. Daemon
threads, not a ThreadPoolExecutor: Python joins the executor's threads at exit, so Ctrl-C
waited for every session in flight (18 s measured; 0.7-2.8 s with daemon threads, see
ECOSYSTEM_NOTES "Several sessions at once inside one process").
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from pytest_bankbench.errors import BankBenchError

K = TypeVar("K", bound=Hashable)
T = TypeVar("T")

# How often a waiting `take` lets its owner queue more work (an xdist worker's queue grows
# while the test at its head waits).
POLL_S = 0.05


class Cancelled(BankBenchError):
    """The run stopped: this work was abandoned before its next model call."""


class CancelFlag:
    """Set once when the run stops; checked before each model call and during back-off."""

    def __init__(self) -> None:
        self._event = threading.Event()

    def set(self) -> None:
        self._event.set()

    def is_set(self) -> bool:
        return self._event.is_set()

    def check(self) -> None:
        """Raise Cancelled if the run has stopped."""
        if self._event.is_set():
            raise Cancelled("the run stopped before this session finished")

    def sleep(self, seconds: float) -> None:
        """A back-off sleep that ends early (raising Cancelled) when the run stops."""
        if self._event.wait(seconds):
            raise Cancelled("the run stopped during a retry back-off")


class Turn:
    """A turn at `lock`, waited for until taken (or the run is cancelled), given back once.

    --bank-concurrency sets sessions up one at a time, from taking a key until the first model
    call: the setup (a bank, the parties, the first request) is CPU under one GIL whatever the
    order, but in turns each session's call goes out after its own setup, not after every
    waiting setup sliced 5 ms at a time. Measured with bench/concurrency.py: the first wave's
    calls went out together ~0.4 s after the run started, and each later round lost more.
    """

    def __init__(self, lock: threading.Lock, cancel: CancelFlag) -> None:
        self._lock = lock
        while not lock.acquire(timeout=POLL_S):
            cancel.check()
        self._held = True

    def done(self) -> None:
        if self._held:
            self._held = False
            self._lock.release()


@dataclass
class _Slot(Generic[T]):
    done: threading.Event = field(default_factory=threading.Event)
    value: T | None = None
    error: BaseException | None = None


class Inflight(Generic[K, T]):
    """Plays keys with `play(key, cancel)` on `limit` daemon threads, at most `lookahead` ahead.

    `lookahead` bounds the keys queued, playing or finished but not yet taken, so results kept
    in memory and the work a stopped run wastes stay bounded.
    """

    def __init__(
        self,
        play: Callable[[K, CancelFlag], T],
        limit: int,
        lookahead: int | None = None,
        name: str = "inflight",
    ) -> None:
        if limit < 1:
            raise ValueError(f"limit {limit}: expected at least 1 thread")
        self._play = play
        self.limit = limit
        self.lookahead = max(limit, lookahead or 2 * limit)
        self.name = name
        self.cancel_flag = CancelFlag()
        self._lock = threading.Condition()
        self._queue: deque[K] = deque()
        self._slots: dict[K, _Slot[T]] = {}
        self._taken: set[K] = set()
        self._threads: list[threading.Thread] = []
        self.running = 0
        self.peak_running = 0
        self.started: list[K] = []  # every key a thread began to play, in order

    # -- the owner's side ------------------------------------------------------------------------
    def want(self, keys: Iterable[K]) -> int:
        """Queue the upcoming keys not seen before, in order, while the lookahead has room.

        Returns how many keys it went through: all of them, or those before the first that did
        not fit (nothing after it is queued, so keys are always played in the owner's order);
        0 once cancelled.
        """
        queued = passed = 0
        with self._lock:
            if self.cancel_flag.is_set():
                return 0
            for key in keys:
                if key not in self._slots and key not in self._taken:
                    if len(self._slots) >= self.lookahead:
                        break
                    self._slots[key] = _Slot()
                    self._queue.append(key)
                    queued += 1
                passed += 1
            if queued:
                self._start_threads()
                self._lock.notify(queued)  # not notify_all: waking every idle thread per key costs
        return passed

    def holds(self, key: K) -> bool:
        """The key was queued and not yet taken: `take` will return its result."""
        with self._lock:
            return key in self._slots

    def take(self, key: K, while_waiting: Callable[[], object] | None = None) -> T:
        """Wait for the key's result and hand it over once; re-raise its exception if it failed."""
        with self._lock:
            slot = self._slots[key]
        while not slot.done.wait(POLL_S):
            if while_waiting is not None:
                while_waiting()
        with self._lock:
            self._slots.pop(key, None)  # cancel() may have dropped it already
            self._taken.add(key)
        if slot.error is not None:
            # The original exception object: its __traceback__ still shows where it was raised
            # in the background thread, below the frame of the test that takes it.
            raise slot.error
        return slot.value  # type: ignore[return-value]

    def forget(self, key: K) -> None:
        """The owner will never take this key: drop it (a result still being played is lost)."""
        with self._lock:
            if self._slots.pop(key, None) is not None:
                if key in self._queue:
                    self._queue.remove(key)
                self._taken.add(key)

    def retain(self, keys: set[K]) -> None:
        """Forget every held key not in `keys` (the owner's plans changed)."""
        with self._lock:
            gone = [key for key in self._slots if key not in keys]
        for key in gone:
            self.forget(key)

    def cancel(self) -> None:
        """Stop: nothing queued starts; work in flight stops at its next cancellation check."""
        with self._lock:
            self.cancel_flag.set()
            for key in self._queue:
                slot = self._slots.pop(key)
                slot.error = Cancelled("the run stopped before this session started")
                slot.done.set()
            self._queue.clear()
            self._lock.notify_all()

    # -- the threads' side -----------------------------------------------------------------------
    def _start_threads(self) -> None:
        while len(self._threads) < min(self.limit, len(self._queue) + self.running):
            thread = threading.Thread(
                target=self._work, name=f"{self.name}-{len(self._threads) + 1}", daemon=True
            )
            self._threads.append(thread)
            thread.start()

    def _next(self) -> tuple[K, _Slot[T]] | None:
        with self._lock:
            while not self._queue and not self.cancel_flag.is_set():
                self._lock.wait()
            if self.cancel_flag.is_set():
                return None
            key = self._queue.popleft()
            self.started.append(key)
            self.running += 1
            self.peak_running = max(self.peak_running, self.running)
            return key, self._slots[key]

    def _work(self) -> None:
        while (job := self._next()) is not None:
            key, slot = job
            try:
                slot.value = self._play(key, self.cancel_flag)
            except BaseException as exc:  # handed to the owner's test, which re-raises it
                slot.error = exc
            finally:
                with self._lock:
                    self.running -= 1
                slot.done.set()
