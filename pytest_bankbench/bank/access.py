"""Record look-ups scoped to the logged-in customer: another customer's record is refused."""

from __future__ import annotations

import sqlite3
from datetime import date

from pytest_bankbench.bank import rules
from pytest_bankbench.bank.errors import InsufficientFunds, NotFound, NotYourRecord, RuleViolation
from pytest_bankbench.bank.store import Bank


def owned(bank: Bank, table: str, key: str, value: str, label: str) -> sqlite3.Row:
    """The row with `key = value`, if it belongs to the session's customer."""
    row = bank.one(f"SELECT * FROM {table} WHERE {key} = ?", value)
    if row is None:
        raise NotFound(
            f"no {label} {value!r} exists; use the list tools to see this customer's {label}s"
        )
    if row["customer_id"] != bank.customer_id:
        raise NotYourRecord(
            f"{label} {value!r} does not belong to the logged-in customer; "
            "you may act only on the customer's own records"
        )
    return row


def account(bank: Bank, number: str) -> sqlite3.Row:
    return owned(bank, "accounts", "account_number", number, "account")


def customer(bank: Bank) -> sqlite3.Row:
    row = bank.one("SELECT * FROM customers WHERE customer_id = ?", bank.customer_id)
    assert row is not None, "the session's customer exists in the seed"
    return row


def is_senior(bank: Bank, on: date | None = None) -> bool:
    """Senior citizen on a date (today by default; a deposit's booking date for its rate)."""
    born = date.fromisoformat(customer(bank)["date_of_birth"])
    return rules.age_on(born, on or bank.today) >= rules.SENIOR_AGE


def debit_account(bank: Bank, number: str, amount: int) -> sqlite3.Row:
    """An own account that may be debited `amount` paise now."""
    row = account(bank, number)
    if row["status"] != "active":
        # KB 10: a dormant account is reactivated with fresh KYC; a frozen one stays blocked
        # as the order that froze it says, so the advice differs.
        remedy = (
            "is reactivated with fresh KYC at a branch"
            if row["status"] == "dormant"
            else "the order under which it is frozen is lifted"
        )
        raise RuleViolation(
            f"account {number} is {row['status']}: no debits are allowed until {remedy}"
        )
    available = int(row["balance"]) - int(row["hold_amount"])
    if amount > available:
        raise InsufficientFunds(
            f"account {number} has an available balance of Rs "
            f"{available / 100:.2f}; the debit of Rs {amount / 100:.2f} "
            "exceeds it"
        )
    return row


def post(
    bank: Bank,
    number: str,
    amount: int,
    direction: str,
    channel: str,
    description: str,
    counterparty: str | None = None,
) -> int:
    """Debit or credit an account and record the transaction; returns the new balance."""
    row = account(bank, number)
    balance = int(row["balance"]) + (amount if direction == "credit" else -amount)
    bank.execute("UPDATE accounts SET balance = ? WHERE account_number = ?", balance, number)
    bank.insert(
        "transactions",
        txn_id=bank.next_id("TXN"),
        account_number=number,
        txn_date=bank.today.isoformat(),
        amount=amount,
        direction=direction,
        channel=channel,
        description=description,
        counterparty=counterparty,
        balance_after=balance,
    )
    return balance
