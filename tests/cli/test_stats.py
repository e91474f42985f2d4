"""The stats command reports the suite computed from the shipped files."""

from __future__ import annotations

from collections import Counter

import pytest

from pytest_bankbench.bank.registry import all_tools
from pytest_bankbench.cli import main
from pytest_bankbench.paths import data_dir
from pytest_bankbench.tasks.loader import shipped_tasks
from pytest_bankbench.tasks.model import CATEGORIES


def test_stats(capsys: pytest.CaptureFixture[str]) -> None:
    # The numbers come from the shipped files; tests/tasks/test_suite_shape.py pins the
    # documented ones.
    tasks = shipped_tasks()
    kinds = Counter(spec.kind for spec in all_tools().values())
    assert main(["stats"]) == 0
    out = capsys.readouterr().out
    for line in (
        f"tasks (base): {len(tasks)}",
        f"families: {len({t.family for t in tasks})}",
        f"categories: {len(CATEGORIES)}",
        f"tools: {len(all_tools())} (read {kinds['read']}, write {kinds['write']}, "
        f"human {kinds['human']})",
        "customers: 944",
        f"knowledge-base documents: {len(list((data_dir() / 'kb').glob('*.md')))}",
        "train/test customers:",
    ):
        assert line in out
    assert "gold chain length: 1-8, mean 3." in out
