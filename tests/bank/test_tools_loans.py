"""Loan tools: every tool's happy path and every refusal it can raise."""

from __future__ import annotations

import sqlite3
from datetime import date
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

import pytest

from pytest_bankbench.bank import access, rules
from pytest_bankbench.bank.errors import (
    InsufficientFunds,
    InvalidArguments,
    RuleViolation,
)
from pytest_bankbench.bank.registry import get_tool
from pytest_bankbench.bank.store import Bank
from tests.bank.bank_testkit import (
    TODAY,
    Change,
    OpenBank,
    assert_changes,
    call,
    has,
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
    BORROWER,
    CAR,
    covered,
    loan_args,
    loan_of,
    paying_account,
    refuse_spoiled,
)

TOOLS = tools_of("tools_loans")

CHARGE_PERCENT = {"home": "0", "gold": "0", "car": "3", "personal": "4"}


LOCKED = "l.loan_type = 'personal' AND l.emis_paid < 12"


def paise_of(text: str) -> int:
    return int(Decimal(text) * 100)


def expected_interest(loan: sqlite3.Row) -> int:
    """Document 19: outstanding x rate x days since the last EMI / 365, rounded to the paisa."""
    days = (TODAY - date.fromisoformat(loan["last_emi_date"])).days
    value = Decimal(loan["outstanding"]) * Decimal(loan["rate"]) / 100 * days / 365
    return int(value.quantize(Decimal(1), rounding=ROUND_HALF_UP))


def expected_charge(loan: sqlite3.Row, amount: int) -> int:
    value = Decimal(amount) * Decimal(CHARGE_PERCENT[loan["loan_type"]]) / 100
    return int(value.quantize(Decimal(1), rounding=ROUND_HALF_UP))


# -- the module as a whole -----------------------------------------------------------------------


def test_every_public_function_of_the_module_is_a_tool() -> None:
    assert public_functions("tools_loans") == TOOLS
    assert sorted(t for t in TOOLS if get_tool(t).kind == "write") == [
        "foreclose_loan",
        "make_loan_prepayment",
    ]


@pytest.mark.parametrize("tool", ["calculate_prepayment_impact", "make_loan_prepayment"])
@pytest.mark.parametrize("option", ["reduce_both", "REDUCE_EMI", ""])
def test_unknown_prepayment_option(open_bank: OpenBank, tool: str, option: str) -> None:
    exc = refuse_spoiled(open_bank, tool, {"option": option}, InvalidArguments)
    assert "option" in exc.message


# -- reads ------------------------------------------------------------------------------------------


def _public(row: sqlite3.Row) -> dict[str, Any]:
    return {
        "loan_id": row["loan_id"],
        "loan_type": row["loan_type"],
        "status": row["status"],
        "principal": rupees(row["principal"]),
        "outstanding": rupees(row["outstanding"]),
        "rate_percent": row["rate"],
        "emi": rupees(row["emi"]),
        "remaining_months": row["remaining_months"],
        "emis_paid": row["emis_paid"],
        "next_due_date": row["next_due_date"],
        "linked_account": row["linked_account"],
    }


def test_list_loans_happy(open_bank: OpenBank) -> None:
    bank = open_bank("(SELECT COUNT(*) FROM loans l WHERE l.customer_id = c.customer_id) >= 2")
    rows = bank.all(
        "SELECT * FROM loans WHERE customer_id = ? ORDER BY disbursed_on, loan_id", bank.customer_id
    )
    assert call(bank, "list_loans") == {"loans": [_public(r) for r in rows]}


def test_list_loans_happy_none(open_bank: OpenBank) -> None:
    bank = open_bank(f"NOT {has('loans')}")
    assert call(bank, "list_loans") == {"loans": []}


@pytest.mark.parametrize(
    ("where", "allowed"),
    [
        (loan_of("home"), True),
        (loan_of("gold"), True),
        (loan_of("car"), True),
        (loan_of("personal"), True),
        ("l.loan_type = 'personal' AND l.emis_paid = 12", True),
        (LOCKED, False),
        ("l.loan_type = 'personal' AND l.emis_paid = 11", False),
    ],
)
def test_get_loan_details_happy(open_bank: OpenBank, where: str, allowed: bool) -> None:
    bank = open_bank(has("loans", where))
    loan = own(bank, "loans", where)
    details = call(bank, "get_loan_details", loan_id=loan["loan_id"])
    restriction = details.pop("restriction")
    assert details == {
        **_public(loan),
        "tenure_months": loan["tenure_months"],
        "disbursed_on": loan["disbursed_on"],
        "last_emi_date": loan["last_emi_date"],
        "prepayment_charge_percent": CHARGE_PERCENT[loan["loan_type"]],
        "prepayment_allowed": allowed,
    }
    if allowed:
        assert restriction is None
    else:
        assert f"{loan['emis_paid']} have been paid" in restriction


@pytest.mark.parametrize("kind", ["home", "gold", "car", "personal"])
def test_get_loan_foreclosure_quote_happy(open_bank: OpenBank, kind: str) -> None:
    bank = open_bank(has("loans", loan_of(kind)))
    loan = own(bank, "loans", loan_of(kind))
    interest = expected_interest(loan)
    charge = expected_charge(loan, loan["outstanding"])
    assert (charge == 0) is (kind in ("home", "gold"))
    assert call(bank, "get_loan_foreclosure_quote", loan_id=loan["loan_id"]) == {
        "loan_id": loan["loan_id"],
        "eligible": True,
        "outstanding": rupees(loan["outstanding"]),
        "accrued_interest": rupees(interest),
        "foreclosure_charge": rupees(charge),
        "total_payable": rupees(loan["outstanding"] + interest + charge),
        "as_of": "2026-05-15",
    }


def test_get_loan_foreclosure_quote_happy_lock_in(open_bank: OpenBank) -> None:
    bank = open_bank(has("loans", LOCKED))
    loan = own(bank, "loans", LOCKED)
    quote = call(bank, "get_loan_foreclosure_quote", loan_id=loan["loan_id"])
    assert quote["eligible"] is False
    assert set(quote) == {"loan_id", "eligible", "reason"}
    assert f"{loan['emis_paid']} have been paid" in quote["reason"]


def _simulate_months(balance: int, rate: Decimal, emi: int) -> int:
    """How many EMIs repay the balance, month by month (independent of rules.months_to_repay)."""
    left, months = Decimal(balance), 0
    while left > 0:
        left = left * (1 + rate / 1200) - emi
        months += 1
    return months


@pytest.mark.parametrize("kind", ["home", "gold", "car", "personal"])
@pytest.mark.parametrize("option", ["reduce_emi", "reduce_tenure"])
def test_calculate_prepayment_impact_happy(open_bank: OpenBank, kind: str, option: str) -> None:
    where = loan_of(kind, "l.outstanding > 4 * l.emi")
    bank = open_bank(has("loans", where))
    loan = own(bank, "loans", where)
    paise = 2 * loan["emi"]
    remaining = loan["outstanding"] - paise
    rate = Decimal(loan["rate"])
    impact = call(
        bank,
        "calculate_prepayment_impact",
        loan_id=loan["loan_id"],
        amount=rupees(paise),
        option=option,
    )
    if option == "reduce_emi":
        new_emi, months = (
            rules.emi(remaining, rate, loan["remaining_months"]),
            loan["remaining_months"],
        )
        assert new_emi < loan["emi"]
    else:
        new_emi, months = loan["emi"], _simulate_months(remaining, rate, loan["emi"])
        assert months < loan["remaining_months"]
    assert impact == {
        "loan_id": loan["loan_id"],
        "prepayment": rupees(paise),
        "charge": rupees(expected_charge(loan, paise)),
        "new_outstanding": rupees(remaining),
        "option": option,
        "old_emi": rupees(loan["emi"]),
        "new_emi": rupees(new_emi),
        "old_remaining_months": loan["remaining_months"],
        "new_remaining_months": months,
    }
    assert bank.changes().rows == ()


def test_calculate_prepayment_impact_happy_limits(open_bank: OpenBank) -> None:
    # exactly one EMI and one paisa less than the outstanding are both accepted
    bank = open_bank(BORROWER)
    loan = own(bank, "loans", CAR)
    for paise in (loan["emi"], loan["outstanding"] - 1):
        impact = call(
            bank,
            "calculate_prepayment_impact",
            loan_id=loan["loan_id"],
            amount=rupees(paise),
            option="reduce_tenure",
        )
        assert impact["new_outstanding"] == rupees(loan["outstanding"] - paise)
    assert impact["new_remaining_months"] == 1


# -- refusals shared by the prepayment tools ---------------------------------------------------------


def _prepay_args(bank: Bank, tool: str, loan: sqlite3.Row, paise: int) -> dict[str, Any]:
    args: dict[str, Any] = {
        "loan_id": loan["loan_id"],
        "amount": rupees(paise),
        "option": "reduce_emi",
    }
    if tool == "make_loan_prepayment":
        args["from_account"] = paying_account(bank, loan, 0.0)["account_number"]
    return args


PREPAY_TOOLS = ["calculate_prepayment_impact", "make_loan_prepayment"]


@pytest.mark.parametrize("tool", [*PREPAY_TOOLS, "foreclose_loan"])
def test_personal_loan_lock_in(open_bank: OpenBank, tool: str) -> None:
    where = f"{LOCKED} AND {covered('1.2')}"
    bank = open_bank(has("loans", where))
    loan = own(bank, "loans", where)
    args = _prepay_args(bank, tool, loan, loan["emi"])
    if tool == "foreclose_loan":
        args = {
            "loan_id": loan["loan_id"],
            "from_account": paying_account(bank, loan)["account_number"],
        }
    exc = refuse(bank, tool, args, RuleViolation)
    assert loan["loan_id"] in exc.message


@pytest.mark.parametrize("tool", PREPAY_TOOLS)
def test_prepayment_below_one_emi(open_bank: OpenBank, tool: str) -> None:
    bank = open_bank(BORROWER)
    loan = own(bank, "loans", CAR)
    exc = refuse(bank, tool, _prepay_args(bank, tool, loan, loan["emi"] - 1), RuleViolation)
    assert rupees(loan["emi"]) in exc.message


@pytest.mark.parametrize("tool", PREPAY_TOOLS)
@pytest.mark.parametrize("over", [0, 1, 1_00_000_00])
def test_prepayment_of_the_whole_outstanding(open_bank: OpenBank, tool: str, over: int) -> None:
    bank = open_bank(BORROWER)
    loan = own(bank, "loans", CAR)
    exc = refuse(
        bank, tool, _prepay_args(bank, tool, loan, loan["outstanding"] + over), RuleViolation
    )
    assert rupees(loan["outstanding"]) in exc.message


# -- prepayment --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kind", "option"),
    [
        ("car", "reduce_emi"),
        ("car", "reduce_tenure"),
        ("home", "reduce_tenure"),
        ("gold", "reduce_emi"),
        ("personal", "reduce_tenure"),
    ],
)
def test_make_loan_prepayment_happy(open_bank: OpenBank, kind: str, option: str) -> None:
    where = loan_of(
        kind,
        f"l.outstanding > 4 * l.emi AND {covered('0.2')} AND "
        "EXISTS (SELECT 1 FROM accounts a WHERE a.customer_id = l.customer_id "
        "AND a.status = 'active' AND a.balance - a.hold_amount > 3 * l.emi)",
    )
    bank = open_bank(has("loans", where))
    loan = own(bank, "loans", where)
    paise = 2 * loan["emi"]
    acct = record(
        bank,
        "SELECT * FROM accounts WHERE customer_id = ? AND status = 'active' AND "
        "balance - hold_amount > ? ORDER BY account_number",
        bank.customer_id,
        3 * loan["emi"],
    )
    impact = call(
        bank,
        "calculate_prepayment_impact",
        loan_id=loan["loan_id"],
        amount=rupees(paise),
        option=option,
    )
    result = call(
        bank,
        "make_loan_prepayment",
        loan_id=loan["loan_id"],
        amount=rupees(paise),
        option=option,
        from_account=acct["account_number"],
    )
    charge = expected_charge(loan, paise)
    after = acct["balance"] - paise - charge
    assert result == {"status": "success", **impact, "balance_after": rupees(after)}
    loan_fields: dict[str, tuple[int, int]] = {
        "outstanding": (loan["outstanding"], loan["outstanding"] - paise)
    }
    if option == "reduce_emi":
        loan_fields["emi"] = (loan["emi"], paise_of(impact["new_emi"]))
    else:
        loan_fields["remaining_months"] = (loan["remaining_months"], impact["new_remaining_months"])
    postings = [
        txn(
            acct["account_number"],
            paise,
            "debit",
            "loan",
            f"Part-prepayment {kind} loan",
            acct["balance"] - paise,
        )
    ]
    if charge:
        postings.append(
            txn(acct["account_number"], charge, "debit", "charge", "Prepayment charge", after)
        )
    assert (charge > 0) is (kind in ("car", "personal"))
    assert_changes(
        bank,
        updated("loans", loan["loan_id"], **loan_fields),
        updated("accounts", acct["account_number"], balance=(acct["balance"], after)),
        *postings,
    )


def test_make_loan_prepayment_charge_needs_available_balance(open_bank: OpenBank) -> None:
    bank = open_bank(BORROWER)
    args = loan_args(bank)["make_loan_prepayment"]
    loan = own(bank, "loans", CAR)
    charge = expected_charge(loan, loan["emi"])
    assert charge > 0
    # set up: enough for the prepayment itself but one paisa short of prepayment + charge
    bank.execute(
        "UPDATE accounts SET hold_amount = balance - ? WHERE account_number = ?",
        loan["emi"] + charge - 1,
        args["from_account"],
    )
    exc = refuse(bank, "make_loan_prepayment", args, InsufficientFunds)
    assert rupees(loan["emi"] + charge) in exc.message


DORMANT = "a.status = 'dormant'"


@pytest.mark.parametrize("tool", ["make_loan_prepayment", "foreclose_loan"])
def test_loan_payment_from_a_dormant_account(open_bank: OpenBank, tool: str) -> None:
    where = loan_of("car", "l.outstanding > 4 * l.emi")
    bank = open_bank(f"{has('loans', where)} AND {has('accounts', DORMANT)}")
    loan = own(bank, "loans", where)
    dormant = own(bank, "accounts", DORMANT)["account_number"]
    args: dict[str, Any] = {"loan_id": loan["loan_id"], "from_account": dormant}
    if tool == "make_loan_prepayment":
        args |= {"amount": rupees(loan["emi"]), "option": "reduce_emi"}
    exc = refuse(bank, tool, args, RuleViolation)
    assert dormant in exc.message


def test_make_loan_prepayment_on_a_closed_loan(open_bank: OpenBank) -> None:
    bank = open_bank(BORROWER)
    args = loan_args(bank)
    call(bank, "foreclose_loan", **args["foreclose_loan"])
    exc = refuse(bank, "make_loan_prepayment", args["make_loan_prepayment"], RuleViolation)
    assert "closed" in exc.message


# -- foreclosure ------------------------------------------------------------------------------------


def foreclosure(loan: sqlite3.Row, acct: sqlite3.Row, total: int) -> list[Change]:
    """The expected changes of paying `total` from `acct` to close `loan` (liens aside)."""
    after = acct["balance"] - total
    return [
        updated(
            "loans",
            loan["loan_id"],
            outstanding=(loan["outstanding"], 0),
            remaining_months=(loan["remaining_months"], 0),
            status=("active", "closed"),
        ),
        updated("accounts", acct["account_number"], balance=(acct["balance"], after)),
        txn(
            acct["account_number"],
            total,
            "debit",
            "loan",
            f"Foreclosure {loan['loan_type']} loan",
            after,
        ),
    ]


@pytest.mark.parametrize("kind", ["car", "gold", "personal"])
def test_foreclose_loan_happy(open_bank: OpenBank, kind: str) -> None:
    where = loan_of(
        kind,
        f"{covered()} AND NOT EXISTS (SELECT 1 FROM deposits d WHERE d.lien_loan_id = l.loan_id)",
    )
    bank = open_bank(has("loans", where))
    loan = own(bank, "loans", where)
    acct = paying_account(bank, loan)
    quote = call(bank, "get_loan_foreclosure_quote", loan_id=loan["loan_id"])
    total = (
        loan["outstanding"] + expected_interest(loan) + expected_charge(loan, loan["outstanding"])
    )
    assert quote["total_payable"] == rupees(total)
    result = call(
        bank, "foreclose_loan", loan_id=loan["loan_id"], from_account=acct["account_number"]
    )
    after = acct["balance"] - total
    assert result == {
        "status": "success",
        "loan_id": loan["loan_id"],
        "amount_paid": rupees(total),
        "foreclosure_charge": quote["foreclosure_charge"],
        "balance_after": rupees(after),
    }
    assert loan["loan_type"] == kind
    assert_changes(bank, *foreclosure(loan, acct, total))
    closed = call(bank, "get_loan_details", loan_id=loan["loan_id"])
    assert (closed["status"], closed["outstanding"], closed["prepayment_allowed"]) == (
        "closed",
        "0.00",
        False,
    )
    assert call(bank, "get_loan_foreclosure_quote", loan_id=loan["loan_id"])["eligible"] is False


LIEN_LOAN = loan_of(
    "gold",
    f"{covered()} AND EXISTS (SELECT 1 FROM deposits d WHERE "
    "d.lien_loan_id = l.loan_id AND d.deposit_type = 'fd')",
)


def test_foreclose_loan_happy_releases_the_fd_lien(open_bank: OpenBank) -> None:
    bank = open_bank(has("loans", LIEN_LOAN))
    loan = own(bank, "loans", LIEN_LOAN)
    acct = paying_account(bank, loan)
    fds = bank.all(
        "SELECT * FROM deposits WHERE lien_loan_id = ? ORDER BY deposit_id", loan["loan_id"]
    )
    fd = next(f for f in fds if f["deposit_type"] == "fd")
    # before: the FD is under lien and cannot be closed
    assert call(bank, "get_fd_closure_quote", deposit_id=fd["deposit_id"])["eligible"] is False
    refuse(bank, "close_fd_premature", {"deposit_id": fd["deposit_id"]}, RuleViolation)
    result = call(
        bank, "foreclose_loan", loan_id=loan["loan_id"], from_account=acct["account_number"]
    )
    assert_changes(
        bank,
        *foreclosure(loan, acct, paise_of(result["amount_paid"])),
        *(updated("deposits", f["deposit_id"], lien_loan_id=(loan["loan_id"], None)) for f in fds),
    )
    # after: the lien is released and the FD can be closed
    details = call(bank, "get_deposit_details", deposit_id=fd["deposit_id"])
    assert (details["under_lien"], details["lien_loan_id"]) == (False, None)
    assert call(bank, "get_fd_closure_quote", deposit_id=fd["deposit_id"])["eligible"] is True
    closed = call(bank, "close_fd_premature", deposit_id=fd["deposit_id"])
    assert closed["status"] == "success"


def test_foreclose_loan_is_all_or_nothing(
    open_bank: OpenBank, monkeypatch: pytest.MonkeyPatch
) -> None:
    # foreclose_loan closes the loan and releases liens before it posts the debit
    bank = open_bank(has("loans", LIEN_LOAN))
    loan = own(bank, "loans", LIEN_LOAN)

    def failing_post(*args: object, **kwargs: object) -> int:
        raise RuntimeError("ledger unavailable")

    monkeypatch.setattr(access, "post", failing_post)
    with pytest.raises(RuntimeError):
        call(
            bank,
            "foreclose_loan",
            loan_id=loan["loan_id"],
            from_account=paying_account(bank, loan)["account_number"],
        )
    assert bank.changes().rows == ()


def test_foreclose_loan_twice(open_bank: OpenBank) -> None:
    bank = open_bank(BORROWER)
    args = loan_args(bank)["foreclose_loan"]
    call(bank, "foreclose_loan", **args)
    exc = refuse(bank, "foreclose_loan", args, RuleViolation)
    assert args["loan_id"] in exc.message and "closed" in exc.message


def test_foreclose_loan_above_the_available_balance(open_bank: OpenBank) -> None:
    bank = open_bank(BORROWER)
    args = loan_args(bank)["foreclose_loan"]
    total = paise_of(
        call(bank, "get_loan_foreclosure_quote", loan_id=args["loan_id"])["total_payable"]
    )
    # set up: one paisa short of the foreclosure amount
    bank.execute(
        "UPDATE accounts SET hold_amount = balance - ? WHERE account_number = ?",
        total - 1,
        args["from_account"],
    )
    exc = refuse(bank, "foreclose_loan", args, InsufficientFunds)
    assert rupees(total) in exc.message
