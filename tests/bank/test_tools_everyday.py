"""Everyday banking tools: every tool's happy path and every refusal it can raise."""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from typing import Any

import pytest

from pytest_bankbench.bank import rules
from pytest_bankbench.bank.errors import (
    InsufficientFunds,
    InvalidArguments,
    NotFound,
    RuleViolation,
    UnknownTool,
)
from pytest_bankbench.bank.registry import get_tool
from pytest_bankbench.bank.store import Bank
from tests.bank.bank_testkit import (
    TODAY,
    OpenBank,
    assert_changes,
    call,
    funded,
    has,
    inserted,
    own,
    public_functions,
    record,
    refuse,
    rupees,
    tools_of,
    txn,
    updated,
)
from tests.bank.tool_cases import (
    EVERYDAY,
    EVERYDAY_ACCOUNT,
    WITH_BOOK,
    everyday_args,
    refuse_spoiled,
    unused_leaf,
)

TOOLS = tools_of("tools_everyday")

# -- the module as a whole -----------------------------------------------------------------------


def test_every_public_function_of_the_module_is_a_tool() -> None:
    assert public_functions("tools_everyday") == TOOLS
    kinds = {name: get_tool(name).kind for name in TOOLS}
    assert kinds["transfer_to_human_agent"] == "human"
    assert sorted(n for n, k in kinds.items() if k == "write") == [
        "add_beneficiary",
        "request_account_statement",
        "request_cheque_book",
        "stop_cheque",
        "transfer_funds",
    ]
    assert not get_tool("request_cheque_book").changes_records
    assert not get_tool("request_account_statement").changes_records


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


# -- beneficiaries and transfers -------------------------------------------------------------------


def test_list_beneficiaries_happy(open_bank: OpenBank) -> None:
    bank = open_bank(
        "(SELECT COUNT(*) FROM beneficiaries b WHERE b.customer_id = c.customer_id) >= 2"
    )
    rows = bank.all(
        "SELECT * FROM beneficiaries WHERE customer_id = ? ORDER BY name, beneficiary_id",
        bank.customer_id,
    )
    assert call(bank, "list_beneficiaries") == {
        "beneficiaries": [
            {
                "beneficiary_id": r["beneficiary_id"],
                "name": r["name"],
                "nickname": r["nickname"],
                "account_number": r["account_number"],
                "ifsc": r["ifsc"],
                "added_on": r["added_on"],
                "in_cooling_period": False,
            }
            for r in rows
        ]
    }


def test_list_beneficiaries_happy_new_payee_is_in_cooling_period(open_bank: OpenBank) -> None:
    bank = open_bank(EVERYDAY)
    new = call(bank, "add_beneficiary", **everyday_args(bank)["add_beneficiary"])["beneficiary_id"]
    cooling = {
        b["beneficiary_id"]: b["in_cooling_period"]
        for b in call(bank, "list_beneficiaries")["beneficiaries"]
    }
    assert cooling[new] is True
    assert sum(cooling.values()) == 1


def test_list_beneficiaries_happy_none(open_bank: OpenBank) -> None:
    bank = open_bank(f"NOT {has('beneficiaries')}")
    assert call(bank, "list_beneficiaries") == {"beneficiaries": []}


LIMITS = {
    "NEFT": {"minimum": "1.00", "maximum": "1000000.00"},
    "IMPS": {"minimum": "1.00", "maximum": "500000.00"},
    "RTGS": {"minimum": "200000.00", "maximum": "2500000.00"},
}


def test_get_transfer_limits_happy(open_bank: OpenBank) -> None:
    bank = open_bank(has("accounts", "a.hold_amount > 0"))
    acct = own(bank, "accounts", "a.hold_amount > 0")
    assert call(bank, "get_transfer_limits", account_number=acct["account_number"]) == {
        "account_number": acct["account_number"],
        "account_status": acct["status"],
        "available_balance": rupees(acct["balance"] - acct["hold_amount"]),
        "limits": LIMITS,
        "cooling_period_limit": "50000.00",
        "beneficiaries_in_cooling_period": [],
    }


def test_get_transfer_limits_happy_cooling_allowance_left(open_bank: OpenBank) -> None:
    bank = open_bank(EVERYDAY)
    acct = own(bank, "accounts", EVERYDAY_ACCOUNT)["account_number"]
    new = call(
        bank,
        "add_beneficiary",
        name="Ravi Kumar",
        account_number="998877665544",
        ifsc="ICIC0004321",
        nickname="ravi",
    )["beneficiary_id"]
    call(bank, "transfer_funds", from_account=acct, beneficiary_id=new, amount=20000, mode="IMPS")
    limits = call(bank, "get_transfer_limits", account_number=acct)
    assert limits["beneficiaries_in_cooling_period"] == [
        {"beneficiary_id": new, "name": "Ravi Kumar", "remaining_today": "30000.00"}
    ]


RICH = f"{has('accounts', funded(25_00_001_00))} AND {has('beneficiaries')}"


@pytest.mark.parametrize(
    ("mode", "amount"),
    [
        ("NEFT", "1.00"),
        ("NEFT", "25000.50"),
        ("NEFT", "1000000"),
        ("IMPS", "1"),
        ("IMPS", "500000"),
        ("RTGS", "200000"),
        ("RTGS", "2500000"),
    ],
)
def test_transfer_funds_happy(open_bank: OpenBank, mode: str, amount: str) -> None:
    bank = open_bank(RICH)
    acct = own(bank, "accounts", funded(25_00_001_00))
    ben = own(bank, "beneficiaries")
    paise = int(Decimal(amount) * 100)
    result = call(
        bank,
        "transfer_funds",
        from_account=acct["account_number"],
        beneficiary_id=ben["beneficiary_id"],
        amount=amount,
        mode=mode,
        remarks="rent",
    )
    after = acct["balance"] - paise
    assert result["status"] == "success"
    assert result["reference"].startswith(mode)
    assert (result["amount"], result["mode"], result["to"], result["balance_after"]) == (
        rupees(paise),
        mode,
        ben["name"],
        rupees(after),
    )
    assert_changes(
        bank,
        updated("accounts", acct["account_number"], balance=(acct["balance"], after)),
        txn(
            acct["account_number"],
            paise,
            "debit",
            mode.lower(),
            f"{mode} to {ben['name']}",
            after,
            counterparty=ben["account_number"],
        ),
    )
    newest = call(bank, "get_recent_transactions", account_number=acct["account_number"], count=1)[
        "transactions"
    ][0]
    assert (newest["date"], newest["amount"]) == ("2026-05-15", rupees(paise))


def test_transfer_funds_happy_json_number_amount(open_bank: OpenBank) -> None:
    # agents send JSON numbers: a float with two decimals is taken exactly
    bank = open_bank(EVERYDAY)
    args = {**everyday_args(bank)["transfer_funds"], "amount": 12345.67}
    assert call(bank, "transfer_funds", **args)["amount"] == "12345.67"
    (txn_row,) = [r for r in bank.changes().rows if r.table == "transactions"]
    assert {f.field: f.after for f in txn_row.fields}["amount"] == 12345_67


@pytest.mark.parametrize(
    ("mode", "amount"),
    [
        ("NEFT", "0.99"),
        ("NEFT", "1000000.01"),
        ("IMPS", "0.99"),
        ("IMPS", "500000.01"),
        ("RTGS", "199999.99"),
        ("RTGS", "2500000.01"),
    ],
)
def test_transfer_funds_outside_mode_limits(open_bank: OpenBank, mode: str, amount: str) -> None:
    bank = open_bank(RICH)
    acct = own(bank, "accounts", funded(25_00_001_00))["account_number"]
    ben = own(bank, "beneficiaries")["beneficiary_id"]
    exc = refuse(
        bank,
        "transfer_funds",
        {"from_account": acct, "beneficiary_id": ben, "amount": amount, "mode": mode},
        RuleViolation,
    )
    assert amount in exc.message


def _new_payee(bank: Bank) -> str:
    return str(
        call(
            bank,
            "add_beneficiary",
            name="New Payee",
            account_number="112233445566",
            ifsc="SBIN0011223",
            nickname="new",
        )["beneficiary_id"]
    )


def test_transfer_funds_cooling_period_caps_the_day_at_50000(open_bank: OpenBank) -> None:
    bank = open_bank(EVERYDAY)
    acct = own(bank, "accounts", EVERYDAY_ACCOUNT)["account_number"]
    new = _new_payee(bank)
    args = {"from_account": acct, "beneficiary_id": new, "mode": "IMPS"}
    refuse(bank, "transfer_funds", {**args, "amount": "50000.01"}, RuleViolation)
    refuse(bank, "transfer_funds", {**args, "amount": 200000, "mode": "RTGS"}, RuleViolation)
    call(bank, "transfer_funds", **args, amount=50000)
    refuse(bank, "transfer_funds", {**args, "amount": 1}, RuleViolation)
    refuse(bank, "transfer_funds", {**args, "amount": 1, "mode": "NEFT"}, RuleViolation)


def test_transfer_funds_cooling_period_counts_every_transfer_of_the_day(
    open_bank: OpenBank,
) -> None:
    # The knowledge base example: 30,000 then 25,000 is declined; 20,000 more is allowed.
    bank = open_bank(EVERYDAY)
    acct = own(bank, "accounts", EVERYDAY_ACCOUNT)["account_number"]
    new = _new_payee(bank)
    call(bank, "transfer_funds", from_account=acct, beneficiary_id=new, amount=30000, mode="NEFT")
    exc = refuse(
        bank,
        "transfer_funds",
        {"from_account": acct, "beneficiary_id": new, "amount": 25000, "mode": "IMPS"},
        RuleViolation,
    )
    assert "20000.00" in exc.message  # what remains today
    call(bank, "transfer_funds", from_account=acct, beneficiary_id=new, amount=20000, mode="IMPS")


def test_transfer_funds_seed_payee_is_not_in_cooling_period(open_bank: OpenBank) -> None:
    bank = open_bank(EVERYDAY)
    args = {**everyday_args(bank)["transfer_funds"], "amount": "50000.01", "mode": "IMPS"}
    call(bank, "transfer_funds", **args)


def test_transfer_funds_from_dormant_account(open_bank: OpenBank) -> None:
    bank = open_bank(
        f"{has('accounts', 'a.status = ' + repr('dormant'))} AND {has('beneficiaries')}"
    )
    dormant = own(bank, "accounts", "a.status = 'dormant'")["account_number"]
    ben = own(bank, "beneficiaries")["beneficiary_id"]
    exc = refuse(
        bank,
        "transfer_funds",
        {"from_account": dormant, "beneficiary_id": ben, "amount": 100, "mode": "IMPS"},
        RuleViolation,
    )
    assert dormant in exc.message


def test_transfer_funds_above_the_balance(open_bank: OpenBank) -> None:
    cond = "a.status = 'active' AND a.hold_amount = 0 AND a.balance < 400000000"
    bank = open_bank(f"{has('accounts', cond)} AND {has('beneficiaries')}")
    acct = own(bank, "accounts", cond)
    ben = own(bank, "beneficiaries")["beneficiary_id"]
    refuse(
        bank,
        "transfer_funds",
        {
            "from_account": acct["account_number"],
            "beneficiary_id": ben,
            "amount": rupees(acct["balance"] + 1),
            "mode": "IMPS",
        },
        InsufficientFunds,
    )


HELD = (
    "a.status = 'active' AND a.hold_amount > 0 AND a.balance - a.hold_amount "
    "BETWEEN 100 AND 100000000"
)


def test_transfer_funds_hold_reduces_the_available_balance(open_bank: OpenBank) -> None:
    bank = open_bank(f"{has('accounts', HELD)} AND {has('beneficiaries')}")
    acct = own(bank, "accounts", HELD)
    ben = own(bank, "beneficiaries")["beneficiary_id"]
    available = acct["balance"] - acct["hold_amount"]
    args = {"from_account": acct["account_number"], "beneficiary_id": ben, "mode": "NEFT"}
    # more than the available balance but less than the balance: declined
    exc = refuse(
        bank, "transfer_funds", {**args, "amount": rupees(available + 1)}, InsufficientFunds
    )
    assert rupees(available) in exc.message
    # exactly the available balance: allowed, and the hold stays
    result = call(bank, "transfer_funds", **args, amount=rupees(available))
    assert result["balance_after"] == rupees(acct["hold_amount"])
    assert (
        call(bank, "get_account_balance", account_number=acct["account_number"])[
            "available_balance"
        ]
        == "0.00"
    )


@pytest.mark.parametrize("mode", ["UPI", "neft", "SWIFT"])
def test_transfer_funds_unknown_mode(open_bank: OpenBank, mode: str) -> None:
    exc = refuse_spoiled(open_bank, "transfer_funds", {"mode": mode}, InvalidArguments)
    assert mode in exc.message


def test_add_beneficiary_happy(open_bank: OpenBank) -> None:
    bank = open_bank(EVERYDAY)
    result = call(
        bank,
        "add_beneficiary",
        name="  Meera Iyer ",
        account_number="000123456789",
        ifsc="hdfc0001234",
        nickname=" Meera HDFC ",
    )
    assert result["status"] == "success"
    assert result["cooling_period_until"] == "2026-05-16"
    assert result["cooling_period_limit"] == "50000.00"
    assert (
        bank.one(
            "SELECT 1 FROM beneficiaries WHERE beneficiary_id = ? AND customer_id = ?",
            result["beneficiary_id"],
            bank.customer_id,
        )
        is not None
    )
    assert_changes(
        bank,
        inserted(
            "beneficiaries",
            customer_id=bank.customer_id,
            name="Meera Iyer",
            account_number="000123456789",
            ifsc="HDFC0001234",
            nickname="meera hdfc",
            added_on="2026-05-15",
        ),
    )


def test_add_beneficiary_happy_same_account_other_bank_is_not_a_duplicate(
    open_bank: OpenBank,
) -> None:
    bank = open_bank(EVERYDAY)
    ben = own(bank, "beneficiaries")
    other_ifsc = "ZZZZ0999999"
    assert ben["ifsc"] != other_ifsc
    call(
        bank,
        "add_beneficiary",
        name="Same Number",
        account_number=ben["account_number"],
        ifsc=other_ifsc,
        nickname="same",
    )
    assert len(bank.changes().rows) == 1


def test_add_beneficiary_duplicate_of_a_registered_payee(open_bank: OpenBank) -> None:
    bank = open_bank(EVERYDAY)
    ben = own(bank, "beneficiaries")
    exc = refuse(
        bank,
        "add_beneficiary",
        {
            "name": "Again",
            "account_number": ben["account_number"],
            "ifsc": ben["ifsc"].lower(),
            "nickname": "again",
        },
        RuleViolation,
    )
    assert ben["beneficiary_id"] in exc.message


def test_add_beneficiary_duplicate_of_one_added_today(open_bank: OpenBank) -> None:
    bank = open_bank(EVERYDAY)
    args = everyday_args(bank)["add_beneficiary"]
    new = call(bank, "add_beneficiary", **args)["beneficiary_id"]
    exc = refuse(bank, "add_beneficiary", args, RuleViolation)
    assert new in exc.message


def test_add_beneficiary_another_customers_payee_is_not_a_duplicate(open_bank: OpenBank) -> None:
    bank = open_bank(EVERYDAY)
    theirs = record(
        bank,
        "SELECT * FROM beneficiaries WHERE customer_id != ? AND NOT EXISTS "
        "(SELECT 1 FROM beneficiaries m WHERE m.customer_id = ? AND "
        "m.account_number = beneficiaries.account_number)",
        bank.customer_id,
        bank.customer_id,
    )
    call(
        bank,
        "add_beneficiary",
        name=theirs["name"],
        account_number=theirs["account_number"],
        ifsc=theirs["ifsc"],
        nickname="x",
    )


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("ifsc", "SUVB1234567"),  # fifth character is not 0
        ("ifsc", "SUV0123456"),  # 10 characters
        ("ifsc", "1234056789A"),  # does not start with 4 letters
        ("account_number", "12345678"),  # too short
        ("account_number", "1234567890123456789"),
        ("account_number", "12345abc678"),
        ("name", "A"),
        ("nickname", ""),
    ],
)
def test_add_beneficiary_invalid_details(open_bank: OpenBank, field: str, value: str) -> None:
    exc = refuse_spoiled(open_bank, "add_beneficiary", {field: value}, InvalidArguments)
    assert field in exc.message and repr(value) in exc.message


# -- cheques ---------------------------------------------------------------------------------------


def test_stop_cheque_happy(open_bank: OpenBank) -> None:
    bank = open_bank(EVERYDAY)
    acct = own(bank, "accounts", EVERYDAY_ACCOUNT)
    leaf = unused_leaf(bank, acct["account_number"])
    result = call(
        bank,
        "stop_cheque",
        account_number=acct["account_number"],
        cheque_number=leaf,
        reason="lost",
    )
    after = acct["balance"] - rules.STOP_CHEQUE_FEE
    assert result == {
        "status": "success",
        "cheque_number": leaf,
        "fee": "100.00",
        "balance_after": rupees(after),
    }
    assert_changes(
        bank,
        inserted(
            "cheques",
            account_number=acct["account_number"],
            cheque_number=leaf,
            status="stopped",
            status_date="2026-05-15",
        ),
        updated("accounts", acct["account_number"], balance=(acct["balance"], after)),
        txn(
            acct["account_number"], 100_00, "debit", "charge", f"Stop payment fee chq {leaf}", after
        ),
    )
    listed = {a["account_number"]: a for a in call(bank, "list_accounts")["accounts"]}
    assert listed[acct["account_number"]]["cheques_paid_or_stopped"][str(leaf)] == "stopped"
    assert listed[acct["account_number"]]["balance"] == rupees(after)


def test_stop_cheque_happy_last_leaf_of_the_book(open_bank: OpenBank) -> None:
    bank = open_bank(EVERYDAY)
    acct = own(bank, "accounts", EVERYDAY_ACCOUNT)["account_number"]
    book = record(bank, "SELECT * FROM cheque_books WHERE account_number = ?", acct)
    call(bank, "stop_cheque", account_number=acct, cheque_number=book["last_leaf"])


PAID = "EXISTS (SELECT 1 FROM cheques q WHERE q.account_number = a.account_number)"


def test_stop_cheque_of_a_paid_cheque(open_bank: OpenBank) -> None:
    bank = open_bank(has("accounts", f"a.status = 'active' AND {PAID}"))
    acct = own(bank, "accounts", f"a.status = 'active' AND {PAID}")["account_number"]
    paid = record(bank, "SELECT * FROM cheques WHERE account_number = ? AND status = 'paid'", acct)
    exc = refuse(
        bank,
        "stop_cheque",
        {"account_number": acct, "cheque_number": paid["cheque_number"]},
        RuleViolation,
    )
    assert str(paid["cheque_number"]) in exc.message


def test_stop_cheque_twice(open_bank: OpenBank) -> None:
    bank = open_bank(EVERYDAY)
    args = everyday_args(bank)["stop_cheque"]
    call(bank, "stop_cheque", **args)
    assert len(bank.changes().rows) == 3
    exc = refuse(bank, "stop_cheque", args, RuleViolation)
    assert str(args["cheque_number"]) in exc.message


@pytest.mark.parametrize("where", ["before", "after", "another account"])
def test_stop_cheque_of_a_leaf_outside_the_books(open_bank: OpenBank, where: str) -> None:
    bank = open_bank(EVERYDAY)
    acct = own(bank, "accounts", EVERYDAY_ACCOUNT)["account_number"]
    books = bank.all("SELECT * FROM cheque_books WHERE account_number = ?", acct)
    if where == "before":
        leaf = min(b["first_leaf"] for b in books) - 1
    elif where == "after":
        leaf = max(b["last_leaf"] for b in books) + 1
    else:
        leaf = (
            record(
                bank,
                "SELECT first_leaf FROM cheque_books WHERE account_number != ? AND "
                "first_leaf NOT IN (SELECT first_leaf FROM cheque_books WHERE "
                "account_number = ?)",
                acct,
                acct,
            )["first_leaf"]
            + 1
        )
    assert not any(b["first_leaf"] <= leaf <= b["last_leaf"] for b in books)
    exc = refuse(bank, "stop_cheque", {"account_number": acct, "cheque_number": leaf}, NotFound)
    assert str(leaf) in exc.message


def test_stop_cheque_on_a_dormant_account(open_bank: OpenBank) -> None:
    cond = f"a.status = 'dormant' AND {WITH_BOOK}"
    bank = open_bank(has("accounts", cond))
    acct = own(bank, "accounts", cond)["account_number"]
    refuse(
        bank,
        "stop_cheque",
        {"account_number": acct, "cheque_number": unused_leaf(bank, acct)},
        RuleViolation,
    )


def test_stop_cheque_fee_needs_available_balance(open_bank: OpenBank) -> None:
    bank = open_bank(EVERYDAY)
    args = everyday_args(bank)["stop_cheque"]
    # set up: only Rs 99.99 left available
    bank.execute(
        "UPDATE accounts SET hold_amount = balance - 9999 WHERE account_number = ?",
        args["account_number"],
    )
    refuse(bank, "stop_cheque", args, InsufficientFunds)


@pytest.mark.parametrize("leaf", [0, -5])
def test_stop_cheque_number_must_be_positive(open_bank: OpenBank, leaf: int) -> None:
    exc = refuse_spoiled(open_bank, "stop_cheque", {"cheque_number": leaf}, InvalidArguments)
    assert "cheque_number" in exc.message


@pytest.mark.parametrize(
    ("leaves", "delivery"), [(25, "registered_address"), (50, "home_branch"), (100, None)]
)
def test_request_cheque_book_happy(open_bank: OpenBank, leaves: int, delivery: str | None) -> None:
    bank = open_bank(EVERYDAY)
    acct = own(bank, "accounts", EVERYDAY_ACCOUNT)["account_number"]
    args: dict[str, Any] = {"account_number": acct, "leaves": leaves}
    if delivery is not None:
        args["delivery"] = delivery
    result = call(bank, "request_cheque_book", **args)
    assert result["status"] == "requested"
    assert result["reference"].startswith("CB")
    assert (result["leaves"], result["delivery"], result["expected_within_working_days"]) == (
        leaves,
        delivery or "registered_address",
        7,
    )
    assert bank.changes().rows == ()  # a service request changes no records


@pytest.mark.parametrize("leaves", [0, 10, 30, 75, 200])
def test_request_cheque_book_leaves_not_25_50_100(open_bank: OpenBank, leaves: int) -> None:
    exc = refuse_spoiled(open_bank, "request_cheque_book", {"leaves": leaves}, InvalidArguments)
    assert str(leaves) in exc.message


def test_request_cheque_book_for_a_dormant_account(open_bank: OpenBank) -> None:
    bank = open_bank(has("accounts", "a.status = 'dormant'"))
    acct = own(bank, "accounts", "a.status = 'dormant'")["account_number"]
    exc = refuse(bank, "request_cheque_book", {"account_number": acct, "leaves": 25}, RuleViolation)
    assert acct in exc.message


def test_request_cheque_book_unknown_delivery(open_bank: OpenBank) -> None:
    exc = refuse_spoiled(
        open_bank, "request_cheque_book", {"delivery": "courier"}, InvalidArguments
    )
    assert "courier" in exc.message


# -- statements ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("start", "end", "delivery"),
    [
        ("2025-05-15", "2026-05-15", "email"),  # 12 months ending today
        ("2026-05-15", "2026-05-15", "post"),  # one day
        ("2021-05-15", "2022-05-14", None),  # starts exactly 5 years ago
        ("2025-06-01", "2025-06-30", "post"),
    ],
)
def test_request_account_statement_happy(
    open_bank: OpenBank, start: str, end: str, delivery: str | None
) -> None:
    bank = open_bank(EVERYDAY)
    acct = own(bank, "accounts", EVERYDAY_ACCOUNT)["account_number"]
    args: dict[str, Any] = {"account_number": acct, "from_date": start, "to_date": end}
    if delivery is not None:
        args["delivery"] = delivery
    result = call(bank, "request_account_statement", **args)
    assert result["status"] == "requested" and result["reference"].startswith("ST")
    assert (result["from_date"], result["to_date"], result["delivery"]) == (
        start,
        end,
        delivery or "email",
    )
    assert bank.changes().rows == ()


def test_request_account_statement_happy_dormant_account(open_bank: OpenBank) -> None:
    bank = open_bank(has("accounts", "a.status = 'dormant'"))
    acct = own(bank, "accounts", "a.status = 'dormant'")["account_number"]
    call(
        bank,
        "request_account_statement",
        account_number=acct,
        from_date="2023-01-01",
        to_date="2023-12-31",
    )


@pytest.mark.parametrize(
    ("start", "end", "error"),
    [
        ("2025-01-01", "2026-05-15", RuleViolation),  # more than 12 months
        ("2024-04-01", "2025-05-15", RuleViolation),
        ("2020-01-01", "2020-06-30", RuleViolation),  # more than 5 years ago
        ("2021-05-14", "2021-12-31", RuleViolation),  # one day before the 5-year window
        ("2026-05-01", "2026-05-16", InvalidArguments),  # ends after today
        ("2026-06-01", "2026-06-30", InvalidArguments),
        ("2026-04-01", "2026-03-01", InvalidArguments),  # runs backwards
        ("2026-02-30", "2026-03-31", InvalidArguments),  # not a real date
        ("2026-01-01", "2026-13-01", InvalidArguments),
    ],
)
def test_request_account_statement_bad_period(
    open_bank: OpenBank, start: str, end: str, error: type[InvalidArguments]
) -> None:
    bank = open_bank(EVERYDAY)
    acct = own(bank, "accounts", EVERYDAY_ACCOUNT)["account_number"]
    refuse(
        bank,
        "request_account_statement",
        {"account_number": acct, "from_date": start, "to_date": end},
        error,
    )


def test_request_account_statement_end_after_today_names_today(open_bank: OpenBank) -> None:
    bank = open_bank(EVERYDAY)
    acct = own(bank, "accounts", EVERYDAY_ACCOUNT)["account_number"]
    exc = refuse(
        bank,
        "request_account_statement",
        {"account_number": acct, "from_date": "2026-05-01", "to_date": "2026-05-16"},
        InvalidArguments,
    )
    assert "2026-05-15" in exc.message


@pytest.mark.parametrize("value", ["15/05/2026", "2026-5-15", "yesterday", "20260515"])
def test_request_account_statement_date_format(open_bank: OpenBank, value: str) -> None:
    exc = refuse_spoiled(
        open_bank, "request_account_statement", {"from_date": value}, InvalidArguments
    )
    assert value in exc.message


def test_request_account_statement_twelve_months_and_a_day(open_bank: OpenBank) -> None:
    bank = open_bank(EVERYDAY)
    acct = own(bank, "accounts", EVERYDAY_ACCOUNT)["account_number"]
    refuse(
        bank,
        "request_account_statement",
        {"account_number": acct, "from_date": "2025-05-14", "to_date": "2026-05-15"},
        RuleViolation,
    )


# -- help ------------------------------------------------------------------------------------------


def test_get_service_requests_happy(open_bank: OpenBank) -> None:
    bank = open_bank(
        "(SELECT COUNT(*) FROM service_requests s WHERE s.customer_id = c.customer_id) >= 2"
    )
    rows = bank.all(
        "SELECT * FROM service_requests WHERE customer_id = ? ORDER BY opened_on, request_id",
        bank.customer_id,
    )
    assert call(bank, "get_service_requests") == {
        "service_requests": [
            {
                "request_id": r["request_id"],
                "kind": r["kind"],
                "status": r["status"],
                "opened_on": r["opened_on"],
                "details": r["details"],
            }
            for r in rows
        ]
    }


def test_get_service_requests_happy_none(open_bank: OpenBank) -> None:
    bank = open_bank(f"NOT {has('service_requests')}")
    assert call(bank, "get_service_requests") == {"service_requests": []}


@pytest.mark.parametrize(
    ("query", "doc_id"),
    [
        ("cooling period new beneficiary", "09-beneficiaries-and-cooling-period"),
        ("premature closure penalty", "03-premature-fd-closure"),
        ("stop payment cheque", "20-cheque-books-and-stop-payment"),
    ],
)
def test_search_knowledge_base_happy(open_bank: OpenBank, query: str, doc_id: str) -> None:
    bank = open_bank("1")
    results = call(bank, "search_knowledge_base", query=query)["results"]
    assert 1 <= len(results) <= 2
    assert results[0]["doc_id"] == doc_id
    assert results[0]["title"] and results[0]["text"].startswith("# ")


def test_search_knowledge_base_happy_nothing_found(open_bank: OpenBank) -> None:
    bank = open_bank("1")
    result = call(bank, "search_knowledge_base", query="xyzzy plugh")
    assert result["results"] == [] and result["note"]


def test_search_knowledge_base_query_too_short(open_bank: OpenBank) -> None:
    bank = open_bank("1")
    exc = refuse(bank, "search_knowledge_base", {"query": "a"}, InvalidArguments)
    assert "query" in exc.message


def test_transfer_to_human_agent_happy(open_bank: OpenBank) -> None:
    bank = open_bank("1")
    result = call(
        bank,
        "transfer_to_human_agent",
        reason="card dispute",
        summary="customer disputes a POS charge",
    )
    assert result == {"status": "transferred", "queue": "customer care", "reason": "card dispute"}
    assert bank.changes().rows == ()


def test_transfer_to_human_agent_reason_too_short(open_bank: OpenBank) -> None:
    bank = open_bank("1")
    exc = refuse(bank, "transfer_to_human_agent", {"reason": "no"}, InvalidArguments)
    assert "reason" in exc.message
