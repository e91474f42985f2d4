"""The generator is deterministic and every shipped task passes the construction filter."""

from __future__ import annotations

from pathlib import Path

from pytest_bankbench.paths import data_dir
from pytest_bankbench.tasks.generate import write
from pytest_bankbench.tasks.loader import TASKS_FILE, shipped_tasks
from pytest_bankbench.tasks.replay import replay


def test_regenerating_writes_identical_bytes(tmp_path: Path) -> None:
    written, _rejected = write(tmp_path)
    assert written == len(shipped_tasks())
    assert (tmp_path / TASKS_FILE).read_bytes() == (data_dir() / TASKS_FILE).read_bytes()


def test_every_gold_chain_replays_to_its_recorded_changes() -> None:
    mismatched = []
    for task in shipped_tasks():
        result = replay(task)  # raises GoldReplayError on any failed call or ineffective write
        assert task.expected_changes is not None
        if list(result.changes.rows) != sorted(task.expected_changes, key=lambda r: r.signature()):
            mismatched.append(task.task_id)
    assert mismatched == []
