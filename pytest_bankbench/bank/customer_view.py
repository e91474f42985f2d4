"""A seeded customer's records as the agent's own tools show them, for task authors
(`python -m pytest_bankbench customer CUST00905`)."""

from __future__ import annotations

import json
from datetime import date

from pytest_bankbench.bank.facts import Entity, shown
from pytest_bankbench.bank.registry import Result, get_tool
from pytest_bankbench.bank.store import DEFAULT_SEED, Bank
from pytest_bankbench.errors import BankBenchError

# The read tools that take no argument: together they show every record a task can be about,
# with the ids its gold calls name (account numbers, deposit, loan, card and beneficiary ids).
VIEW_TOOLS = (
    "get_customer_profile",
    "list_accounts",
    "list_deposits",
    "list_loans",
    "list_cards",
    "list_beneficiaries",
    "get_service_requests",
)
# The first day the generated tasks are dated (authoring/generate.py FIRST_DAY): a task dated
# another day sees the same records, with ages, maturities and cooling periods on that day.
DEFAULT_DAY = date(2026, 4, 1)


class UnknownCustomer(BankBenchError, LookupError):
    """A customer id the seeded bank does not hold."""


def customer_problem(bank: Bank) -> str | None:
    """Why the bank's customer is not one of the seed's, or None when it is."""
    if bank.one("SELECT 1 FROM customers WHERE customer_id = ?", bank.customer_id):
        return None
    span = bank.one("SELECT MIN(customer_id) AS lo, MAX(customer_id) AS hi FROM customers")
    assert span is not None
    return (
        f"no customer {bank.customer_id!r} in the bank seeded with {bank.seed}; "
        f"customer ids run {span['lo']}-{span['hi']}"
    )


def customer_records(
    customer_id: str, today: date = DEFAULT_DAY, seed: int = DEFAULT_SEED
) -> dict[str, Result]:
    """Each view tool's result for the customer, logged in on `today`, by tool name."""
    with Bank(customer_id, today, seed) as bank:
        if (problem := customer_problem(bank)) is not None:
            raise UnknownCustomer(problem)
        return {name: get_tool(name).invoke(bank, {}) for name in VIEW_TOOLS}


def held_records(bank: Bank) -> dict[Entity, set[str]]:
    """The keys of the customer's records by entity, as the view tools show them (upper case,
    as bank/facts.py compares keys)."""
    held: dict[Entity, set[str]] = {}
    for name in VIEW_TOOLS:
        spec = get_tool(name)
        for record in shown(spec.reveals, {}, spec.invoke(bank, {}), bank.customer_id):
            held.setdefault(record.entity, set()).add(record.key)
    return held


def render(customer_id: str, today: date, seed: int, records: dict[str, Result]) -> list[str]:
    """The records as text: one heading per tool call, then its result as the agent reads it."""
    lines = [f"customer {customer_id} on {today.isoformat()} (bank seed {seed})"]
    for name, result in records.items():
        lines += ["", f"== {name}() ==", json.dumps(result, indent=2, ensure_ascii=False)]
    return lines
