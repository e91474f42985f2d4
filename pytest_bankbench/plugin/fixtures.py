"""Fixtures of the benchmark tests, registered as a plugin so a conftest.py can override them.

None of them asks for pytest's `request` except the session-scoped `bank_run`: pytest makes a
new fixture definition each time a test or fixture asks for `request` (~0.1 ms each).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from pytest_bankbench.bank.store import Bank
    from pytest_bankbench.plugin.bench import BankBench
    from pytest_bankbench.run.cases import BankCase
    from pytest_bankbench.simulation.agents import Agent
    from pytest_bankbench.simulation.customer import Customer

Completion = Callable[..., Any] | None


@pytest.fixture(scope="session")
def bank_run(request: pytest.FixtureRequest) -> BankBench:
    """This process's benchmark run: its settings, its sessions played so far, its parties."""
    from pytest_bankbench.plugin.bench import active_run

    return active_run(request.config)


@pytest.fixture
def bank(bank_case: BankCase) -> Iterator[Bank]:
    """A freshly seeded bank, logged in as the task's customer on the task's date."""
    from pytest_bankbench.bank.store import Bank

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


@pytest.fixture
def bank_customer(
    bank_case: BankCase, bank_user_completion: Completion, bank_run: BankBench
) -> Customer:
    """The customer simulator for the task (scripted, or a model given by --bank-user-model)."""
    ahead = bank_run.played_ahead(bank_case)
    if ahead is not None:
        return ahead
    return bank_run.make_customer(bank_case, bank_user_completion)


@pytest.fixture
def bank_agent(bank_case: BankCase, bank_completion: Completion, bank_run: BankBench) -> Agent:
    """The agent under test: a built-in or a model (--bank-model), or your own (--bank-agent
    module:factory). Overriding this fixture in a conftest.py is the other way to plug in an
    agent: return any object with a `name` and `act(events) -> AgentAction`."""
    ahead = bank_run.played_ahead(bank_case)
    if ahead is not None:
        return ahead
    return bank_run.make_agent(bank_case, bank_completion)
