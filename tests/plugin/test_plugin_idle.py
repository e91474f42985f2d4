"""Without --bank-model the plugin adds nothing to a run; its options are documented."""

from __future__ import annotations

import pytest

from tests.plugin.helpers import run_bench


def test_nothing_collected_without_bank_model(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_own="def test_own():\n    assert True\n")
    result = run_bench(pytester)
    result.assert_outcomes(passed=1)
    assert "bank benchmark summary" not in result.stdout.str()


def test_options_are_in_help(pytester: pytest.Pytester) -> None:
    result = run_bench(pytester, "--help")
    for option in (
        "--bank-model",
        "--bank-user-model",
        "--bank-split",
        "--bank-tasks",
        "--bank-trials",
        "--bank-max-steps",
        "--bank-max-errors",
        "--bank-report",
        "--bank-traces",
    ):
        result.stdout.fnmatch_lines([f"*{option}*"])


def test_markers_are_registered(pytester: pytest.Pytester) -> None:
    result = run_bench(pytester, "--markers")
    for marker in (
        "sequencing",
        "control",
        "edge_case",
        "rare_tool",
        "everyday",
        "deposits",
        "loans",
        "cards",
    ):
        result.stdout.fnmatch_lines([f"@pytest.mark.{marker}:*"])
