"""Card tools: every tool's happy path and every refusal it can raise."""

from __future__ import annotations

import sqlite3
from decimal import Decimal
from typing import Any

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
    CARDHOLDER,
    CREDIT,
    PAYER,
    REWARDS,
    RUPAY,
    SECURED,
    VISA,
    active,
    card_args,
    refuse_spoiled,
)

TOOLS = tools_of("tools_cards")

# Document 13 and 14: maximum daily limit per channel in rupees; None = the credit limit.
MAXIMUMS: dict[str, dict[str, int | None]] = {
    RUPAY: {"atm": 25000, "pos": 50000, "online": 50000, "contactless": 5000},
    VISA: {"atm": 100000, "pos": 200000, "online": 200000, "contactless": 5000},
    REWARDS: {"atm": 50000, "pos": None, "online": None, "contactless": 5000},
    SECURED: {"atm": 50000, "pos": None, "online": None, "contactless": 5000},
}
INTERNATIONAL = {RUPAY: False, VISA: True, REWARDS: True, SECURED: False}


def control(bank: Bank, card_id: str, channel: str) -> sqlite3.Row:
    return record(
        bank, "SELECT * FROM card_controls WHERE card_id = ? AND channel = ?", card_id, channel
    )


def maximum(card: sqlite3.Row, channel: str) -> int:
    """The channel's maximum in paise for this card."""
    cap = MAXIMUMS[card["product"]][channel]
    return int(card["credit_limit"]) if cap is None else cap * 100


# -- the module as a whole -----------------------------------------------------------------------


def test_every_public_function_of_the_module_is_a_tool() -> None:
    assert public_functions("tools_cards") == TOOLS
    assert sorted(t for t in TOOLS if get_tool(t).kind == "write") == [
        "block_card",
        "pay_credit_card_bill",
        "set_card_channel_limit",
    ]


# -- reads ------------------------------------------------------------------------------------------


def _summary(row: sqlite3.Row) -> dict[str, Any]:
    data: dict[str, Any] = {
        "card_id": row["card_id"],
        "card_kind": row["card_kind"],
        "product": row["product"],
        "masked_number": f"XXXX XXXX XXXX {row['last4']}",
        "status": row["status"],
        "linked_account": row["linked_account"],
        "expiry": row["expiry"],
    }
    if row["card_kind"] == "credit":
        data |= {
            "credit_limit": rupees(row["credit_limit"]),
            "total_outstanding": rupees(row["outstanding"]),
        }
    return data


def test_list_cards_happy(open_bank: OpenBank) -> None:
    bank = open_bank(
        has("cards", "k.card_kind = 'debit'") + " AND " + has("cards", "k.card_kind = 'credit'")
    )
    debit = bank.all(
        "SELECT * FROM cards WHERE customer_id = ? AND card_kind = 'debit' ORDER BY card_id",
        bank.customer_id,
    )
    credit = bank.all(
        "SELECT * FROM cards WHERE customer_id = ? AND card_kind = 'credit' ORDER BY card_id",
        bank.customer_id,
    )
    listed = call(bank, "list_cards")["cards"]
    assert listed == [_summary(r) for r in [*debit, *credit]]
    for card in listed:
        assert len(card["masked_number"]) == 19 and card["masked_number"].count("X") == 12


def test_list_cards_happy_debit_only(open_bank: OpenBank) -> None:
    bank = open_bank("NOT " + has("cards", "k.card_kind = 'credit'"))
    listed = call(bank, "list_cards")["cards"]
    assert listed and all(c["card_kind"] == "debit" for c in listed)
    assert all("credit_limit" not in c and "total_outstanding" not in c for c in listed)


@pytest.mark.parametrize("product", [RUPAY, VISA, REWARDS, SECURED])
def test_get_card_details_happy(open_bank: OpenBank, product: str) -> None:
    bank = open_bank(has("cards", active(product)))
    card = own(bank, "cards", active(product))
    details = call(bank, "get_card_details", card_id=card["card_id"])
    controls: dict[str, Any] = {}
    for channel in ("atm", "contactless", "online", "pos"):
        ctl = control(bank, card["card_id"], channel)
        controls[channel] = {
            "enabled": bool(ctl["enabled"]),
            "daily_limit": rupees(ctl["daily_limit"]),
            "maximum_limit": rupees(maximum(card, channel)),
        }
    controls["international"] = {
        "enabled": bool(control(bank, card["card_id"], "international")["enabled"])
    }
    assert details == {
        **_summary(card),
        "block_reason": None,
        "international_supported": INTERNATIONAL[product],
        "controls": controls,
    }
    if card["card_kind"] == "credit":
        assert details["controls"]["pos"]["maximum_limit"] == rupees(card["credit_limit"])


def test_get_card_details_happy_blocked_card(open_bank: OpenBank) -> None:
    bank = open_bank(has("cards", "k.status = 'blocked'"))
    card = own(bank, "cards", "k.status = 'blocked'")
    details = call(bank, "get_card_details", card_id=card["card_id"])
    assert (details["status"], details["block_reason"]) == ("blocked", card["block_reason"])


def test_get_credit_card_statement_happy(open_bank: OpenBank) -> None:
    bank = open_bank(has("cards", CREDIT))
    card = own(bank, "cards", CREDIT)
    txns = bank.all(
        "SELECT * FROM card_transactions WHERE card_id = ? ORDER BY txn_date, card_txn_id",
        card["card_id"],
    )
    assert txns
    assert call(bank, "get_credit_card_statement", card_id=card["card_id"]) == {
        "card_id": card["card_id"],
        "statement_date": card["statement_date"],
        "payment_due_date": card["payment_due_date"],
        "total_outstanding": rupees(card["outstanding"]),
        "minimum_due": rupees(card["minimum_due"]),
        "credit_limit": rupees(card["credit_limit"]),
        "transactions": [
            {
                "date": t["txn_date"],
                "merchant": t["merchant"],
                "kind": t["kind"],
                "amount": rupees(t["amount"]),
            }
            for t in txns
        ],
    }


@pytest.mark.parametrize("product", [RUPAY, VISA])
def test_get_credit_card_statement_of_a_debit_card(open_bank: OpenBank, product: str) -> None:
    bank = open_bank(has("cards", active(product)))
    card = own(bank, "cards", active(product))["card_id"]
    exc = refuse(bank, "get_credit_card_statement", {"card_id": card}, RuleViolation)
    assert card in exc.message


# -- block ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("product", "reason"),
    [(RUPAY, "lost"), (VISA, "stolen"), (REWARDS, "damaged"), (SECURED, "suspected_fraud")],
)
def test_block_card_happy(open_bank: OpenBank, product: str, reason: str) -> None:
    bank = open_bank(has("cards", active(product)))
    card = own(bank, "cards", active(product))["card_id"]
    result = call(bank, "block_card", card_id=card, reason=reason)
    assert result["status"] == "success"
    assert (result["card_id"], result["card_status"], result["reason"]) == (card, "blocked", reason)
    assert result["replacement"]
    assert_changes(
        bank, updated("cards", card, status=("active", "blocked"), block_reason=(None, reason))
    )
    assert call(bank, "get_card_details", card_id=card)["status"] == "blocked"


def test_block_card_already_blocked(open_bank: OpenBank) -> None:
    bank = open_bank(has("cards", "k.status = 'blocked'"))
    card = own(bank, "cards", "k.status = 'blocked'")["card_id"]
    exc = refuse(bank, "block_card", {"card_id": card, "reason": "stolen"}, RuleViolation)
    assert card in exc.message


def test_block_card_twice(open_bank: OpenBank) -> None:
    bank = open_bank(CARDHOLDER)
    args = card_args(bank)["block_card"]
    call(bank, "block_card", **args)
    refuse(bank, "block_card", {**args, "reason": "stolen"}, RuleViolation)


@pytest.mark.parametrize("reason", ["broken", "LOST", "expired", ""])
def test_block_card_unknown_reason(open_bank: OpenBank, reason: str) -> None:
    exc = refuse_spoiled(open_bank, "block_card", {"reason": reason}, InvalidArguments)
    assert "reason" in exc.message and repr(reason) in exc.message


# -- channel controls -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("product", "channel", "enabled", "limit"),
    [
        (RUPAY, "atm", False, "10000"),
        (RUPAY, "atm", True, "25000"),  # exactly the maximum
        (RUPAY, "contactless", True, "0.01"),
        (VISA, "pos", True, "200000"),
        (VISA, "online", False, None),  # switch off, keep the limit
        (REWARDS, "atm", True, "50000"),
        (REWARDS, "online", True, "credit limit"),
        (SECURED, "contactless", False, "4999.99"),
    ],
)
def test_set_card_channel_limit_happy(
    open_bank: OpenBank, product: str, channel: str, enabled: bool, limit: str | None
) -> None:
    bank = open_bank(has("cards", active(product)))
    card = own(bank, "cards", active(product))
    before = control(bank, card["card_id"], channel)
    if limit == "credit limit":
        limit = rupees(card["credit_limit"])
    args: dict[str, Any] = {"card_id": card["card_id"], "channel": channel, "enabled": enabled}
    if limit is not None:
        args["daily_limit"] = limit
    result = call(bank, "set_card_channel_limit", **args)
    new_limit = int(Decimal(limit) * 100) if limit is not None else before["daily_limit"]
    assert result == {
        "status": "success",
        "card_id": card["card_id"],
        "channel": channel,
        "enabled": enabled,
        "daily_limit": rupees(new_limit),
    }
    fields: dict[str, tuple[int, int]] = {}
    if before["enabled"] != int(enabled):
        fields["enabled"] = (before["enabled"], int(enabled))
    if before["daily_limit"] != new_limit:
        fields["daily_limit"] = (before["daily_limit"], new_limit)
    expected = (
        [updated("card_controls", f"{card['card_id']}|{channel}", **fields)] if fields else []
    )
    assert_changes(bank, *expected)
    shown = call(bank, "get_card_details", card_id=card["card_id"])["controls"][channel]
    assert (shown["enabled"], shown["daily_limit"]) == (enabled, rupees(new_limit))


INTL_OFF = (
    "EXISTS (SELECT 1 FROM card_controls t WHERE t.card_id = k.card_id AND "
    "t.channel = 'international' AND t.enabled = 0)"
)


@pytest.mark.parametrize("product", [VISA, REWARDS])
def test_set_card_channel_limit_happy_international_on(open_bank: OpenBank, product: str) -> None:
    where = active(product, INTL_OFF)
    bank = open_bank(has("cards", where))
    card = own(bank, "cards", where)["card_id"]
    result = call(
        bank, "set_card_channel_limit", card_id=card, channel="international", enabled=True
    )
    assert (result["enabled"], result["daily_limit"]) == (True, None)
    assert_changes(bank, updated("card_controls", f"{card}|international", enabled=(0, 1)))
    assert call(bank, "get_card_details", card_id=card)["controls"]["international"] == {
        "enabled": True
    }


@pytest.mark.parametrize("product", [RUPAY, SECURED])
def test_set_card_channel_limit_happy_international_off_on_a_domestic_card(
    open_bank: OpenBank, product: str
) -> None:
    bank = open_bank(has("cards", active(product)))
    card = own(bank, "cards", active(product))["card_id"]
    call(bank, "set_card_channel_limit", card_id=card, channel="international", enabled=False)
    assert bank.changes().rows == ()  # it was already off


@pytest.mark.parametrize("product", [RUPAY, SECURED])
def test_set_card_channel_limit_international_not_supported(
    open_bank: OpenBank, product: str
) -> None:
    bank = open_bank(has("cards", active(product)))
    card = own(bank, "cards", active(product))["card_id"]
    exc = refuse(
        bank,
        "set_card_channel_limit",
        {"card_id": card, "channel": "international", "enabled": True},
        RuleViolation,
    )
    assert product in exc.message


def test_set_card_channel_limit_international_has_no_limit(open_bank: OpenBank) -> None:
    bank = open_bank(has("cards", active(VISA)))
    card = own(bank, "cards", active(VISA))["card_id"]
    refuse(
        bank,
        "set_card_channel_limit",
        {"card_id": card, "channel": "international", "enabled": True, "daily_limit": 10000},
        RuleViolation,
    )


@pytest.mark.parametrize("product", [RUPAY, VISA, REWARDS, SECURED])
@pytest.mark.parametrize("channel", ["atm", "pos", "online", "contactless"])
def test_set_card_channel_limit_above_the_maximum(
    open_bank: OpenBank, product: str, channel: str
) -> None:
    bank = open_bank(has("cards", active(product)))
    card = own(bank, "cards", active(product))
    cap = maximum(card, channel)
    exc = refuse(
        bank,
        "set_card_channel_limit",
        {
            "card_id": card["card_id"],
            "channel": channel,
            "enabled": True,
            "daily_limit": rupees(cap + 1),
        },
        RuleViolation,
    )
    assert rupees(cap) in exc.message


@pytest.mark.parametrize(
    "args",
    [
        {"channel": "atm", "enabled": True, "daily_limit": 1000},
        {"channel": "online", "enabled": False},
        {"channel": "international", "enabled": False},
    ],
)
def test_blocked_card_cannot_be_changed(open_bank: OpenBank, args: dict[str, Any]) -> None:
    bank = open_bank(has("cards", "k.status = 'blocked'"))
    card = own(bank, "cards", "k.status = 'blocked'")["card_id"]
    exc = refuse(bank, "set_card_channel_limit", {"card_id": card, **args}, RuleViolation)
    assert card in exc.message


@pytest.mark.parametrize(
    ("field", "value"),
    [("channel", "upi"), ("channel", "ATM"), ("channel", "netbanking"), ("enabled", "maybe")],
)
def test_set_card_channel_limit_bad_channel_or_switch(
    open_bank: OpenBank, field: str, value: str
) -> None:
    exc = refuse_spoiled(open_bank, "set_card_channel_limit", {field: value}, InvalidArguments)
    assert field in exc.message and value in exc.message


def test_set_card_channel_limit_to_zero(open_bank: OpenBank) -> None:
    bank = open_bank(has("cards", active(RUPAY)))
    card = own(bank, "cards", active(RUPAY))["card_id"]
    result = call(
        bank, "set_card_channel_limit", card_id=card, channel="online", enabled=True, daily_limit=0
    )
    assert result["daily_limit"] == "0.00"


# -- bill payment -----------------------------------------------------------------------------------


def _payment_changes(bank: Bank, card: sqlite3.Row, acct: sqlite3.Row, paise: int) -> None:
    after = acct["balance"] - paise
    minimum = max(card["minimum_due"] - paise, 0)
    fields: dict[str, tuple[int, int]] = {
        "outstanding": (card["outstanding"], card["outstanding"] - paise)
    }
    if minimum != card["minimum_due"]:
        fields["minimum_due"] = (card["minimum_due"], minimum)
    assert_changes(
        bank,
        updated("cards", card["card_id"], **fields),
        inserted(
            "card_transactions",
            card_id=card["card_id"],
            txn_date="2026-05-15",
            merchant="Payment received",
            amount=paise,
            kind="payment",
        ),
        updated("accounts", acct["account_number"], balance=(acct["balance"], after)),
        txn(
            acct["account_number"],
            paise,
            "debit",
            "card",
            f"Credit card payment XX{card['last4']}",
            after,
        ),
    )


@pytest.mark.parametrize("how_much", ["minimum", "below minimum", "above minimum", "all"])
def test_pay_credit_card_bill_happy(open_bank: OpenBank, how_much: str) -> None:
    bank = open_bank(CARDHOLDER)
    card = own(bank, "cards", CREDIT)
    acct = own(bank, "accounts", PAYER)
    paise = {
        "minimum": card["minimum_due"],
        "below minimum": 100_00,
        "above minimum": card["minimum_due"] + 1,
        "all": card["outstanding"],
    }[how_much]
    assert card["minimum_due"] > 100_00
    result = call(
        bank,
        "pay_credit_card_bill",
        card_id=card["card_id"],
        amount=rupees(paise),
        from_account=acct["account_number"],
    )
    minimum = max(card["minimum_due"] - paise, 0)
    assert result == {
        "status": "success",
        "card_id": card["card_id"],
        "paid": rupees(paise),
        "total_outstanding": rupees(card["outstanding"] - paise),
        "minimum_due": rupees(minimum),
        "balance_after": rupees(acct["balance"] - paise),
    }
    assert (minimum == 0) is (how_much != "below minimum")
    _payment_changes(bank, card, acct, paise)
    statement = call(bank, "get_credit_card_statement", card_id=card["card_id"])
    assert statement["transactions"][-1] == {
        "date": "2026-05-15",
        "merchant": "Payment received",
        "kind": "payment",
        "amount": rupees(paise),
    }


def test_pay_credit_card_bill_happy_blocked_card(open_bank: OpenBank) -> None:
    # document 15: the outstanding of a blocked credit card remains payable
    where = "k.card_kind = 'credit' AND k.status = 'blocked' AND k.outstanding >= 10000"
    bank = open_bank(f"{has('cards', where)} AND {has('accounts', funded(10000))}")
    card = own(bank, "cards", where)
    acct = own(bank, "accounts", funded(10000))
    call(
        bank,
        "pay_credit_card_bill",
        card_id=card["card_id"],
        amount=100,
        from_account=acct["account_number"],
    )
    _payment_changes(bank, card, acct, 100_00)


@pytest.mark.parametrize("product", [RUPAY, VISA])
def test_pay_credit_card_bill_for_a_debit_card(open_bank: OpenBank, product: str) -> None:
    bank = open_bank(f"{has('cards', active(product))} AND {has('accounts', PAYER)}")
    card = own(bank, "cards", active(product))["card_id"]
    acct = own(bank, "accounts", PAYER)["account_number"]
    exc = refuse(
        bank,
        "pay_credit_card_bill",
        {"card_id": card, "amount": 500, "from_account": acct},
        RuleViolation,
    )
    assert card in exc.message


@pytest.mark.parametrize("over", ["below", "above", "far above"])
def test_pay_credit_card_bill_out_of_range(open_bank: OpenBank, over: str) -> None:
    bank = open_bank(CARDHOLDER)
    card = own(bank, "cards", CREDIT)
    paise = {
        "below": 100_00 - 1,
        "above": card["outstanding"] + 1,
        "far above": card["outstanding"] * 2,
    }[over]
    exc = refuse(
        bank,
        "pay_credit_card_bill",
        {**card_args(bank)["pay_credit_card_bill"], "amount": rupees(paise)},
        RuleViolation,
    )
    assert rupees(card["outstanding"]) in exc.message


def test_pay_credit_card_bill_from_a_dormant_account(open_bank: OpenBank) -> None:
    bank = open_bank(has("cards", CREDIT) + " AND " + has("accounts", "a.status = 'dormant'"))
    card = own(bank, "cards", CREDIT)["card_id"]
    acct = own(bank, "accounts", "a.status = 'dormant'")["account_number"]
    exc = refuse(
        bank,
        "pay_credit_card_bill",
        {"card_id": card, "amount": 500, "from_account": acct},
        RuleViolation,
    )
    assert acct in exc.message


def test_pay_credit_card_bill_above_the_available_balance(open_bank: OpenBank) -> None:
    bank = open_bank(CARDHOLDER)
    args = card_args(bank)["pay_credit_card_bill"]
    # set up: a hold leaves Rs 499.99 available
    bank.execute(
        "UPDATE accounts SET hold_amount = balance - 49999 WHERE account_number = ?",
        args["from_account"],
    )
    exc = refuse(bank, "pay_credit_card_bill", args, InsufficientFunds)
    assert "499.99" in exc.message
