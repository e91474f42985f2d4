"""The scorer reads the change set stored with a task, and replays the chain for a task without.

The scorer reads the stored set (runner.expected_changes) instead of replaying the chain on a
second bank every session, so a stale stored set would silently move every verdict. That every
shipped task's stored set is its replay's is checked once, by validate-tasks on the shipped file
(tests/cli/test_validate_tasks.py, `test_the_shipped_file_has_no_problem`); regeneration writes
the replay's set and is compared byte for byte (tests/authoring/test_generate.py).
"""

from __future__ import annotations

from pytest_bankbench.bank.diff import ChangeSet
from pytest_bankbench.runner import expected_changes
from pytest_bankbench.tasks.loader import shipped_tasks
from pytest_bankbench.tasks.replay import replay


def test_a_task_without_a_stored_set_is_replayed() -> None:
    task = next(t for t in shipped_tasks() if t.expected_changes)
    bare = task.model_copy(update={"expected_changes": None})
    assert expected_changes(bare) == replay(task).changes
    assert expected_changes(bare) == ChangeSet.of(list(task.expected_changes or ()))
