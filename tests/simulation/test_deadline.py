"""The session deadline covers the whole session and charges each session its own time (issue 19).

Agent turns, tool calls, the customer's turns and the scoring all count; a session past the
deadline ends deadline_exceeded, a failure of the agent with its own failure type; a stall that
freezes the whole process is charged to the session that caused it, not to the ones it froze.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from typing import Any

import pytest

from pytest_bankbench.run import play
from pytest_bankbench.run.cases import BankCase, session_seed
from pytest_bankbench.run.play import SessionResult, play_case
from pytest_bankbench.scoring import scorer
from pytest_bankbench.simulation import session
from pytest_bankbench.simulation.agents import AgentAction, GoldAgent
from pytest_bankbench.simulation.customer import CustomerTurn, ScriptedCustomer
from pytest_bankbench.simulation.deadline import DeadlineExceeded, SessionClock, StallMeter
from pytest_bankbench.simulation.session import Limits
from pytest_bankbench.simulation.trace import Event, ToolCall, ToolEvent
from pytest_bankbench.tasks.loader import shipped_tasks
from pytest_bankbench.tasks.model import Task
from tests.simulation.stalls import StallingAgent, hold_interpreter

DEADLINE = Limits(deadline_s=0.4)
STALL_S = 0.8  # twice the deadline


def _task(family: str = "fd_closure") -> Task:
    return next(t for t in shipped_tasks() if t.family == family)


def _case(task: Task) -> BankCase:
    return BankCase(task, 0, session_seed(task.task_id, 0))


def _play(agent: Any, customer: Any = None, limits: Limits = DEADLINE) -> SessionResult:
    task = _task()
    return play_case(_case(task), agent, customer or ScriptedCustomer(task), limits=limits)


def _past_deadline(result: SessionResult) -> None:
    assert result.trace.end == "deadline_exceeded", result.trace.end
    assert "--bank-session-deadline" in result.trace.end_detail
    assert not result.verdict.passed and result.verdict.failure_type == "deadline_exceeded"
    assert not result.verdict.checks["ended_normally"]


def test_a_session_within_its_deadline_passes() -> None:
    result = _play(GoldAgent(_task()))
    assert result.trace.end == "customer_stop" and result.verdict.passed


@pytest.mark.parametrize("stall", ["sleep", "burn"])
def test_a_stalled_agent_turn_ends_the_session_as_the_agents_failure(stall: str) -> None:
    """With no model call after it, nothing checked the deadline before issue 19."""
    how = (lambda: time.sleep(STALL_S)) if stall == "sleep" else (lambda: hold_interpreter(STALL_S))
    result = _play(StallingAgent(GoldAgent(_task()), stall_at=2, stall=how))
    _past_deadline(result)
    # Ended right after the stalled turn: the rest of the conversation never ran.
    assert result.trace.steps < _play(GoldAgent(_task())).trace.steps


class _SlowCustomer:
    def __init__(self, task: Task) -> None:
        self._customer = ScriptedCustomer(task)
        self.name = self._customer.name

    def open(self) -> str:
        return self._customer.open()

    def respond(self, agent_text: str) -> CustomerTurn:
        time.sleep(STALL_S)
        return self._customer.respond(agent_text)


def test_the_customers_turns_count() -> None:
    _past_deadline(_play(GoldAgent(_task()), _SlowCustomer(_task())))


class _StuckAgent:
    name = "stuck-test-agent"

    def act(self, events: Sequence[Event]) -> AgentAction:
        time.sleep(3600)
        return AgentAction(end=True)


class _StuckCustomer(_SlowCustomer):
    def respond(self, agent_text: str) -> CustomerTurn:
        time.sleep(3600)
        return super().respond(agent_text)


@pytest.mark.parametrize("stuck", ["agent", "customer"])
def test_a_move_that_never_returns_ends_the_session_at_the_deadline(stuck: str) -> None:
    """Checked only between steps, a move that slept for an hour held the session an hour."""
    task = _task()
    started = time.monotonic()
    if stuck == "agent":
        result = _play(_StuckAgent())
    else:
        result = _play(GoldAgent(task), _StuckCustomer(task))
    assert time.monotonic() - started < 2.5  # the deadline (0.4 s), not the hour
    _past_deadline(result)
    named = "the agent 'stuck-test-agent'" if stuck == "agent" else "the customer 'scripted'"
    assert result.trace.end_detail.startswith(named)
    assert "abandoned" in result.trace.end_detail


def test_each_tool_call_is_checked(monkeypatch: pytest.MonkeyPatch) -> None:
    def slow(bank: Any, call: ToolCall, batch: int = 0) -> ToolEvent:
        time.sleep(STALL_S / 4)
        return real(bank, call, batch)

    real = session.execute
    monkeypatch.setattr(session, "execute", slow)
    read = ToolCall(call_id="r", name="list_accounts", arguments={})

    class _Batch:
        name = "batch-test-agent"

        def act(self, events: Sequence[Event]) -> AgentAction:
            return AgentAction(tool_calls=[read] * 20)

    result = _play(_Batch())
    _past_deadline(result)
    calls = sum(isinstance(e, ToolEvent) for e in result.trace.events)
    assert 1 <= calls < 20  # stopped inside the batch


def test_the_scoring_counts(monkeypatch: pytest.MonkeyPatch) -> None:
    def slow(*args: Any) -> Any:
        time.sleep(STALL_S)
        return real(*args)

    real = scorer.score
    monkeypatch.setattr(play, "score", slow)
    result = _play(GoldAgent(_task()))
    _past_deadline(result)
    assert result.trace.steps == _play(GoldAgent(_task()), limits=Limits()).trace.steps


class _ColdStart:
    """A model party's one-time setup (litellm's import: 42.7 s in a cold process)."""

    def __init__(self, task: Task) -> None:
        self._agent = GoldAgent(task)
        self.name = self._agent.name

    def start_clock(self) -> None:
        time.sleep(STALL_S)

    def act(self, events: Sequence[Event]) -> AgentAction:
        return self._agent.act(events)


def test_the_setup_before_the_clock_is_neither_duration_nor_deadline() -> None:
    result = _play(_ColdStart(_task()))
    assert result.verdict.passed
    assert result.trace.duration_s < STALL_S / 2


# -- the stall meter ------------------------------------------------------------------------------


def test_a_process_stall_is_charged_to_its_cause_only() -> None:
    meter = StallMeter()
    frozen = SessionClock(10.0, meter)
    frozen.start()
    charged: list[float] = []
    used: list[float] = []  # the staller's own CPU (less than the wall time on a busy machine)

    def staller() -> None:
        clock = SessionClock(10.0, meter)
        clock.start()
        cpu = time.thread_time()
        hold_interpreter(STALL_S)
        used.append(time.thread_time() - cpu)
        charged.append(clock.charged())
        clock.close()

    time.sleep(0.05)  # the meter beats
    started = time.monotonic()
    thread = threading.Thread(target=staller)
    thread.start()
    thread.join()
    wall = time.monotonic() - started
    # The burn is calibrated, so its length varies; each bound is relative to what was measured.
    assert used[0] >= STALL_S * 0.3 and wall >= used[0] * 0.9
    assert charged[0] >= used[0] * 0.95  # the staller is charged its own CPU
    assert frozen.charged() < wall / 2  # the stall is not the frozen session's time
    assert meter.stalled() >= used[0] * 0.6
    frozen.close()


def test_without_a_stall_a_waiting_session_is_charged_its_wall_time() -> None:
    clock = SessionClock(10.0, StallMeter())
    clock.start()
    time.sleep(0.3)
    assert 0.3 <= clock.charged() < 0.3 + 0.2
    clock.close()


def test_a_model_partys_first_session_is_not_charged_litellms_import(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A cold process's first session took 42.7 s against 0.4 s: litellm's import was in it."""
    from types import SimpleNamespace

    from pytest_bankbench.models import llm
    from pytest_bankbench.models.agent import LiteLLMAgent
    from pytest_bankbench.models.model_settings import ModelSettings

    def cold(model: str) -> Any:
        time.sleep(STALL_S)  # the import and the first-call setup
        reply = {"choices": [{"message": {"content": "Goodbye."}}], "usage": {}}
        return SimpleNamespace(completion=lambda **_: reply)

    monkeypatch.setattr(llm, "prepare_litellm", cold)
    settings = ModelSettings(model="openai/cold-model", session_deadline_s=STALL_S / 2)
    result = _play(LiteLLMAgent(llm.ModelClient(settings)), limits=Limits(deadline_s=STALL_S / 2))
    assert result.trace.end != "deadline_exceeded" and result.trace.usage.model_calls >= 1
    assert result.trace.duration_s < STALL_S / 2


def test_a_closed_clock_has_no_time_left() -> None:
    """A move given up on at the deadline runs on: its model client, asking the clock before
    another attempt, must hear that the session is over, not see 0 s charged again (a hanging
    server got 27 requests for 2 sessions of 1 s)."""
    clock = SessionClock(5.0)
    clock.start()
    assert clock.left() > 0
    clock.close()
    with pytest.raises(DeadlineExceeded, match="the session is over"):
        clock.left()
    clock.start()  # a clock started again is a new session's
    assert clock.left() > 0
    clock.close()
