"""One session end to end: fresh bank, agent, customer, trace, verdict."""

from __future__ import annotations

from pytest_bankbench.run.cases import BankCase
from pytest_bankbench.run.play import SessionResult as SessionResult
from pytest_bankbench.run.play import expected_changes as expected_changes
from pytest_bankbench.run.play import play_case
from pytest_bankbench.scoring.scorer import Verdict
from pytest_bankbench.simulation.agents import BUILTIN_AGENTS, Agent
from pytest_bankbench.simulation.customer import Customer
from pytest_bankbench.simulation.session import Limits
from pytest_bankbench.simulation.trace import Trace
from pytest_bankbench.tasks.model import Task

__all__ = [
    "SessionResult",
    "builtin_agent",
    "expected_changes",
    "regrade",
    "run_task",
]


def builtin_agent(name: str, task: Task) -> Agent:
    return BUILTIN_AGENTS[name](task)


def run_task(
    task: Task,
    agent: Agent,
    customer: Customer | None = None,
    limits: Limits = Limits(),
    trial: int = 0,
    seed: int = 0,
) -> SessionResult:
    """Play and score one session of a task."""
    return play_case(BankCase(task, trial, seed), agent, customer, limits=limits)


def regrade(task: Task, trace: Trace) -> Verdict:
    """Score a saved trace again with the current scorer; no model, no session."""
    return play_case(BankCase(task, trace.trial, trace.seed), trace=trace).verdict
