"""The benchmark's test module: one parametrized test per (task, trial).

Its fixtures live in pytest_bankbench.plugin.fixtures (a plugin), so a user's conftest.py can override
them; importing them here would make them module fixtures, which win over conftest ones.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pytest_bankbench.bank.store import Bank
    from pytest_bankbench.plugin.bench import BankBench
    from pytest_bankbench.run.cases import BankCase
    from pytest_bankbench.simulation.agents import Agent
    from pytest_bankbench.simulation.customer import Customer


def test_task(
    bank_case: BankCase, bank: Bank, bank_customer: Customer, bank_agent: Agent, bank_run: BankBench
) -> None:
    bank_run.play(bank_case, bank, bank_agent, bank_customer)
