"""Every selected session ends with exactly one record: a crash is a harness error, never a gap.

Before this, anything that raised out of a session left no record, so a run of 4 sessions with
one crash read `pass^1 100% (3/3)`, the gate passed and the exit status was 0.
"""

from __future__ import annotations

import pytest

from tests.plugin.helpers import load_report, run_bench

# The lite split's balance enquiries: four quick gold sessions.
FEW = ("--bank-model", "gold", "--bank-split", "lite", "-k", "balance_enquiry", "-q")

# A conftest whose agent raises out of the session for one task (a stand-in for a broken custom
# task, an adapter bug or an argument the bank did not expect).
CRASHING_AGENT = """
import pytest
from pytest_bankbench.simulation.agents import GoldAgent

class Broken(GoldAgent):
    def act(self, events):
        raise RuntimeError("adapter bug: cannot read the model's reply")

@pytest.fixture
def bank_agent(bank_case):
    if bank_case.task.task_id == TARGET:
        return Broken(bank_case.task)
    return GoldAgent(bank_case.task)
"""


def _few_ids() -> list[str]:
    from pytest_bankbench.tasks.loader import select, shipped_tasks

    ids = sorted(
        t.task_id for t in select(shipped_tasks(), "lite") if "balance_enquiry" in t.task_id
    )
    assert len(ids) >= 3
    return ids


def _target() -> str:
    return _few_ids()[0]


def _crashing(pytester: pytest.Pytester) -> str:
    target = _target()
    pytester.makeconftest(f"TARGET = {target!r}\n" + CRASHING_AGENT)
    return target


def test_a_session_that_raises_is_a_harness_error_that_counts_as_failed(
    pytester: pytest.Pytester,
) -> None:
    target = _crashing(pytester)
    report = pytester.path / "r.json"
    result = run_bench(pytester, *FEW, "--bank-report", str(report))
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    data = load_report(report)
    sessions = {s["task_id"]: s for s in data["sessions"]}
    broken = sessions[target]
    assert broken["outcome"] == "harness_error" and not broken["passed"]
    assert "adapter bug: cannot read the model's reply" in broken["error"]
    n = len(sessions)
    summary = data["summary"]
    assert summary["sessions"] == n and summary["passed"] == n - 1  # counted, as a failure
    assert summary["accounting"] == {
        "selected": n,
        "scored": n - 1,
        "infra_errors": 0,
        "harness_errors": 1,
        "lost": 0,
        "not_run": 0,
    }
    result.stdout.fnmatch_lines(
        [
            f"*pass^1: *({n - 1}/{n} sessions*",
            f"*sessions: {n} selected: {n - 1} scored, *1 harness errors*",
        ]
    )
    # The session log keeps it too, so a resume re-runs it rather than forgetting it.
    log = report.with_name("r.sessions.jsonl").read_text()
    assert '"harness_error"' in log


def test_a_gate_does_not_pass_over_a_missing_verdict_unless_it_names_it(
    pytester: pytest.Pytester,
) -> None:
    _crashing(pytester)
    failed = run_bench(pytester, *FEW, "--bank-gate", "pass^1>=0.5")
    assert failed.ret == pytest.ExitCode.TESTS_FAILED
    failed.stdout.fnmatch_lines(["gate: FAILED*", "*1 selected session(s) without a verdict*"])
    named = run_bench(pytester, *FEW, "--bank-gate", "pass^1>=0.5, harness_errors<=1")
    assert named.ret == pytest.ExitCode.OK
    named.stdout.fnmatch_lines(["gate: PASSED*", "*harness_errors = 1 <= 1: ok"])


def test_the_same_gate_passes_when_every_session_is_scored(pytester: pytest.Pytester) -> None:
    result = run_bench(pytester, *FEW, "--bank-gate", "pass^1>=0.5")
    assert result.ret == pytest.ExitCode.OK
    result.stdout.fnmatch_lines(["*0 harness errors, 0 lost, 0 not run*", "gate: PASSED*"])


def test_sessions_a_stopped_run_never_played_are_counted_as_not_run(
    pytester: pytest.Pytester,
) -> None:
    # -x stops after the first failed session; the rest were selected and never played.
    report = pytester.path / "r.json"
    result = run_bench(
        pytester,
        "--bank-model",
        "reply-only",
        "--bank-split",
        "lite",
        "-k",
        "balance_enquiry",
        "-x",
        "--bank-report",
        str(report),
        "--bank-gate",
        "false_pass<=1",
    )
    summary = load_report(report)["summary"]
    counts = summary["accounting"]
    assert counts["scored"] == 1 and counts["not_run"] == counts["selected"] - 1 > 0
    assert summary["unaccounted"] == counts["not_run"]
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.stdout.fnmatch_lines(["gate: FAILED*", "*without a verdict*"])


def test_the_summary_says_only_what_applies_to_the_sessions_without_a_verdict(
    pytester: pytest.Pytester,
) -> None:
    """User trial: after -x or Ctrl-C it named harness errors and lost sessions that were not
    there, and advised --bank-resume when no report was written to resume from."""
    stopped = ("--bank-model", "reply-only", "--bank-split", "lite", "-k", "balance_enquiry")
    n = len(_few_ids()) - 1
    plain = run_bench(pytester, *stopped, "-x")
    plain.stdout.fnmatch_lines(["sessions: *", f"  {n} without a verdict: {n} not run"])
    assert "--bank-resume" not in plain.stdout.str()
    report = pytester.path / "r.json"
    kept = run_bench(pytester, *stopped, "-x", "--bank-report", str(report))
    kept.stdout.fnmatch_lines(
        [f"  {n} without a verdict: {n} not run; re-run them with --bank-resume {report}"]
    )
    _crashing(pytester)
    crashed = run_bench(pytester, *FEW, "--bank-report", str(pytester.path / "c.json"))
    crashed.stdout.fnmatch_lines(
        ["  1 without a verdict: 1 harness error counts as failed in pass^1; re-run them with *"]
    )


def test_a_crash_under_xdist_is_recorded_too(pytester: pytest.Pytester) -> None:
    target = _crashing(pytester)
    report = pytester.path / "r.json"
    run_bench(pytester, *FEW, "-n", "2", "--bank-report", str(report))
    outcomes = {s["task_id"]: s["outcome"] for s in load_report(report)["sessions"]}
    assert outcomes.pop(target) == "harness_error"
    assert set(outcomes.values()) == {"scored"}


def test_a_pass_k_gate_that_the_trials_cannot_meet_stops_before_the_run(
    pytester: pytest.Pytester,
) -> None:
    result = run_bench(pytester, *FEW, "--bank-gate", "pass^3>=0.5")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*--bank-gate*pass^3 needs --bank-trials 3 or more*"])


# One session raises, one kills its worker, and one of the two model endpoints is down.
EVERYTHING_GOES_WRONG = """
import os, signal
from pathlib import Path
import pytest

@pytest.fixture
def bank_agent(bank_agent, bank_case):
    if bank_case.task.task_id == CRASH:
        raise RuntimeError("a broken custom task")
    marker = Path(os.environ["BANK_TEST_MARKER"])
    if bank_case.task.task_id == KILL and not marker.exists():
        marker.write_text("killed")
        os.kill(os.getpid(), signal.SIGKILL)
    return bank_agent
"""


def test_crash_killed_worker_and_a_down_endpoint_leave_every_session_accounted_for(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tests.models import fault_server as fs

    ids = _few_ids()
    crash, kill = ids[0], ids[1]
    pytester.makeconftest(f"CRASH = {crash!r}\nKILL = {kill!r}\n" + EVERYTHING_GOES_WRONG)
    monkeypatch.setenv("BANK_TEST_MARKER", str(pytester.path / "killed"))
    server = fs.FaultServer(default=fs.answer()).start()
    report = pytester.path / "r.json"
    try:
        result = pytester.runpytest_subprocess(
            "-p",
            "no:cacheprovider",
            "--bank-model",
            "openai/fault-agent",
            "--bank-api-base",
            fs.closed_port(),
            "--bank-api-base",
            server.api_base,
            "--bank-model-args",
            '{"api_key": "sk-test-accounting-0000"}',
            "--bank-num-retries",
            "2",
            "--bank-retry-backoff",
            "0",
            "--bank-max-steps",
            "6",
            "--bank-split",
            "lite",
            "-k",
            "balance_enquiry",
            "-n",
            "2",
            "--bank-report",
            str(report),
            "--bank-gate",
            "pass^1>=0",
        )
    finally:
        server.stop()
    data = load_report(report)
    outcomes = {s["task_id"]: s["outcome"] for s in data["sessions"]}
    assert sorted(outcomes) == ids  # exactly one record per selected session
    assert outcomes.pop(crash) == "harness_error"
    assert outcomes.pop(kill) == "lost"
    # The down endpoint cost no session: the router failed over to the live one.
    assert set(outcomes.values()) == {"scored"}
    counts = data["summary"]["accounting"]
    assert counts == {
        "selected": len(ids),
        "scored": len(ids) - 2,
        "infra_errors": 0,
        "harness_errors": 1,
        "lost": 1,
        "not_run": 0,
    }
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.stdout.fnmatch_lines(
        ["gate: FAILED*", "*2 selected session(s) without a verdict (harness errors 1, lost 1*"]
    )
