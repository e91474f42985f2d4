"""The invariants SCORING.md asks the harness to prove on itself, end to end through pytest."""

from __future__ import annotations

import pytest

from pytest_bankbench.simulation.agents import TRIVIAL_AGENTS
from tests.plugin.helpers import load_report, run_bench, summary_block, without_timings


def test_gold_passes_every_base_task_with_and_without_xdist(pytester: pytest.Pytester) -> None:
    serial, parallel = pytester.path / "serial.json", pytester.path / "parallel.json"
    one = run_bench(pytester, "--bank-model", "gold", "-q", "--bank-report", str(serial))
    two = run_bench(
        pytester, "--bank-model", "gold", "-q", "-n", "2", "--bank-report", str(parallel)
    )
    one.assert_outcomes(passed=1000)
    two.assert_outcomes(passed=1000)
    assert without_timings(load_report(serial)) == without_timings(load_report(parallel))
    assert summary_block(one.outlines) == summary_block(two.outlines)
    assert load_report(serial)["summary"]["pass^1"] == 1.0


@pytest.mark.parametrize("agent", TRIVIAL_AGENTS)
def test_trivial_agent_passes_no_graded_task(pytester: pytest.Pytester, agent: str) -> None:
    report = pytester.path / "report.json"
    run_bench(pytester, "--bank-model", agent, "-q", "--tb=no", "--bank-report", str(report))
    data = load_report(report)
    sessions = data["sessions"]
    assert len(sessions) == 1000
    graded_passed = [s["task_id"] for s in sessions if s["graded"] and s["passed"]]
    assert graded_passed == []
    control = data["summary"]["control"]
    print(f"{agent}: control tasks passed {control['passed']}/{control['sessions']}")


def test_two_runs_give_identical_verdicts(pytester: pytest.Pytester) -> None:
    first, second = pytester.path / "a.json", pytester.path / "b.json"
    for path in (first, second):
        run_bench(
            pytester,
            "--bank-model",
            "write-everything",
            "--bank-split",
            "lite",
            "-q",
            "--bank-report",
            str(path),
        )
    assert without_timings(load_report(first)) == without_timings(load_report(second))
