"""Project test configuration: pytester drives the plugin end to end."""

from __future__ import annotations

import importlib
import pkgutil

import pytest

import pytest_bankbench

pytest_plugins = ["pytester"]

# pytester's in-process runs drop the modules first imported during a run; a module imported
# again would define its classes twice (a pydantic model then rejects its own twin). Importing
# the whole package up front keeps one copy of every module for the session.
for _module in pkgutil.walk_packages(pytest_bankbench.__path__, "pytest_bankbench."):
    if _module.name not in ("pytest_bankbench.__main__",):
        importlib.import_module(_module.name)


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
