"""The wheel's contents as pyproject.toml declares them, and where the task data is found."""

from __future__ import annotations

import fnmatch
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest

import pytest_bankbench
from pytest_bankbench.paths import DATA_FOLDER, DataDirError, data_dir, locate

PACKAGE = Path(pytest_bankbench.__file__).parent
ROOT = PACKAGE.parent
DATA_PACKAGE = f"pytest_bankbench.{DATA_FOLDER}"


def _pyproject() -> dict[str, Any]:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def _setuptools() -> dict[str, Any]:
    section: dict[str, Any] = _pyproject()["tool"]["setuptools"]
    return section


def test_every_package_is_listed_for_the_wheel() -> None:
    on_disk = {
        ".".join(("pytest_bankbench", *init.parent.relative_to(PACKAGE).parts))
        for init in PACKAGE.rglob("__init__.py")
    }
    assert set(_setuptools()["packages"]) == on_disk | {DATA_PACKAGE}


def test_the_top_level_task_data_is_mapped_into_the_package() -> None:
    assert _setuptools()["package-dir"] == {DATA_PACKAGE: DATA_FOLDER}


def test_every_file_of_task_data_ships() -> None:
    patterns: list[str] = _setuptools()["package-data"][DATA_PACKAGE]
    top = ROOT / DATA_FOLDER
    files = [p.relative_to(top).as_posix() for p in top.rglob("*") if p.is_file()]
    left_out = [f for f in files if not any(fnmatch.fnmatch(f, p) for p in patterns)]
    assert left_out == []
    assert {"tasks.jsonl", "policy.md", "concepts.toml"} <= set(files)


def test_a_checkout_finds_the_top_level_folder() -> None:
    assert data_dir() == ROOT / DATA_FOLDER


def test_a_wheel_finds_the_folder_inside_the_package(tmp_path: Path) -> None:
    package = tmp_path / "site-packages" / "pytest_bankbench"
    for place in (package / DATA_FOLDER, package.parent / DATA_FOLDER):
        place.mkdir(parents=True)
        (place / "policy.md").write_text("policy", encoding="utf-8")
    # The package's own copy wins over a folder of the same name that happens to sit beside it.
    assert locate(package) == package / DATA_FOLDER


def test_missing_data_names_both_places(tmp_path: Path) -> None:
    package = tmp_path / "pytest_bankbench"
    with pytest.raises(DataDirError) as raised:
        locate(package)
    assert str(package / DATA_FOLDER) in str(raised.value)
    assert str(tmp_path / DATA_FOLDER) in str(raised.value)


def test_the_bankbench_console_script_mirrors_python_m() -> None:
    assert _pyproject()["project"]["scripts"] == {"bankbench": "pytest_bankbench.cli:console_main"}
    script = "from pytest_bankbench.cli import console_main; console_main()"
    for command, prog in (
        ([sys.executable, "-c", script, "--help"], "bankbench"),
        ([sys.executable, "-m", "pytest_bankbench", "--help"], "python -m pytest_bankbench"),
    ):
        ran = subprocess.run(command, capture_output=True, text=True, check=False)
        assert ran.returncode == 0, ran.stderr
        assert ran.stdout.startswith(f"usage: {prog} [-h]")
        assert "validate-tasks" in ran.stdout


def test_run_outputs_are_not_tracked() -> None:
    """The README writes reports to out/; pytest's cache (.pytest_cache/) stays out of git too."""
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    for path in ("out/report.json", "out/traces/traces.jsonl", ".pytest_cache/v/cache/lastfailed"):
        ran = subprocess.run(
            ["git", "-C", str(ROOT), "check-ignore", "--no-index", "-q", path], check=False
        )
        assert ran.returncode == 0, f"{path} is not ignored by .gitignore"


def test_the_projects_tests_without_the_dev_extra_say_which_extra_to_install(
    pytester: pytest.Pytester,
) -> None:
    """The root conftest.py reads the dev extra from pyproject.toml: a copy whose extra names a
    package that is not installed stands for a checkout installed without `[dev]`."""
    project = _pyproject()
    dev = project["project"]["optional-dependencies"]["dev"]
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    line = next(line for line in text.splitlines() if line.startswith("dev = ["))
    absent = "bankbench-no-such-package"
    pytester.makefile(".toml", pyproject=text.replace(line, f"dev = {[*dev, absent]!r}"))
    (pytester.path / "conftest.py").write_text((ROOT / "conftest.py").read_text("utf-8"), "utf-8")
    pytester.makepyfile(test_one="def test_one():\n    pass\n")
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    message = result.stderr.str()
    assert f"not installed: {absent}" in message and 'pip install -e ".[dev]"' in message
    # A benchmark run needs no dev package.
    bench = pytester.runpytest_subprocess(
        "-p", "no:cacheprovider", "--bank-model", "gold", "-k", "rd_opening-001"
    )
    bench.assert_outcomes(passed=1)
    # With the extra installed, the tests run.
    pytester.makefile(".toml", pyproject=text)
    pytester.runpytest_subprocess("-p", "no:cacheprovider", "test_one.py").assert_outcomes(passed=1)
