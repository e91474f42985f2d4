"""Replaying a gold chain on a fresh bank: the construction filter and the scorer's expected state."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pytest_bankbench.bank.diff import ChangeSet
from pytest_bankbench.bank.errors import ToolError
from pytest_bankbench.bank.registry import get_tool
from pytest_bankbench.bank.store import Bank
from pytest_bankbench.errors import BankBenchError
from pytest_bankbench.tasks.model import Task
from pytest_bankbench.tasks.sources import (
    Places,
    RecordKey,
    names_rate_card,
    read_rate_card,
    read_record,
    record_keys,
)


class GoldReplayError(BankBenchError, RuntimeError):
    """A gold chain that does not replay cleanly: the task is broken, not the agent.

    `call` is the id of the gold call that failed, when one did."""

    def __init__(self, message: str, *, call: str | None = None) -> None:
        super().__init__(message)
        self.call = call


@dataclass(frozen=True)
class Replay:
    """Results of each gold call by id, the change set the chain leaves, and the places the
    task's told values name as the bank holds them after the chain (tasks/sources.py): each
    record field, each gold call's arguments and, when a value names it, the rate card."""

    results: dict[str, dict[str, Any]]
    changes: ChangeSet
    records: dict[RecordKey, tuple[bool, Any]] = field(default_factory=dict)
    arguments: dict[str, dict[str, Any]] = field(default_factory=dict)
    rate_card: dict[str, Any] | None = None

    @property
    def places(self) -> Places:
        return Places(self.results, self.arguments, self.records, self.rate_card)


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
        changes = bank.changes()  # before the reads below, which change nothing all the same
        records = {key: read_record(bank, *key) for key in record_keys(task)}
        card = dict(read_rate_card(bank)) if names_rate_card(task) else None
        arguments = {call.id: dict(call.arguments) for call in task.gold}
        return Replay(results, changes, records, arguments, card)
