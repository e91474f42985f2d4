"""Snapshots: the tool schemas the agent sees.

Each task's expected change set is stored with the task (tasks.jsonl, reviewed in its diff) and
held to the gold replay once, by tests/tasks/test_stored_changes.py; a snapshot of the same
replay would check it a second time (issue 17, item 5)."""

from __future__ import annotations

from syrupy.assertion import SnapshotAssertion

from pytest_bankbench.bank.registry import all_tools, tool_schemas


def test_tool_schemas(snapshot: SnapshotAssertion) -> None:
    kinds = {name: spec.kind for name, spec in sorted(all_tools().items())}
    assert {"kinds": kinds, "schemas": tool_schemas()} == snapshot
