"""Without --bank-model the plugin adds nothing to a run (no marker, no cost); its options are
documented."""

from __future__ import annotations

import sys

import pytest

from pytest_bankbench.tasks.loader import select, shipped_tasks
from pytest_bankbench.vocabulary import MARKERS
from tests.plugin.helpers import run_bench

# All an idle run imports of the package: the entry module and the option declarations.
IDLE_MODULES = (
    "pytest_bankbench",
    "pytest_bankbench.plugin",
    "pytest_bankbench.plugin.options",
    "pytest_bankbench.vocabulary",
)


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


def test_markers_are_registered_for_the_benchmark(pytester: pytest.Pytester) -> None:
    result = run_bench(pytester, "--bank-model", "gold", "--markers")
    for marker in MARKERS:
        result.stdout.fnmatch_lines([f"@pytest.mark.{marker}:*"])


HOST_TEST = """
import pytest

@pytest.mark.cards
def test_host():
    pass
"""


def test_a_host_project_sees_no_marker(pytester: pytest.Pytester) -> None:
    """Installed in another project the plugin changes no outcome: an undeclared marker still
    fails --strict-markers, and `pytest --markers` lists the same markers (issue 18)."""
    pytester.makepyfile(test_host=HOST_TEST)
    for plugin in ((), ("-p", "no:bankbench")):
        # A process of its own: pytest.mark keeps the markers it has seen for the process.
        result = pytester.runpytest_subprocess(
            "-p", "no:cacheprovider", "--strict-markers", *plugin
        )
        result.assert_outcomes(errors=1)
        result.stdout.fnmatch_lines(["*'cards' not found in `markers` configuration option*"])
    with_plugin = run_bench(pytester, "--markers").outlines
    assert with_plugin == run_bench(pytester, "--markers", "-p", "no:bankbench").outlines
    assert not any(line.startswith("@pytest.mark.cards") for line in with_plugin)


IDLE_IMPORTS = """
import sys, pytest
code = pytest.main(["-p", "no:cacheprovider", "-q", *sys.argv[1:]])
print("exit", int(code))
print("imported", sorted(m for m in sys.modules if m.startswith("pytest_bankbench")))
"""


def test_an_idle_plugin_imports_only_its_entry_module(pytester: pytest.Pytester) -> None:
    """Without --bank-model the run costs the entry module and the option declarations."""
    pytester.makepyfile(test_host="def test_host():\n    pass\n")
    script = pytester.makepyfile(idle=IDLE_IMPORTS)
    ran = pytester.run(sys.executable, str(script), "test_host.py")
    ran.stdout.fnmatch_lines(["exit 0", f"imported {sorted(IDLE_MODULES)!r}"])


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
