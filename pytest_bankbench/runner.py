"""One session end to end: fresh bank, agent, customer, trace, verdict."""

from __future__ import annotations

from dataclasses import dataclass

from pytest_bankbench.bank.diff import ChangeSet
from pytest_bankbench.bank.store import Bank
from pytest_bankbench.scoring.scorer import Verdict, score
from pytest_bankbench.simulation.agents import BUILTIN_AGENTS, Agent
from pytest_bankbench.simulation.customer import Customer, ScriptedCustomer
from pytest_bankbench.simulation.session import Limits, run_session
from pytest_bankbench.simulation.trace import Trace
from pytest_bankbench.tasks.model import Task
from pytest_bankbench.tasks.replay import replay


@dataclass(frozen=True)
class SessionResult:
    trace: Trace
    verdict: Verdict


def expected_changes(task: Task) -> ChangeSet:
    """The gold chain's change set: the one stored with the task, else replayed on a fresh bank.

    The shipped tasks store it (tests/tasks/test_stored_changes.py holds them to the replay), so
    a session no longer pays for a second bank and the gold chain (issue 10, item 9).
    """
    if task.expected_changes is not None:
        return ChangeSet.of(list(task.expected_changes))
    return replay(task).changes


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
    with Bank(task.customer_id, task.task_date, task.bank_seed) as bank:
        trace = run_session(
            task, agent, customer or ScriptedCustomer(task), bank, limits, trial=trial, seed=seed
        )
    return SessionResult(trace, score(task, trace, expected_changes(task)))


def regrade(task: Task, trace: Trace) -> Verdict:
    """Score a saved trace again with the current scorer; no model, no session."""
    return score(task, trace, expected_changes(task))
