"""Service tools: cheques, cheque books, statements, service requests, the help pages, a human."""

from __future__ import annotations

from datetime import date
from typing import Annotated

from pydantic import Field

from pytest_bankbench.bank import access, knowledge, rules
from pytest_bankbench.bank.errors import InvalidArguments, NotFound, RuleViolation
from pytest_bankbench.bank.facts import Reveal
from pytest_bankbench.bank.registry import AccountNumber, IsoDate, Result, reference, tool
from pytest_bankbench.bank.store import Bank
from pytest_bankbench.money import plain


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
        "reference": reference("CB", account_number, leaves, delivery, bank.today),
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
        "reference": reference("ST", account_number, start, end, delivery),
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
