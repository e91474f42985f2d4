"""Agents that stall in their turn, for the session deadline's tests (simulation/deadline.py)."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

from pytest_bankbench.simulation.agents import Agent, AgentAction
from pytest_bankbench.simulation.trace import Event


def hold_interpreter(seconds: float) -> None:
    """Burn about `seconds` of CPU in one builtin call, holding the interpreter lock throughout
    (no other thread of the process runs Python meanwhile), as a backtracking regex would."""
    probe = 200_000
    started = time.thread_time()
    sum(range(probe))
    took = max(time.thread_time() - started, 1e-6)
    sum(range(int(probe * seconds / took)))


class StallingAgent:
    """Wraps an agent: each move waits `pause_s` (like a model call, the interpreter free),
    and move number `stall_at` first runs `stall()` (None: never)."""

    def __init__(
        self,
        agent: Agent,
        pause_s: float = 0.0,
        stall_at: int | None = None,
        stall: Callable[[], object] = lambda: None,
    ) -> None:
        self._agent = agent
        self.name = getattr(agent, "name", "stalling-test-agent")
        self.pause_s = pause_s
        self.stall_at = stall_at
        self.stall = stall
        self.moves = 0

    def act(self, events: Sequence[Event]) -> AgentAction:
        self.moves += 1
        if self.moves == self.stall_at:
            self.stall()
        time.sleep(self.pause_s)
        return self._agent.act(events)
