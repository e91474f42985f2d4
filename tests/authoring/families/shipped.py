"""The shipped tasks of one family, and what their gold calls and scenarios say."""

from __future__ import annotations

from decimal import Decimal

from pytest_bankbench.authoring.base import Context
from pytest_bankbench.authoring.generate import TASKS_PER_FAMILY
from pytest_bankbench.bank.store import DEFAULT_SEED
from pytest_bankbench.runner import builtin_agent, expected_changes, run_task
from pytest_bankbench.scoring.outputs import said
from pytest_bankbench.scoring.scorer import Verdict, score
from pytest_bankbench.tasks.loader import shipped_tasks
from pytest_bankbench.tasks.model import GoldCall, Task

TASKS = shipped_tasks()


CTX = Context(DEFAULT_SEED)


def tasks_of(name: str) -> list[Task]:
    members = [t for t in TASKS if t.family == name]
    assert len(members) == TASKS_PER_FAMILY, name
    return members


def writes(task: Task) -> list[str]:
    return [c.tool for c in task.gold if c.tool in {"transfer_funds", "create_fd", "create_rd"}]


def gold_call(task: Task, tool: str, nth: int = 0) -> GoldCall:
    return [c for c in task.gold if c.tool == tool][nth]


def rupees(value: object) -> Decimal:
    return Decimal(str(value))


def said_amount(value: Decimal, text: str) -> bool:
    """The amount told in the text the way the scorer reads it (ids after 'ending' aside)."""
    return said("amount", f"{value:.2f}", text)


def customer_lines(task: Task) -> list[str]:
    """Everything the customer may say or read as their own story."""
    lines = [task.scenario.first_message, task.scenario.narrative]
    for ins in task.scenario.instructions:
        lines += [ins.text, ins.decline or "", ins.correction or "", ins.explain or ""]
    lines += [f.text for f in task.scenario.structured_facts()]
    return lines


def played(task: Task, acting: Task, agent: str = "gold") -> Verdict:
    """The verdict on `task` of a built-in agent playing `acting` (the task with another gold
    chain, or without what the gold agent tells): a careless agent's session of the task."""
    trace = run_task(acting, builtin_agent(agent, acting)).trace
    return score(task, trace, expected_changes(task))


def without_explain(task: Task) -> Task:
    """The task whose gold agent never explains a refusal nor offers what the policy says."""
    instructions = tuple(i.model_copy(update={"explain": None}) for i in task.scenario.instructions)
    scenario = task.scenario.model_copy(update={"instructions": instructions})
    return task.model_copy(update={"scenario": scenario})


def with_gold(task: Task, gold: list[GoldCall]) -> Task:
    """The task with another gold chain (its stored changes dropped: replayed anew)."""
    return task.model_copy(update={"gold": tuple(gold), "expected_changes": None})
