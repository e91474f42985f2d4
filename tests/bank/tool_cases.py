"""For each tool module: a customer every tool of the module can serve, and arguments each tool
accepts for that customer.

test_tool_arguments.py starts from these valid arguments to check, for all tools at once, that a
missing, mistyped, extra or unknown argument is refused. The module test files use the same
customers and arguments as the starting point of their own happy paths and refusals.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from pytest_bankbench.bank.errors import ToolError
from pytest_bankbench.bank.store import Bank
from tests.bank.bank_testkit import OpenBank, funded, has, own, record, refuse, rupees, tools_of

ValidArgs = Callable[[Bank], dict[str, dict[str, Any]]]


# -- everyday banking ---------------------------------------------------------------------------

WITH_BOOK = "EXISTS (SELECT 1 FROM cheque_books q WHERE q.account_number = a.account_number)"
EVERYDAY_ACCOUNT = f"{funded(1_00_000_00)} AND a.hold_amount = 0 AND {WITH_BOOK}"
EVERYDAY = f"{has('accounts', EVERYDAY_ACCOUNT)} AND {has('beneficiaries')}"


def unused_leaf(bank: Bank, account: str) -> int:
    """A leaf of one of the account's cheque books that has not been paid or stopped."""
    for book in bank.all(
        "SELECT * FROM cheque_books WHERE account_number = ? ORDER BY book_id", account
    ):
        for leaf in range(book["first_leaf"], book["last_leaf"] + 1):
            if (
                bank.one(
                    "SELECT 1 FROM cheques WHERE account_number = ? AND cheque_number = ?",
                    account,
                    leaf,
                )
                is None
            ):
                return leaf
    raise AssertionError(f"account {account} has no unused cheque leaf")


def everyday_args(bank: Bank) -> dict[str, dict[str, Any]]:
    """Arguments that every everyday tool accepts for the EVERYDAY customer."""
    acct = own(bank, "accounts", EVERYDAY_ACCOUNT)["account_number"]
    ben = own(bank, "beneficiaries")["beneficiary_id"]
    return {
        "get_customer_profile": {},
        "list_accounts": {},
        "get_account_balance": {"account_number": acct},
        "get_recent_transactions": {"account_number": acct, "count": 5},
        "list_beneficiaries": {},
        "get_transfer_limits": {"account_number": acct},
        "transfer_funds": {
            "from_account": acct,
            "beneficiary_id": ben,
            "amount": 1000,
            "mode": "NEFT",
        },
        "add_beneficiary": {
            "name": "Test Payee",
            "account_number": "123456789012",
            "ifsc": "HDFC0001234",
            "nickname": "tp",
        },
        "stop_cheque": {"account_number": acct, "cheque_number": unused_leaf(bank, acct)},
        "request_cheque_book": {"account_number": acct, "leaves": 25},
        "request_account_statement": {
            "account_number": acct,
            "from_date": "2026-01-01",
            "to_date": "2026-03-31",
        },
        "get_service_requests": {},
        "search_knowledge_base": {"query": "cooling period"},
        "transfer_to_human_agent": {"reason": "card dispute"},
    }


def everyday_args_of(module: str) -> ValidArgs:
    """everyday_args() for the tools of one of the modules the EVERYDAY customer's tools are in."""

    def valid_args(bank: Bank) -> dict[str, dict[str, Any]]:
        return {
            name: args for name, args in everyday_args(bank).items() if name in tools_of(module)
        }

    return valid_args


# -- deposits -------------------------------------------------------------------------------------

SENIOR = "c.date_of_birth <= '1966-05-15'"
GENERAL = "c.date_of_birth > '1966-05-15'"
FULL_KYC = "c.kyc_status = 'full'"
FUNDING = f"{funded(5_00_000_00)} AND a.hold_amount = 0"
PLAIN_FD = "d.deposit_type = 'fd' AND d.status = 'active' AND d.lien_loan_id IS NULL"
# A customer who can book deposits: full KYC, not a senior citizen, a well-funded account and a
# regular FD that may be closed.
DEPOSITOR = (
    f"{FULL_KYC} AND {GENERAL} AND {has('accounts', FUNDING)} AND {has('deposits', PLAIN_FD)}"
)


def deposit_args(bank: Bank) -> dict[str, dict[str, Any]]:
    """Arguments that every deposit tool accepts for the DEPOSITOR customer."""
    acct = own(bank, "accounts", FUNDING)["account_number"]
    fd = own(bank, "deposits", PLAIN_FD)["deposit_id"]
    return {
        "get_deposit_rate_card": {},
        "calculate_fd_maturity": {"amount": 100000, "tenure_days": 365},
        "list_deposits": {},
        "get_deposit_details": {"deposit_id": fd},
        "get_fd_closure_quote": {"deposit_id": fd},
        "close_fd_premature": {"deposit_id": fd},
        "create_fd": {"from_account": acct, "amount": 50000, "tenure_days": 400},
        "create_rd": {"from_account": acct, "monthly_instalment": 1000, "tenure_months": 12},
    }


# -- loans ----------------------------------------------------------------------------------------


def covered(factor: str = "1.1") -> str:
    """Condition over loans `l`: the customer has an active account covering outstanding x factor."""
    return (
        "EXISTS (SELECT 1 FROM accounts a WHERE a.customer_id = l.customer_id AND "
        "a.status = 'active' AND a.balance - a.hold_amount > l.outstanding * " + factor + ")"
    )


def loan_of(kind: str, extra: str = "1") -> str:
    """Condition over loans `l` for an active loan of a type, past any lock-in."""
    lock = "l.emis_paid >= 12" if kind == "personal" else "1"
    return f"l.loan_type = '{kind}' AND l.status = 'active' AND {lock} AND {extra}"


CAR = loan_of("car", covered())
BORROWER = has("loans", CAR)


def paying_account(bank: Bank, loan: sqlite3.Row, factor: float = 1.1) -> sqlite3.Row:
    """The customer's first active account whose available balance covers the loan x factor."""
    return record(
        bank,
        "SELECT * FROM accounts WHERE customer_id = ? AND status = 'active' AND "
        "balance - hold_amount > ? ORDER BY account_number",
        bank.customer_id,
        loan["outstanding"] * factor,
    )


def loan_args(bank: Bank) -> dict[str, dict[str, Any]]:
    """Arguments that every loan tool accepts for the BORROWER customer."""
    loan = own(bank, "loans", CAR)
    acct = paying_account(bank, loan)["account_number"]
    emi = rupees(loan["emi"])
    return {
        "list_loans": {},
        "get_loan_details": {"loan_id": loan["loan_id"]},
        "get_loan_foreclosure_quote": {"loan_id": loan["loan_id"]},
        "calculate_prepayment_impact": {
            "loan_id": loan["loan_id"],
            "amount": emi,
            "option": "reduce_emi",
        },
        "make_loan_prepayment": {
            "loan_id": loan["loan_id"],
            "amount": emi,
            "option": "reduce_tenure",
            "from_account": acct,
        },
        "foreclose_loan": {"loan_id": loan["loan_id"], "from_account": acct},
    }


# -- cards ----------------------------------------------------------------------------------------

RUPAY, VISA = "RuPay Classic Debit", "Visa Platinum Debit"
REWARDS, SECURED = "Suvarna Rewards Credit", "Suvarna Secured Credit"


def active(product: str, extra: str = "1") -> str:
    """Condition over cards `k`: an active card of a product."""
    return f"k.product = '{product}' AND k.status = 'active' AND {extra}"


CREDIT = active(REWARDS, "k.outstanding >= 100000")
PAYER = f"{funded(10_00_000_00)} AND a.hold_amount = 0"
CARDHOLDER = f"{has('cards', CREDIT)} AND {has('accounts', PAYER)}"


def card_args(bank: Bank) -> dict[str, dict[str, Any]]:
    """Arguments that every card tool accepts for the CARDHOLDER customer."""
    card = own(bank, "cards", CREDIT)["card_id"]
    acct = own(bank, "accounts", PAYER)["account_number"]
    return {
        "list_cards": {},
        "get_card_details": {"card_id": card},
        "get_credit_card_statement": {"card_id": card},
        "block_card": {"card_id": card, "reason": "lost"},
        "set_card_channel_limit": {
            "card_id": card,
            "channel": "atm",
            "enabled": True,
            "daily_limit": 10000,
        },
        "pay_credit_card_bill": {"card_id": card, "amount": 500, "from_account": acct},
    }


# -- the registry ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class ToolModule:
    """A tool module with the customer its tools serve and the arguments they then accept.

    `theirs` is a condition (over the module's own table, unaliased) that picks another
    customer's record of the same kind as the one in the valid arguments, so that refusing it
    can only be about whose record it is.
    """

    module: str
    customer: str
    valid_args: ValidArgs
    theirs: str

    @property
    def tools(self) -> list[str]:
        return tools_of(self.module)


MODULES = (
    ToolModule("tools_accounts", EVERYDAY, everyday_args_of("tools_accounts"), theirs="1"),
    ToolModule("tools_service", EVERYDAY, everyday_args_of("tools_service"), theirs="1"),
    ToolModule("tools_transfers", EVERYDAY, everyday_args_of("tools_transfers"), theirs="1"),
    ToolModule(
        "tools_deposits",
        DEPOSITOR,
        deposit_args,
        theirs="deposit_type = 'fd' AND lien_loan_id IS NULL",
    ),
    ToolModule("tools_loans", BORROWER, loan_args, theirs="loan_type = 'car'"),
    ToolModule(
        "tools_cards",
        CARDHOLDER,
        card_args,
        theirs=f"product = '{REWARDS}' AND status = 'active'",
    ),
)


def module_of(tool: str) -> ToolModule:
    """The registry entry of the module that defines a tool."""
    (entry,) = (m for m in MODULES if tool in m.tools)
    return entry


def accepted(open_bank: OpenBank, tool: str) -> tuple[Bank, dict[str, Any]]:
    """A fresh bank of the customer of the tool's module, and arguments the tool accepts there."""
    entry = module_of(tool)
    bank = open_bank(entry.customer)
    return bank, entry.valid_args(bank)[tool]


def refuse_spoiled(
    open_bank: OpenBank, tool: str, spoiled: dict[str, Any], error: type[ToolError]
) -> ToolError:
    """The tool's accepted arguments with `spoiled` laid over them are refused with `error`.

    As refuse(): exactly that error type and code, and no record changed.
    """
    bank, args = accepted(open_bank, tool)
    return refuse(bank, tool, {**args, **spoiled}, error)
