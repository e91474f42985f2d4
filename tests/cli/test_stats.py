"""The stats command reports the suite computed from the shipped files, or from any valid task
file, and names a bad file in one line."""

from __future__ import annotations

import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from pytest_bankbench.bank.registry import all_tools
from pytest_bankbench.bank.store import Bank
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
        f"customers: {_customers()} (tasks use {len({t.customer_id for t in tasks})})",
        f"knowledge-base documents: {len(list((data_dir() / 'kb').glob('*.md')))}",
        "train/test customers:",
    ):
        assert line in out
    lengths = [len(t.gold) for t in tasks]
    assert f"gold chain length: {min(lengths)}-{max(lengths)}, mean " in out


def _customers() -> int:
    with Bank("CUST00001", shipped_tasks()[0].task_date) as bank:
        row = bank.one("SELECT COUNT(*) AS n FROM customers")
    assert row is not None
    return int(row["n"])


def test_a_file_of_control_tasks_only(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # issue 17: min() of the graded tasks' chains crashed on a file without any.
    control = [t for t in shipped_tasks() if not t.graded][:3]
    path = tmp_path / "control.jsonl"
    path.write_text("".join(t.to_line() + "\n" for t in control), encoding="utf-8")
    assert main(["stats", "--tasks", str(path)]) == 0
    out = capsys.readouterr().out
    assert f"tasks (base): {len(control)}" in out
    assert f"graded tasks: 0; control: {len(control)}" in out


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        ('{"task_id": "x-001",\n', ":1: not valid JSON"),
        ('{"task_id": "x-001"}\n', ":1: task 'x-001': field "),
        ("", ": the file holds no tasks; a task file holds one task per line, each a JSON object"),
        (None, ": no such task file"),
    ],
)
def test_a_bad_file_is_one_line_naming_it(tmp_path: Path, content: str | None, reason: str) -> None:
    path = tmp_path / "bad.jsonl"
    if content is not None:
        path.write_text(content, encoding="utf-8")
    # A real process: the error must reach the terminal as one line, no traceback.
    done = subprocess.run(
        [sys.executable, "-m", "pytest_bankbench", "stats", "--tasks", str(path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.startswith(f"error: {path}{reason}")
    assert len(done.stderr.splitlines()) == 1
