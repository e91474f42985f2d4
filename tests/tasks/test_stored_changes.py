"""The change set stored with each shipped task is the one its gold chain replays to.

The scorer reads the stored set (runner.expected_changes) instead of replaying the chain on a
second bank every session, so a stale stored set would silently move every verdict.
"""

from __future__ import annotations

from pytest_bankbench.bank.diff import ChangeSet
from pytest_bankbench.runner import expected_changes
from pytest_bankbench.tasks.loader import shipped_tasks
from pytest_bankbench.tasks.replay import replay


def test_stored_change_sets_equal_the_replayed_ones() -> None:
    mismatched = [
        task.task_id
        for task in shipped_tasks()
        if task.expected_changes is None or expected_changes(task) != replay(task).changes
    ]
    assert mismatched == []


def test_a_task_without_a_stored_set_is_replayed() -> None:
    task = next(t for t in shipped_tasks() if t.expected_changes)
    bare = task.model_copy(update={"expected_changes": None})
    assert expected_changes(bare) == replay(task).changes
    assert expected_changes(bare) == ChangeSet.of(list(task.expected_changes or ()))
