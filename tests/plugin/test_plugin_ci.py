"""CI use: the gate decides the exit status, a baseline catches regressions, Markdown and HTML."""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_bankbench.tasks.generate import TASKS_PER_FAMILY
from tests.plugin.helpers import run_bench


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
