"""Fixtures for the bank tests: a probe bank to find customers, and a factory of fresh banks.

The helpers the tests import live in bank_testkit.py (conftest modules are not for importing).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from pytest_bankbench.bank.store import Bank
from tests.bank.bank_testkit import TODAY, OpenBank, find_customer


@pytest.fixture(scope="session")
def probe() -> Iterator[Bank]:
    """A read-only seeded bank used only to find customers and other customers' records."""
    bank = Bank("", TODAY)
    yield bank
    bank.close()


@pytest.fixture
def open_bank(probe: Bank) -> Iterator[OpenBank]:
    """Factory: a fresh Bank(customer, 2026-05-15) for a customer matching a SQL condition.

    `open_bank("c.kyc_status = 'pending'")` opens the bank of the first such customer by id;
    `skip=n` takes the (n+1)-th. The condition may refer to `c`, the customers row.
    """
    opened: list[Bank] = []

    def _open(condition: str, *params: object, skip: int = 0) -> Bank:
        bank = Bank(find_customer(probe, condition, *params, skip=skip), TODAY)
        opened.append(bank)
        return bank

    yield _open
    for bank in opened:
        bank.close()
