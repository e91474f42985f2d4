"""The benchmark's test module: one parametrized test per (task, trial), with its fixtures."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from pytest_bankbench.bank.store import Bank
from pytest_bankbench.bench_plugin import PLUGIN_KEY, RESULT_KEY, BankCase
from pytest_bankbench.runner import SessionResult, builtin_agent, expected_changes
from pytest_bankbench.scoring.failures import raise_for
from pytest_bankbench.scoring.scorer import score
from pytest_bankbench.simulation.agents import Agent
from pytest_bankbench.simulation.customer import Customer, ScriptedCustomer
from pytest_bankbench.simulation.session import run_session


@pytest.fixture
def bank(bank_case: BankCase) -> Iterator[Bank]:
    """A freshly seeded bank, logged in as the task's customer on the task's date."""
    task = bank_case.task
    with Bank(task.customer_id, task.task_date, task.bank_seed) as fresh:
        yield fresh


@pytest.fixture
def bank_customer(bank_case: BankCase) -> Customer:
    """The customer simulator for the task."""
    return ScriptedCustomer(bank_case.task)


@pytest.fixture
def bank_agent(bank_case: BankCase, request: pytest.FixtureRequest) -> Agent:
    """The agent under test."""
    options = request.config.stash[PLUGIN_KEY].options
    return builtin_agent(options.model, bank_case.task)


def test_task(
    bank_case: BankCase,
    bank: Bank,
    bank_customer: Customer,
    bank_agent: Agent,
    request: pytest.FixtureRequest,
) -> None:
    plugin = request.config.stash[PLUGIN_KEY]
    task = bank_case.task
    trace = run_session(
        task,
        bank_agent,
        bank_customer,
        bank,
        plugin.limits,
        trial=bank_case.trial,
        seed=bank_case.seed,
    )
    verdict = score(task, trace, expected_changes(task))
    request.node.stash[RESULT_KEY] = SessionResult(trace, verdict)
    raise_for(verdict)
