"""A benchmark run from this repository's checkout is a user's run: the project's dev settings
(pyproject.toml's pytest section, the root conftest.py) do not change it (issue 18)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import pytest_bankbench
from tests.plugin.test_plugin_idle import COLLECT_ONLY, SESSION_MODULES

ROOT = Path(pytest_bankbench.__file__).parent.parent
FAILING = ("--bank-model", "claim-done", "--tb=no", "-k", "fd_closure-001 or fd_closure-002")


@pytest.fixture
def checkout(pytester: pytest.Pytester) -> pytest.Pytester:
    """A project with this repository's pyproject.toml (its pytest section and all)."""
    (pytester.path / "pyproject.toml").write_text(
        (ROOT / "pyproject.toml").read_text(encoding="utf-8"), encoding="utf-8"
    )
    return pytester


def test_last_failed_works_from_the_checkout(checkout: pytest.Pytester) -> None:
    checkout.runpytest(*FAILING).assert_outcomes(failed=2)
    again = checkout.runpytest("--bank-model", "claim-done", "--tb=no", "--lf")
    again.stdout.fnmatch_lines(["run-last-failure: rerun previous 2 failures*"])
    assert again.parseoutcomes()["failed"] == 2


def test_stepwise_works_from_the_checkout(checkout: pytest.Pytester) -> None:
    checkout.runpytest(*FAILING, "--sw").assert_outcomes(failed=1)  # stops at the first
    # The next --sw run starts at the test that failed (passed ones before it are skipped).
    again = checkout.runpytest(*FAILING, "--sw")
    again.stdout.fnmatch_lines(["stepwise: *"])
    again.assert_outcomes(failed=1)


def test_the_header_names_no_test_path_the_benchmark_replaces(checkout: pytest.Pytester) -> None:
    checkout.mkdir("tests")
    (checkout.path / "tests" / "test_own.py").write_text("def test_own():\n    pass\n")
    result = checkout.runpytest(
        "-p", "no:cacheprovider", "--bank-model", "gold", "-k", "fd_closure-001 or own"
    )
    result.assert_outcomes(passed=1)  # the benchmark's; tests/ is not collected
    assert [line for line in result.outlines if line.startswith("testpaths:")] == []
    result.stdout.fnmatch_lines(["bankbench: the benchmark's tests replace testpaths (tests)"])


def test_a_benchmark_run_from_the_checkout_imports_nothing_a_session_needs(
    pytester: pytest.Pytester,
) -> None:
    """The root conftest.py imports the package only when the project's own tests run."""
    script = pytester.makepyfile(collect=COLLECT_ONLY.format(modules=SESSION_MODULES))
    ran = subprocess.run(
        [sys.executable, str(script), "--bank-model", "gold", "-k", "fd_closure-001"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert ran.stdout.splitlines()[-2:] == ["exit 0", "imported []"], ran.stdout + ran.stderr
