"""Deposit tools: every tool's happy path and every refusal it can raise."""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal
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
    OpenBank,
    assert_changes,
    call,
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
    DEPOSITOR,
    FULL_KYC,
    FUNDING,
    GENERAL,
    PLAIN_FD,
    SENIOR,
    deposit_args,
    refuse_spoiled,
)

TOOLS = tools_of("tools_deposits")

LIEN_FD = (
    "d.deposit_type = 'fd' AND d.status = 'active' AND EXISTS (SELECT 1 FROM loans l "
    "WHERE l.loan_id = d.lien_loan_id AND l.status = 'active')"
)
TAX_SAVER = "d.deposit_type = 'tax_saver_fd' AND d.status = 'active'"
RD = "d.deposit_type = 'rd'"


def slab_rate(days: int, senior: bool) -> str:
    """The rate card (document 01) written out independently of rules.FD_SLABS."""
    for low, high, rate in (
        (7, 45, "3.50"),
        (46, 179, "5.00"),
        (180, 364, "6.00"),
        (365, 729, "6.80"),
        (730, 1094, "7.00"),
        (1095, 1824, "6.75"),
        (1825, 3650, "6.50"),
    ):
        if low <= days <= high:
            return f"{Decimal(rate) + (Decimal('0.50') if senior else 0):.2f}"
    raise AssertionError(days)


# -- the module as a whole -----------------------------------------------------------------------


def test_every_public_function_of_the_module_is_a_tool() -> None:
    assert public_functions("tools_deposits") == TOOLS
    assert sorted(t for t in TOOLS if get_tool(t).kind == "write") == [
        "close_fd_premature",
        "create_fd",
        "create_rd",
    ]


# -- rate card and projection ----------------------------------------------------------------------


@pytest.mark.parametrize(("condition", "senior"), [(SENIOR, True), (GENERAL, False)])
def test_get_deposit_rate_card_happy(open_bank: OpenBank, condition: str, senior: bool) -> None:
    bank = open_bank(condition)
    card = call(bank, "get_deposit_rate_card")
    general = ["3.50", "5.00", "6.00", "6.80", "7.00", "6.75", "6.50"]
    seniors = ["4.00", "5.50", "6.50", "7.30", "7.50", "7.25", "7.00"]
    assert card["as_of"] == "2026-05-15"
    assert card["customer_is_senior"] is senior
    assert card["minimum_deposit"] == "10000.00"
    assert card["tax_saver_tenure_days"] == 1825
    assert [s["tenure_days"] for s in card["slabs"]] == [
        "7-45",
        "46-179",
        "180-364",
        "365-729",
        "730-1094",
        "1095-1824",
        "1825-3650",
    ]
    assert [s["general_rate_percent"] for s in card["slabs"]] == general
    assert [s["senior_rate_percent"] for s in card["slabs"]] == seniors
    assert [s["applicable_rate_percent"] for s in card["slabs"]] == (seniors if senior else general)


@pytest.mark.parametrize(
    ("condition", "amount", "days", "rate", "interest", "maturity"),
    [
        # 1,00,000 for 365 days at 6.80%, compounded quarterly (see test_rules): 6,975.37
        (GENERAL, "100000", 365, "6.80", "6975.37", "2027-05-15"),
        # senior: 7.30%, 1.825% a quarter: 1,825.00 / 1,858.31 / 1,892.22 / 1,926.75
        (SENIOR, "100000", 365, "7.30", "7502.28", "2027-05-15"),
        # the knowledge base example: 1,00,000 for 90 days at 5.00% simple: 1,232.88
        (GENERAL, "100000", 90, "5.00", "1232.88", "2026-08-13"),
        # 50,000 for 400 days at 6.80%: four quarters to 2027-05-15 (53,487.69), then 35 days simple
        (GENERAL, "50000", 400, "6.80", "3836.46", "2027-06-19"),
        # the shortest tenure: 10,000 x 3.5% x 7 / 365 = 6.71
        (GENERAL, "10000", 7, "3.50", "6.71", "2026-05-22"),
        (SENIOR, "10000", 3650, "7.00", None, "2036-05-12"),
    ],
)
def test_calculate_fd_maturity_happy(
    open_bank: OpenBank,
    condition: str,
    amount: str,
    days: int,
    rate: str,
    interest: str | None,
    maturity: str,
) -> None:
    bank = open_bank(condition)
    got = call(bank, "calculate_fd_maturity", amount=amount, tenure_days=days)
    principal = int(Decimal(amount) * 100)
    if interest is None:
        interest = rupees(
            rules.fd_interest(principal, Decimal(rate), TODAY, TODAY + timedelta(days=days))
        )
    assert got == {
        "principal": rupees(principal),
        "tenure_days": days,
        "rate_percent": rate,
        "maturity_date": maturity,
        "interest": interest,
        "maturity_amount": f"{Decimal(amount) + Decimal(interest):.2f}",
    }
    assert got["rate_percent"] == slab_rate(days, condition == SENIOR)
    assert bank.changes().rows == ()


@pytest.mark.parametrize("days", [-1, 0, 6, 3651, 5000])
def test_calculate_fd_maturity_tenure_out_of_range(open_bank: OpenBank, days: int) -> None:
    bank = open_bank(DEPOSITOR)
    # Below the schema's 1 day the call is malformed; past it, outside the policy's limits.
    refused = InvalidArguments if days < 1 else RuleViolation
    exc = refuse(bank, "calculate_fd_maturity", {"amount": 100000, "tenure_days": days}, refused)
    assert str(days) in exc.message


# -- listing ----------------------------------------------------------------------------------------


def test_list_deposits_happy(open_bank: OpenBank) -> None:
    bank = open_bank(
        f"{has('deposits', RD)} AND {has('deposits', LIEN_FD)} AND {has('deposits', PLAIN_FD)}"
    )
    rows = bank.all(
        "SELECT * FROM deposits WHERE customer_id = ? ORDER BY start_date, deposit_id",
        bank.customer_id,
    )
    listed = call(bank, "list_deposits")["deposits"]
    assert [d["deposit_id"] for d in listed] == [r["deposit_id"] for r in rows]
    for entry, row in zip(listed, rows, strict=True):
        nominee = bank.one(
            "SELECT name, relation FROM nominees WHERE record_id = ?", row["deposit_id"]
        )
        expected: dict[str, Any] = {
            "deposit_id": row["deposit_id"],
            "deposit_type": row["deposit_type"],
            "status": row["status"],
            "rate_percent": row["rate"],
            "start_date": row["start_date"],
            "maturity_date": row["maturity_date"],
            "linked_account": row["linked_account"],
            "under_lien": row["lien_loan_id"] is not None,
            "maturity_instruction": row["maturity_instruction"],
            "nominee": dict(nominee) if nominee else None,
        }
        if row["deposit_type"] == "rd":
            expected |= {
                "monthly_instalment": rupees(row["instalment"]),
                "tenure_months": row["tenure_months"],
            }
        else:
            expected |= {"principal": rupees(row["principal"]), "tenure_days": row["tenure_days"]}
        assert entry == expected
    assert {d["deposit_type"] for d in listed} >= {"fd", "rd"}
    assert any(d["under_lien"] for d in listed) and not all(d["under_lien"] for d in listed)


def test_list_deposits_happy_none(open_bank: OpenBank) -> None:
    bank = open_bank(f"NOT {has('deposits')}")
    assert call(bank, "list_deposits") == {"deposits": []}


def test_get_deposit_details_happy_under_lien(open_bank: OpenBank) -> None:
    bank = open_bank(has("deposits", LIEN_FD))
    fd = own(bank, "deposits", LIEN_FD)
    details = call(bank, "get_deposit_details", deposit_id=fd["deposit_id"])
    assert details["under_lien"] is True
    assert details["lien_loan_id"] == fd["lien_loan_id"]
    assert (details["principal"], details["rate_percent"], details["tenure_days"]) == (
        rupees(fd["principal"]),
        fd["rate"],
        fd["tenure_days"],
    )
    assert "closed_on" not in details


def test_get_deposit_details_happy_rd(open_bank: OpenBank) -> None:
    bank = open_bank(has("deposits", RD))
    rd = own(bank, "deposits", RD)
    details = call(bank, "get_deposit_details", deposit_id=rd["deposit_id"])
    assert details["deposit_type"] == "rd"
    assert details["monthly_instalment"] == rupees(rd["instalment"])
    assert details["tenure_months"] == rd["tenure_months"]
    assert details["lien_loan_id"] is None and details["under_lien"] is False
    assert "principal" not in details


def test_get_deposit_details_happy_closed(open_bank: OpenBank) -> None:
    bank = open_bank(DEPOSITOR)
    fd = deposit_args(bank)["close_fd_premature"]["deposit_id"]
    payout = call(bank, "close_fd_premature", deposit_id=fd)["payout"]
    details = call(bank, "get_deposit_details", deposit_id=fd)
    assert (details["status"], details["closed_on"], details["payout"]) == (
        "closed",
        "2026-05-15",
        payout,
    )


# -- premature closure ------------------------------------------------------------------------------


@pytest.mark.parametrize("condition", [GENERAL, SENIOR])
def test_get_fd_closure_quote_happy(open_bank: OpenBank, condition: str) -> None:
    senior = condition == SENIOR
    bank = open_bank(f"{condition} AND {has('deposits', PLAIN_FD)}")
    fd = own(bank, "deposits", PLAIN_FD)
    start = date.fromisoformat(fd["start_date"])
    days_run = (TODAY - start).days
    applicable = Decimal(slab_rate(days_run, senior)) - 1
    interest = rules.fd_interest(fd["principal"], applicable, start, TODAY)
    full = rules.fd_interest(fd["principal"], applicable + 1, start, TODAY)
    assert call(bank, "get_fd_closure_quote", deposit_id=fd["deposit_id"]) == {
        "deposit_id": fd["deposit_id"],
        "eligible": True,
        "principal": rupees(fd["principal"]),
        "days_run": days_run,
        "booked_rate_percent": fd["rate"],
        "applicable_rate_percent": f"{applicable:.2f}",
        "interest": rupees(interest),
        "penalty": rupees(full - interest),
        "payout": rupees(fd["principal"] + interest),
        "credit_to": fd["linked_account"],
    }


@pytest.mark.parametrize(
    ("kind", "where"), [("tax saver", TAX_SAVER), ("lien", LIEN_FD), ("recurring", RD)]
)
def test_get_fd_closure_quote_happy_not_eligible(
    open_bank: OpenBank, kind: str, where: str
) -> None:
    bank = open_bank(has("deposits", where))
    dep = own(bank, "deposits", where)
    quote = call(bank, "get_fd_closure_quote", deposit_id=dep["deposit_id"])
    assert quote["eligible"] is False
    assert set(quote) == {"deposit_id", "eligible", "reason"}
    if kind == "lien":
        assert dep["lien_loan_id"] in quote["reason"]


def test_get_fd_closure_quote_happy_closed_deposit(open_bank: OpenBank) -> None:
    bank = open_bank(DEPOSITOR)
    fd = deposit_args(bank)["close_fd_premature"]["deposit_id"]
    call(bank, "close_fd_premature", deposit_id=fd)
    quote = call(bank, "get_fd_closure_quote", deposit_id=fd)
    assert quote["eligible"] is False and "closed" in quote["reason"]


def test_close_fd_premature_happy(open_bank: OpenBank) -> None:
    bank = open_bank(DEPOSITOR)
    fd = own(bank, "deposits", PLAIN_FD)
    acct = record(bank, "SELECT * FROM accounts WHERE account_number = ?", fd["linked_account"])
    quote = call(bank, "get_fd_closure_quote", deposit_id=fd["deposit_id"])
    payout = int(Decimal(quote["payout"]) * 100)
    result = call(bank, "close_fd_premature", deposit_id=fd["deposit_id"])
    after = acct["balance"] + payout
    assert result == {
        "status": "success",
        "deposit_id": fd["deposit_id"],
        "payout": quote["payout"],
        "interest": quote["interest"],
        "penalty": quote["penalty"],
        "credited_to": fd["linked_account"],
        "balance_after": rupees(after),
    }
    assert_changes(
        bank,
        updated(
            "deposits",
            fd["deposit_id"],
            status=("active", "closed"),
            closed_on=(None, "2026-05-15"),
            payout=(None, payout),
        ),
        updated("accounts", fd["linked_account"], balance=(acct["balance"], after)),
        txn(
            fd["linked_account"],
            payout,
            "credit",
            "deposit",
            "FD premature closure proceeds",
            after,
        ),
    )


def test_close_fd_premature_happy_same_day_returns_only_the_principal(open_bank: OpenBank) -> None:
    bank = open_bank(DEPOSITOR)
    acct = own(bank, "accounts", FUNDING)
    fd = call(
        bank, "create_fd", from_account=acct["account_number"], amount=25000, tenure_days=365
    )["deposit_id"]
    quote = call(bank, "get_fd_closure_quote", deposit_id=fd)
    assert (quote["days_run"], quote["interest"], quote["payout"]) == (0, "0.00", "25000.00")
    call(bank, "close_fd_premature", deposit_id=fd)
    # the balance is back where it was: only the FD row and the two postings remain
    assert_changes(
        bank,
        inserted(
            "deposits",
            customer_id=bank.customer_id,
            deposit_type="fd",
            linked_account=acct["account_number"],
            principal=25000_00,
            rate="6.80",
            tenure_days=365,
            start_date="2026-05-15",
            maturity_date="2027-05-15",
            maturity_instruction="credit_to_account",
            status="closed",
            closed_on="2026-05-15",
            payout=25000_00,
        ),
        txn(
            acct["account_number"],
            25000_00,
            "debit",
            "deposit",
            "Fixed deposit booking",
            acct["balance"] - 25000_00,
        ),
        txn(
            acct["account_number"],
            25000_00,
            "credit",
            "deposit",
            "FD premature closure proceeds",
            acct["balance"],
        ),
    )


@pytest.mark.parametrize(
    ("kind", "where"), [("tax saver", TAX_SAVER), ("lien", LIEN_FD), ("recurring", RD)]
)
def test_close_fd_premature_refused(open_bank: OpenBank, kind: str, where: str) -> None:
    bank = open_bank(has("deposits", where))
    dep = own(bank, "deposits", where)
    exc = refuse(bank, "close_fd_premature", {"deposit_id": dep["deposit_id"]}, RuleViolation)
    assert dep["deposit_id"] in exc.message


def test_close_fd_premature_twice(open_bank: OpenBank) -> None:
    bank = open_bank(DEPOSITOR)
    args = deposit_args(bank)["close_fd_premature"]
    call(bank, "close_fd_premature", **args)
    exc = refuse(bank, "close_fd_premature", args, RuleViolation)
    assert args["deposit_id"] in exc.message


def test_close_fd_premature_is_all_or_nothing(
    open_bank: OpenBank, monkeypatch: pytest.MonkeyPatch
) -> None:
    # close_fd_premature updates the deposit before it posts the payout: when the posting
    # fails, the deposit update must be rolled back with it.
    bank = open_bank(DEPOSITOR)

    def failing_post(*args: object, **kwargs: object) -> int:
        raise RuntimeError("ledger unavailable")

    monkeypatch.setattr(access, "post", failing_post)
    with pytest.raises(RuntimeError):
        call(bank, "close_fd_premature", **deposit_args(bank)["close_fd_premature"])
    assert bank.changes().rows == ()


TURNED_60 = (
    "c.date_of_birth <= '1966-05-15' AND EXISTS (SELECT 1 FROM deposits d WHERE "
    f"d.customer_id = c.customer_id AND {PLAIN_FD} AND "
    "c.date_of_birth > date(d.start_date, '-60 years'))"
)


def test_get_fd_closure_quote_uses_senior_status_at_booking(open_bank: OpenBank) -> None:
    bank = open_bank(TURNED_60)
    fd = own(
        bank,
        "deposits",
        PLAIN_FD + " AND (SELECT c.date_of_birth FROM customers c WHERE "
        "c.customer_id = d.customer_id) > date(d.start_date, '-60 years')",
    )
    start = date.fromisoformat(fd["start_date"])
    days_run = (TODAY - start).days
    assert Decimal(fd["rate"]) == Decimal(slab_rate(fd["tenure_days"], senior=False))
    quote = call(bank, "get_fd_closure_quote", deposit_id=fd["deposit_id"])
    assert quote["applicable_rate_percent"] == f"{Decimal(slab_rate(days_run, False)) - 1:.2f}"


def test_close_fd_premature_refuses_a_matured_fd(probe: Bank) -> None:
    fd = record(
        probe, f"SELECT * FROM deposits d WHERE {PLAIN_FD} ORDER BY d.maturity_date, d.deposit_id"
    )
    later = date.fromisoformat(fd["maturity_date"]) + timedelta(days=1)
    with Bank(fd["customer_id"], later) as bank:
        refuse(bank, "close_fd_premature", {"deposit_id": fd["deposit_id"]}, RuleViolation)


# -- booking ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("condition", "amount", "days", "instruction", "rate", "maturity"),
    [
        (GENERAL, "50000", 400, "renew_principal", "6.80", "2027-06-19"),
        (SENIOR, "50000", 400, None, "7.30", "2027-06-19"),
        (GENERAL, "10000", 7, "credit_to_account", "3.50", "2026-05-22"),  # both minimums
        (GENERAL, "12345.67", 1825, "renew_principal_and_interest", "6.50", "2031-05-14"),
    ],
)
def test_create_fd_happy(
    open_bank: OpenBank,
    condition: str,
    amount: str,
    days: int,
    instruction: str | None,
    rate: str,
    maturity: str,
) -> None:
    bank = open_bank(f"{FULL_KYC} AND {condition} AND {has('accounts', FUNDING)}")
    acct = own(bank, "accounts", FUNDING)
    principal = int(Decimal(amount) * 100)
    args: dict[str, Any] = {
        "from_account": acct["account_number"],
        "amount": amount,
        "tenure_days": days,
    }
    if instruction is not None:
        args["maturity_instruction"] = instruction
    projection = call(bank, "calculate_fd_maturity", amount=amount, tenure_days=days)
    result = call(bank, "create_fd", **args)
    after = acct["balance"] - principal
    assert result == {
        "status": "success",
        "deposit_id": result["deposit_id"],
        **projection,
        "balance_after": rupees(after),
    }
    assert (result["rate_percent"], result["maturity_date"]) == (rate, maturity)
    assert_changes(
        bank,
        updated("accounts", acct["account_number"], balance=(acct["balance"], after)),
        inserted(
            "deposits",
            customer_id=bank.customer_id,
            deposit_type="fd",
            linked_account=acct["account_number"],
            principal=principal,
            rate=rate,
            tenure_days=days,
            start_date="2026-05-15",
            maturity_date=maturity,
            maturity_instruction=instruction or "credit_to_account",
            status="active",
        ),
        txn(acct["account_number"], principal, "debit", "deposit", "Fixed deposit booking", after),
    )
    details = call(bank, "get_deposit_details", deposit_id=result["deposit_id"])
    assert (details["principal"], details["status"], details["under_lien"]) == (
        rupees(principal),
        "active",
        False,
    )


@pytest.mark.parametrize("kyc", ["pending", "expired"])
@pytest.mark.parametrize("tool", ["create_fd", "create_rd"])
def test_new_deposit_needs_full_kyc(open_bank: OpenBank, kyc: str, tool: str) -> None:
    bank = open_bank(f"c.kyc_status = ? AND {has('accounts', FUNDING)}", kyc)
    acct = own(bank, "accounts", FUNDING)["account_number"]
    args = (
        {"from_account": acct, "amount": 50000, "tenure_days": 400}
        if tool == "create_fd"
        else {"from_account": acct, "monthly_instalment": 1000, "tenure_months": 12}
    )
    exc = refuse(bank, tool, args, RuleViolation)
    assert kyc in exc.message


@pytest.mark.parametrize("amount", ["9999.99", "5000", "20000000.01", "50000000"])
def test_create_fd_amount_outside_limits(open_bank: OpenBank, amount: str) -> None:
    exc = refuse_spoiled(open_bank, "create_fd", {"amount": amount}, RuleViolation)
    assert f"{Decimal(amount):.2f}" in exc.message


@pytest.mark.parametrize("days", [0, 6, 3651])
def test_create_fd_tenure_out_of_range(open_bank: OpenBank, days: int) -> None:
    # A policy limit (H.29): refused as a rule, so a booking outside it counts as an attempt.
    refused = InvalidArguments if days < 1 else RuleViolation  # below 1 the schema refuses
    exc = refuse_spoiled(open_bank, "create_fd", {"tenure_days": days}, refused)
    assert str(days) in exc.message


def test_create_fd_unknown_maturity_instruction(open_bank: OpenBank) -> None:
    exc = refuse_spoiled(
        open_bank, "create_fd", {"maturity_instruction": "pay_monthly"}, InvalidArguments
    )
    assert "pay_monthly" in exc.message


DORMANT = "a.status = 'dormant'"


@pytest.mark.parametrize("tool", ["create_fd", "create_rd"])
def test_new_deposit_from_a_dormant_account(open_bank: OpenBank, tool: str) -> None:
    bank = open_bank(f"{FULL_KYC} AND {has('accounts', DORMANT)}")
    acct = own(bank, "accounts", DORMANT)["account_number"]
    args = (
        {"from_account": acct, "amount": 10000, "tenure_days": 400}
        if tool == "create_fd"
        else {"from_account": acct, "monthly_instalment": 500, "tenure_months": 12}
    )
    exc = refuse(bank, tool, args, RuleViolation)
    assert acct in exc.message


POOR = "a.status = 'active' AND a.hold_amount = 0 AND a.balance BETWEEN 1000000 AND 5000000"
HELD = "a.status = 'active' AND a.hold_amount >= 1000000 AND a.balance - a.hold_amount >= 1000000"


def test_create_fd_above_the_balance(open_bank: OpenBank) -> None:
    bank = open_bank(f"{FULL_KYC} AND {has('accounts', POOR)}")
    acct = own(bank, "accounts", POOR)
    refuse(
        bank,
        "create_fd",
        {
            "from_account": acct["account_number"],
            "amount": rupees(acct["balance"] + 1),
            "tenure_days": 400,
        },
        InsufficientFunds,
    )


def test_create_fd_hold_reduces_the_available_balance(open_bank: OpenBank) -> None:
    bank = open_bank(f"{FULL_KYC} AND {has('accounts', HELD)}")
    acct = own(bank, "accounts", HELD)
    available = acct["balance"] - acct["hold_amount"]
    args = {"from_account": acct["account_number"], "tenure_days": 400}
    refuse(bank, "create_fd", {**args, "amount": rupees(available + 1)}, InsufficientFunds)
    refuse(bank, "create_fd", {**args, "amount": rupees(acct["balance"])}, InsufficientFunds)
    call(bank, "create_fd", **args, amount=rupees(available))


@pytest.mark.parametrize(
    ("condition", "months", "rate"),
    [
        # document 06: the slab of months x 30 days
        (GENERAL, 6, "6.00"),
        (GENERAL, 12, "6.00"),
        (GENERAL, 15, "6.80"),
        (GENERAL, 24, "6.80"),
        (GENERAL, 27, "7.00"),
        (GENERAL, 36, "7.00"),
        (GENERAL, 39, "6.75"),
        (GENERAL, 60, "6.75"),
        (GENERAL, 63, "6.50"),
        (GENERAL, 120, "6.50"),
        (SENIOR, 12, "6.50"),
        (SENIOR, 36, "7.50"),
        (SENIOR, 120, "7.00"),
    ],
)
def test_create_rd_happy(open_bank: OpenBank, condition: str, months: int, rate: str) -> None:
    bank = open_bank(f"{FULL_KYC} AND {condition} AND {has('accounts', FUNDING)}")
    acct = own(bank, "accounts", FUNDING)
    maturity = date(2026 + (4 + months) // 12, (4 + months) % 12 + 1, 15).isoformat()
    result = call(
        bank,
        "create_rd",
        from_account=acct["account_number"],
        monthly_instalment="2500",
        tenure_months=months,
    )
    after = acct["balance"] - 2500_00
    assert result == {
        "status": "success",
        "deposit_id": result["deposit_id"],
        "rate_percent": rate,
        "monthly_instalment": "2500.00",
        "tenure_months": months,
        "maturity_date": maturity,
        "balance_after": rupees(after),
    }
    assert_changes(
        bank,
        updated("accounts", acct["account_number"], balance=(acct["balance"], after)),
        inserted(
            "deposits",
            customer_id=bank.customer_id,
            deposit_type="rd",
            linked_account=acct["account_number"],
            instalment=2500_00,
            rate=rate,
            tenure_months=months,
            start_date="2026-05-15",
            maturity_date=maturity,
            maturity_instruction="credit_to_account",
            status="active",
        ),
        txn(
            acct["account_number"],
            2500_00,
            "debit",
            "deposit",
            "Recurring deposit instalment",
            after,
        ),
    )


def test_create_rd_happy_minimum_instalment(open_bank: OpenBank) -> None:
    bank = open_bank(DEPOSITOR)
    result = call(
        bank, "create_rd", **{**deposit_args(bank)["create_rd"], "monthly_instalment": 500}
    )
    assert result["monthly_instalment"] == "500.00"


@pytest.mark.parametrize("instalment", ["450", "499", "750", "550.50", "1001", "100"])
def test_create_rd_instalment_not_a_multiple_of_100_or_below_500(
    open_bank: OpenBank, instalment: str
) -> None:
    exc = refuse_spoiled(open_bank, "create_rd", {"monthly_instalment": instalment}, RuleViolation)
    assert f"{Decimal(instalment):.2f}" in exc.message


@pytest.mark.parametrize("months", [0, 3, 10, 13, 123, 126])
def test_create_rd_tenure_out_of_range(open_bank: OpenBank, months: int) -> None:
    refused = InvalidArguments if months < 1 else RuleViolation  # below 1 the schema refuses
    exc = refuse_spoiled(open_bank, "create_rd", {"tenure_months": months}, refused)
    assert str(months) in exc.message


def test_create_rd_above_the_available_balance(open_bank: OpenBank) -> None:
    bank = open_bank(f"{FULL_KYC} AND {has('accounts', HELD)}")
    acct = own(bank, "accounts", HELD)
    # set up: leave Rs 499 available
    bank.execute(
        "UPDATE accounts SET hold_amount = balance - 49900 WHERE account_number = ?",
        acct["account_number"],
    )
    refuse(
        bank,
        "create_rd",
        {"from_account": acct["account_number"], "monthly_instalment": 500, "tenure_months": 12},
        InsufficientFunds,
    )
