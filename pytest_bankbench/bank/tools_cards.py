"""Card tools: list, details, credit card statement, block, channel controls, bill payment."""

from __future__ import annotations

import sqlite3
from typing import Annotated, Any

from pydantic import Field

from pytest_bankbench.bank import access, rules
from pytest_bankbench.bank.errors import RuleViolation
from pytest_bankbench.bank.facts import Reveal
from pytest_bankbench.bank.registry import Result, Rupees, RupeesOrZero, tool
from pytest_bankbench.bank.store import Bank
from pytest_bankbench.money import plain, to_paise

CardId = Annotated[str, Field(description="card id, e.g. CRD000123 (not the card number)")]


def _card(bank: Bank, card_id: str) -> sqlite3.Row:
    return access.owned(bank, "cards", "card_id", card_id, "card")


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
            "credit_limit": plain(row["credit_limit"]),
            "total_outstanding": plain(row["outstanding"]),
        }
    return data


# What a card's summary shows (list_cards); details show more.
_CARD_FIELDS = ("card_kind", "product", "masked_number", "status", "linked_account", "expiry")


@tool(
    "read",
    reveals=(
        Reveal(
            "card",
            "card_id",
            _CARD_FIELDS,
            at="cards",
        ),
    ),
)
def list_cards(bank: Bank) -> Result:
    """The customer's debit and credit cards with masked number, product and status."""
    rows = bank.all(
        "SELECT * FROM cards WHERE customer_id = ? ORDER BY card_kind DESC, card_id",
        bank.customer_id,
    )
    return {"cards": [_summary(r) for r in rows]}


def _maximum(row: sqlite3.Row, channel: str) -> int | None:
    cap = rules.CARD_PRODUCTS[row["product"]].get(channel)
    return cap if cap is not None else row["credit_limit"]


@tool(
    "read",
    reveals=(
        Reveal(
            "card",
            "card_id",
            (
                *_CARD_FIELDS,
                "block_reason",
                "international_supported",
                "controls",
            ),
        ),
    ),
)
def get_card_details(bank: Bank, card_id: CardId) -> Result:
    """One card's status, block reason, channel controls (enabled, daily limit, maximum) and whether it supports international usage."""
    row = _card(bank, card_id)
    controls = {}
    for ctl in bank.all("SELECT * FROM card_controls WHERE card_id = ? ORDER BY channel", card_id):
        entry: dict[str, Any] = {"enabled": bool(ctl["enabled"])}
        if ctl["channel"] != "international":
            cap = _maximum(row, ctl["channel"])
            entry |= {
                "daily_limit": plain(ctl["daily_limit"]),
                "maximum_limit": plain(cap) if cap is not None else None,
            }
        controls[ctl["channel"]] = entry
    return {
        **_summary(row),
        "block_reason": row["block_reason"],
        "international_supported": row["product"] in rules.INTERNATIONAL_CAPABLE,
        "controls": controls,
    }


@tool(
    "read",
    reveals=(
        Reveal(
            "card",
            "card_id",
            (
                "statement_date",
                "payment_due_date",
                "total_outstanding",
                "minimum_due",
                "credit_limit",
                "statement_transactions=transactions",
            ),
        ),
    ),
)
def get_credit_card_statement(bank: Bank, card_id: CardId) -> Result:
    """Latest credit card statement: total outstanding, minimum due, due date and transactions."""
    row = _card(bank, card_id)
    if row["card_kind"] != "credit":
        raise RuleViolation(
            f"card {card_id} is a debit card; statements exist for credit cards "
            "only (use get_recent_transactions on its linked account)"
        )
    txns = bank.all(
        "SELECT * FROM card_transactions WHERE card_id = ? ORDER BY txn_date, card_txn_id", card_id
    )
    return {
        "card_id": card_id,
        "statement_date": row["statement_date"],
        "payment_due_date": row["payment_due_date"],
        "total_outstanding": plain(row["outstanding"]),
        "minimum_due": plain(row["minimum_due"]),
        "credit_limit": plain(row["credit_limit"]),
        "transactions": [
            {
                "date": t["txn_date"],
                "merchant": t["merchant"],
                "kind": t["kind"],
                "amount": plain(t["amount"]),
            }
            for t in txns
        ],
    }


def _active(row: sqlite3.Row) -> None:
    if row["status"] != "active":
        raise RuleViolation(
            f"card {row['card_id']} is {row['status']}; a blocked card cannot be "
            "changed (a replacement is issued automatically)"
        )


@tool(
    "write",
    reports=("card_status:choice",),
    reveals=(Reveal("card", "card_id", ("status=card_status", "block_reason=reason")),),
)
def block_card(
    bank: Bank,
    card_id: CardId,
    reason: Annotated[
        rules.BlockReason, Field(description="lost, stolen, damaged or suspected_fraud")
    ],
) -> Result:
    """Block a card permanently and at once; a replacement is sent to the registered address."""
    row = _card(bank, card_id)
    _active(row)
    bank.execute(
        "UPDATE cards SET status = 'blocked', block_reason = ? WHERE card_id = ?", reason, card_id
    )
    return {
        "status": "success",
        "card_id": card_id,
        "card_status": "blocked",
        "reason": reason,
        "replacement": "dispatched to the registered address within 7 working days",
    }


@tool("write")
def set_card_channel_limit(
    bank: Bank,
    card_id: CardId,
    channel: rules.CardChannel,
    enabled: Annotated[bool, Field(description="switch the channel on (true) or off (false)")],
    daily_limit: Annotated[
        RupeesOrZero | None, Field(description="new daily limit in rupees; omit to keep")
    ] = None,
) -> Result:
    """Switch a card channel (atm, pos, online, contactless, international) on or off and set its daily limit within the card's maximum."""
    row = _card(bank, card_id)
    _active(row)
    if channel == "international":
        if enabled and row["product"] not in rules.INTERNATIONAL_CAPABLE:
            raise RuleViolation(f"{row['product']} does not support international usage")
        if daily_limit is not None:
            raise RuleViolation("international usage has no separate limit; omit daily_limit")
        limit = None
    else:
        current = bank.one(
            "SELECT daily_limit FROM card_controls WHERE card_id = ? AND channel = ?",
            card_id,
            channel,
        )
        assert current is not None, "every card has a row per channel"
        limit = to_paise(daily_limit) if daily_limit is not None else current["daily_limit"]
        cap = _maximum(row, channel)
        if cap is not None and limit > cap:
            raise RuleViolation(
                f"the {channel} limit of a {row['product']} can be at most Rs {plain(cap)}"
            )
    bank.execute(
        "UPDATE card_controls SET enabled = ?, daily_limit = ? WHERE card_id = ? AND channel = ?",
        int(enabled),
        limit,
        card_id,
        channel,
    )
    return {
        "status": "success",
        "card_id": card_id,
        "channel": channel,
        "enabled": enabled,
        "daily_limit": plain(limit) if limit is not None else None,
    }


@tool(
    "write",
    reports=("total_outstanding:amount", "balance_after:amount", "paid:amount"),
    debits="from_account",
    reveals=(
        Reveal("card", "card_id", ("total_outstanding", "minimum_due")),
        Reveal("account", "arg:from_account", ("balance=balance_after",)),
    ),
)
def pay_credit_card_bill(
    bank: Bank,
    card_id: CardId,
    amount: Rupees,
    from_account: Annotated[str, Field(description="account to debit")],
) -> Result:
    """Pay a credit card bill from the customer's account: Rs 100 up to the total outstanding."""
    row = _card(bank, card_id)
    if row["card_kind"] != "credit":
        raise RuleViolation(f"card {card_id} is a debit card; only credit card bills can be paid")
    paise = to_paise(amount)
    if not rules.CARD_BILL_MIN_PAYMENT <= paise <= row["outstanding"]:
        raise RuleViolation(
            f"a payment must be Rs {plain(rules.CARD_BILL_MIN_PAYMENT)} to the "
            f"total outstanding Rs {plain(row['outstanding'])}"
        )
    access.debit_account(bank, from_account, paise)
    outstanding = row["outstanding"] - paise
    minimum = max(row["minimum_due"] - paise, 0)
    bank.execute(
        "UPDATE cards SET outstanding = ?, minimum_due = ? WHERE card_id = ?",
        outstanding,
        minimum,
        card_id,
    )
    bank.insert(
        "card_transactions",
        card_txn_id=bank.next_id("CTX"),
        card_id=card_id,
        txn_date=bank.today.isoformat(),
        merchant="Payment received",
        amount=paise,
        kind="payment",
    )
    balance = access.post(
        bank, from_account, paise, "debit", "card", f"Credit card payment XX{row['last4']}"
    )
    return {
        "status": "success",
        "card_id": card_id,
        "paid": plain(paise),
        "total_outstanding": plain(outstanding),
        "minimum_due": plain(minimum),
        "balance_after": plain(balance),
    }
