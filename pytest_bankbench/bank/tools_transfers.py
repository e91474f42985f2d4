"""Transfer tools: payees, transfer limits, transfers and adding a payee (its cooling period)."""

from __future__ import annotations

from datetime import timedelta
from typing import Annotated

from pydantic import Field

from pytest_bankbench.bank import access, rules
from pytest_bankbench.bank.errors import RuleViolation
from pytest_bankbench.bank.facts import Reveal
from pytest_bankbench.bank.registry import AccountNumber, Result, Rupees, reference, tool
from pytest_bankbench.bank.store import Bank
from pytest_bankbench.money import plain, to_paise


@tool(
    "read",
    reveals=(
        Reveal(
            "beneficiary",
            "beneficiary_id",
            ("name", "nickname", "account_number", "ifsc", "added_on", "in_cooling_period"),
            at="beneficiaries",
        ),
    ),
)
def list_beneficiaries(bank: Bank) -> Result:
    """The customer's registered payees with their id, account, IFSC, nickname and date added."""
    rows = bank.all(
        "SELECT * FROM beneficiaries WHERE customer_id = ? ORDER BY name, beneficiary_id",
        bank.customer_id,
    )
    return {
        "beneficiaries": [
            {
                "beneficiary_id": r["beneficiary_id"],
                "name": r["name"],
                "nickname": r["nickname"],
                "account_number": r["account_number"],
                "ifsc": r["ifsc"],
                "added_on": r["added_on"],
                "in_cooling_period": r["added_on"] == bank.today.isoformat(),
            }
            for r in rows
        ]
    }


def _sent_today(bank: Bank, beneficiary_account: str) -> int:
    row = bank.one(
        "SELECT COALESCE(SUM(t.amount), 0) AS total FROM transactions t "
        "JOIN accounts a ON a.account_number = t.account_number "
        "WHERE a.customer_id = ? AND t.counterparty = ? AND t.txn_date = ? "
        "AND t.direction = 'debit'",
        bank.customer_id,
        beneficiary_account,
        bank.today.isoformat(),
    )
    return int(row["total"]) if row else 0


@tool(
    "read",
    reveals=(
        Reveal(
            "account",
            "account_number",
            (
                "status=account_status",
                "available_balance",
                "transfer_limits=limits",
                "cooling_period_limit",
            ),
        ),
    ),
)
def get_transfer_limits(bank: Bank, account_number: AccountNumber) -> Result:
    """Per-mode transfer limits (NEFT, IMPS, RTGS), the available balance, and the cooling-period allowance left for payees added today."""
    row = access.account(bank, account_number)
    cooling = []
    for ben in bank.all(
        "SELECT * FROM beneficiaries WHERE customer_id = ? AND added_on = ?",
        bank.customer_id,
        bank.today.isoformat(),
    ):
        left = max(rules.COOLING_LIMIT - _sent_today(bank, ben["account_number"]), 0)
        cooling.append(
            {
                "beneficiary_id": ben["beneficiary_id"],
                "name": ben["name"],
                "remaining_today": plain(left),
            }
        )
    return {
        "account_number": account_number,
        "account_status": row["status"],
        "available_balance": plain(row["balance"] - row["hold_amount"]),
        "limits": {
            mode: {"minimum": plain(low), "maximum": plain(high)}
            for mode, (low, high) in rules.TRANSFER_LIMITS.items()
        },
        "cooling_period_limit": plain(rules.COOLING_LIMIT),
        "beneficiaries_in_cooling_period": cooling,
    }


@tool(
    "write",
    reports=("reference:text", "balance_after:amount"),
    debits="from_account",
    reveals=(Reveal("account", "arg:from_account", ("balance=balance_after",)),),
)
def transfer_funds(
    bank: Bank,
    from_account: AccountNumber,
    beneficiary_id: Annotated[str, Field(description="id of a registered beneficiary")],
    amount: Rupees,
    mode: rules.TransferMode,
    remarks: Annotated[str, Field(max_length=140, description="optional note for the payee")] = "",
) -> Result:
    """Send money from the customer's account to a registered beneficiary by NEFT, IMPS or RTGS."""
    paise = to_paise(amount)
    ben = access.owned(bank, "beneficiaries", "beneficiary_id", beneficiary_id, "beneficiary")
    low, high = rules.TRANSFER_LIMITS[mode]
    if not low <= paise <= high:
        raise RuleViolation(
            f"{mode} accepts Rs {plain(low)} to Rs {plain(high)} per transaction; "
            f"Rs {plain(paise)} is outside it"
        )
    if ben["added_on"] == bank.today.isoformat():
        left = rules.COOLING_LIMIT - _sent_today(bank, ben["account_number"])
        if paise > left:
            raise RuleViolation(
                f"beneficiary {beneficiary_id} was added today: during the cooling "
                f"period at most Rs {plain(rules.COOLING_LIMIT)} may be sent in "
                f"total; Rs {plain(max(left, 0))} remains"
            )
    access.debit_account(bank, from_account, paise)
    balance = access.post(
        bank,
        from_account,
        paise,
        "debit",
        mode.lower(),
        f"{mode} to {ben['name']}",
        counterparty=ben["account_number"],
    )
    return {
        "status": "success",
        "reference": reference(mode, from_account, beneficiary_id, paise, bank.today),
        "amount": plain(paise),
        "mode": mode,
        "to": ben["name"],
        "balance_after": plain(balance),
    }


@tool(
    "write",
    # The payee's id is its reference (J.38: what was done and the reference or date).
    reports=("cooling_period_until:date", "beneficiary_id:text"),
    reveals=(Reveal("beneficiary", "beneficiary_id", ("cooling_period_until",)),),
)
def add_beneficiary(
    bank: Bank,
    name: Annotated[str, Field(min_length=2, max_length=100, description="payee's full name")],
    account_number: Annotated[
        str, Field(pattern=r"^\d{9,18}$", description="payee account number")
    ],
    ifsc: Annotated[
        str,
        Field(
            pattern=r"^[A-Za-z]{4}0[A-Za-z0-9]{6}$", description="payee bank IFSC, 11 characters"
        ),
    ],
    nickname: Annotated[
        str, Field(min_length=1, max_length=40, description="short name to find the payee")
    ],
) -> Result:
    """Register a new payee; transfers to it are limited to Rs 50,000 in total on the day it is added."""
    dupe = bank.one(
        "SELECT beneficiary_id FROM beneficiaries WHERE customer_id = ? AND "
        "account_number = ? AND ifsc = ?",
        bank.customer_id,
        account_number,
        ifsc.upper(),
    )
    if dupe is not None:
        raise RuleViolation(f"this payee is already registered as {dupe['beneficiary_id']}")
    ben_id = bank.next_id("BEN")
    bank.insert(
        "beneficiaries",
        beneficiary_id=ben_id,
        customer_id=bank.customer_id,
        name=name.strip(),
        account_number=account_number,
        ifsc=ifsc.upper(),
        nickname=nickname.strip().lower(),
        added_on=bank.today.isoformat(),
    )
    return {
        "status": "success",
        "beneficiary_id": ben_id,
        "cooling_period_until": (bank.today + timedelta(days=1)).isoformat(),
        "cooling_period_limit": plain(rules.COOLING_LIMIT),
    }
