"""The shared record pickers: what they return for no rows, and that a name they give tells the
record apart."""

from __future__ import annotations

import random

from pytest_bankbench.authoring import pickers
from pytest_bankbench.authoring.phrasing import my_account
from pytest_bankbench.authoring.pickers import fd_names, named_fd
from pytest_bankbench.money import indian
from tests.authoring.families.shipped import CTX


def test_named_fd_is_none_without_deposits_and_else_an_fd_with_one_of_its_names() -> None:
    assert named_fd(CTX, random.Random(0), []) is None
    fds = CTX.all("SELECT * FROM deposits WHERE deposit_type = 'fd' AND status = 'active'")
    named = [chosen for seed in range(20) if (chosen := named_fd(CTX, random.Random(seed), fds))]
    assert named, "some active FD has a name that tells it apart"
    for fd, name in named:
        assert fd in fds
        assert name in fd_names(CTX, fd)


def test_customer_cards_are_all_of_a_customers_cards_and_active_cards_the_active_ones() -> None:
    row = CTX.one(
        "SELECT customer_id FROM cards GROUP BY customer_id "
        "HAVING SUM(status = 'active') > 0 AND SUM(status <> 'active') > 0 ORDER BY 1 LIMIT 1"
    )
    cid = row["customer_id"]
    mine = CTX.all("SELECT card_id FROM cards WHERE customer_id = ?", cid)
    cards = pickers.customer_cards(CTX, cid)
    assert sorted(c["card_id"] for c in cards) == sorted(c["card_id"] for c in mine)
    active = pickers.active_cards(CTX, cid)
    assert [c["card_id"] for c in active] == [
        c["card_id"] for c in cards if c["status"] == "active"
    ]
    assert len(active) < len(cards)
    credit = pickers.active_cards(CTX, cid, pickers.CREDIT_CARD)
    assert all(c["card_kind"] == "credit" and c["status"] == "active" for c in credit)
    assert len(credit) < len(active)


def test_loan_words_name_the_loan_its_amounts_and_the_paying_account_only_when_given() -> None:
    loan = CTX.one("SELECT * FROM loans WHERE status = 'active' ORDER BY loan_id LIMIT 1")
    payer = CTX.one(
        "SELECT * FROM accounts WHERE customer_id = ? ORDER BY account_number LIMIT 1",
        loan["customer_id"],
    )
    words = pickers.loan_words(loan, "home loan")
    assert words == {
        "loan": "home loan",
        "principal": indian(loan["principal"]),
        "emi": indian(loan["emi"]),
    }
    assert pickers.loan_words(loan, "home loan", payer)["payer"] == my_account(payer)
