"""A party's move under the session deadline: played on a worker thread, waited for no longer
than the deadline leaves.

The deadline was checked only between steps, so an agent whose act() slept for an hour or
looped forever held its session, and the run, for as long. A Python thread cannot be stopped
from outside: past the deadline the move is given up on and left running on its daemon thread
(the process can still exit), and the session ends deadline_exceeded with evidence that says
so. The worker runs in a copy of the session thread's context, so a model client there reads
the session's clock (deadline.py) and a background session's prints reach its own buffer
(run/session_output.py); its CPU time is the session's (`SessionClock.join`).

Without a deadline nothing is bounded and a move runs on the session's own thread, as before.
"""

from __future__ import annotations

import contextvars
import threading
from collections.abc import Callable
from typing import Generic, TypeVar

from pytest_bankbench.simulation.deadline import DeadlineExceeded, SessionClock

T = TypeVar("T")

# The wait is looked at again at least this often: a stall of the process while it waits is
# not charged to the session (deadline.py), so its time left can outlast one wait.
POLL_S = 0.5


class MoveAbandoned(DeadlineExceeded):
    """A party's move outlasted the session deadline; its thread was left running."""


class _Outcome(Generic[T]):
    """What the worker's move came to: its value or the exception it raised."""

    def __init__(self) -> None:
        self.done = threading.Event()
        self.values: list[T] = []
        self.error: BaseException | None = None


def within(clock: SessionClock, party: str, move: Callable[[], T]) -> T:
    """`move()`'s value, or its exception, played on a daemon worker thread; MoveAbandoned
    naming `party` (as "the agent 'name'") when the session deadline passes first."""
    outcome: _Outcome[T] = _Outcome()
    context = contextvars.copy_context()

    def work() -> None:
        clock.join()
        try:
            outcome.values.append(context.run(move))
        except BaseException as exc:  # handed to the session's thread, which raises it
            outcome.error = exc
        finally:
            clock.leave()
            outcome.done.set()

    worker = threading.Thread(target=work, name="bankbench-move", daemon=True)
    worker.start()
    while not outcome.done.wait(max(0.0, min(clock.deadline_s - clock.charged(), POLL_S))):
        if clock.passed():
            clock.leave(worker.ident)  # its time from here on is no session's
            raise MoveAbandoned(
                f"{party} did not finish its move within the session deadline of "
                f"{clock.deadline_s:g} s (--bank-session-deadline; {clock.charged():.2f} s "
                "charged); the call was abandoned, still running on a daemon thread "
                "(a Python thread cannot be stopped)"
            )
    if outcome.error is not None:
        raise outcome.error
    return outcome.values[0]
