"""within: a move on a worker thread, given up on at the session deadline, its CPU charged."""

from __future__ import annotations

import threading
import time

import pytest

from pytest_bankbench.simulation.bounded import MoveAbandoned, within
from pytest_bankbench.simulation.deadline import (
    DeadlineExceeded,
    SessionClock,
    StallMeter,
    current_clock,
    set_current,
)
from tests.simulation.stalls import hold_interpreter

DEADLINE_S = 0.4


def _clock() -> SessionClock:
    clock = SessionClock(DEADLINE_S, StallMeter())
    clock.start()
    return clock


def test_a_move_that_never_returns_is_abandoned_at_the_deadline() -> None:
    clock, release = _clock(), threading.Event()
    started = time.monotonic()
    with pytest.raises(MoveAbandoned) as raised:
        within(clock, "the agent 'stuck'", lambda: release.wait(3600))
    assert time.monotonic() - started < DEADLINE_S + 1.0
    assert isinstance(raised.value, DeadlineExceeded)
    text = str(raised.value)
    assert text.startswith("the agent 'stuck' did not finish its move within the session")
    assert "0.4 s" in text and "abandoned" in text
    release.set()
    clock.close()


def test_a_move_returns_its_value_or_raises_its_error_in_the_session_thread() -> None:
    clock, empty = _clock(), dict[str, int]()
    assert within(clock, "the agent 'a'", lambda: 42) == 42
    with pytest.raises(KeyError, match="nope"):
        within(clock, "the agent 'a'", lambda: empty["nope"])
    clock.close()


def test_the_worker_reads_the_sessions_clock() -> None:
    clock = _clock()
    set_current(clock)
    try:
        assert within(clock, "the agent 'a'", current_clock) is clock
    finally:
        set_current(None)
        clock.close()


def test_the_workers_cpu_is_the_sessions() -> None:
    """A stall on the worker freezes the meter too: only its CPU time charges the session."""
    clock = SessionClock(10.0, StallMeter())
    clock.start()
    within(clock, "the agent 'burner'", lambda: hold_interpreter(0.5))
    assert clock.cpu() >= 0.2 and clock.charged() >= 0.2
    clock.close()
