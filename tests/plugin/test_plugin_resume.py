"""Nothing is lost: a killed worker or Ctrl-C keeps every finished session, and resume completes."""

from __future__ import annotations

import fcntl
import json
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from pytest_bankbench.report.html_traces import unpack_trace
from pytest_bankbench.report.run_guard import lock_path_for
from pytest_bankbench.tasks.loader import select, shipped_tasks
from tests.plugin.helpers import load_report, run_bench

# A conftest for the pytester folder: the gold agent, except that one chosen session first
# kills its own worker process, or sends Ctrl-C (SIGINT), SIGTERM or SIGKILL to the controlling
# pytest process.
SABOTEUR = """
import os, signal
from pathlib import Path
import pytest
from pytest_bankbench.simulation.agents import GoldAgent

def pytest_configure(config):
    # Ctrl-C as a terminal delivers it: a process started from a test worker may inherit SIGINT
    # ignored (a fresh clone's full run failed both SIGINT tests that way, each passing alone).
    signal.signal(signal.SIGINT, signal.default_int_handler)

@pytest.fixture
def bank_agent(bank_case, request):
    marker = Path(os.environ["BANK_TEST_MARKER"])
    target = os.environ["BANK_TEST_TARGET"]
    if bank_case.task.task_id == target and not marker.exists():
        marker.write_text("done")
        how = os.environ["BANK_TEST_HOW"]
        controller = os.getppid() if hasattr(request.config, "workerinput") else os.getpid()
        if how == "kill-worker":
            os.kill(os.getpid(), signal.SIGKILL)
        elif how == "kill-controller":
            os.kill(controller, signal.SIGKILL)
        elif how == "sigterm":
            os.kill(controller, signal.SIGTERM)
        else:
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
        if entry["kind"] == "session" and entry["record"]["outcome"] == "scored":
            keys[(entry["record"]["task_id"], entry["record"]["trial"])] += 1
    return keys


def _prepare(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, how: str) -> Path:
    assert TARGET in {t.task_id for t in select(shipped_tasks(), "lite")}
    pytester.makeconftest(SABOTEUR)
    monkeypatch.setenv("BANK_TEST_MARKER", str(pytester.path / "sabotaged"))
    monkeypatch.setenv("BANK_TEST_TARGET", TARGET)
    monkeypatch.setenv("BANK_TEST_HOW", how)
    return pytester.path / "out" / "report.json"


def _resume_and_check(pytester: pytest.Pytester, report: Path, *extra: str) -> None:
    log = report.with_name("report.sessions.jsonl")
    lite = len(select(shipped_tasks(), "lite"))
    before = _sessions(log)
    assert 0 < len(before) < lite and max(before.values()) == 1
    assert (TARGET, 0) not in before
    result = run_bench(
        pytester,
        *LITE_GOLD,
        "--bank-resume",
        str(report),
        *extra,
    )
    result.assert_outcomes(passed=lite - len(before))
    after = _sessions(log)
    assert len(after) == lite and set(after.values()) == {1}
    data = load_report(report)
    assert len(data["sessions"]) == lite
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
    result.stdout.fnmatch_lines(["*crashed while running*", "*1 lost*"])
    lost = [s for s in load_report(report)["sessions"] if s["outcome"] == "lost"]
    assert [(s["task_id"], s["passed"]) for s in lost] == [(TARGET, False)]
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


# Twelve sessions of the lite split around TARGET (the second of them): quick crash tests.
SMALL = ("-k", "insufficient_funds or kb_answer or rd_opening")


def _crash_then_resume(
    pytester: pytest.Pytester, report: Path, how: str, resume_with: Path
) -> pytest.RunResult:
    crashed = pytester.runpytest_subprocess(
        "-p", "no:cacheprovider", *LITE_GOLD, *SMALL, "--bank-report", str(report)
    )
    # SIGTERM ends the run like Ctrl-C, so the report is written; kill -9 leaves only the log.
    assert report.exists() is (how == "sigterm")
    log = report.with_name("report.sessions.jsonl")
    before = _sessions(log)
    assert 0 < len(before) < 12 and (TARGET, 0) not in before
    result = run_bench(pytester, *LITE_GOLD, *SMALL, "--bank-resume", str(resume_with))
    result.assert_outcomes(passed=12 - len(before))
    assert set(_sessions(log).values()) == {1} and len(_sessions(log)) == 12
    assert len(load_report(report)["sessions"]) == 12
    return crashed


def test_sigkill_of_the_controller_then_resume_by_the_missing_report(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    """kill -9 writes no report; resuming by the report's name reads the session log beside it."""
    report = _prepare(pytester, monkeypatch, "kill-controller")
    crashed = _crash_then_resume(pytester, report, "kill-controller", report)
    assert crashed.ret == -9
    assert not lock_path_for(report).exists()


def test_sigterm_ends_the_run_like_ctrl_c(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    report = _prepare(pytester, monkeypatch, "sigterm")
    crashed = _crash_then_resume(
        pytester, report, "sigterm", report.with_name("report.sessions.jsonl")
    )
    assert crashed.ret == pytest.ExitCode.INTERRUPTED
    crashed.stdout.fnmatch_lines(
        ["*bank benchmark summary*", "*KeyboardInterrupt: stopped by signal SIGTERM*"]
    )


def test_resume_by_the_log_writes_the_report_beside_it(pytester: pytest.Pytester) -> None:
    report = pytester.path / "out" / "r.json"
    run_bench(pytester, *LITE_GOLD, "-k", "rd_opening", "--bank-report", str(report))
    report.unlink()
    result = run_bench(
        pytester,
        *LITE_GOLD,
        "-k",
        "rd_opening or kb_answer",
        "--bank-resume",
        str(report.with_name("r.sessions.jsonl")),
    )
    result.assert_outcomes(passed=4)
    assert len(load_report(report)["sessions"]) == 8


def test_resume_refuses_other_customer_parameters_and_another_shard(
    pytester: pytest.Pytester,
) -> None:
    report = pytester.path / "r.json"
    run_bench(
        pytester,
        *LITE_GOLD,
        "-k",
        "rd_opening",
        "--bank-shard",
        "1/2",
        "--bank-report",
        str(report),
    )
    result = run_bench(
        pytester,
        *LITE_GOLD,
        "-k",
        "rd_opening",
        "--bank-shard",
        "2/2",
        "--bank-user-model-args",
        '{"temperature": 0.7}',
        "--bank-resume",
        str(report),
    )
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(
        [
            "*different configuration*customer_parameters: saved {}, now {'temperature': 0.7}*"
            "shard: saved '1/2', now '2/2'*"
        ]
    )


def test_a_torn_last_line_is_dropped_and_the_log_stays_readable(pytester: pytest.Pytester) -> None:
    report = pytester.path / "r.json"
    log = report.with_name("r.sessions.jsonl")
    run_bench(pytester, *LITE_GOLD, "-k", "rd_opening", "--bank-report", str(report))
    lines = log.read_text().splitlines(keepends=True)
    # The last session was being written when the machine went down.
    log.write_text("".join(lines[:-1]) + lines[-1][:57])
    result = run_bench(pytester, *LITE_GOLD, "-k", "rd_opening", "--bank-resume", str(report))
    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines(
        [f"*r.sessions.jsonl:{len(lines)}: the last line was cut short*dropped it*"]
    )
    for line in log.read_text().splitlines():
        json.loads(line)
    again = run_bench(
        pytester, *LITE_GOLD, "-k", "rd_opening or kb_answer", "--bank-resume", str(report)
    )
    again.assert_outcomes(passed=4)
    assert (
        _sessions(log) == Counter({key: 1 for key in _sessions(log)}) and len(_sessions(log)) == 8
    )


@contextmanager
def _held_by_pid_4242(lock: Path) -> Iterator[None]:
    """A lock held as a live run holds it (the run's pid is 4242)."""
    with lock.open("w") as held:
        fcntl.flock(held.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        held.write("4242\n")
        held.flush()
        yield


def test_a_second_run_cannot_write_the_same_report(pytester: pytest.Pytester) -> None:
    report = pytester.path / "r.json"
    lock = lock_path_for(report)
    with _held_by_pid_4242(lock):
        result = run_bench(pytester, *LITE_GOLD, "-k", "rd_opening", "--bank-report", str(report))
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(
        [f"*{report}: another run (pid 4242) is writing this report*{lock}*"]
    )
    assert not report.exists()
    # A lock left by a process that died (the kernel dropped its flock) is taken over.
    lock.write_text("999999\n")
    result = run_bench(pytester, *LITE_GOLD, "-k", "rd_opening", "--bank-report", str(report))
    result.assert_outcomes(passed=4)
    assert not lock.exists()


def test_reports_differing_only_in_extension_share_one_lock(pytester: pytest.Pytester) -> None:
    """Issue 19: same.json and same.txt write one session log, so one run holds both."""
    first, second = pytester.path / "same.json", pytester.path / "same.txt"
    assert lock_path_for(first) == lock_path_for(second)
    with _held_by_pid_4242(lock_path_for(first)):
        result = run_bench(pytester, *LITE_GOLD, "-k", "rd_opening", "--bank-report", str(second))
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*another run (pid 4242) is writing this report*"])
    assert not second.exists() and not (pytester.path / "same.sessions.jsonl").exists()


@pytest.mark.parametrize(
    ("extra", "status"),
    [((), pytest.ExitCode.OK), (("--bank-gate", "pass^1<0.5"), pytest.ExitCode.TESTS_FAILED)],
)
def test_resuming_a_finished_run_reports_it(
    pytester: pytest.Pytester, extra: tuple[str, ...], status: pytest.ExitCode
) -> None:
    report = pytester.path / "r.json"
    run_bench(pytester, *LITE_GOLD, "-k", "rd_opening", "--bank-report", str(report))
    report.write_text("{}")  # the resume rewrites it from the log
    result = run_bench(
        pytester, *LITE_GOLD, "-k", "rd_opening", "--bank-resume", str(report), *extra
    )
    assert result.ret == status
    assert len(load_report(report)["sessions"]) == 4


def test_the_html_of_a_resumed_run_has_every_trace(pytester: pytest.Pytester) -> None:
    report, traces, html = (pytester.path / n for n in ("r.json", "traces", "r.html"))
    run_bench(
        pytester,
        *LITE_GOLD,
        "-k",
        "rd_opening",
        "--bank-report",
        str(report),
        "--bank-traces",
        str(traces),
    )
    run_bench(
        pytester,
        *LITE_GOLD,
        "-k",
        "rd_opening or kb_answer",
        "--bank-resume",
        str(report),
        "--bank-traces",
        str(traces),
        "--bank-html",
        str(html),
    )
    # Each session's trace is packed on its own (report/html_traces.py): count them unpacked.
    page = html.read_text()
    data = json.loads(page.split('id="bank-data">', 1)[1].split("</script>", 1)[0])
    assert [unpack_trace(t)["trace_version"] for t in data["traces"].values()] == [1] * 8


def test_a_regrade_keeps_the_agent_and_split_of_the_traces(pytester: pytest.Pytester) -> None:
    traces, report = pytester.path / "traces", pytester.path / "regraded.json"
    run_bench(pytester, *LITE_GOLD, "-k", "rd_opening", "--bank-traces", str(traces))
    run_bench(
        pytester, "--bank-regrade", str(traces), "-k", "rd_opening", "--bank-report", str(report)
    )
    prov = load_report(report)["provenance"]
    assert (prov["agent"]["model"], prov["split"]) == ("gold", "lite")
    # When the traces were played, beside when the re-grade ran.
    played = json.loads((traces / "provenance.json").read_text())["run_started"]
    assert prov["traces_run_started"] == played and prov["run_started"] >= played
    # Traces saved without their provenance: the agent each trace names.
    (traces / "provenance.json").unlink()
    run_bench(
        pytester, "--bank-regrade", str(traces), "-k", "rd_opening", "--bank-report", str(report)
    )
    assert load_report(report)["provenance"]["agent"]["model"] == "gold"


def test_a_second_run_cannot_append_to_the_same_traces(pytester: pytest.Pytester) -> None:
    """Issue 19: the lock covers every file a run appends to all along, the traces file too:
    two runs with different reports and one --bank-traces folder interleaved their traces."""
    traces = pytester.path / "traces"
    traces.mkdir()
    lock = traces / "traces.jsonl.lock"
    with _held_by_pid_4242(lock):
        result = run_bench(pytester, *LITE_GOLD, "-k", "rd_opening", "--bank-traces", str(traces))
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(
        [f"*--bank-traces: {traces / 'traces.jsonl'}: another run (pid 4242)*--bank-traces*"]
    )
    assert not (traces / "traces.jsonl").exists()
    result = run_bench(pytester, *LITE_GOLD, "-k", "rd_opening", "--bank-traces", str(traces))
    result.assert_outcomes(passed=4)
    assert not lock.exists() and len((traces / "traces.jsonl").read_text().splitlines()) == 4
