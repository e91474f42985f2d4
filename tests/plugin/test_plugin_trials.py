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


def test_pass_k_with_no_task_finished_k_times_is_n_a_not_zero(pytester: pytest.Pytester) -> None:
    """Every session passed, but no task ran its third trial (left out with -k, as an
    interrupted run leaves it): pass^3 measured nothing, so it reads n/a, and a gate on it fails
    saying so rather than on a 0 no session earned."""
    report = pytester.path / "report.json"
    md = pytester.path / "summary.md"
    result = run_bench(
        pytester,
        "--bank-model",
        "gold",
        "-k",
        "rd_opening-001 and not t3",
        "--bank-trials",
        "3",
        "-q",
        "--bank-report",
        str(report),
        "--bank-summary-md",
        str(md),
        "--bank-gate",
        "pass^2>=0.9, pass^3>=0.5",
    )
    result.assert_outcomes(passed=2)
    result.stdout.fnmatch_lines(
        [
            "pass^k: k=1: 100.0%  k=2: 100.0%  k=3: n/a (no task has 3 finished trials)",
            "*pass^2 = 1.00 >= 0.90: ok*",
            "*pass^3: no task has 3 finished trials in this run, nothing measured: FAILED*",
        ]
    )
    assert result.ret == 1
    assert load_report(report)["summary"]["pass^k"] == {"1": 1.0, "2": 1.0}
    assert "| pass^3 | n/a (no task has 3 finished trials) |" in md.read_text()
