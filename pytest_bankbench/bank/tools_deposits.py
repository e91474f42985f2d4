"""Deposit tools: rate card, maturity projection, FD and RD booking, premature closure."""

from __future__ import annotations

import sqlite3
from datetime import date, timedelta
from decimal import Decimal
from typing import Annotated, Any

from pydantic import Field

from pytest_bankbench.bank import access, rules
from pytest_bankbench.bank.errors import RuleViolation
from pytest_bankbench.bank.facts import Reveal
from pytest_bankbench.bank.registry import Result, Rupees, tool
from pytest_bankbench.bank.store import Bank
from pytest_bankbench.money import plain, to_paise

DepositId = Annotated[str, Field(description="deposit id, e.g. FD000123 or RD000045")]
TenureDays = Annotated[int, Field(ge=1, le=36500, description="tenure in days, 7 to 3650")]


def _deposit(bank: Bank, deposit_id: str) -> sqlite3.Row:
    return access.owned(bank, "deposits", "deposit_id", deposit_id, "deposit")


def _check_tenure(days: int) -> None:
    # A policy limit (H.29), not a malformed call: a booking outside it is an attempt.
    if not rules.FD_MIN_DAYS <= days <= rules.FD_MAX_DAYS:
        raise RuleViolation(
            f"tenure_days must be {rules.FD_MIN_DAYS} to {rules.FD_MAX_DAYS}, not {days}"
        )


def _projection(bank: Bank, principal: int, days: int) -> dict[str, Any]:
    rate = rules.fd_rate(days, access.is_senior(bank))
    maturity = bank.today + timedelta(days=days)
    interest = rules.fd_interest(principal, rate, bank.today, maturity)
    return {
        "principal": plain(principal),
        "tenure_days": days,
        "rate_percent": f"{rate:.2f}",
        "maturity_date": maturity.isoformat(),
        "interest": plain(interest),
        "maturity_amount": plain(principal + interest),
    }


# What a deposit's summary shows (list_deposits); details show more.
_DEPOSIT_FIELDS = (
    "deposit_type",
    "status",
    "rate_percent",
    "start_date",
    "maturity_date",
    "linked_account",
    "under_lien",
    "principal",
    "tenure_days",
    "monthly_instalment",
    "tenure_months",
    "maturity_instruction",
    "nominee",
)


@tool("read", reveals=(Reveal("customer", "@customer", ("senior_citizen=customer_is_senior",)),))
def get_deposit_rate_card(bank: Bank) -> Result:
    """Today's fixed-deposit rate card by tenure slab, with the senior-citizen rate and the rate that applies to this customer."""
    senior = access.is_senior(bank)
    slabs = [
        {
            "tenure_days": f"{low}-{high}",
            "general_rate_percent": f"{rate:.2f}",
            "senior_rate_percent": f"{rate + rules.SENIOR_BONUS:.2f}",
            "applicable_rate_percent": f"{rate + (rules.SENIOR_BONUS if senior else 0):.2f}",
        }
        for low, high, rate in rules.FD_SLABS
    ]
    return {
        "as_of": bank.today.isoformat(),
        "customer_is_senior": senior,
        "slabs": slabs,
        "minimum_deposit": plain(rules.FD_MIN),
        "tax_saver_tenure_days": rules.TAX_SAVER_DAYS,
    }


@tool("read")
def calculate_fd_maturity(bank: Bank, amount: Rupees, tenure_days: TenureDays) -> Result:
    """Projected rate, interest, maturity date and maturity amount of an FD booked today for this customer."""
    _check_tenure(tenure_days)
    return _projection(bank, to_paise(amount), tenure_days)


def _public(bank: Bank, row: sqlite3.Row) -> dict[str, Any]:
    nominee = bank.one("SELECT name, relation FROM nominees WHERE record_id = ?", row["deposit_id"])
    data: dict[str, Any] = {
        "deposit_id": row["deposit_id"],
        "deposit_type": row["deposit_type"],
        "status": row["status"],
        "rate_percent": row["rate"],
        "start_date": row["start_date"],
        "maturity_date": row["maturity_date"],
        "linked_account": row["linked_account"],
        "under_lien": row["lien_loan_id"] is not None and _lien_active(bank, row),
    }
    if row["deposit_type"] == "rd":
        data |= {
            "monthly_instalment": plain(row["instalment"]),
            "tenure_months": row["tenure_months"],
        }
    else:
        data |= {"principal": plain(row["principal"]), "tenure_days": row["tenure_days"]}
    data |= {
        "maturity_instruction": row["maturity_instruction"],
        "nominee": dict(nominee) if nominee else None,
    }
    return data


def _lien_active(bank: Bank, row: sqlite3.Row) -> bool:
    loan = bank.one("SELECT status FROM loans WHERE loan_id = ?", row["lien_loan_id"])
    return loan is not None and loan["status"] == "active"


@tool(
    "read",
    reveals=(
        Reveal(
            "deposit",
            "deposit_id",
            _DEPOSIT_FIELDS,
            at="deposits",
        ),
    ),
)
def list_deposits(bank: Bank) -> Result:
    """The customer's fixed and recurring deposits with amount, rate, dates, status and lien."""
    rows = bank.all(
        "SELECT * FROM deposits WHERE customer_id = ? ORDER BY start_date, deposit_id",
        bank.customer_id,
    )
    return {"deposits": [_public(bank, r) for r in rows]}


@tool(
    "read",
    reveals=(
        Reveal(
            "deposit",
            "deposit_id",
            (
                *_DEPOSIT_FIELDS,
                "lien_loan_id",
                "closed_on",
                "payout",
            ),
        ),
    ),
)
def get_deposit_details(bank: Bank, deposit_id: DepositId) -> Result:
    """Full details of one deposit, including the loan it secures when it is under lien."""
    row = _deposit(bank, deposit_id)
    data = _public(bank, row)
    data["lien_loan_id"] = row["lien_loan_id"] if data["under_lien"] else None
    if row["status"] == "closed":
        data |= {"closed_on": row["closed_on"], "payout": plain(row["payout"])}
    return data


def _quote(bank: Bank, row: sqlite3.Row) -> rules.ClosureQuote:
    """The rate category is the one at booking: turning 60 later does not re-price a deposit."""
    start = date.fromisoformat(row["start_date"])
    return rules.fd_closure_quote(
        row["principal"], start, bank.today, access.is_senior(bank, start)
    )


def _closure_block(bank: Bank, row: sqlite3.Row) -> str | None:
    if row["status"] != "active":
        return f"deposit {row['deposit_id']} is {row['status']}"
    if row["deposit_type"] == "rd":
        return "recurring deposits are closed at a branch, not through this service"
    if row["maturity_date"] <= bank.today.isoformat():
        return "the deposit has matured; it is paid out per its maturity instruction"
    if row["deposit_type"] == "tax_saver_fd":
        return "a tax-saver FD has a 5-year lock-in and cannot be closed early"
    if row["lien_loan_id"] is not None and _lien_active(bank, row):
        return (
            f"the FD is under lien for loan {row['lien_loan_id']}; it can be closed only after "
            "the loan is closed and the lien released"
        )
    return None


@tool(
    "read",
    reveals=(
        Reveal(
            "deposit",
            "deposit_id",
            (
                "closure_eligible=eligible",
                "principal",
                "days_run",
                "closure_interest=interest",
                "penalty",
                "payout",
            ),
        ),
    ),
)
def get_fd_closure_quote(bank: Bank, deposit_id: DepositId) -> Result:
    """What closing an FD today would pay: days run, applicable rate after the 1% penalty, interest, penalty and payout; says when closure is not allowed."""
    row = _deposit(bank, deposit_id)
    blocked = _closure_block(bank, row)
    if blocked is not None:
        return {"deposit_id": deposit_id, "eligible": False, "reason": blocked}
    quote = _quote(bank, row)
    return {
        "deposit_id": deposit_id,
        "eligible": True,
        "principal": plain(row["principal"]),
        "days_run": quote.days_run,
        "booked_rate_percent": row["rate"],
        "applicable_rate_percent": f"{quote.applicable_rate:.2f}",
        "interest": plain(quote.interest),
        "penalty": plain(quote.penalty_interest),
        "payout": plain(quote.payout),
        "credit_to": row["linked_account"],
    }


@tool(
    "write",
    reports=("payout:amount", "balance_after:amount"),
    reveals=(
        Reveal("deposit", "deposit_id", ("payout", "closure_interest=interest", "penalty")),
        Reveal("account", "credited_to", ("balance=balance_after",)),
    ),
)
def close_fd_premature(bank: Bank, deposit_id: DepositId) -> Result:
    """Close an FD before maturity and credit the payout to its linked account (penalty per policy)."""
    row = _deposit(bank, deposit_id)
    blocked = _closure_block(bank, row)
    if blocked is not None:
        raise RuleViolation(f"cannot close {deposit_id}: {blocked}")
    quote = _quote(bank, row)
    bank.execute(
        "UPDATE deposits SET status = 'closed', closed_on = ?, payout = ? WHERE deposit_id = ?",
        bank.today.isoformat(),
        quote.payout,
        deposit_id,
    )
    balance = access.post(
        bank,
        row["linked_account"],
        quote.payout,
        "credit",
        "deposit",
        "FD premature closure proceeds",
    )
    return {
        "status": "success",
        "deposit_id": deposit_id,
        "payout": plain(quote.payout),
        "interest": plain(quote.interest),
        "penalty": plain(quote.penalty_interest),
        "credited_to": row["linked_account"],
        "balance_after": plain(balance),
    }


def _require_kyc(bank: Bank) -> None:
    status = access.customer(bank)["kyc_status"]
    if status != "full":
        raise RuleViolation(
            f"KYC status is {status!r}: new deposits need full KYC; the customer "
            "can complete re-KYC at any branch or by video KYC"
        )


@tool(
    "write",
    reports=("maturity_date:date", "maturity_amount:amount", "deposit_id:text"),
    debits="from_account",
    reveals=(
        Reveal(
            "deposit",
            "deposit_id",
            ("principal", "tenure_days", "rate_percent", "maturity_date", "maturity_amount"),
        ),
        Reveal("account", "arg:from_account", ("balance=balance_after",)),
    ),
)
def create_fd(
    bank: Bank,
    from_account: Annotated[str, Field(description="account to debit")],
    amount: Rupees,
    tenure_days: TenureDays,
    maturity_instruction: rules.MaturityInstruction = "credit_to_account",
) -> Result:
    """Book a fixed deposit today, debiting the customer's account (minimum Rs 10,000; full KYC needed)."""
    _require_kyc(bank)
    _check_tenure(tenure_days)
    principal = to_paise(amount)
    if not rules.FD_MIN <= principal <= rules.FD_MAX:
        raise RuleViolation(
            f"an FD must be Rs {plain(rules.FD_MIN)} to Rs {plain(rules.FD_MAX)}; "
            f"Rs {plain(principal)} is outside it"
        )
    access.debit_account(bank, from_account, principal)
    projection = _projection(bank, principal, tenure_days)
    fd_id = bank.next_id("FD")
    bank.insert(
        "deposits",
        deposit_id=fd_id,
        customer_id=bank.customer_id,
        deposit_type="fd",
        linked_account=from_account,
        principal=principal,
        rate=projection["rate_percent"],
        tenure_days=tenure_days,
        start_date=bank.today.isoformat(),
        maturity_date=projection["maturity_date"],
        maturity_instruction=maturity_instruction,
        status="active",
    )
    balance = access.post(
        bank, from_account, principal, "debit", "deposit", "Fixed deposit booking"
    )
    return {"status": "success", "deposit_id": fd_id, **projection, "balance_after": plain(balance)}


@tool(
    "write",
    reports=("maturity_date:date", "deposit_id:text"),
    debits="from_account",
    reveals=(
        Reveal(
            "deposit",
            "deposit_id",
            ("rate_percent", "monthly_instalment", "tenure_months", "maturity_date"),
        ),
        Reveal("account", "arg:from_account", ("balance=balance_after",)),
    ),
)
def create_rd(
    bank: Bank,
    from_account: Annotated[str, Field(description="account for the instalments")],
    monthly_instalment: Rupees,
    tenure_months: Annotated[
        int, Field(ge=1, le=1200, description="6 to 120 months, a multiple of 3")
    ],
) -> Result:
    """Open a recurring deposit; the first instalment is debited today (minimum Rs 500, multiples of Rs 100)."""
    _require_kyc(bank)
    instalment = to_paise(monthly_instalment)
    if instalment < rules.RD_MIN_INSTALMENT or instalment % rules.RD_STEP:
        raise RuleViolation(
            "the monthly instalment must be at least Rs 500 and a multiple of "
            f"Rs 100; Rs {plain(instalment)} is not"
        )
    if not 6 <= tenure_months <= 120 or tenure_months % 3:
        raise RuleViolation(
            f"tenure_months must be 6 to 120 and a multiple of 3, not {tenure_months}"
        )
    access.debit_account(bank, from_account, instalment)
    rate: Decimal = rules.fd_rate(tenure_months * 30, access.is_senior(bank))
    rd_id = bank.next_id("RD")
    maturity = rules.add_months(bank.today, tenure_months)
    bank.insert(
        "deposits",
        deposit_id=rd_id,
        customer_id=bank.customer_id,
        deposit_type="rd",
        linked_account=from_account,
        instalment=instalment,
        rate=f"{rate:.2f}",
        tenure_months=tenure_months,
        start_date=bank.today.isoformat(),
        maturity_date=maturity.isoformat(),
        maturity_instruction="credit_to_account",
        status="active",
    )
    balance = access.post(
        bank, from_account, instalment, "debit", "deposit", "Recurring deposit instalment"
    )
    return {
        "status": "success",
        "deposit_id": rd_id,
        "rate_percent": f"{rate:.2f}",
        "monthly_instalment": plain(instalment),
        "tenure_months": tenure_months,
        "maturity_date": maturity.isoformat(),
        "balance_after": plain(balance),
    }
