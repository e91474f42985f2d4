"""CI use: the gate decides the exit status, a baseline catches regressions, Markdown and HTML."""

from __future__ import annotations

import re
from fnmatch import fnmatch
from pathlib import Path
from xml.etree import ElementTree

import pytest

from pytest_bankbench.authoring.generate import TASKS_PER_FAMILY
from pytest_bankbench.money import PAISE_FIELDS
from pytest_bankbench.scoring.scorer import FAILURE_CHECKS
from tests.plugin.helpers import load_report, run_bench, selected


def test_gate_that_holds_makes_a_failing_run_succeed(pytester: pytest.Pytester) -> None:
    result = run_bench(
        pytester,
        "--bank-model",
        "lookup-only",
        "-k",
        "rd_opening",
        "--tb=no",
        "--bank-gate",
        "pass^1>=0.0, false_pass<=0.05",
    )
    result.assert_outcomes(failed=TASKS_PER_FAMILY)
    assert result.ret == pytest.ExitCode.OK
    result.stdout.fnmatch_lines(["gate: PASSED*", "*pass^1 = 0.00 >= 0.00: ok*"])


def test_gate_that_fails_makes_a_passing_run_fail(pytester: pytest.Pytester) -> None:
    result = run_bench(
        pytester, "--bank-model", "gold", "-k", "rd_opening", "--bank-gate", "false_pass_count>=1"
    )
    result.assert_outcomes(passed=TASKS_PER_FAMILY)
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.stdout.fnmatch_lines(["gate: FAILED*", "*false_pass_count = 0 < 1: FAILED*"])


def test_bad_gate_is_a_usage_error(pytester: pytest.Pytester) -> None:
    result = run_bench(pytester, "--bank-model", "gold", "--bank-gate", "pass^1 ~ 0.5")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*--bank-gate: bad gate condition*"])


def test_a_gate_group_names_a_family(pytester: pytest.Pytester) -> None:
    result = run_bench(
        pytester,
        "--bank-model",
        "claim-done",
        "-k",
        "rd_opening or balance_enquiry",
        "--tb=no",
        "--bank-gate",
        "pass^1[rd_opening]>=0.5",
    )
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    assert any("pass^1[rd_opening] = 0.00 < 0.50: FAILED" in line for line in result.outlines)
    typo = run_bench(pytester, "--bank-model", "gold", "--bank-gate", "pass^1[rd_openin]>=0.5")
    assert typo.ret == pytest.ExitCode.USAGE_ERROR
    typo.stderr.fnmatch_lines(["*unknown group 'rd_openin'*did you mean rd_opening?*"])


@pytest.mark.parametrize("workers", [(), ("-n", "2")], ids=["plain", "xdist"])
def test_a_gate_group_the_selection_left_empty_stops_the_run_at_once(
    pytester: pytest.Pytester, workers: tuple[str, ...], tmp_path: Path
) -> None:
    """`-k` kept no session of the gate's group: the gate could only fail, after the whole run
    ("no sessions in group"), so the run stops before its first session and writes no report."""
    report = tmp_path / "report.json"
    args = ("--bank-model", "gold", "--bank-report", str(report), *workers)
    gate = "pass^1>=0.5, pass^1[rd_opening]>=0.5"
    stopped = run_bench(pytester, *args, "-k", "balance_enquiry", "--bank-gate", gate)
    assert stopped.ret == pytest.ExitCode.USAGE_ERROR
    assert not report.exists()
    assert "passed" not in stopped.stdout.str()  # no session was played
    assert (
        f"--bank-gate {gate!r}: pass^1[rd_opening]: none of the selected sessions is in group "
        "'rd_opening', so nothing would be measured"
    ) in stopped.stdout.str() + stopped.stderr.str()
    kept = run_bench(pytester, *args, "-k", "balance_enquiry or rd_opening", "--bank-gate", gate)
    assert kept.ret == pytest.ExitCode.OK
    kept.assert_outcomes(passed=2 * TASKS_PER_FAMILY)
    assert report.exists()


def test_baseline_catches_a_significant_regression(
    pytester: pytest.Pytester, tmp_path: Path
) -> None:
    baseline = tmp_path / "baseline.json"
    run_bench(pytester, "--bank-model", "gold", "-k", "fd_closure", "--bank-report", str(baseline))
    result = run_bench(
        pytester,
        "--bank-model",
        "claim-done",
        "-k",
        "fd_closure",
        "--tb=no",
        "--bank-baseline",
        str(baseline),
        "--bank-summary-md",
        str(tmp_path / "summary.md"),
    )
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.stdout.fnmatch_lines(["gate: FAILED*", "*flipped to fail*"])
    markdown = (tmp_path / "summary.md").read_text()
    assert "pass^1" in markdown and "FAILED" in markdown
    # The failing sessions, each with its failure type (claim-done closes nothing).
    assert f"### Failing sessions ({selected('fd_closure')})" in markdown
    assert "| `sequencing-fd_closure-001` | stopped_short | missing c" in markdown


def test_baseline_against_itself_passes(pytester: pytest.Pytester, tmp_path: Path) -> None:
    baseline = tmp_path / "baseline.json"
    run_bench(
        pytester,
        "--bank-model",
        "lookup-only",
        "-k",
        "fd_closure",
        "--tb=no",
        "--bank-report",
        str(baseline),
    )
    result = run_bench(
        pytester,
        "--bank-model",
        "lookup-only",
        "-k",
        "fd_closure",
        "--tb=no",
        "--bank-baseline",
        str(baseline),
    )
    assert result.ret == pytest.ExitCode.OK
    result.stdout.fnmatch_lines(["gate: PASSED*"])


def test_html_report_is_written(pytester: pytest.Pytester, tmp_path: Path) -> None:
    html = tmp_path / "report.html"
    result = run_bench(
        pytester,
        "--bank-model",
        "write-everything",
        "-k",
        "fd_closure",
        "--tb=no",
        "--bank-html",
        str(html),
    )
    result.stdout.fnmatch_lines([f"HTML report: {html}"])
    text = html.read_text()
    assert "fd_closure-001" in text and "http://" not in text and "https://" not in text


# What CI reads (issue 18, item 3) ---------------------------------------------------------

LITE_FEW = ("--bank-split", "lite", "-k", "fd_rate_query or balance_enquiry")


@pytest.mark.parametrize("workers", [(), ("-n", "2")], ids=["plain", "xdist"])
def test_the_gates_verdict_is_the_last_line(
    pytester: pytest.Pytester, workers: tuple[str, ...]
) -> None:
    result = run_bench(
        pytester,
        "--bank-model",
        "claim-done",
        *LITE_FEW,
        *workers,
        "-rf",
        "--bank-gate",
        "pass^1>=0.0",
    )
    assert result.ret == pytest.ExitCode.OK
    lines = [line for line in result.outlines if line.strip()]
    assert fnmatch(lines[-2], "=* failed*")  # pytest's own stats line, then the verdict
    assert lines[-1] == (
        "bank benchmark gate: PASSED, exit status 0 (the gate decides, not individual test failures)"
    )
    failed = run_bench(
        pytester, "--bank-model", "gold", *LITE_FEW, *workers, "--bank-gate", "false_pass_count>=1"
    )
    assert failed.ret == pytest.ExitCode.TESTS_FAILED
    assert [line for line in failed.outlines if line.strip()][-1].startswith(
        "bank benchmark gate: FAILED, exit status 1 "
    )


# What Ctrl-C does to pytest's session (the same handler), without interrupting this process.
INTERRUPT_AFTER_ONE = """
import pytest


def pytest_runtest_teardown(item):
    pytest.exit("interrupted", returncode=pytest.ExitCode.INTERRUPTED)
"""


def test_a_gate_not_applied_says_so_once_and_why(pytester: pytest.Pytester) -> None:
    """User trial: after Ctrl-C the summary block said `gate: FAILED ... without a verdict` and
    the last line `not applied, the run did not finish`; with -k matching nothing the same,
    though that run finished with nothing selected. One verdict, the right reason."""
    gate = ("--bank-model", "gold", "--bank-gate", "pass^1>=0.9")
    md = pytester.path / "s.md"
    nothing = run_bench(pytester, *gate, "-k", "zzz_nothing", "--bank-summary-md", str(md))
    assert nothing.ret == pytest.ExitCode.NO_TESTS_COLLECTED
    reason = "not applied, no benchmark session was selected (exit status 5)"
    lines = [line for line in nothing.outlines if line.strip()]
    assert f"gate: {reason}" in lines and lines[-1] == f"bank benchmark gate: {reason}"
    assert "FAILED" not in nothing.stdout.str() and "did not finish" not in nothing.stdout.str()
    assert "**not applied**: no benchmark session was selected" in md.read_text()
    assert "FAILED" not in md.read_text()

    # A plugin, not a conftest: the benchmark's tests are not under the pytester folder.
    pytester.makepyfile(stop_after_one=INTERRUPT_AFTER_ONE)
    pytester.syspathinsert()
    stopped = run_bench(pytester, *gate, *LITE_FEW, "-p", "stop_after_one")
    assert stopped.ret == pytest.ExitCode.INTERRUPTED
    reason = "not applied, the run did not finish (exit status 2)"
    lines = [line for line in stopped.outlines if line.strip()]
    assert f"gate: {reason}" in lines and lines[-1] == f"bank benchmark gate: {reason}"
    assert "gate: FAILED" not in stopped.stdout.str()


def test_each_failed_test_names_its_failure_type_and_first_evidence(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    report = tmp_path / "report.json"
    for variable in ("CI", "BUILD_NUMBER"):
        monkeypatch.delenv(variable, raising=False)  # pytest shows whole lines on a CI
    narrow = run_bench(pytester, "--bank-model", "claim-done", *LITE_FEW, "-rf")
    narrow.stdout.no_fnmatch_line("FAILED * - pytest_bank*")
    monkeypatch.setenv("CI", "true")  # whole lines, as a CI log shows them
    result = run_bench(
        pytester, "--bank-model", "claim-done", *LITE_FEW, "-rf", "--bank-report", str(report)
    )
    sessions = load_report(report)["sessions"]
    assert sessions and all(not s["passed"] for s in sessions)
    expected = []
    for session in sessions:
        check = dict(FAILURE_CHECKS)[session["failure_type"]]
        first = session["evidence"][check][0].strip()
        test = f"bankbench::test_task[{session['category']}-{session['task_id']}]"
        expected.append(f"FAILED {test} - {session['failure_type']}: {first}")
    failed = [line for line in result.outlines if line.startswith("FAILED ")]
    assert sorted(failed) == sorted(expected)


def test_an_infrastructure_errors_line_names_what_the_provider_did(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    """User trial: it read `pytest_bankbench.e...` at 80 columns, and with CI set the class name
    twice (`pytest_bankbench.errors.InfraError: balance_enquiry-001: InfraError (...`)."""
    from tests.plugin.test_plugin_llm import CONFTEST

    pytester.makeconftest(CONFTEST)
    monkeypatch.setenv("FAKE_MODE", "ratelimit")  # each -001 task's calls are rate limited
    args = ("--bank-model", "openai/fake", "-k", "balance_enquiry-001", "-rf")
    few = (*args, "--bank-num-retries", "0", "--bank-retry-backoff", "0")
    for variable in ("CI", "BUILD_NUMBER"):
        monkeypatch.delenv(variable, raising=False)
    narrow = pytester.runpytest_subprocess("-p", "no:cacheprovider", *few)
    narrow.stdout.fnmatch_lines(["FAILED *balance_enquiry-001] - infra_error: Rate*"])
    monkeypatch.setenv("CI", "true")
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", *few)
    failed = [line for line in result.outlines if line.startswith("FAILED ")]
    assert failed == [
        "FAILED bankbench::test_task[control-balance_enquiry-001] - infra_error: "
        "RateLimitError: simulated (after 1 attempt)"
    ]


def test_junit_xml_names_the_family_and_carries_each_sessions_facts(
    pytester: pytest.Pytester, tmp_path: Path
) -> None:
    xml, report = tmp_path / "junit.xml", tmp_path / "report.json"
    result = run_bench(
        pytester,
        "--bank-model",
        "claim-done",
        *LITE_FEW,
        "-n",
        "2",
        "--tb=no",
        "--junitxml",
        str(xml),
        "--bank-report",
        str(report),
    )
    # Neither record_xml_attribute's experimental warning nor xunit2's incompatibility one.
    result.stdout.no_fnmatch_line("*PytestExperimentalApiWarning*")
    result.stdout.no_fnmatch_line("*incompatible with junit_family*")
    sessions = {
        f"test_task[{s['category']}-{s['task_id']}]": s for s in load_report(report)["sessions"]
    }
    cases = ElementTree.parse(xml).getroot().findall(".//testcase")
    assert sorted(case.get("name", "") for case in cases) == sorted(sessions)
    assert {case.get("classname") for case in cases} == {
        "bankbench.fd_rate_query",
        "bankbench.balance_enquiry",
    }
    for case in cases:
        session = sessions[case.get("name", "")]
        assert case.get("classname") == f"bankbench.{session['family']}"
        properties = {p.get("name"): p.get("value") for p in case.iter("property")}
        assert properties == {
            "family": session["family"],
            "category": session["category"],
            "service_area": session["service_area"],
            "trial": str(session["trial"]),
            "outcome": "scored",
            "failure_type": session["failure_type"],
            "false_pass": str(session["false_pass"]).lower(),
        }
        failure = case.find("failure")
        assert failure is not None
        assert failure.get("message", "").startswith(f"{session['failure_type']}: ")


# Money as a person reads it (issue 18, item 6) -------------------------------------------

# A paise field of a row diff printed as the bank stores it (`balance: 9564819 -> ...`).
FIELDS = "|".join(sorted(PAISE_FIELDS))
PAISE_IN_A_DIFF = re.compile(rf"\b(?:{FIELDS}): (?:None|-?\d+) -> (?:None|-?\d+)\b")
RUPEES = re.compile(r"Rs (?:\d{1,2},)*\d{1,3}\.\d{2}\b")


@pytest.mark.parametrize("model", ["claim-done", "silent"])
def test_every_output_shows_money_in_rupees(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, tmp_path: Path, model: str
) -> None:
    """claim-done leaves row diffs (the terminal's and JUnit's evidence), silent leaves amounts
    never told as its failure type (the short summary, JUnit's message, the Markdown list)."""
    monkeypatch.setenv("CI", "true")  # whole short-summary lines
    xml, markdown, report = tmp_path / "junit.xml", tmp_path / "s.md", tmp_path / "r.json"
    result = run_bench(
        pytester,
        "--bank-model",
        model,
        "--bank-split",
        "lite",
        "-k",
        "fd_closure-",
        "-rf",
        "--junitxml",
        str(xml),
        "--bank-summary-md",
        str(markdown),
        "--bank-report",
        str(report),
    )
    terminal = "\n".join(result.outlines)
    cases = ElementTree.parse(xml).getroot().findall(".//testcase")
    failures = [case.find("failure") for case in cases]
    messages = "\n".join(f.get("message", "") for f in failures if f is not None)
    junit = "\n".join(f.text or "" for f in failures if f is not None)
    summary = [line for line in result.outlines if line.startswith("FAILED ")]
    evidence = [
        line for s in load_report(report)["sessions"] for lines in s["evidence"].values()
        for line in lines
    ]  # fmt: skip
    shown = {"terminal": terminal, "JUnit": junit + messages, "Markdown": markdown.read_text()}
    shown["JSON evidence"] = "\n".join(evidence)
    for name, text in shown.items():
        assert not PAISE_IN_A_DIFF.search(text), name
    if model == "claim-done":  # the gold's closure: balance, payout and credit in rupees
        diffs = [line for line in evidence if line.startswith("- expected ")]
        assert diffs and all(RUPEES.search(line) for line in diffs)
        assert all(line.strip() in terminal and line.strip() in junit for line in diffs)
    else:
        untold = [line for line in summary if " - missing_output: never told " in line]
        assert untold and all(RUPEES.search(line) for line in untold)
        for line in untold:
            first = line.partition(" - ")[2]
            assert first in messages and first.partition(": ")[2] in shown["Markdown"]
