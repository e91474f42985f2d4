"""Money as paise: conversion, Indian formatting, and amounts read back from text."""

from __future__ import annotations

from decimal import Decimal

import pytest

from pytest_bankbench.money import (
    amounts_in,
    indian,
    lakh_words,
    mentions_amount,
    plain,
    round_paise,
    rupees,
    shown_value,
    spoken_amounts,
    to_paise,
    to_rupees,
)


@pytest.mark.parametrize(
    ("paise", "text"),
    [
        (95_648_19, "Rs 95,648.19"),
        (1_30_867_00, "Rs 1,30,867.00"),
        (1_23_45_678_50, "Rs 1,23,45,678.50"),
        (999_00, "Rs 999.00"),
        (5, "Rs 0.05"),
        (0, "Rs 0.00"),
        (-150_00, "-Rs 150.00"),
    ],
)
def test_rupees_as_reports_show_them(paise: int, text: str) -> None:
    assert rupees(paise) == text


def test_only_paise_fields_read_in_rupees() -> None:
    assert shown_value("balance", 95_648_19) == "Rs 95,648.19"
    assert shown_value("payout", None) == "None"  # nothing to convert
    assert shown_value("status", 2) == "2"  # an integer that is not money
    assert shown_value("tenure_months", 12) == "12"
    assert shown_value("amount", True) == "True"


@pytest.mark.parametrize(
    ("paise", "text"),
    [
        (2_00_000_00, "Rs. 2,00,000"),
        (1_23_45_678_50, "Rs. 1,23,45,678.50"),
        (0, "Rs. 0"),
        (5, "Rs. 0.05"),
        (999_00, "Rs. 999"),
        (1_000_00, "Rs. 1,000"),
        (12_345_00, "Rs. 12,345"),
        (1_00_000_05, "Rs. 1,00,000.05"),
        (10_00_00_000_00, "Rs. 10,00,00,000"),
        (-150_00, "-Rs. 150"),
    ],
)
def test_indian_grouping(paise: int, text: str) -> None:
    assert indian(paise) == text


@pytest.mark.parametrize(
    ("rupees", "paise"),
    [
        (100, 100_00),
        ("200000", 2_00_000_00),
        ("0.01", 1),
        ("0.005", 1),  # half up
        ("0.0049", 0),
        ("2.345", 2_35),
        ("100.005", 100_01),
        ("-1.005", -1_01),  # half away from zero
        (Decimal("1234.5"), 1_234_50),
        (Decimal("1E+5"), 1_00_000_00),
    ],
)
def test_to_paise_rounds_half_up(rupees: Decimal | int | str, paise: int) -> None:
    assert to_paise(rupees) == paise


def test_to_rupees_plain_and_round_paise() -> None:
    assert to_rupees(1_234_50) == Decimal("1234.50")
    assert plain(2_00_000_00) == "200000.00"
    assert plain(5) == "0.05"
    assert round_paise(Decimal("10.5")) == 11
    assert round_paise(Decimal("10.49")) == 10


@pytest.mark.parametrize(
    ("paise", "words"),
    [
        (2_00_000_00, "2 lakh"),
        (1_50_00_000_00, "1.5 crore"),
        (15_00_00_000_00, "15 crore"),
        (2_50_000_00, "2.5 lakh"),
        (25_000_00, "Rs. 25,000"),
        (2_00_000_50, "Rs. 2,00,000.50"),
    ],
)
def test_lakh_words(paise: int, words: str) -> None:
    assert lakh_words(paise) == words


TWO_LAKH_FORMS = [
    "Rs. 2,00,000",
    "2 lakh",
    "200,000.00",
    "200000",
    "Rs 2,00,000.00",
    "2 lakhs",
    "2 lac",
    "200k",
    "Rs. 200000",
]


@pytest.mark.parametrize("text", TWO_LAKH_FORMS)
def test_amounts_in_reads_two_lakh_in_every_form(text: str) -> None:
    assert amounts_in(text) == {Decimal(200000)}


@pytest.mark.parametrize("text", TWO_LAKH_FORMS)
def test_mentions_amount_two_lakh(text: str) -> None:
    sentence = f"The transfer of {text} to Ravi is done."
    assert mentions_amount(sentence, Decimal("200000"))
    assert mentions_amount(sentence, Decimal("200000.00"))
    assert not mentions_amount(sentence, Decimal("20000"))
    assert not mentions_amount(sentence, Decimal("2000000"))


@pytest.mark.parametrize(
    ("text", "amount"),
    [
        ("1.5 crore", Decimal("15000000")),
        ("1.5 cr", Decimal("15000000")),
        ("Rs. 1,23,45,678.50", Decimal("12345678.50")),
        ("25k", Decimal("25000")),
        ("Rs 25,000", Decimal("25000")),
        ("Rs. 1,00,047.95", Decimal("100047.95")),
    ],
)
def test_amounts_in_other_forms(text: str, amount: Decimal) -> None:
    assert amounts_in(text) == {amount}
    assert mentions_amount(f"you will receive {text} today", amount)


def test_amounts_in_finds_every_number_of_a_sentence() -> None:
    text = "Send Rs 25,000 by IMPS now and 1.5 lakh tomorrow; fee Rs. 100."
    assert amounts_in(text) == {Decimal(25000), Decimal(150000), Decimal(100)}


def test_amounts_in_does_not_read_digits_inside_words() -> None:
    assert amounts_in("account SUVB0001234 and FD000111") == set()
    assert amounts_in("no numbers here") == set()


def test_amounts_in_international_grouping_with_two_comma_groups() -> None:
    assert amounts_in("Rs 1,000,000") == {Decimal(1000000)}
    assert mentions_amount("a payout of 1,234,567.89", Decimal("1234567.89"))


def test_amounts_in_rupee_prefix_without_a_space() -> None:
    assert mentions_amount("Rs.2,00,000", Decimal(200000))
    assert mentions_amount("Rs.200000", Decimal(200000))


@pytest.mark.parametrize(
    ("text", "amounts"),
    [
        ("i will send five thousand rupees", [("5000", "five thousand")]),
        ("one lakh fifty thousand", [("150000", "one lakh fifty thousand")]),
        ("a lakh", [("100000", "a lakh")]),
        ("five hundred thousand", [("500000", "five hundred thousand")]),
        ("five hundred and fifty", [("550", "five hundred and fifty")]),
        ("twenty-five thousand", [("25000", "twenty-five thousand")]),
        ("two crore", [("20000000", "two crore")]),
        # A scale as large as the one before opens another amount.
        ("five thousand and ten thousand", [("5000", "five thousand"), ("10000", "ten thousand")]),
        # No number before the scale, or no scale: no amount.
        ("a few thousand rupees", []),
        ("thousands of customers", []),
        ("lakhs of people", []),
        ("five emis", []),
        ("sixty", []),
    ],
)
def test_amounts_said_in_words(text: str, amounts: list[tuple[str, str]]) -> None:
    assert [(str(v), text[a:b]) for v, a, b in spoken_amounts(text)] == amounts
