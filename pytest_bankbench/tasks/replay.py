"""Replaying a gold chain on a fresh bank: the construction filter and the scorer's expected state."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pytest_bankbench.bank.diff import ChangeSet
from pytest_bankbench.bank.errors import ToolError
from pytest_bankbench.bank.registry import get_tool
from pytest_bankbench.bank.store import Bank
from pytest_bankbench.errors import BankBenchError
from pytest_bankbench.tasks.model import Task


class GoldReplayError(BankBenchError, RuntimeError):
    """A gold chain that does not replay cleanly: the task is broken, not the agent.

    `call` is the id of the gold call that failed, when one did."""

    def __init__(self, message: str, *, call: str | None = None) -> None:
        super().__init__(message)
        self.call = call


@dataclass(frozen=True)
class Replay:
    """Results of each gold call by id, and the change set the chain leaves."""

    results: dict[str, dict[str, Any]]
    changes: ChangeSet


def replay(task: Task) -> Replay:
    """Run the gold chain on a bank seeded like the task's; every call must succeed."""
    results: dict[str, dict[str, Any]] = {}
    with Bank(task.customer_id, task.task_date, task.bank_seed) as bank:
        for call in task.gold:
            spec = get_tool(call.tool)
            before = bank.changes() if spec.changes_records else None
            try:
                results[call.id] = spec.invoke(bank, dict(call.arguments))
            except ToolError as exc:
                raise GoldReplayError(
                    f"{task.task_id}: gold call {call.id} {call.tool} failed: {exc.message}",
                    call=call.id,
                ) from None
            if before is not None and bank.changes() == before:
                raise GoldReplayError(
                    f"{task.task_id}: gold write {call.id} {call.tool} changed no records",
                    call=call.id,
                )
        return Replay(results, bank.changes())
