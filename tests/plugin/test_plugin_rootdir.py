"""A --bank-* value given as a separate argument never moves the rootdir (plugin/rootdir.py).

pytest reads its configuration before it knows the plugin's options: an existing path outside
the project, as in `--bank-summary-md "$GITHUB_STEP_SUMMARY"` or `--bank-tasks /abs/file`, was
read as a test path and rooted the run there, without the project's configuration (issue 18).
"""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest

import pytest_bankbench
from pytest_bankbench.tasks.loader import shipped_tasks
from tests.plugin.helpers import run_bench

README = Path(pytest_bankbench.__file__).parent.parent / "README.md"
# The project's own configuration: its addopts select one task, its marker must stay declared.
PROJECT_INI = """
[pytest]
addopts = -k fd_closure-001
markers = ours: a marker of the project
"""


@pytest.fixture
def project(pytester: pytest.Pytester) -> pytest.Pytester:
    pytester.makefile(".ini", pytest=PROJECT_INI)
    return pytester


@pytest.fixture
def outside(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder outside the project, as a CI runner's step summary or a shared task file."""
    return tmp_path_factory.mktemp("elsewhere")


def _header(project: pytest.Pytester) -> list[str]:
    return [f"rootdir: {project.path}", "configfile: pytest.ini"]


def _task_file(folder: Path) -> Path:
    path = folder / "my_tasks.jsonl"
    chosen = [t for t in shipped_tasks() if t.task_id in ("fd_closure-001", "fd_closure-002")]
    path.write_text("".join(t.to_line() + "\n" for t in chosen), encoding="utf-8")
    return path


@pytest.mark.parametrize("option", ["--bank-summary-md", "--bank-tasks", "--bank-report"])
def test_an_absolute_path_outside_keeps_the_project_configuration(
    project: pytest.Pytester, outside: Path, option: str
) -> None:
    value = _task_file(outside) if option == "--bank-tasks" else outside / "existing.md"
    value.touch()
    result = run_bench(project, "--bank-model", "gold", option, str(value))
    result.stdout.fnmatch_lines(_header(project))
    result.assert_outcomes(passed=1)  # the project's -k
    markers = run_bench(project, "--markers", "--bank-model", "gold", option, str(value))
    markers.stdout.fnmatch_lines(["@pytest.mark.ours: a marker of the project"])


def _readme_ci_line() -> list[str]:
    """The command of the README's "Gating a release in CI", as a shell splits it."""
    text = README.read_text(encoding="utf-8")
    block = text.split("### Gating a release in CI", 1)[1].split("\n\n", 2)[1]
    return shlex.split(block.replace("\\\n", " "))


def test_the_readme_ci_line_keeps_the_project_configuration(
    project: pytest.Pytester, outside: Path
) -> None:
    """Under xdist, where each worker reads the command line again. The baseline is outside too,
    as one downloaded from an artifact store (a path inside the project happened to lead pytest
    back to the project's configuration)."""
    summary = outside / "step_summary"  # $GITHUB_STEP_SUMMARY exists before the step runs
    summary.touch()
    baseline = outside / "main.json"
    given = {
        "$CANDIDATE": "gold",
        "16": "2",
        "reports/main.json": str(baseline),
        "$GITHUB_STEP_SUMMARY": str(summary),
    }
    command = [given.get(arg, arg) for arg in _readme_ci_line()]
    assert command[0] == "pytest" and {str(summary), str(baseline)} <= set(command)
    run_bench(project, "--bank-model", "gold", f"--bank-report={baseline}")
    result = project.runpytest_subprocess("-p", "no:cacheprovider", *command[1:])
    result.stdout.fnmatch_lines(_header(project))
    result.assert_outcomes(passed=1)
    assert result.ret == pytest.ExitCode.OK
    assert "pass^1" in summary.read_text(encoding="utf-8")
