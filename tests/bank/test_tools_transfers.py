"""Transfer tools: every tool's happy path and every refusal it can raise."""

from __future__ import annotations

from decimal import Decimal

import pytest

from pytest_bankbench.bank.errors import (
    InsufficientFunds,
    InvalidArguments,
    RuleViolation,
)
from pytest_bankbench.bank.registry import get_tool
from pytest_bankbench.bank.store import Bank
from tests.bank.bank_testkit import (
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
    everyday_args,
    refuse_spoiled,
)

TOOLS = tools_of("tools_transfers")

# -- the module as a whole -----------------------------------------------------------------------


def test_every_public_function_of_the_module_is_a_tool() -> None:
    assert public_functions("tools_transfers") == TOOLS
    kinds = {name: get_tool(name).kind for name in TOOLS}
    assert sorted(n for n, k in kinds.items() if k == "write") == [
        "add_beneficiary",
        "transfer_funds",
    ]


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
