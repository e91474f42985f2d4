"""The pytest11 entry point: options only; the benchmark loads when --bank-model is given.

Everything that imports pytest lives in this package (options, the run's hooks, fixtures, the
benchmark's test module, --bank-concurrency's look-ahead); the run core below it (run/) is
pytest-free. Every pytest run in an environment with the package imports this module, so it
imports nothing heavy (no task files, no litellm, no pydantic) until a hook needs it, and a run
without --bank-model or --bank-regrade sees nothing of it but its options in `--help`: no
marker, no fixture, no header line (issue 18).
"""

from __future__ import annotations

import pytest

from pytest_bankbench.plugin.options import OPTION_PREFIX, add_options, read_options


def pytest_addoption(parser: pytest.Parser) -> None:
    add_options(parser)


@pytest.hookimpl(tryfirst=True)
def pytest_load_initial_conftests(
    early_config: pytest.Config, parser: pytest.Parser, args: list[str]
) -> None:
    # pytest read the configuration before it knew these options (plugin/rootdir.py).
    if any(arg.startswith(OPTION_PREFIX) and "=" not in arg for arg in args):
        from pytest_bankbench.plugin.rootdir import redetermine_setup

        redetermine_setup(early_config, parser, args)


def pytest_configure(config: pytest.Config) -> None:
    options = read_options(config)
    if options is None:
        return
    from pytest_bankbench.plugin import fixtures
    from pytest_bankbench.plugin.bench import PLUGIN_NAME, BankBench
    from pytest_bankbench.vocabulary import MARKERS

    # Only the benchmark's tests carry these (-m loans): a host project's undeclared
    # @pytest.mark.cards must still fail its --strict-markers run.
    for name, text in MARKERS.items():
        config.addinivalue_line("markers", f"{name}: {text}")
    config.pluginmanager.register(BankBench(config, options), PLUGIN_NAME)
    config.pluginmanager.register(fixtures, "bankbench-fixtures")
