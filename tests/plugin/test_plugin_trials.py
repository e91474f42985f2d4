"""Trials: each task K times with distinct recorded seeds; pass^1..pass^K in the summary."""

from __future__ import annotations

import pytest

from pytest_bankbench.tasks.loader import select, shipped_tasks
from tests.plugin.helpers import load_report, run_bench


def test_trials_give_pass_hat_k(pytester: pytest.Pytester) -> None:
    report = pytester.path / "report.json"
    result = run_bench(
        pytester,
        "--bank-model",
        "gold",
        "-k",
        "rd_opening",
        "--bank-trials",
        "3",
        "-q",
        "--bank-report",
        str(report),
    )
    selected = sum("rd_opening" in t.task_id for t in shipped_tasks())
    result.assert_outcomes(passed=3 * selected)
    result.stdout.fnmatch_lines(["pass^k: k=1: 100.0%  k=2: 100.0%  k=3: 100.0%"])
    data = load_report(report)
    assert set(data["summary"]["pass^k"]) == {"1", "2", "3"}
    assert set(map(tuple, data["summary"]["per_task_successes"].values())) == {(3, 3)}
    seeds = data["provenance"]["seeds"]
    # Seeds are recorded for every (task, trial) of the split, run or not.
    every = 3 * len(select(shipped_tasks(), "base"))
    assert len(seeds) == every and len(set(seeds.values())) == every


def test_trial_ids(pytester: pytest.Pytester) -> None:
    result = run_bench(
        pytester,
        "--bank-model",
        "gold",
        "-k",
        "rd_opening-001",
        "--bank-trials",
        "2",
        "--collect-only",
        "-q",
    )
    assert "bankbench::test_task[rare_tool-rd_opening-001]" in result.stdout.lines
    assert "bankbench::test_task[rare_tool-rd_opening-001-t2]" in result.stdout.lines
