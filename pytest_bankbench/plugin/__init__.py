"""The pytest11 entry point: options only; the benchmark loads when --bank-model is given.

Everything that imports pytest lives in this package (options, the run's hooks, fixtures, the
benchmark's test module, --bank-concurrency's look-ahead); the run core below it (run/) is
pytest-free. Every pytest run in an environment with the package imports this module, so it
imports nothing heavy (no task files, no litellm, no pydantic) until a hook needs it.
"""

from __future__ import annotations

import pytest

from pytest_bankbench.plugin.options import add_options, read_options
from pytest_bankbench.vocabulary import MARKERS


def pytest_addoption(parser: pytest.Parser) -> None:
    add_options(parser)


def pytest_configure(config: pytest.Config) -> None:
    for name, text in MARKERS.items():
        config.addinivalue_line("markers", f"{name}: {text}")
    options = read_options(config)
    if options is None:
        return
    from pytest_bankbench.plugin import fixtures
    from pytest_bankbench.plugin.bench import PLUGIN_NAME, BankBench

    config.pluginmanager.register(BankBench(config, options), PLUGIN_NAME)
    config.pluginmanager.register(fixtures, "bankbench-fixtures")
