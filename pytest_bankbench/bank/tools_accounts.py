"""Account tools: the customer's profile, accounts, balances and recent transactions."""

from __future__ import annotations

from datetime import date
from typing import Annotated

from pydantic import Field

from pytest_bankbench.bank import access, rules
from pytest_bankbench.bank.facts import Reveal
from pytest_bankbench.bank.registry import AccountNumber, Result, tool
from pytest_bankbench.bank.store import Bank
from pytest_bankbench.money import plain


@tool(
    "read",
    reveals=(
        Reveal(
            "customer",
            "customer_id",
            (
                "name",
                "date_of_birth",
                "age",
                "senior_citizen",
                "city",
                "phone",
                "email",
                "address",
                "kyc_status",
                "pan_on_file",
                "home_branch",
            ),
        ),
    ),
)
def get_customer_profile(bank: Bank) -> Result:
    """Profile of the logged-in customer: name, date of birth, age, senior-citizen status, contact details, KYC status and home branch."""
    row = access.customer(bank)
    born = date.fromisoformat(row["date_of_birth"])
    return {
        "customer_id": row["customer_id"],
        "name": row["name"],
        "date_of_birth": row["date_of_birth"],
        "age": rules.age_on(born, bank.today),
        "senior_citizen": access.is_senior(bank),
        "city": row["city"],
        "phone": row["phone"],
        "email": row["email"],
        "address": row["address"],
        "kyc_status": row["kyc_status"],
        "pan_on_file": bool(row["pan_on_file"]),
        "home_branch": row["home_branch"],
        "today": bank.today.isoformat(),
    }


@tool(
    "read",
    reveals=(
        Reveal(
            "account",
            "account_number",
            (
                "account_type",
                "status",
                "ifsc",
                "branch",
                "balance",
                "available_balance",
                "hold_amount",
                "nominee",
                "cheque_books",
                "cheques_paid_or_stopped",
            ),
            at="accounts",
        ),
    ),
)
def list_accounts(bank: Bank) -> Result:
    """The customer's savings and current accounts with balance, status, IFSC, nominee, cheque book leaves and cheques already paid or stopped."""
    accounts = []
    for row in bank.all(
        "SELECT * FROM accounts WHERE customer_id = ? ORDER BY account_number", bank.customer_id
    ):
        nominee = bank.one(
            "SELECT name, relation FROM nominees WHERE record_id = ?", row["account_number"]
        )
        books = bank.all(
            "SELECT first_leaf, last_leaf FROM cheque_books WHERE account_number = ?",
            row["account_number"],
        )
        presented = bank.all(
            "SELECT cheque_number, status FROM cheques WHERE account_number = ? "
            "ORDER BY cheque_number",
            row["account_number"],
        )
        accounts.append(
            {
                "account_number": row["account_number"],
                "account_type": row["account_type"],
                "status": row["status"],
                "ifsc": row["ifsc"],
                "branch": row["branch"],
                "balance": plain(row["balance"]),
                "available_balance": plain(row["balance"] - row["hold_amount"]),
                "hold_amount": plain(row["hold_amount"]),
                "nominee": dict(nominee) if nominee else None,
                "cheque_books": [f"{b['first_leaf']}-{b['last_leaf']}" for b in books],
                "cheques_paid_or_stopped": {
                    str(c["cheque_number"]): c["status"] for c in presented
                },
            }
        )
    return {"accounts": accounts}


@tool(
    "read",
    reveals=(
        Reveal(
            "account", "account_number", ("status", "balance", "hold_amount", "available_balance")
        ),
    ),
)
def get_account_balance(bank: Bank, account_number: AccountNumber) -> Result:
    """Current balance, holds and available balance of one of the customer's accounts."""
    row = access.account(bank, account_number)
    return {
        "account_number": account_number,
        "status": row["status"],
        "balance": plain(row["balance"]),
        "hold_amount": plain(row["hold_amount"]),
        "available_balance": plain(row["balance"] - row["hold_amount"]),
        "as_of": bank.today.isoformat(),
    }


@tool("read", reveals=(Reveal("account", "account_number", ("transactions",)),))
def get_recent_transactions(
    bank: Bank,
    account_number: AccountNumber,
    count: Annotated[int, Field(ge=1, le=50, description="how many, newest first")] = 10,
) -> Result:
    """The most recent transactions of one of the customer's accounts, newest first."""
    access.account(bank, account_number)
    rows = bank.all(
        "SELECT * FROM transactions WHERE account_number = ? "
        "ORDER BY txn_date DESC, txn_id DESC LIMIT ?",
        account_number,
        count,
    )
    return {
        "account_number": account_number,
        "transactions": [
            {
                "date": r["txn_date"],
                "description": r["description"],
                "direction": r["direction"],
                "amount": plain(r["amount"]),
                "balance_after": plain(r["balance_after"]),
            }
            for r in rows
        ],
    }
