"""The invariants SCORING.md asks the harness to prove on itself, end to end through pytest."""

from __future__ import annotations

import pytest

from pytest_bankbench.bank.registry import get_tool
from pytest_bankbench.simulation.agents import PROCEDURE_AGENTS, TELLING_AGENTS, TRIVIAL_AGENTS
from pytest_bankbench.tasks.loader import select, shipped_tasks
from tests.plugin.helpers import load_report, run_bench, summary_block, without_timings


def test_gold_passes_every_base_task_with_and_without_xdist(pytester: pytest.Pytester) -> None:
    serial, parallel = pytester.path / "serial.json", pytester.path / "parallel.json"
    one = run_bench(pytester, "--bank-model", "gold", "-q", "--bank-report", str(serial))
    two = run_bench(
        pytester, "--bank-model", "gold", "-q", "-n", "2", "--bank-report", str(parallel)
    )
    base = len(select(shipped_tasks(), "base"))
    one.assert_outcomes(passed=base)
    two.assert_outcomes(passed=base)
    assert without_timings(load_report(serial)) == without_timings(load_report(parallel))
    assert summary_block(one.outlines) == summary_block(two.outlines)
    assert load_report(serial)["summary"]["pass^1"] == 1.0


@pytest.mark.parametrize("agent", TRIVIAL_AGENTS + PROCEDURE_AGENTS + TELLING_AGENTS)
def test_trivial_agent_passes_no_graded_task(pytester: pytest.Pytester, agent: str) -> None:
    """Each baseline fails every graded task it can fail: the no-consent agent is the gold
    agent on a task without a write, so it is held to the graded tasks that make one."""
    report = pytester.path / "report.json"
    run_bench(pytester, "--bank-model", agent, "-q", "--tb=no", "--bank-report", str(report))
    data = load_report(report)
    sessions = data["sessions"]
    assert len(sessions) == len(select(shipped_tasks(), "base"))
    held = {
        t.task_id
        for t in shipped_tasks()
        if agent != "no-consent" or any(get_tool(g.tool).kind == "write" for g in t.gold)
    }
    graded_passed = [
        s["task_id"] for s in sessions if s["graded"] and s["passed"] and s["task_id"] in held
    ]
    assert graded_passed == []
    if agent == "no-consent":  # and it is held to some: 600 graded tasks make a write
        assert sum(1 for s in sessions if s["graded"] and s["task_id"] in held) >= 500
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
