"""Helpers for the bank tests: find customers and records by querying a seeded bank, call tools,
expect refusals, and describe expected row changes.

Nothing here hard-codes a customer or record id: every test asks for "a customer such that ..."
(a SQL condition over `customers c`) and then looks its records up in the bank it opened.
"""

from __future__ import annotations

import importlib
import inspect
import sqlite3
from collections import Counter
from datetime import date
from decimal import Decimal
from typing import Any, Protocol

import pytest

from pytest_bankbench.bank.diff import ChangeSet, JsonScalar
from pytest_bankbench.bank.errors import ToolError
from pytest_bankbench.bank.registry import Result, all_tools, get_tool
from pytest_bankbench.bank.schema import TABLE_BY_NAME
from pytest_bankbench.bank.store import Bank

TODAY = date(2026, 5, 15)
MISSING_ID = "NO-SUCH-RECORD-0000"

# One row change in a comparable form: (table, op, key, ((field, before, after), ...)).
Change = tuple[str, str, str, tuple[tuple[str, JsonScalar, JsonScalar], ...]]


class OpenBank(Protocol):
    """Open a bank for the first customer (by id) matching a SQL condition over `customers c`."""

    def __call__(self, condition: str, *params: object, skip: int = 0) -> Bank: ...


# -- finding customers and records ------------------------------------------------------------


def find_customer(probe: Bank, condition: str, *params: object, skip: int = 0) -> str:
    """Id of the (skip+1)-th customer, by id, for whom the SQL condition over `c` holds."""
    row = probe.one(
        f"SELECT c.customer_id FROM customers c WHERE {condition} "
        "ORDER BY c.customer_id LIMIT 1 OFFSET ?",
        *params,
        skip,
    )
    if row is None:
        pytest.fail(f"no customer in the seed satisfies: {condition}")
    return str(row["customer_id"])


# Alias of each customer-owned table in the conditions given to has() and own().
ALIAS = {
    "accounts": "a",
    "beneficiaries": "b",
    "deposits": "d",
    "loans": "l",
    "cards": "k",
    "service_requests": "s",
    "nominees": "n",
}


def has(table: str, where: str = "1") -> str:
    """Condition over `c`: the customer owns a row of `table` (alias per ALIAS) where `where`."""
    alias = ALIAS[table]
    return (
        f"EXISTS (SELECT 1 FROM {table} {alias} WHERE {alias}.customer_id = c.customer_id "
        f"AND ({where}))"
    )


def own(bank: Bank, table: str, where: str = "1") -> sqlite3.Row:
    """The bank customer's first row of `table` (by key) where `where` (same alias as has())."""
    alias = ALIAS[table]
    key = TABLE_BY_NAME[table].key[0]
    return record(
        bank,
        f"SELECT {alias}.* FROM {table} {alias} WHERE {alias}.customer_id = ? "
        f"AND ({where}) ORDER BY {alias}.{key}",
        bank.customer_id,
    )


def funded(paise: int) -> str:
    """Condition over accounts `a`: active with at least `paise` available."""
    return f"a.status = 'active' AND a.balance - a.hold_amount >= {paise}"


def record(bank: Bank, sql: str, *params: object) -> sqlite3.Row:
    """The first row of a query that must find one."""
    row = bank.one(sql, *params)
    assert row is not None, f"expected a row for: {sql} {params}"
    return row


def other_customers(bank: Bank, table: str, key: str, where: str = "1") -> str:
    """The key of a record in `table` that belongs to a customer other than the bank's."""
    row = record(
        bank,
        f"SELECT {key} FROM {table} WHERE customer_id != ? AND {where} ORDER BY {key} LIMIT 1",
        bank.customer_id,
    )
    return str(row[key])


def other_account(bank: Bank) -> str:
    """An active, well-funded account of another customer."""
    return other_customers(
        bank, "accounts", "account_number", "status = 'active' AND balance - hold_amount > 5000000"
    )


# -- calling tools ----------------------------------------------------------------------------


def call(bank: Bank, name: str, /, **args: Any) -> Result:
    """Invoke a tool by name with keyword arguments."""
    return get_tool(name).invoke(bank, args)


def refuse(bank: Bank, name: str, args: dict[str, Any], error: type[ToolError]) -> ToolError:
    """Invoke a tool expecting exactly `error`; the records must be exactly as before the call."""
    before = bank.changes()
    with pytest.raises(ToolError) as info:
        get_tool(name).invoke(bank, args)
    exc = info.value
    assert type(exc) is error, f"{name} raised {type(exc).__name__}: {exc.message}"
    assert exc.code == error.code
    assert bank.changes() == before, "a refused call must not change any record"
    assert bank.changes().rows == before.rows
    return exc


def public_functions(module: str) -> list[str]:
    """Names of the public functions defined in pytest_bankbench.bank.<module>, sorted, found by
    inspecting the module (not through the registry, so a missing @tool shows)."""
    found = importlib.import_module(f"pytest_bankbench.bank.{module}")
    return sorted(
        name
        for name, obj in vars(found).items()
        if inspect.isfunction(obj) and obj.__module__ == found.__name__ and name[0] != "_"
    )


def tools_of(module: str) -> list[str]:
    """Names of the tools defined in pytest_bankbench.bank.<module>, sorted."""
    return sorted(
        name
        for name, spec in all_tools().items()
        if spec.func.__module__ == f"pytest_bankbench.bank.{module}"
    )


# -- money ------------------------------------------------------------------------------------


def rupees(paise: int) -> str:
    """Paise as the plain rupee string the tools return ('1234.50')."""
    return f"{Decimal(paise) / 100:.2f}"


# -- expected changes -------------------------------------------------------------------------


def as_counter(changes: ChangeSet) -> Counter[Change]:
    """A change set as a multiset of comparable row changes (fields sorted by name)."""
    return Counter(
        (
            row.table,
            row.op,
            row.key,
            tuple(sorted((f.field, f.before, f.after) for f in row.fields)),
        )
        for row in changes.rows
    )


def updated(table: str, key: str, **fields: tuple[JsonScalar, JsonScalar]) -> Change:
    """An expected update of the row `key`: field=(before, after) for every changed field."""
    return (
        table,
        "update",
        key,
        tuple(sorted((name, before, after) for name, (before, after) in fields.items())),
    )


def inserted(table: str, **values: JsonScalar) -> Change:
    """An expected inserted row; every column not given is expected to be NULL."""
    spec = TABLE_BY_NAME[table]
    unknown = set(values) - set(spec.column_names)
    assert not unknown, f"not columns of {table}: {unknown}"
    if spec.generated_key:
        key = "<new>"
        cols = [c for c in spec.column_names if c not in spec.key]
    else:
        key = "|".join(str(values[c]) for c in spec.key)
        cols = list(spec.column_names)
    return (table, "insert", key, tuple(sorted((c, None, values.get(c)) for c in cols)))


def txn(
    account: str,
    amount: int,
    direction: str,
    channel: str,
    description: str,
    balance_after: int,
    counterparty: str | None = None,
) -> Change:
    """An expected new row in `transactions`, dated today."""
    return inserted(
        "transactions",
        account_number=account,
        txn_date=TODAY.isoformat(),
        amount=amount,
        direction=direction,
        channel=channel,
        description=description,
        counterparty=counterparty,
        balance_after=balance_after,
    )


def assert_changes(bank: Bank, *expected: Change) -> None:
    """The bank's changes are exactly the expected row changes."""
    assert as_counter(bank.changes()) == Counter(expected)
