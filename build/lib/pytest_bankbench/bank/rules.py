"""The bank's product rules as numbers and pure calculations (the policy documents state the same)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta
from decimal import Decimal
from typing import Literal

from pytest_bankbench.money import round_paise

BANK_NAME = "Suvarna Bank Ltd."
IFSC_PREFIX = "SUVB0"

TransferMode = Literal["NEFT", "IMPS", "RTGS"]
CardChannel = Literal["atm", "pos", "online", "contactless", "international"]
BlockReason = Literal["lost", "stolen", "damaged", "suspected_fraud"]
PrepaymentOption = Literal["reduce_emi", "reduce_tenure"]
MaturityInstruction = Literal[
    "renew_principal_and_interest", "renew_principal", "credit_to_account"
]
StatementDelivery = Literal["email", "post"]
ChequeBookDelivery = Literal["registered_address", "home_branch"]

# Per-transaction limits in paise: (minimum, maximum).
TRANSFER_LIMITS: dict[str, tuple[int, int]] = {
    "NEFT": (100, 10_00_000_00),
    "IMPS": (100, 5_00_000_00),
    "RTGS": (2_00_000_00, 25_00_000_00),
}
COOLING_LIMIT = 50_000_00

# FD rate card: (min days, max days, % p.a. general public).
FD_SLABS: tuple[tuple[int, int, Decimal], ...] = (
    (7, 45, Decimal("3.50")),
    (46, 179, Decimal("5.00")),
    (180, 364, Decimal("6.00")),
    (365, 729, Decimal("6.80")),
    (730, 1094, Decimal("7.00")),
    (1095, 1824, Decimal("6.75")),
    (1825, 3650, Decimal("6.50")),
)
SENIOR_BONUS = Decimal("0.50")
SENIOR_AGE = 60
PREMATURE_PENALTY = Decimal("1.00")
FD_MIN = 10_000_00
FD_MAX = 2_00_00_000_00
FD_MIN_DAYS, FD_MAX_DAYS = 7, 3650
TAX_SAVER_DAYS = 1825
COMPOUNDING_FROM_DAYS = 180
RD_MIN_INSTALMENT = 500_00
RD_STEP = 100_00

# Loan charges in % of the amount prepaid or of the outstanding principal at foreclosure.
LOAN_CHARGE_PCT: dict[str, Decimal] = {
    "home": Decimal("0"),
    "gold": Decimal("0"),
    "car": Decimal("3"),
    "personal": Decimal("4"),
}
PERSONAL_LOCK_IN_EMIS = 12

# Card channel maximums in paise by card product; None = up to the credit limit.
CARD_PRODUCTS: dict[str, dict[str, int | None]] = {
    "RuPay Classic Debit": {
        "atm": 25_000_00,
        "pos": 50_000_00,
        "online": 50_000_00,
        "contactless": 5_000_00,
    },
    "Visa Platinum Debit": {
        "atm": 1_00_000_00,
        "pos": 2_00_000_00,
        "online": 2_00_000_00,
        "contactless": 5_000_00,
    },
    "Suvarna Rewards Credit": {
        "atm": 50_000_00,
        "pos": None,
        "online": None,
        "contactless": 5_000_00,
    },
    "Suvarna Secured Credit": {
        "atm": 50_000_00,
        "pos": None,
        "online": None,
        "contactless": 5_000_00,
    },
}
INTERNATIONAL_CAPABLE = frozenset({"Visa Platinum Debit", "Suvarna Rewards Credit"})
CARD_BILL_MIN_PAYMENT = 100_00
STOP_CHEQUE_FEE = 100_00
CHEQUE_LEAVES = (25, 50, 100)
STATEMENT_HISTORY_YEARS = 5


def age_on(born: date, today: date) -> int:
    """Completed years of age on a date."""
    return today.year - born.year - ((today.month, today.day) < (born.month, born.day))


def fd_rate(days: int, senior: bool) -> Decimal:
    """Card rate (% p.a.) for a tenure in days; raises ValueError outside 7-3650 days."""
    for low, high, rate in FD_SLABS:
        if low <= days <= high:
            return rate + (SENIOR_BONUS if senior else Decimal(0))
    raise ValueError(f"tenure {days} days is outside {FD_MIN_DAYS}-{FD_MAX_DAYS} days")


def add_months(start: date, months: int) -> date:
    """Same day of month `months` later, clamped to the month's last day."""
    month_index = start.month - 1 + months
    year, month = start.year + month_index // 12, month_index % 12 + 1
    for day in range(start.day, 27, -1):
        try:
            return date(year, month, day)
        except ValueError:
            continue
    return date(year, month, min(start.day, 28))


def fd_interest(principal: int, rate: Decimal, start: date, end: date) -> int:
    """Interest in paise: simple below 180 days, else quarterly compounding with simple remainder."""
    days = (end - start).days
    yearly = rate / 100
    if days < COMPOUNDING_FROM_DAYS:
        return round_paise(Decimal(principal) * yearly * days / 365)
    amount = Decimal(principal)
    cursor, quarters = start, 0
    while add_months(start, 3 * (quarters + 1)) <= end:
        quarters += 1
        amount += round_paise(amount * yearly / 4)
        cursor = add_months(start, 3 * quarters)
    rest = (end - cursor).days
    amount += round_paise(amount * yearly * rest / 365)
    return round_paise(amount) - principal


@dataclass(frozen=True)
class ClosureQuote:
    """What a premature FD closure would pay today."""

    days_run: int
    applicable_rate: Decimal
    interest: int
    penalty_interest: int
    payout: int


def fd_closure_quote(principal: int, start: date, today: date, senior: bool) -> ClosureQuote:
    """Premature closure per policy: the run period's slab rate minus 1%, nothing within 7 days."""
    days = (today - start).days
    if days < FD_MIN_DAYS:
        return ClosureQuote(days, Decimal("0.00"), 0, 0, principal)
    slab = fd_rate(min(days, FD_MAX_DAYS), senior)
    applicable = max(slab - PREMATURE_PENALTY, Decimal(0))
    full = fd_interest(principal, slab, start, today)
    interest = fd_interest(principal, applicable, start, today)
    return ClosureQuote(days, applicable, interest, full - interest, principal + interest)


def emi(principal: int, rate: Decimal, months: int) -> int:
    """Equated monthly instalment in paise (reducing balance)."""
    if months <= 0:
        raise ValueError("months must be positive")
    monthly = rate / 100 / 12
    if monthly == 0:
        return round_paise(Decimal(principal) / months)
    factor = (1 + monthly) ** months
    return round_paise(Decimal(principal) * monthly * factor / (factor - 1))


def months_to_repay(principal: int, rate: Decimal, instalment: int) -> int:
    """Number of instalments of `instalment` paise that repay `principal`."""
    monthly = rate / 100 / 12
    balance, months = Decimal(principal), 0
    while balance > 0:
        months += 1
        balance = balance * (1 + monthly) - instalment
        if months > 1200:
            raise ValueError("instalment does not cover the interest")
    return months


def accrued_interest(outstanding: int, rate: Decimal, since: date, today: date) -> int:
    """Simple interest on the outstanding principal from the last EMI date to today."""
    days = max((today - since).days, 0)
    return round_paise(Decimal(outstanding) * rate / 100 * days / 365)


@dataclass(frozen=True)
class Foreclosure:
    """What closing a loan today costs, in paise."""

    interest: int
    charge: int
    total: int


def foreclosure(
    outstanding: int, rate: Decimal, loan_type: str, last_emi: date, today: date
) -> Foreclosure:
    """Outstanding principal + interest since the last EMI + the foreclosure charge."""
    interest = accrued_interest(outstanding, rate, last_emi, today)
    charge = loan_charge(loan_type, outstanding)
    return Foreclosure(interest, charge, outstanding + interest + charge)


def loan_charge(loan_type: str, amount: int) -> int:
    """Prepayment or foreclosure charge in paise for a loan type."""
    return round_paise(Decimal(amount) * LOAN_CHARGE_PCT[loan_type] / 100)


def minimum_due(outstanding: int) -> int:
    """5% of the outstanding, at least Rs 200, never more than the outstanding."""
    return min(outstanding, max(round_paise(Decimal(outstanding) * 5 / 100), 200_00))


def previous_day(day: date) -> date:
    """The calendar day before."""
    return day - timedelta(days=1)
