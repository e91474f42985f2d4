"""The bank's rules as pure calculations, checked against hand-computed values and the policy."""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal

import pytest

from pytest_bankbench.bank import rules

# -- FD rate card ------------------------------------------------------------------------------

SLAB_EDGES: list[tuple[int, str]] = [
    (7, "3.50"),
    (45, "3.50"),
    (46, "5.00"),
    (179, "5.00"),
    (180, "6.00"),
    (364, "6.00"),
    (365, "6.80"),
    (729, "6.80"),
    (730, "7.00"),
    (1094, "7.00"),
    (1095, "6.75"),
    (1824, "6.75"),
    (1825, "6.50"),
    (3650, "6.50"),
]


@pytest.mark.parametrize(("days", "rate"), SLAB_EDGES)
def test_fd_rate_slab_edges_general_public(days: int, rate: str) -> None:
    assert rules.fd_rate(days, senior=False) == Decimal(rate)


@pytest.mark.parametrize(("days", "rate"), SLAB_EDGES)
def test_fd_rate_senior_bonus_is_half_a_percent_on_every_slab(days: int, rate: str) -> None:
    assert rules.fd_rate(days, senior=True) == Decimal(rate) + Decimal("0.50")


@pytest.mark.parametrize("days", [-1, 0, 6, 3651, 10_000])
def test_fd_rate_outside_7_to_3650_days_is_an_error(days: int) -> None:
    with pytest.raises(ValueError, match=str(days)):
        rules.fd_rate(days, senior=False)


def test_tax_saver_tenure_uses_the_1825_day_slab() -> None:
    assert rules.fd_rate(rules.TAX_SAVER_DAYS, senior=False) == Decimal("6.50")
    assert rules.fd_rate(rules.TAX_SAVER_DAYS, senior=True) == Decimal("7.00")


@pytest.mark.parametrize(
    ("born", "on", "age"),
    [
        (date(1966, 5, 15), date(2026, 5, 15), 60),  # birthday today
        (date(1966, 5, 16), date(2026, 5, 15), 59),  # birthday tomorrow
        (date(1966, 5, 14), date(2026, 5, 15), 60),
        (date(1966, 12, 31), date(2026, 1, 1), 59),
    ],
)
def test_age_on_counts_completed_years(born: date, on: date, age: int) -> None:
    assert rules.age_on(born, on) == age


@pytest.mark.parametrize(
    ("start", "months", "expected"),
    [
        (date(2026, 5, 15), 3, date(2026, 8, 15)),
        (date(2026, 5, 15), 12, date(2027, 5, 15)),
        (date(2026, 5, 15), -2, date(2026, 3, 15)),
        (date(2026, 1, 31), 1, date(2026, 2, 28)),  # clamped to the month's last day
        (date(2024, 1, 31), 1, date(2024, 2, 29)),  # leap year
        (date(2025, 11, 30), 3, date(2026, 2, 28)),
        (date(2026, 3, 31), 1, date(2026, 4, 30)),
    ],
)
def test_add_months(start: date, months: int, expected: date) -> None:
    assert rules.add_months(start, months) == expected


# -- FD interest -------------------------------------------------------------------------------


def test_fd_interest_simple_below_180_days_knowledge_base_example() -> None:
    # Rs 1,00,000 for 90 days at 5.00%: 1,00,000 x 5% x 90 / 365 = Rs 1,232.88.
    start = date(2026, 5, 15)
    assert (
        rules.fd_interest(1_00_000_00, Decimal("5.00"), start, start + timedelta(days=90))
        == 1_232_88
    )


def test_fd_interest_179_days_is_simple() -> None:
    # 1,00,000 x 6% x 179 / 365 = 2942.4657... -> Rs 2,942.47
    start = date(2026, 5, 15)
    assert (
        rules.fd_interest(1_00_000_00, Decimal("6.00"), start, start + timedelta(days=179))
        == 2_942_47
    )


def test_fd_interest_180_days_compounds_one_quarter_then_simple_remainder() -> None:
    # 2026-05-15 + 180 days = 2026-11-11. One full quarter to 2026-08-15:
    #   1,00,000 x 6% / 4 = 1,500.00 -> 1,01,500.00
    # then 88 days (2026-08-15 .. 2026-11-11) simple on the compounded amount:
    #   1,01,500 x 6% x 88 / 365 = 1,468.27397 -> 1,468.27 ; interest 2,968.27
    start = date(2026, 5, 15)
    end = start + timedelta(days=180)
    assert end == date(2026, 11, 11)
    assert rules.fd_interest(1_00_000_00, Decimal("6.00"), start, end) == 2_968_27
    # Simple interest for the same period would be 2,958.90: the methods differ.
    assert 2_968_27 != 1_00_000_00 * 6 * 180 // 36500


def test_fd_interest_one_year_quarterly_compounding_hand_computed() -> None:
    # Rs 1,00,000 at 7.00% for 2026-05-15 .. 2027-05-15, 1.75% a quarter, rounded each quarter:
    #   q1: 1,750.00      -> 1,01,750.00
    #   q2: 1,780.625     -> 1,780.63 -> 1,03,530.63
    #   q3: 1,811.786025  -> 1,811.79 -> 1,05,342.42
    #   q4: 1,843.49235   -> 1,843.49 -> 1,07,185.91
    assert (
        rules.fd_interest(1_00_000_00, Decimal("7.00"), date(2026, 5, 15), date(2027, 5, 15))
        == 7_185_91
    )


def test_fd_interest_zero_days_is_zero() -> None:
    assert (
        rules.fd_interest(1_00_000_00, Decimal("6.00"), date(2026, 5, 15), date(2026, 5, 15)) == 0
    )


# -- premature closure -------------------------------------------------------------------------


@pytest.mark.parametrize("days", [0, 1, 6])
def test_closure_within_7_days_pays_no_interest(days: int) -> None:
    today = date(2026, 5, 15)
    quote = rules.fd_closure_quote(1_00_000_00, today - timedelta(days=days), today, senior=False)
    assert quote.days_run == days
    assert quote.applicable_rate == Decimal("0")
    assert (quote.interest, quote.penalty_interest, quote.payout) == (0, 0, 1_00_000_00)


def test_closure_on_day_7_pays_slab_minus_one_percent() -> None:
    # 3.50% slab - 1% = 2.50%: 1,00,000 x 2.5% x 7/365 = 47.945 -> 47.95 ;
    # full 3.50% would be 67.123 -> 67.12 ; penalty 19.17
    today = date(2026, 5, 15)
    quote = rules.fd_closure_quote(1_00_000_00, today - timedelta(days=7), today, senior=False)
    assert quote.applicable_rate == Decimal("2.50")
    assert quote.interest == 47_95
    assert quote.penalty_interest == 19_17
    assert quote.payout == 1_00_047_95


def test_closure_after_one_year_hand_computed() -> None:
    # 365 days run -> 6.80% slab -> 5.80% paid, 1.45% a quarter:
    #   1,450.00 -> 1,01,450.00 ; 1,471.025 -> 1,471.03 -> 1,02,921.03 ;
    #   1,492.354935 -> 1,492.35 -> 1,04,413.38 ; 1,513.99401 -> 1,513.99 -> 1,05,927.37
    # Full 6.80% would give 6,975.37, so the penalty is 1,048.00.
    quote = rules.fd_closure_quote(1_00_000_00, date(2025, 5, 15), date(2026, 5, 15), senior=False)
    assert quote.days_run == 365
    assert quote.applicable_rate == Decimal("5.80")
    assert quote.interest == 5_927_37
    assert quote.penalty_interest == 1_048_00
    assert quote.payout == 1_05_927_37
    assert quote.interest + quote.penalty_interest == rules.fd_interest(
        1_00_000_00, Decimal("6.80"), date(2025, 5, 15), date(2026, 5, 15)
    )


@pytest.mark.parametrize(
    ("days_run", "senior", "paid"),
    [
        # The policy's examples (document 03): slab for the period run minus 1%.
        (400, False, "5.80"),
        (200, False, "5.00"),
        (60, False, "4.00"),
        (30, False, "2.50"),
        (400, True, "6.30"),
        (30, True, "3.00"),
    ],
)
def test_closure_rate_is_the_run_period_slab_minus_one(
    days_run: int, senior: bool, paid: str
) -> None:
    today = date(2026, 5, 15)
    quote = rules.fd_closure_quote(5_00_000_00, today - timedelta(days=days_run), today, senior)
    assert quote.applicable_rate == Decimal(paid)
    assert quote.payout == 5_00_000_00 + quote.interest
    assert quote.interest == rules.fd_interest(
        5_00_000_00, Decimal(paid), today - timedelta(days=days_run), today
    )


# -- loans -------------------------------------------------------------------------------------


def test_emi_hand_computed_one_lakh_at_12_percent_for_12_months() -> None:
    # r = 1% a month; 1,00,000 x 0.01 x 1.01^12 / (1.01^12 - 1) = 8,884.8788 -> Rs 8,884.88
    assert rules.emi(1_00_000_00, Decimal("12"), 12) == 8_884_88


def test_emi_hand_computed_five_lakh_at_9_percent_for_60_months() -> None:
    # r = 0.75%; 1.0075^60 = 1.565681; 5,00,000 x 0.0075 x 1.565681 / 0.565681 = Rs 10,379.18
    assert rules.emi(5_00_000_00, Decimal("9"), 60) == 10_379_18


def test_emi_at_zero_rate_is_principal_over_months() -> None:
    assert rules.emi(12_000_00, Decimal("0"), 12) == 1_000_00


def test_emi_needs_positive_months() -> None:
    with pytest.raises(ValueError):
        rules.emi(1_00_000_00, Decimal("12"), 0)


def test_months_to_repay_inverts_emi() -> None:
    for principal, rate, months in ((1_00_000_00, "12", 12), (25_00_000_00, "8.75", 180)):
        assert (
            rules.months_to_repay(
                principal, Decimal(rate), rules.emi(principal, Decimal(rate), months)
            )
            == months
        )
    assert rules.months_to_repay(12_000_00, Decimal("0"), 1_000_00) == 12


def test_months_to_repay_refuses_an_instalment_below_the_interest() -> None:
    with pytest.raises(ValueError):
        rules.months_to_repay(1_00_000_00, Decimal("12"), 1_000_00)  # interest is 1,000/month


def test_accrued_interest_knowledge_base_example() -> None:
    # 4,00,000 x 9.50% x 20 / 365 = Rs 2,082.19
    assert (
        rules.accrued_interest(4_00_000_00, Decimal("9.50"), date(2026, 4, 25), date(2026, 5, 15))
        == 2_082_19
    )
    assert (
        rules.accrued_interest(4_00_000_00, Decimal("9.50"), date(2026, 5, 16), date(2026, 5, 15))
        == 0
    )


@pytest.mark.parametrize(
    ("loan_type", "charge"),
    [
        ("home", 0),
        ("gold", 0),
        ("car", 3_000_00),
        ("personal", 4_000_00),
    ],
)
def test_loan_charge_on_one_lakh(loan_type: str, charge: int) -> None:
    assert rules.loan_charge(loan_type, 1_00_000_00) == charge


# -- credit cards ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("outstanding", "minimum"),
    [
        (30_000_00, 1_500_00),  # 5%
        (3_000_00, 200_00),  # 5% would be 150: at least Rs 200
        (150_00, 150_00),  # never more than the outstanding
        (200_00, 200_00),
        (4_001_00, 200_05),  # 5% of 4,001 = 200.05
        (0, 0),
    ],
)
def test_minimum_due(outstanding: int, minimum: int) -> None:
    assert rules.minimum_due(outstanding) == minimum


def test_previous_day() -> None:
    assert rules.previous_day(date(2026, 3, 1)) == date(2026, 2, 28)
