"""Account tools: every tool's happy path and every refusal it can raise."""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from typing import Any

import pytest

from pytest_bankbench.bank import rules
from pytest_bankbench.bank.errors import (
    InvalidArguments,
    UnknownTool,
)
from pytest_bankbench.bank.registry import get_tool
from tests.bank.bank_testkit import (
    TODAY,
    OpenBank,
    call,
    has,
    own,
    public_functions,
    record,
    rupees,
    tools_of,
)
from tests.bank.tool_cases import (
    refuse_spoiled,
)

TOOLS = tools_of("tools_accounts")

# -- the module as a whole -----------------------------------------------------------------------


def test_every_public_function_of_the_module_is_a_tool() -> None:
    assert public_functions("tools_accounts") == TOOLS
    assert {get_tool(name).kind for name in TOOLS} == {"read"}


def test_unknown_tool() -> None:
    with pytest.raises(UnknownTool) as info:
        get_tool("transfer_money")
    assert info.value.code == "unknown_tool"
    assert "transfer_money" in info.value.message


# -- profile, accounts, transactions ---------------------------------------------------------------


def _age(born: date) -> int:
    return TODAY.year - born.year - ((TODAY.month, TODAY.day) < (born.month, born.day))


@pytest.mark.parametrize(
    ("condition", "senior"),
    [
        ("c.date_of_birth <= '1966-05-15'", True),
        ("c.date_of_birth > '1966-05-15'", False),
        # turns 60 later this year: not yet a senior citizen
        ("c.date_of_birth > '1966-05-15' AND c.date_of_birth <= '1966-12-31'", False),
    ],
)
def test_get_customer_profile_happy(open_bank: OpenBank, condition: str, senior: bool) -> None:
    bank = open_bank(condition)
    row = record(bank, "SELECT * FROM customers WHERE customer_id = ?", bank.customer_id)
    born = date.fromisoformat(row["date_of_birth"])
    assert (_age(born) >= 60) is senior
    assert call(bank, "get_customer_profile") == {
        "customer_id": bank.customer_id,
        "name": row["name"],
        "date_of_birth": row["date_of_birth"],
        "age": _age(born),
        "senior_citizen": senior,
        "city": row["city"],
        "phone": row["phone"],
        "email": row["email"],
        "address": row["address"],
        "kyc_status": row["kyc_status"],
        "pan_on_file": bool(row["pan_on_file"]),
        "home_branch": row["home_branch"],
        "today": "2026-05-15",
    }


def test_list_accounts_happy(open_bank: OpenBank) -> None:
    bank = open_bank(
        "(SELECT COUNT(*) FROM accounts a WHERE a.customer_id = c.customer_id) >= 2 "
        f"AND {has('accounts', 'a.hold_amount > 0')} AND {has('nominees')} AND "
        f"{has('accounts', 'EXISTS (SELECT 1 FROM cheques q WHERE q.account_number = a.account_number)')}"
    )
    rows = bank.all(
        "SELECT * FROM accounts WHERE customer_id = ? ORDER BY account_number", bank.customer_id
    )
    listed = call(bank, "list_accounts")["accounts"]
    assert [a["account_number"] for a in listed] == [r["account_number"] for r in rows]
    for entry, row in zip(listed, rows, strict=True):
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
        assert entry == {
            "account_number": row["account_number"],
            "account_type": row["account_type"],
            "status": row["status"],
            "ifsc": row["ifsc"],
            "branch": row["branch"],
            "balance": rupees(row["balance"]),
            "available_balance": rupees(row["balance"] - row["hold_amount"]),
            "hold_amount": rupees(row["hold_amount"]),
            "nominee": dict(nominee) if nominee else None,
            "cheque_books": [f"{b['first_leaf']}-{b['last_leaf']}" for b in books],
            "cheques_paid_or_stopped": {str(c["cheque_number"]): c["status"] for c in presented},
        }
        assert row["ifsc"].startswith(rules.IFSC_PREFIX)
    assert any(e["hold_amount"] != "0.00" for e in listed)
    assert bank.changes().rows == ()


def test_list_accounts_happy_only_own_accounts(open_bank: OpenBank) -> None:
    bank = open_bank(has("accounts"))
    listed = {a["account_number"] for a in call(bank, "list_accounts")["accounts"]}
    theirs = {
        r["account_number"]
        for r in bank.all(
            "SELECT account_number FROM accounts WHERE customer_id != ?", bank.customer_id
        )
    }
    assert listed and not listed & theirs


def test_get_account_balance_happy_hold_reduces_available(open_bank: OpenBank) -> None:
    bank = open_bank(has("accounts", "a.hold_amount > 0"))
    acct = own(bank, "accounts", "a.hold_amount > 0")
    result = call(bank, "get_account_balance", account_number=acct["account_number"])
    assert result == {
        "account_number": acct["account_number"],
        "status": acct["status"],
        "balance": rupees(acct["balance"]),
        "hold_amount": rupees(acct["hold_amount"]),
        "available_balance": rupees(acct["balance"] - acct["hold_amount"]),
        "as_of": "2026-05-15",
    }
    assert Decimal(result["available_balance"]) < Decimal(result["balance"])


def test_get_account_balance_happy_dormant_account_can_be_read(open_bank: OpenBank) -> None:
    bank = open_bank(has("accounts", "a.status = 'dormant'"))
    acct = own(bank, "accounts", "a.status = 'dormant'")
    assert (
        call(bank, "get_account_balance", account_number=acct["account_number"])["status"]
        == "dormant"
    )


@pytest.mark.parametrize("count", [1, 3, None, 50])
def test_get_recent_transactions_happy(open_bank: OpenBank, count: int | None) -> None:
    bank = open_bank(has("accounts"))
    acct = own(bank, "accounts")["account_number"]
    args: dict[str, Any] = {"account_number": acct}
    if count is not None:
        args["count"] = count
    rows = bank.all(
        "SELECT * FROM transactions WHERE account_number = ? ORDER BY txn_date DESC, txn_id DESC",
        acct,
    )
    got = call(bank, "get_recent_transactions", **args)
    assert got["account_number"] == acct
    expected = rows[: count or 10]
    assert got["transactions"] == [
        {
            "date": r["txn_date"],
            "description": r["description"],
            "direction": r["direction"],
            "amount": rupees(r["amount"]),
            "balance_after": rupees(r["balance_after"]),
        }
        for r in expected
    ]
    dates = [t["date"] for t in got["transactions"]]
    assert dates == sorted(dates, reverse=True)


@pytest.mark.parametrize("count", [0, 51, -1])
def test_get_recent_transactions_count_out_of_range(open_bank: OpenBank, count: int) -> None:
    exc = refuse_spoiled(open_bank, "get_recent_transactions", {"count": count}, InvalidArguments)
    assert "count" in exc.message and str(count) in exc.message
