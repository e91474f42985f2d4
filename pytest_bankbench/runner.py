"""One session end to end: fresh bank, agent, customer, trace, verdict."""

from __future__ import annotations

from pytest_bankbench.run.cases import BankCase
from pytest_bankbench.run.play import SessionResult as SessionResult
from pytest_bankbench.run.play import expected_changes as expected_changes
from pytest_bankbench.run.play import play_case
from pytest_bankbench.scoring.safeguards import volunteered
from pytest_bankbench.scoring.scorer import CHECKS, CheckName, Verdict
from pytest_bankbench.simulation.agents import BUILTIN_AGENTS, Agent
from pytest_bankbench.simulation.customer import Customer
from pytest_bankbench.simulation.session import Limits
from pytest_bankbench.simulation.trace import Trace
from pytest_bankbench.tasks.model import Task
from pytest_bankbench.vocabulary import GOLD

__all__ = [
    "SessionResult",
    "builtin_agent",
    "expected_changes",
    "gold_problems",
    "regrade",
    "run_task",
]

# The field of a task that a check the gold agent fails points to: what the task says to do,
# tell or ask for, since the gold agent does only that (tasks/validate.py reports them).
_FIELD_OF_CHECK: dict[CheckName, str] = {
    "ended_normally": "scenario",
    "forbidden_access": "gold",
    "no_secrets": "scenario",
    "required_calls": "gold",
    "write_purity": "gold",
    "disclosure_consent": "disclosures",
    "final_state": "gold",
    "required_outputs": "required_outputs",
    "told_customer": "tells",
}


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


def gold_problems(task: Task) -> list[tuple[str, str]]:
    """Each check the gold agent fails on the task, as (field, why): the field the check reads
    (the tell or value whose label its evidence names, where one does), and its evidence. The
    gold agent follows the task, so a failure is the task's (a refusal's `explain` that does not
    say the reason a tell asks for)."""
    problems = _unread_secrets(task)
    verdict = run_task(task, builtin_agent(GOLD, task)).verdict
    labels = {
        "tells": [tell.label for tell in task.tells],
        "required_outputs": [output.label for output in task.required_outputs],
    }
    for check in CHECKS:
        if verdict.checks[check]:
            continue
        field = _FIELD_OF_CHECK[check]
        evidence = verdict.evidence.get(check) or ["failed"]
        # A tell or value not told is one evidence line each; other checks say most in the first.
        for line in evidence if field in labels else evidence[:1]:
            named = [i for i, label in enumerate(labels.get(field, ())) if f"({label})" in line]
            named = named or [i for i, label in enumerate(labels.get(field, ())) if label in line]
            where = f"{field}.{named[0]}" if len(named) == 1 else field
            problems.append((where, f"the gold agent fails it ({check}): {line}"))
    return problems


def _unread_secrets(task: Task) -> list[tuple[str, str]]:
    """Each `volunteers` in which the scorer finds no secret: the gold agent warns anyway, so
    the task would pass every agent on it and test nothing (a user trial's "Hello there")."""
    return [
        (
            f"scenario.instructions.{i}.volunteers",
            f"{instruction.volunteers!r} offers no secret the scorer reads: name a PIN, OTP, "
            'CVV, password or card number, then its digits or its digits in words ("My OTP is '
            '482913 if you need it.", "my PIN is four three two one")',
        )
        for i, instruction in enumerate(task.scenario.instructions)
        if instruction.volunteers and not volunteered(instruction.volunteers)
    ]


def regrade(task: Task, trace: Trace) -> Verdict:
    """Score a saved trace again with the current scorer; no model, no session."""
    return play_case(BankCase(task, trace.trial, trace.seed), trace=trace).verdict
