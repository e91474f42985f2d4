"""Snapshots: the tool schemas the agent sees and every task's expected change set."""

from __future__ import annotations

from syrupy.assertion import SnapshotAssertion

from pytest_bankbench.bank.registry import all_tools, tool_schemas
from pytest_bankbench.tasks.loader import shipped_tasks
from pytest_bankbench.tasks.replay import replay


def test_tool_schemas(snapshot: SnapshotAssertion) -> None:
    kinds = {name: spec.kind for name, spec in sorted(all_tools().items())}
    assert {"kinds": kinds, "schemas": tool_schemas()} == snapshot


def test_gold_replay_change_sets(snapshot: SnapshotAssertion) -> None:
    changes = {
        task.task_id: [row.describe() for row in replay(task).changes.rows]
        for task in shipped_tasks()
    }
    assert changes == snapshot
