"""Nothing is lost: a killed worker or Ctrl-C keeps every finished session, and resume completes."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from tests.plugin.helpers import load_report, run_bench

# A conftest for the pytester folder: the gold agent, except that one chosen session first
# kills its own worker process, or sends Ctrl-C (SIGINT) to the controlling pytest process.
SABOTEUR = """
import os, signal
from pathlib import Path
import pytest
from pytest_bankbench.simulation.agents import GoldAgent

@pytest.fixture
def bank_agent(bank_case, request):
    marker = Path(os.environ["BANK_TEST_MARKER"])
    target = os.environ["BANK_TEST_TARGET"]
    if bank_case.task.task_id == target and not marker.exists():
        marker.write_text("done")
        how = os.environ["BANK_TEST_HOW"]
        if how == "kill-worker":
            os.kill(os.getpid(), signal.SIGKILL)
        else:
            controller = os.getppid() if hasattr(request.config, "workerinput") else os.getpid()
            os.kill(controller, signal.SIGINT)
    return GoldAgent(bank_case.task)
"""
# In the lite split's middle, so sessions finish before and after it.
TARGET = "insufficient_funds-009"
LITE_GOLD = (
    "--bank-model",
    "gold",
    "--bank-split",
    "lite",
    "-q",
)


def _sessions(log: Path) -> Counter[tuple[str, int]]:
    keys: Counter[tuple[str, int]] = Counter()
    for line in log.read_text().splitlines():
        entry = json.loads(line)
        if entry["kind"] == "session":
            keys[(entry["record"]["task_id"], entry["record"]["trial"])] += 1
    return keys


def _prepare(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, how: str) -> Path:
    from pytest_bankbench.tasks.loader import select, shipped_tasks

    assert TARGET in {t.task_id for t in select(shipped_tasks(), "lite")}
    pytester.makeconftest(SABOTEUR)
    monkeypatch.setenv("BANK_TEST_MARKER", str(pytester.path / "sabotaged"))
    monkeypatch.setenv("BANK_TEST_TARGET", TARGET)
    monkeypatch.setenv("BANK_TEST_HOW", how)
    return pytester.path / "out" / "report.json"


def _resume_and_check(pytester: pytest.Pytester, report: Path, *extra: str) -> None:
    log = report.with_name("report.sessions.jsonl")
    before = _sessions(log)
    assert 0 < len(before) < 200 and max(before.values()) == 1
    assert (TARGET, 0) not in before
    result = run_bench(
        pytester,
        *LITE_GOLD,
        "--bank-resume",
        str(report),
        *extra,
    )
    result.assert_outcomes(passed=200 - len(before))
    after = _sessions(log)
    assert len(after) == 200 and set(after.values()) == {1}
    data = load_report(report)
    assert len(data["sessions"]) == 200
    assert data["summary"]["pass^1"] == 1.0


def test_killed_worker_then_resume(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    report = _prepare(pytester, monkeypatch, "kill-worker")
    result = run_bench(
        pytester,
        *LITE_GOLD,
        "-n",
        "2",
        "--bank-report",
        str(report),
    )
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.stdout.fnmatch_lines(["*crashed while running*"])
    _resume_and_check(pytester, report, "-n", "2")


def test_sigint_then_resume(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> None:
    report = _prepare(pytester, monkeypatch, "sigint")
    result = pytester.runpytest_subprocess(
        "-p",
        "no:cacheprovider",
        *LITE_GOLD,
        "--bank-report",
        str(report),
    )
    assert result.ret == pytest.ExitCode.INTERRUPTED
    assert report.exists()  # written on the way out, with the sessions that finished
    _resume_and_check(pytester, report)


def test_sigint_under_xdist_then_resume(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    report = _prepare(pytester, monkeypatch, "sigint")
    result = pytester.runpytest_subprocess(
        "-p",
        "no:cacheprovider",
        *LITE_GOLD,
        "-n",
        "2",
        "--bank-report",
        str(report),
    )
    assert result.ret == pytest.ExitCode.INTERRUPTED
    _resume_and_check(pytester, report)


def test_resume_refuses_a_different_configuration(pytester: pytest.Pytester) -> None:
    report = pytester.path / "report.json"
    run_bench(pytester, "--bank-model", "gold", "-k", "rd_opening", "--bank-report", str(report))
    result = run_bench(
        pytester,
        "--bank-model",
        "claim-done",
        "--bank-max-steps",
        "50",
        "--bank-resume",
        str(report),
    )
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(
        [
            "*--bank-resume*different configuration*"
            "agent: saved 'gold', now 'claim-done'*"
            "max_steps: saved 200, now 50*"
        ]
    )
