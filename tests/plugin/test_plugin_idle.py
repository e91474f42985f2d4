"""Without --bank-model the plugin adds nothing to a run; its options are documented."""

from __future__ import annotations

import sys

import pytest

from pytest_bankbench.tasks.loader import select, shipped_tasks
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


# What only a played session needs: the bank, scoring, the agents and customers, litellm.
SESSION_MODULES = (
    "pytest_bankbench.bank.store",
    "pytest_bankbench.scoring.scorer",
    "pytest_bankbench.simulation.session",
    "pytest_bankbench.simulation.agents",
    "pytest_bankbench.run.play",
    "pytest_bankbench.models.local",
    "litellm",
)
COLLECT_ONLY = """
import sys, pytest
code = pytest.main(["-p", "no:cacheprovider", "-q", "--collect-only", *sys.argv[1:]])
print("exit", int(code))
print("imported", sorted(m for m in {modules!r} if m in sys.modules))
"""


@pytest.mark.parametrize("model", ["gold", "openai/some-model"])
def test_collecting_the_benchmark_imports_nothing_a_session_needs(
    pytester: pytest.Pytester, model: str
) -> None:
    """--collect-only and the xdist controller only collect: the bank, scoring and the agents
    stay unimported (they are most of a collection's cost)."""
    script = pytester.makepyfile(collect=COLLECT_ONLY.format(modules=SESSION_MODULES))
    # A fresh interpreter: this one has imported everything already.
    ran = pytester.run(sys.executable, str(script), "--bank-model", model)
    base = len(select(shipped_tasks(), "base"))
    ran.stdout.fnmatch_lines([f"*{base} tests collected*", "exit 0", "imported []"])
