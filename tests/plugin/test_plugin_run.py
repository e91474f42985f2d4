"""End-to-end runs of the benchmark through pytest: selection, failures, summary, report."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from importlib import metadata
from pathlib import Path

import pytest

from pytest_bankbench.authoring.generate import TASKS_PER_FAMILY
from pytest_bankbench.simulation.trace import Trace
from pytest_bankbench.tasks.loader import select, shipped_tasks
from tests.plugin.helpers import load_report, run_bench


def test_gold_passes_the_lite_split_with_summary(pytester: pytest.Pytester) -> None:
    result = run_bench(pytester, "--bank-model", "gold", "--bank-split", "lite", "-q")
    lite = len(select(shipped_tasks(), "lite"))
    result.assert_outcomes(passed=lite)
    result.stdout.fnmatch_lines(
        [
            "*bank benchmark summary*",
            f"pass^1: 100.0%  ({lite}/{lite} sessions, 95% CI*",
            "false passes: 0*",
        ]
    )


def test_k_selects_a_family(pytester: pytest.Pytester) -> None:
    result = run_bench(
        pytester, "--bank-model", "gold", "-k", "fd_closure_declined", "--collect-only", "-q"
    )
    ids = [line for line in result.stdout.lines if "::test_task[" in line]
    assert len(ids) == TASKS_PER_FAMILY
    assert all("edge_case-fd_closure_declined-" in line for line in ids)


def test_markers_select_category_and_area(pytester: pytest.Pytester) -> None:
    result = run_bench(
        pytester, "--bank-model", "gold", "-m", "loans and sequencing", "--collect-only", "-q"
    )
    ids = [line for line in result.stdout.lines if "::test_task[" in line]
    expected = [
        t for t in shipped_tasks() if t.service_area == "loans" and t.category == "sequencing"
    ]
    assert len(ids) == len(expected) > 0


def test_each_failed_check_is_its_own_failure(pytester: pytest.Pytester) -> None:
    result = run_bench(pytester, "--bank-model", "write-everything", "-k", "fd_closure-001")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        [
            "*UnrequestedWrite: unrequested write took effect*",
            "*unrequested block_card*",
            "*MissingOutput: required output not told to the customer*",
        ]
    )


def test_a_failed_check_shows_its_evidence_not_the_harness_traceback(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    result = run_bench(pytester, "--bank-model", "lookup-only", "-k", "fd_closure-001", "-rf")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        [
            "fd_closure-001: 3 checks failed (stopped_short)",
            "MissingRequiredCalls: required calls missing or out of order (fd_closure-001)",
            "  missing c3 close_fd_premature*",
            "WrongFinalState: final state differs*",
            "MissingOutput: required output not told to the customer (fd_closure-001)",
            "FAILED *fd_closure-001* - stopped_short: *",
        ]
    )
    result.stdout.no_fnmatch_line("*raise*")  # no harness frames above the raise
    result.stdout.no_fnmatch_line("*bank_run.play(*")
    # The short summary names the failure type and its first evidence line, whole on a
    # terminal wide enough (pytester's has 80 columns; test_plugin_ci.py checks every line).
    monkeypatch.setenv("COLUMNS", "200")
    wide = run_bench(pytester, "--bank-model", "lookup-only", "-k", "fd_closure-001", "-rf")
    wide.stdout.fnmatch_lines(
        ["FAILED *fd_closure-001* - stopped_short: missing c3 close_fd_premature(deposit_id=*"]
    )
    single = run_bench(pytester, "--bank-model", "lookup-only", "-k", "balance_enquiry-007")
    single.stdout.fnmatch_lines(
        ["required output not told to the customer (balance_enquiry-007)", "  never told balance*"]
    )
    single.stdout.no_fnmatch_line("*raise*")
    full = run_bench(pytester, "--bank-model", "lookup-only", "-k", "fd_closure-001", "--fulltrace")
    full.stdout.fnmatch_lines(["*bank_run.play(*", "*raise_for(result.verdict)*"])


def test_missing_call_shows_the_closest_calls(pytester: pytest.Pytester) -> None:
    result = run_bench(pytester, "--bank-model", "lookup-only", "-k", "fd_closure-001")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        [
            "*MissingRequiredCalls: required calls missing or out of order*",
            "*missing c3 close_fd_premature(deposit_id=*no call to close_fd_premature was made*",
        ]
    )


def test_report_and_traces(pytester: pytest.Pytester, tmp_path: Path) -> None:
    report, traces = tmp_path / "report.json", tmp_path / "traces"
    result = run_bench(
        pytester,
        "--bank-model",
        "claim-done",
        "-k",
        "sequencing-new_payee_transfer",
        "--bank-report",
        str(report),
        "--bank-traces",
        str(traces),
    )
    result.assert_outcomes(failed=TASKS_PER_FAMILY)
    data = load_report(report)
    assert len(data["sessions"]) == TASKS_PER_FAMILY
    # A customer who offers an OTP unprompted is never warned by this agent: that comes first.
    offered = {
        t.task_id for t in shipped_tasks() if any(i.volunteers for i in t.scenario.instructions)
    }
    assert {s["task_id"]: s["failure_type"] for s in data["sessions"]} == {
        s["task_id"]: "asked_for_secret" if s["task_id"] in offered else "stopped_short"
        for s in data["sessions"]
    }
    assert data["provenance"]["agent"]["model"] == "claim-done"
    assert data["provenance"]["task_ids"] == [t.task_id for t in select(shipped_tasks(), "base")]
    lines = (traces / "traces.jsonl").read_text().splitlines()
    parsed = sorted((Trace.model_validate_json(line) for line in lines), key=lambda t: t.task_id)
    assert [t.task_id for t in parsed] == sorted(s["task_id"] for s in data["sessions"])
    assert all(t.end == "customer_stop" for t in parsed)


def test_own_task_file(pytester: pytest.Pytester) -> None:
    tasks = [t for t in shipped_tasks() if t.family == "rd_opening"][:3]
    path = pytester.path / "mine.jsonl"
    path.write_text("".join(t.to_line() + "\n" for t in tasks))
    result = run_bench(pytester, "--bank-model", "gold", "--bank-tasks", str(path))
    result.assert_outcomes(passed=3)


def test_model_options_given_to_a_built_in_agent_are_warned_of_and_not_recorded(
    pytester: pytest.Pytester, tmp_path: Path
) -> None:
    """User trial: `--bank-model gold --bank-model-args '{"temperature":0.5}' --bank-api-base
    ...` ran with no word, and the provenance recorded gold at temperature 0.5."""
    report = tmp_path / "r.json"
    result = run_bench(
        pytester,
        "--bank-model",
        "gold",
        "-k",
        "rd_opening-001",
        "--bank-report",
        str(report),
        "--bank-model-args",
        '{"api_key": "sk-SECRET123", "temperature": 0.5}',
        "--bank-api-base",
        "http://127.0.0.1:9/v1",
    )
    result.assert_outcomes(passed=1)
    warning = (
        "*--bank-model-args and --bank-api-base ignored: the agent 'gold' is a built-in agent, "
        "and these options apply only to a litellm model*"
    )
    result.stdout.fnmatch_lines([warning])
    assert result.stdout.str().count("--bank-model-args and --bank-api-base ignored") == 1
    data = load_report(report)
    assert data["provenance"]["agent"]["parameters"] == {}
    assert data["run_config"]["agent_parameters"] == {}
    # Nor does its key reach any output (test_plugin_secrets.py has a model's, redacted).
    text = report.read_text() + (tmp_path / "r.sessions.jsonl").read_text()
    assert "sk-SECRET123" not in text + result.stdout.str()


def test_the_provenance_records_when_the_run_started(pytester: pytest.Pytester) -> None:
    """The run's start in UTC (wall clock, for provenance only), apart from the page's date."""
    report, html, traces = (pytester.path / name for name in ("r.json", "r.html", "traces"))
    before = datetime.now(UTC).replace(microsecond=0)
    run_bench(
        pytester,
        "--bank-model",
        "gold",
        "-k",
        "rd_opening",
        "--bank-report",
        str(report),
        "--bank-html",
        str(html),
        "--bank-traces",
        str(traces),
    )
    after = datetime.now(UTC)
    started = load_report(report)["provenance"]["run_started"]
    # The installed litellm's version, read without importing it (user trial: always null).
    assert load_report(report)["provenance"]["litellm"] == metadata.version("litellm")
    assert started.endswith("Z") and before <= datetime.fromisoformat(started) <= after
    assert json.loads((traces / "provenance.json").read_text())["run_started"] == started
    page = html.read_text()
    data = json.loads(page.split('id="bank-data">', 1)[1].split("</script>", 1)[0])
    assert data["report"]["provenance"]["run_started"] == started
    # The page's own date is when it was written, to the minute: a separate field.
    written = datetime.strptime(data["written"], "%Y-%m-%d %H:%M UTC").replace(tzinfo=UTC)
    assert before - timedelta(minutes=1) <= written <= after


def test_a_selection_of_no_session_says_what_it_was_matched_against(
    pytester: pytest.Pytester,
) -> None:
    """User trial: -k matching nothing ended with exit 5, empty tables and no hint."""
    result = run_bench(pytester, "--bank-model", "gold", "--bank-split", "lite", "-k", "zzz_no")
    assert result.ret == pytest.ExitCode.NO_TESTS_COLLECTED
    tasks = len(select(shipped_tasks(), "lite"))
    result.stdout.fnmatch_lines(
        [
            "*= bank benchmark summary =*",
            f"no benchmark session selected: -k 'zzz_no' matched none of the {tasks:,} task ids "
            "(category-family-nnn, e.g. *-*-0*; a later trial adds -tN, e.g. -t2)",
        ]
    )
