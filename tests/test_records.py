"""How a conversation names a customer's cards, FDs and loans (pytest_bankbench/records.py).

A labelled phrase list, read both ways: each phrase names the record it is labelled with and no
other; a phrase that fits two records (two FDs of one amount, two FDs opened on one day, two
credit cards) names none. A new phrasing is one line here.
"""

from __future__ import annotations

from datetime import date

import pytest

from pytest_bankbench.records import (
    Holding,
    heard,
    holding,
    holdings,
    named,
    names,
    names_another,
    own_records,
    phrase,
)

CARDS = (
    {
        "card_id": "CRD000101",
        "card_kind": "debit",
        "product": "Visa Platinum Debit",
        "last4": "9249",
    },
    {
        "card_id": "CRD000102",
        "card_kind": "credit",
        "product": "Suvarna Rewards Credit",
        "last4": "2546",
    },
    {
        "card_id": "CRD000103",
        "card_kind": "credit",
        "product": "Suvarna Secured Credit",
        "last4": "7100",
    },
)


def _fd(key: str, kind: str, paise: int, opened: str, matures: str) -> dict[str, object]:
    return {
        "deposit_id": key,
        "deposit_type": kind,
        "principal": paise,
        "instalment": None,
        "start_date": opened,
        "maturity_date": matures,
    }


DEPOSITS = (
    # FD004821 shares its amount with FD004822 and its opening day with FD004823.
    _fd("FD004821", "fd", 2_00_000_00, "2026-02-12", "2027-02-12"),
    _fd("FD004822", "fd", 2_00_000_00, "2025-03-03", "2028-03-02"),
    _fd("FD004823", "fd", 50_000_00, "2026-02-12", "2026-08-11"),
    _fd("FD004824", "tax_saver_fd", 1_50_000_00, "2024-06-01", "2029-05-31"),
)
LOANS = (
    {
        "loan_id": "LN000101",
        "loan_type": "home",
        "principal": 45_00_000_00,
        "disbursed_on": "2022-01-10",
    },
    {
        "loan_id": "LN000102",
        "loan_type": "car",
        "principal": 6_00_000_00,
        "disbursed_on": "2024-09-01",
    },
)
HELD: tuple[Holding, ...] = (
    *(holding("cards", r) for r in CARDS),
    *(holding("deposits", r) for r in DEPOSITS),
    *(holding("loans", r) for r in LOANS),
)

# (text, kind, the record it names or None)
PHRASES = [
    ("your FD of Rs 2,00,000 opened on 12 Feb 2026", "deposit", "FD004821"),
    ("the FD of ₹2 lakh you booked on 12/02/2026", "deposit", "FD004821"),
    ("the fixed deposit of INR 200,000.00 opened 2026-02-12", "deposit", "FD004821"),
    ("the FD ending 4821", "deposit", "FD004821"),
    ("FD no. 004821", "deposit", "FD004821"),
    ("deposit FD004821", "deposit", "FD004821"),
    ("the one maturing on February 12, 2027", "deposit", "FD004821"),
    ("your FD of Rs. 2,00,000 opened on 3 March 2025", "deposit", "FD004822"),
    ("your Rs 50,000 FD", "deposit", "FD004823"),
    ("your tax-saver FD", "deposit", "FD004824"),
    # another FD of the same amount, or opened the same day: the phrase names neither
    ("your FD of Rs 2,00,000", "deposit", None),
    ("the FD you opened on 12 February 2026", "deposit", None),
    ("your fixed deposit", "deposit", None),
    ("the FD ending 4820", "deposit", None),
    ("a penalty of Rs. 4,821", "deposit", None),
    ("your FD of Rs 2,00,000 opened on 12 Feb 2026 and the one of Rs 50,000", "deposit", None),
    ("your card ending 2546", "card", "CRD000102"),
    ("card number XXXX XXXX XXXX 9249", "card", "CRD000101"),
    ("the card **** 7100", "card", "CRD000103"),
    ("your Platinum debit card", "card", "CRD000101"),
    ("your debit card", "card", "CRD000101"),
    ("your Suvarna Rewards credit card", "card", "CRD000102"),
    ("the Secured card", "card", "CRD000103"),
    ("your credit card", "card", None),
    ("Thank you for calling Suvarna Bank about your credit card", "card", None),
    ("your Suvarna card", "card", None),
    ("the card", "card", None),
    ("your card ending 2545", "card", None),
    ("your home loan", "loan", "LN000101"),
    ("the loan ending 0102", "loan", "LN000102"),
    ("loan LN000101", "loan", "LN000101"),
    ("your car loan of Rs. 6,00,000", "loan", "LN000102"),
    ("your loan", "loan", None),
    ("your personal loan", "loan", None),
]


@pytest.mark.parametrize(("text", "kind", "key"), PHRASES)
def test_a_phrase_names_its_record_and_no_other(text: str, kind: str, key: str | None) -> None:
    assert named(text, HELD, kind) == key  # type: ignore[arg-type]
    for record in (h for h in HELD if h.kind == kind):
        assert names(record.key, [text], HELD) is (record.key == key)


def test_every_label_is_read_both_ways() -> None:
    """The list holds, for each kind, phrases that name a record and phrases that name none."""
    for kind in ("card", "deposit", "loan"):
        labels = [key for _, k, key in PHRASES if k == kind]
        assert None in labels and any(labels), kind


def test_a_sentence_may_name_the_record_when_the_message_names_two() -> None:
    text = (
        "Your Suvarna Secured Credit card ending 7100 cannot be used abroad. "
        "I can switch it on for your Suvarna Rewards Credit card ending 2546 instead."
    )
    assert named(text, HELD, "card") is None
    assert names("CRD000102", [text], HELD) and names("CRD000103", [text], HELD)


def test_the_gold_phrase_names_the_record_alone() -> None:
    for record in HELD:
        said = phrase(record.key, HELD)
        assert said is not None and named(said, HELD, record.kind) == record.key, said
    assert phrase("FD009999", HELD) is None
    assert not names("FD009999", ["FD009999"], HELD)


def test_the_customer_hears_another_record_and_not_a_new_one() -> None:
    own = own_records(["FD004821"], ["Please close my FD of Rs 2,00,000 opened in Feb 2026."], HELD)
    assert own == frozenset({"FD004821"})
    assert names_another("Shall I close your FD ending 4823?", HELD, own, ("deposit",)) == "deposit"
    assert names_another("Shall I close your FD ending 4821?", HELD, own, ("deposit",)) is None
    # a booking acts on no existing deposit, whatever its amount
    assert names_another("Shall I book an FD of Rs 50,000?", HELD, own, ()) is None
    # a word for the kind names the only one to the scorer, and no other one to the customer
    alone = (holding("deposits", DEPOSITS[0]),)
    assert named("your fixed deposit", alone, "deposit") == "FD004821"
    said = "I can't close a tax-saver FD early. I'll book a fixed deposit instead. Shall I?"
    assert names_another(said, alone, frozenset(), ("deposit",)) is None
    assert names_another("Shall I close FD004821?", alone, frozenset(), ("deposit",)) == "deposit"


def test_holdings_are_the_seeded_customers_records() -> None:
    held = holdings("CUST00905", date(2026, 5, 1), 20260331)
    kinds = {h.kind for h in held}
    assert kinds == {"card", "deposit"}
    for record in held:
        assert named(phrase(record.key, held) or "", held, record.kind) == record.key


CUES: tuple[str, ...] = (
    "ending",
    "ends",
    "end",
    "no.",
    "no",
    "number",
    "#",
    "id",
    "fd",
    "rd",
    "deposit",
)
CUES += ("loan", "card", "xxxx", "****", "••••", "....")


@pytest.mark.parametrize("cue", CUES)
def test_digits_after_every_cue_are_heard(cue: str) -> None:
    """Each cue the record reader knows opens with a character its scan looks for first (the
    pattern's lookahead, a speed-up, must list them all), so the digits after it are heard."""
    assert heard(f"Your {cue} 12345678 is active.").tails == {"12345678"}
    assert heard(f"Your {cue}: 12345678").tails == {"12345678"}
    assert not heard("Your 12345678 is active.").tails  # no cue, no tail
