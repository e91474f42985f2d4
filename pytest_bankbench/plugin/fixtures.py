"""Fixtures of the benchmark tests, registered as a plugin so a conftest.py can override them."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from pytest_bankbench.bank.store import Bank
from pytest_bankbench.plugin.bench import active_run
from pytest_bankbench.plugin.prefetch import PlayedAhead, prefetch_of
from pytest_bankbench.run.cases import BankCase
from pytest_bankbench.simulation.agents import Agent
from pytest_bankbench.simulation.customer import Customer

Completion = Callable[..., Any] | None


@pytest.fixture
def bank(bank_case: BankCase) -> Iterator[Bank]:
    """A freshly seeded bank, logged in as the task's customer on the task's date."""
    task = bank_case.task
    with Bank(task.customer_id, task.task_date, task.bank_seed) as fresh:
        yield fresh


@pytest.fixture
def bank_completion() -> Completion:
    """The agent model's completion function; None means litellm. Override it to test offline."""
    return None


@pytest.fixture
def bank_user_completion() -> Completion:
    """The customer model's completion function; None means litellm."""
    return None


def _played_ahead(bank_case: BankCase, request: pytest.FixtureRequest) -> PlayedAhead | None:
    """A stand-in when a background thread plays this test's session (--bank-concurrency)."""
    prefetch = prefetch_of(request.config)
    if prefetch is not None and prefetch.holds(request.node):
        return PlayedAhead(bank_case)
    return None


@pytest.fixture
def bank_customer(
    bank_case: BankCase, bank_user_completion: Completion, request: pytest.FixtureRequest
) -> Customer:
    """The customer simulator for the task (scripted, or a model given by --bank-user-model)."""
    ahead = _played_ahead(bank_case, request)
    if ahead is not None:
        return ahead
    return active_run(request.config).make_customer(bank_case, bank_user_completion)


@pytest.fixture
def bank_agent(
    bank_case: BankCase, bank_completion: Completion, request: pytest.FixtureRequest
) -> Agent:
    """The agent under test (built-in, or a model given by --bank-model)."""
    ahead = _played_ahead(bank_case, request)
    if ahead is not None:
        return ahead
    return active_run(request.config).make_agent(bank_case, bank_completion)
