"""Playing one case: its session (or a trace already played), its verdict, and its record.

`play_case` is the one way a session is played and scored: `runner.run_task`, the plugin's
test, and a re-grade of saved traces all go through it.
"""

from __future__ import annotations

from contextlib import ExitStack
from dataclasses import dataclass
from typing import Any, Literal

from pytest_bankbench.bank.diff import ChangeSet
from pytest_bankbench.bank.store import Bank
from pytest_bankbench.report.record import SessionRecord
from pytest_bankbench.run.cases import BankCase
from pytest_bankbench.scoring.failures import cut_evidence
from pytest_bankbench.scoring.scorer import Verdict, score
from pytest_bankbench.simulation.agents import Agent
from pytest_bankbench.simulation.customer import Customer, ScriptedCustomer
from pytest_bankbench.simulation.deadline import SessionClock
from pytest_bankbench.simulation.session import Limits, run_session
from pytest_bankbench.simulation.trace import Trace
from pytest_bankbench.tasks.model import Task
from pytest_bankbench.tasks.replay import replay

# A traceback kept in a record is cut to its end (where the error is) at this many characters.
ERROR_CHARS = 8000


# An evidence line kept in a record is cut at this many characters: a line that quotes a call
# (`attempted add_beneficiary({...})`) would copy a 1 MB argument the trace holds already into
# the report, the session log and the HTML (issue 19).
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


def play_case(
    case: BankCase,
    agent: Agent | None = None,
    customer: Customer | None = None,
    bank: Bank | None = None,
    limits: Limits = Limits(),
    trace: Trace | None = None,
) -> SessionResult:
    """Play one case and score it.

    Its session runs on `bank` (a freshly seeded one when None) between `agent` and `customer`
    (the scripted one when None); a `trace` already played (a re-grade, a session played
    ahead in a background thread) is scored as it is.
    """
    task = case.task
    if trace is not None:
        return SessionResult(trace, score(task, trace, expected_changes(task)))
    if agent is None:
        raise TypeError(f"{case.id}: play_case needs an agent or a trace")
    customer = customer or ScriptedCustomer(task)
    with ExitStack() as stack:
        if bank is None:
            bank = stack.enter_context(Bank(task.customer_id, task.task_date, task.bank_seed))
        clock = None
        if limits.deadline_s is not None:  # started by run_session, it runs on through scoring
            clock = SessionClock(limits.deadline_s)
            stack.callback(clock.close)
        trace = run_session(
            task, agent, customer, bank, limits, trial=case.trial, seed=case.seed, clock=clock
        )
        verdict = score(task, trace, expected_changes(task))
        # The scoring's time counts too; an outage past its retries stays the provider's.
        ended = trace.end in ("deadline_exceeded", "infra_error")
        if clock is not None and not ended and clock.passed():
            trace = trace.model_copy(
                update={"end": "deadline_exceeded", "end_detail": clock.passed_text()}
            )
            verdict = score(task, trace, expected_changes(task))
    return SessionResult(trace, verdict)


def _identity(case: BankCase) -> dict[str, Any]:
    """The fields of a record that say which session it is, whatever became of it."""
    task = case.task
    return {
        "task_id": task.task_id,
        "trial": case.trial,
        "seed": case.seed,
        "family": task.family,
        "category": task.category,
        "service_area": task.service_area,
        "chain_length": len(task.gold),
        "graded": task.graded,
    }


def record_of(case: BankCase, result: SessionResult) -> SessionRecord:
    """The record of a session that produced a verdict (or ended in an infrastructure error)."""
    verdict, trace = result.verdict, result.trace
    scored = trace.end != "infra_error"  # else no verdict: the provider failed, not the agent
    return SessionRecord(
        **_identity(case),
        outcome="scored" if scored else "infra_error",
        passed=verdict.passed,
        final_state_pass=verdict.final_state_pass if scored else None,
        false_pass=verdict.false_pass if scored else None,
        # An infrastructure error carries only what the provider did: no failure type, no
        # checks and no evidence against an agent that never answered (user trial).
        failure_type=verdict.failure_type if scored else None,
        checks=dict(verdict.checks) if scored else {},
        evidence=_evidence(verdict) if scored else {},
        error=None if scored else cut_evidence(trace.end_detail or "infra_error"),
        end=trace.end,
        steps=trace.steps,
        failed_calls=trace.failed_calls,
        prompt_tokens=trace.usage.prompt_tokens,
        completion_tokens=trace.usage.completion_tokens,
        cost_usd=trace.usage.cost_usd,
        duration_s=trace.duration_s,
        customer_prompt_tokens=trace.customer_usage.prompt_tokens,
        customer_completion_tokens=trace.customer_usage.completion_tokens,
        customer_cost_usd=trace.customer_usage.cost_usd,
        model_latency_s=round(sum(trace.usage.latencies_s), 4),
        customer_latency_s=round(sum(trace.customer_usage.latencies_s), 4),
    )


def _evidence(verdict: Verdict) -> dict[str, list[str]]:
    return {k: [cut_evidence(line) for line in v] for k, v in verdict.evidence.items() if v}


def stand_in(
    case: BankCase, outcome: Literal["harness_error", "lost"], error: str
) -> SessionRecord:
    """The record of a session that produced no verdict: it counts as failed, never vanishes."""
    return SessionRecord(
        **_identity(case),
        outcome=outcome,
        passed=False,
        final_state_pass=False,
        false_pass=False,
        failure_type=None,
        checks={},
        evidence={},
        end=outcome,
        steps=0,
        failed_calls=0,
        error=error[-ERROR_CHARS:],
    )
