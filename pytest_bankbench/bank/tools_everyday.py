"""Everyday banking tools: profile, accounts, transfers, beneficiaries, cheques, statements, help."""

from __future__ import annotations

import hashlib
from datetime import date, timedelta
from typing import Annotated

from pydantic import Field

from pytest_bankbench.bank import access, knowledge, rules
from pytest_bankbench.bank.errors import InvalidArguments, NotFound, RuleViolation
from pytest_bankbench.bank.facts import Reveal
from pytest_bankbench.bank.registry import IsoDate, Result, Rupees, tool
from pytest_bankbench.bank.store import Bank
from pytest_bankbench.money import plain, to_paise

AccountNumber = Annotated[str, Field(description="the customer's account number")]


def _reference(prefix: str, *parts: object) -> str:
    digest = hashlib.sha256("|".join(str(p) for p in parts).encode()).hexdigest()[:8].upper()
    return f"{prefix}{digest}"


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
        "reference": _reference(mode, from_account, beneficiary_id, paise, bank.today),
        "amount": plain(paise),
        "mode": mode,
        "to": ben["name"],
        "balance_after": plain(balance),
    }


@tool(
    "write",
    reports=("cooling_period_until:date",),
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


@tool(
    "write",
    reports=("balance_after:amount", "fee:amount"),
    debits="account_number",
    reveals=(Reveal("account", "arg:account_number", ("balance=balance_after",)),),
)
def stop_cheque(
    bank: Bank,
    account_number: AccountNumber,
    cheque_number: Annotated[
        int, Field(ge=1, le=999_999, description="the cheque leaf number (six digits)")
    ],
    reason: Annotated[str, Field(max_length=200, description="why the payment is stopped")] = "",
) -> Result:
    """Stop payment of an unpaid cheque from the customer's cheque book (fee Rs 100, debited from the account)."""
    access.account(bank, account_number)
    book = bank.one(
        "SELECT * FROM cheque_books WHERE account_number = ? AND first_leaf <= ? "
        "AND last_leaf >= ?",
        account_number,
        cheque_number,
        cheque_number,
    )
    if book is None:
        raise NotFound(
            f"cheque {cheque_number} is not in any cheque book of account {account_number}"
        )
    cheque = bank.one(
        "SELECT status FROM cheques WHERE account_number = ? AND cheque_number = ?",
        account_number,
        cheque_number,
    )
    if cheque is not None:
        raise RuleViolation(
            f"cheque {cheque_number} is already {cheque['status']}; only an unpaid "
            "cheque can be stopped"
        )
    access.debit_account(bank, account_number, rules.STOP_CHEQUE_FEE)
    bank.insert(
        "cheques",
        account_number=account_number,
        cheque_number=cheque_number,
        status="stopped",
        amount=None,
        payee=None,
        status_date=bank.today.isoformat(),
    )
    balance = access.post(
        bank,
        account_number,
        rules.STOP_CHEQUE_FEE,
        "debit",
        "charge",
        f"Stop payment fee chq {cheque_number}",
    )
    return {
        "status": "success",
        "cheque_number": cheque_number,
        "fee": plain(rules.STOP_CHEQUE_FEE),
        "balance_after": plain(balance),
    }


@tool("write", reports=("reference:text",), changes_records=False)
def request_cheque_book(
    bank: Bank,
    account_number: AccountNumber,
    leaves: Annotated[int, Field(ge=1, le=1000, description="25, 50 or 100 leaves")],
    delivery: rules.ChequeBookDelivery = "registered_address",
) -> Result:
    """Request a new cheque book for an active account, delivered within 7 working days."""
    row = access.account(bank, account_number)
    if leaves not in rules.CHEQUE_LEAVES:
        raise InvalidArguments(f"leaves must be one of 25, 50 or 100, not {leaves}")
    if row["status"] != "active":
        raise RuleViolation(
            f"account {account_number} is {row['status']}; cheque books are issued "
            "only for active accounts"
        )
    return {
        "status": "requested",
        "reference": _reference("CB", account_number, leaves, delivery, bank.today),
        "leaves": leaves,
        "delivery": delivery,
        "expected_within_working_days": 7,
    }


@tool("write", reports=("reference:text",), changes_records=False)
def request_account_statement(
    bank: Bank,
    account_number: AccountNumber,
    from_date: IsoDate,
    to_date: IsoDate,
    delivery: rules.StatementDelivery = "email",
) -> Result:
    """Request a statement of an account for a period of up to 12 months, by email or post."""
    access.account(bank, account_number)
    try:
        start, end = date.fromisoformat(from_date), date.fromisoformat(to_date)
    except ValueError as exc:
        raise InvalidArguments(f"dates must be real YYYY-MM-DD dates: {exc}") from None
    if start > end or end > bank.today:
        raise InvalidArguments(
            f"the period must run forwards and end no later than today ({bank.today.isoformat()})"
        )
    if end > rules.add_months(start, 12):
        raise RuleViolation("a statement covers at most 12 months; split the period")
    if start < bank.today.replace(year=bank.today.year - rules.STATEMENT_HISTORY_YEARS):
        raise RuleViolation("statements are available for the last 5 years only")
    return {
        "status": "requested",
        "reference": _reference("ST", account_number, start, end, delivery),
        "from_date": from_date,
        "to_date": to_date,
        "delivery": delivery,
    }


@tool(
    "read",
    reveals=(
        Reveal(
            "service_request",
            "request_id",
            ("kind", "status", "opened_on", "details"),
            at="service_requests",
        ),
    ),
)
def get_service_requests(bank: Bank) -> Result:
    """The customer's service requests and complaints with their status."""
    rows = bank.all(
        "SELECT * FROM service_requests WHERE customer_id = ? ORDER BY opened_on, request_id",
        bank.customer_id,
    )
    return {
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


@tool("read", prose=True)
def search_knowledge_base(
    bank: Bank,
    query: Annotated[str, Field(min_length=2, description="keywords to search for")],
) -> Result:
    """Search the bank's rules, fees and procedures; returns the best matching articles."""
    found = knowledge.search(query)
    if not found:
        return {"results": [], "note": "no article matches; try other keywords"}
    return {"results": [{"doc_id": d.doc_id, "title": d.title, "text": d.text} for d in found]}


@tool("human")
def transfer_to_human_agent(
    bank: Bank,
    reason: Annotated[
        str, Field(min_length=3, max_length=500, description="why a human is needed")
    ],
    summary: Annotated[
        str, Field(max_length=4000, description="what the customer wants, for the human agent")
    ] = "",
) -> Result:
    """Hand the conversation to a human agent for what the tools cannot do (disputes, fraud claims, escalated complaints). Ends the conversation."""
    return {"status": "transferred", "queue": "customer care", "reason": reason}
