"""An infrastructure error's record holds no verdict: final_state_pass and false_pass are null.

User trial 2: it held no pass either way but a failure type (`ended_with_error`), failed checks
and evidence blaming the agent ("never told balance ..."); it holds none of them now, only the
provider's error, in the report, the session log, the HTML, the Markdown and the JUnit XML.

User trial: a session that never ran (its provider failed) was scored on the untouched bank,
so a task expecting no change carried `final_state_pass: true` and `false_pass: true` in the
JSON report and the session log, and anyone counting `sessions[].false_pass` over-counted.
Every reader of those records (summary, HTML, compare, render, gate, re-grade, resume, JUnit)
takes the nulls.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pytest_bankbench.cli import main
from tests.plugin.helpers import load_report
from tests.plugin.test_plugin_llm import CONFTEST, FAST, run_bench
from tests.report.test_html import _embedded

# A control task that changes nothing (its untouched bank is the right final state), rate
# limited in FAKE_MODE=ratelimit, beside one that is played.
TASKS = ("-k", "balance_enquiry-001 or balance_enquiry-002")


def _by_task(sessions: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {s["task_id"]: s for s in sessions}


def _log(path: Path) -> list[dict[str, Any]]:
    lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    return [line["record"] for line in lines if line["kind"] == "session"]


def _assert_only_the_infra_error(record: dict[str, Any]) -> None:
    assert record["failure_type"] is None
    assert record["checks"] == {} and record["evidence"] == {}
    assert record["error"].startswith("RateLimitError"), record["error"]


def test_an_infra_errors_record_claims_no_verdict_and_every_reader_takes_it(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    pytester.makeconftest(CONFTEST)
    monkeypatch.setenv("FAKE_MODE", "ratelimit")
    report, traces, junit = tmp_path / "r.json", tmp_path / "traces", tmp_path / "j.xml"
    model = ("--bank-model", "openai/fake-agent", *TASKS, *FAST)
    result = run_bench(
        pytester,
        *model,
        "--bank-report",
        str(report),
        "--bank-traces",
        str(traces),
        "--bank-html",
        str(tmp_path / "r.html"),
        f"--junitxml={junit}",
        "--bank-summary-md",
        str(tmp_path / "s.md"),
        "--bank-gate",
        "false_pass_count==0, final_state>=1",
    )
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(["false passes: 0 *", "bank benchmark gate: PASSED*"])
    for records in (load_report(report)["sessions"], _log(tmp_path / "r.sessions.jsonl")):
        infra, played = (
            _by_task(records)["balance_enquiry-001"],
            _by_task(records)["balance_enquiry-002"],
        )
        assert infra["outcome"] == "infra_error" and not infra["passed"]
        assert infra["final_state_pass"] is None and infra["false_pass"] is None
        assert played["final_state_pass"] is True and played["false_pass"] is False
        _assert_only_the_infra_error(infra)
    xml = junit.read_text(encoding="utf-8")
    assert 'name="false_pass" value=""' in xml and 'name="failure_type" value=""' in xml
    assert 'message="infra_error: RateLimitError' in xml
    page = (tmp_path / "r.html").read_text(encoding="utf-8")
    shown = _by_task(_embedded(page)["report"]["sessions"])["balance_enquiry-001"]
    _assert_only_the_infra_error(shown)
    markdown = (tmp_path / "s.md").read_text(encoding="utf-8")
    assert "| infra_error | RateLimitError" in markdown
    assert "ended_with_error" not in markdown.split("failure type |")[-1].split("\n\n")[0]
    assert main(["compare", str(report), str(report)]) == 0
    assert main(["render", str(report), "--html", str(tmp_path / "again.html")]) == 0

    regraded = tmp_path / "regraded.json"
    again = run_bench(
        pytester,
        "--bank-regrade",
        str(traces / "traces.jsonl"),
        *TASKS,
        "--bank-report",
        str(regraded),
    )
    again.assert_outcomes(passed=1, failed=1)
    infra = _by_task(load_report(regraded)["sessions"])["balance_enquiry-001"]
    assert infra["final_state_pass"] is None and infra["false_pass"] is None
    _assert_only_the_infra_error(infra)

    monkeypatch.setenv("FAKE_MODE", "gold")
    resumed = run_bench(pytester, *model, "--bank-resume", str(report))
    resumed.assert_outcomes(passed=1)
    sessions = load_report(report)["sessions"]
    assert [s["final_state_pass"] for s in sessions] == [True, True]
