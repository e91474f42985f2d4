"""The shipped tasks of one family, and what their gold calls and scenarios say."""

from __future__ import annotations

from decimal import Decimal

from pytest_bankbench.authoring.base import Context
from pytest_bankbench.authoring.generate import TASKS_PER_FAMILY
from pytest_bankbench.bank.store import DEFAULT_SEED
from pytest_bankbench.scoring.outputs import said
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
