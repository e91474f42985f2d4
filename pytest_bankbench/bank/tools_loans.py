"""Loan tools: details, foreclosure quote, prepayment impact, part-prepayment, foreclosure."""

from __future__ import annotations

import sqlite3
from datetime import date
from decimal import Decimal
from typing import Annotated, Any

from pydantic import Field

from pytest_bankbench.bank import access, rules
from pytest_bankbench.bank.errors import RuleViolation
from pytest_bankbench.bank.facts import Reveal
from pytest_bankbench.bank.registry import Result, Rupees, tool
from pytest_bankbench.bank.store import Bank
from pytest_bankbench.money import plain, to_paise

LoanId = Annotated[str, Field(description="loan id, e.g. LN000123")]


def _loan(bank: Bank, loan_id: str) -> sqlite3.Row:
    row = access.owned(bank, "loans", "loan_id", loan_id, "loan")
    return row


def _lock_in(row: sqlite3.Row) -> str | None:
    if row["status"] != "active":
        return f"loan {row['loan_id']} is {row['status']}"
    if row["loan_type"] == "personal" and row["emis_paid"] < rules.PERSONAL_LOCK_IN_EMIS:
        return (
            f"personal loans can be prepaid or foreclosed only after "
            f"{rules.PERSONAL_LOCK_IN_EMIS} EMIs; {row['emis_paid']} have been paid"
        )
    return None


def _public(row: sqlite3.Row) -> dict[str, Any]:
    return {
        "loan_id": row["loan_id"],
        "loan_type": row["loan_type"],
        "status": row["status"],
        "principal": plain(row["principal"]),
        "outstanding": plain(row["outstanding"]),
        "rate_percent": row["rate"],
        "emi": plain(row["emi"]),
        "remaining_months": row["remaining_months"],
        "emis_paid": row["emis_paid"],
        "next_due_date": row["next_due_date"],
        "linked_account": row["linked_account"],
    }


# What a loan's summary shows (list_loans); details show more.
_LOAN_FIELDS = (
    "loan_type",
    "status",
    "principal",
    "outstanding",
    "rate_percent",
    "emi",
    "remaining_months",
    "emis_paid",
    "next_due_date",
    "linked_account",
)


@tool(
    "read",
    reveals=(
        Reveal(
            "loan",
            "loan_id",
            _LOAN_FIELDS,
            at="loans",
        ),
    ),
)
def list_loans(bank: Bank) -> Result:
    """The customer's loans with type, outstanding principal, rate, EMI and status."""
    rows = bank.all(
        "SELECT * FROM loans WHERE customer_id = ? ORDER BY disbursed_on, loan_id", bank.customer_id
    )
    return {"loans": [_public(r) for r in rows]}


@tool(
    "read",
    reveals=(
        Reveal(
            "loan",
            "loan_id",
            (
                *_LOAN_FIELDS,
                "tenure_months",
                "disbursed_on",
                "last_emi_date",
                "prepayment_charge_percent",
                "prepayment_allowed",
                "restriction",
            ),
        ),
    ),
)
def get_loan_details(bank: Bank, loan_id: LoanId) -> Result:
    """Full details of one loan, including charges for prepayment and whether it is in lock-in."""
    row = _loan(bank, loan_id)
    lock = _lock_in(row)
    return {
        **_public(row),
        "tenure_months": row["tenure_months"],
        "disbursed_on": row["disbursed_on"],
        "last_emi_date": row["last_emi_date"],
        "prepayment_charge_percent": f"{rules.LOAN_CHARGE_PCT[row['loan_type']]}",
        "prepayment_allowed": lock is None,
        "restriction": lock,
    }


def _foreclosure(bank: Bank, row: sqlite3.Row) -> rules.Foreclosure:
    return rules.foreclosure(
        int(row["outstanding"]),
        Decimal(row["rate"]),
        row["loan_type"],
        date.fromisoformat(row["last_emi_date"]),
        bank.today,
    )


@tool(
    "read",
    reveals=(
        Reveal(
            "loan",
            "loan_id",
            (
                "foreclosure_eligible=eligible",
                "outstanding",
                "accrued_interest",
                "foreclosure_charge",
                "total_payable",
            ),
        ),
    ),
)
def get_loan_foreclosure_quote(bank: Bank, loan_id: LoanId) -> Result:
    """Amount to close a loan today: outstanding principal, interest since the last EMI and the foreclosure charge; says when foreclosure is not allowed."""
    row = _loan(bank, loan_id)
    lock = _lock_in(row)
    if lock is not None:
        return {"loan_id": loan_id, "eligible": False, "reason": lock}
    quote = _foreclosure(bank, row)
    return {
        "loan_id": loan_id,
        "eligible": True,
        "outstanding": plain(row["outstanding"]),
        "accrued_interest": plain(quote.interest),
        "foreclosure_charge": plain(quote.charge),
        "total_payable": plain(quote.total),
        "as_of": bank.today.isoformat(),
    }


def _prepayment(row: sqlite3.Row, paise: int, option: str) -> dict[str, Any]:
    lock = _lock_in(row)
    if lock is not None:
        raise RuleViolation(f"cannot prepay {row['loan_id']}: {lock}")
    if paise < row["emi"]:
        raise RuleViolation(f"a part-prepayment must be at least one EMI (Rs {plain(row['emi'])})")
    if paise >= row["outstanding"]:
        raise RuleViolation(
            f"the amount covers the whole outstanding (Rs "
            f"{plain(row['outstanding'])}); use foreclosure instead"
        )
    rate = Decimal(row["rate"])
    remaining = row["outstanding"] - paise
    if option == "reduce_emi":
        new_emi, months = (
            rules.emi(remaining, rate, row["remaining_months"]),
            row["remaining_months"],
        )
    else:
        new_emi, months = row["emi"], rules.months_to_repay(remaining, rate, row["emi"])
    return {
        "loan_id": row["loan_id"],
        "prepayment": plain(paise),
        "charge": plain(rules.loan_charge(row["loan_type"], paise)),
        "new_outstanding": plain(remaining),
        "option": option,
        "old_emi": plain(row["emi"]),
        "new_emi": plain(new_emi),
        "old_remaining_months": row["remaining_months"],
        "new_remaining_months": months,
        "_new_emi": new_emi,
        "_months": months,
        "_remaining": remaining,
    }


def _visible(data: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in data.items() if not k.startswith("_")}


@tool("read")
def calculate_prepayment_impact(
    bank: Bank,
    loan_id: LoanId,
    amount: Rupees,
    option: rules.PrepaymentOption,
) -> Result:
    """Effect of a part-prepayment on the loan: charge, new outstanding, and the new EMI or new remaining tenure."""
    return _visible(_prepayment(_loan(bank, loan_id), to_paise(amount), option))


@tool(
    "write",
    reports=("new_emi:amount", "new_outstanding:amount", "balance_after:amount"),
    debits="from_account",
    reveals=(
        Reveal(
            "loan",
            "loan_id",
            ("outstanding=new_outstanding", "emi=new_emi", "remaining_months=new_remaining_months"),
        ),
        Reveal("account", "arg:from_account", ("balance=balance_after",)),
    ),
)
def make_loan_prepayment(
    bank: Bank,
    loan_id: LoanId,
    amount: Rupees,
    option: rules.PrepaymentOption,
    from_account: Annotated[str, Field(description="account to debit")],
) -> Result:
    """Part-prepay a loan from the customer's account, reducing the EMI or the tenure as chosen."""
    row = _loan(bank, loan_id)
    paise = to_paise(amount)
    impact = _prepayment(row, paise, option)
    charge = rules.loan_charge(row["loan_type"], paise)
    access.debit_account(bank, from_account, paise + charge)
    bank.execute(
        "UPDATE loans SET outstanding = ?, emi = ?, remaining_months = ? WHERE loan_id = ?",
        impact["_remaining"],
        impact["_new_emi"],
        impact["_months"],
        loan_id,
    )
    balance = access.post(
        bank, from_account, paise, "debit", "loan", f"Part-prepayment {row['loan_type']} loan"
    )
    if charge:
        balance = access.post(bank, from_account, charge, "debit", "charge", "Prepayment charge")
    return {"status": "success", **_visible(impact), "balance_after": plain(balance)}


@tool(
    "write",
    reports=("amount_paid:amount", "balance_after:amount"),
    debits="from_account",
    reveals=(
        Reveal("loan", "loan_id", ("foreclosure_charge",)),
        Reveal("account", "arg:from_account", ("balance=balance_after",)),
    ),
)
def foreclose_loan(
    bank: Bank,
    loan_id: LoanId,
    from_account: Annotated[str, Field(description="account to debit")],
) -> Result:
    """Close a loan today by paying the foreclosure amount from the customer's account; releases FD liens."""
    row = _loan(bank, loan_id)
    lock = _lock_in(row)
    if lock is not None:
        raise RuleViolation(f"cannot foreclose {loan_id}: {lock}")
    quote = _foreclosure(bank, row)
    access.debit_account(bank, from_account, quote.total)
    bank.execute(
        "UPDATE loans SET outstanding = 0, remaining_months = 0, status = 'closed' "
        "WHERE loan_id = ?",
        loan_id,
    )
    bank.execute("UPDATE deposits SET lien_loan_id = NULL WHERE lien_loan_id = ?", loan_id)
    balance = access.post(
        bank, from_account, quote.total, "debit", "loan", f"Foreclosure {row['loan_type']} loan"
    )
    return {
        "status": "success",
        "loan_id": loan_id,
        "amount_paid": plain(quote.total),
        "foreclosure_charge": plain(quote.charge),
        "balance_after": plain(balance),
    }
