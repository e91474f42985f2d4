"""The shared record pickers: what they return for no rows, and that a name they give tells the
record apart."""

from __future__ import annotations

import random

from pytest_bankbench.authoring.phrasing import my_account
from pytest_bankbench.authoring.pickers import (
    CREDIT_CARD,
    active_cards,
    card_words,
    customer_accounts,
    customer_cards,
    fd_funding_facts,
    fd_names,
    loan_words,
    named_fd,
    payee_fact,
    pick_card,
    request_fact,
    source_fact,
)
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


def test_customer_accounts_are_all_the_customer_s_and_a_status_keeps_only_those_in_it() -> None:
    cid = CTX.one("SELECT customer_id FROM accounts WHERE status = 'dormant'")["customer_id"]
    held = CTX.all("SELECT * FROM accounts WHERE customer_id = ?", cid)
    every = customer_accounts(CTX, cid)
    assert [a["account_number"] for a in every] == sorted(a["account_number"] for a in held)
    dormant = customer_accounts(CTX, cid, "dormant")
    assert dormant, "the customer has a dormant account"
    assert [a["account_number"] for a in dormant] == [
        a["account_number"] for a in every if a["status"] == "dormant"
    ]


def test_payee_fact_tells_the_payee_and_the_amount_when_asked_of_either() -> None:
    payee = CTX.one("SELECT * FROM beneficiaries ORDER BY beneficiary_id")
    fact = payee_fact(payee, "Rs. 5,000")
    assert payee["name"] in fact.text and "Rs. 5,000" in fact.text
    assert set(fact.about) == {"payee", "amount"} and not fact.after


def test_an_account_fact_names_the_account_by_its_full_number_for_its_use() -> None:
    account = CTX.one("SELECT * FROM accounts ORDER BY account_number")
    for fact, lead in (
        (request_fact(account), "It's for my "),
        (source_fact(account), "Send it from my "),
    ):
        assert fact.text.startswith(lead) and fact.text.endswith(f"{account['account_number']}.")
        assert account["account_type"] in fact.text
        assert fact.about == ("account",) and not fact.after


def test_an_fd_booking_tells_its_funding_account_and_where_the_maturity_goes() -> None:
    account, maturity = fd_funding_facts("my savings account ending 1234")
    assert (account.text, account.about) == (
        "Fund it from my savings account ending 1234.",
        ("account",),
    )
    assert maturity.about == ("maturity",) and "maturity amount" in maturity.text
    _, told = fd_funding_facts("my account", "At maturity, credit the money to my account.")
    assert told.text == "At maturity, credit the money to my account."


def test_customer_cards_are_all_of_a_customers_cards_and_active_cards_the_active_ones() -> None:
    row = CTX.one(
        "SELECT customer_id FROM cards GROUP BY customer_id "
        "HAVING SUM(status = 'active') > 0 AND SUM(status <> 'active') > 0 ORDER BY 1 LIMIT 1"
    )
    cid = row["customer_id"]
    mine = CTX.all("SELECT card_id FROM cards WHERE customer_id = ?", cid)
    cards = customer_cards(CTX, cid)
    assert sorted(c["card_id"] for c in cards) == sorted(c["card_id"] for c in mine)
    active = active_cards(CTX, cid)
    assert [c["card_id"] for c in active] == [
        c["card_id"] for c in cards if c["status"] == "active"
    ]
    assert len(active) < len(cards)
    credit = active_cards(CTX, cid, CREDIT_CARD)
    assert all(c["card_kind"] == "credit" and c["status"] == "active" for c in credit)
    assert len(credit) < len(active)


def test_loan_words_name_the_loan_its_amounts_and_the_paying_account_only_when_given() -> None:
    loan = CTX.one("SELECT * FROM loans WHERE status = 'active' ORDER BY loan_id LIMIT 1")
    payer = CTX.one(
        "SELECT * FROM accounts WHERE customer_id = ? ORDER BY account_number LIMIT 1",
        loan["customer_id"],
    )
    words = loan_words(loan, "home loan")
    assert words == {
        "loan": "home loan",
        "principal": indian(loan["principal"]),
        "emi": indian(loan["emi"]),
    }
    assert loan_words(loan, "home loan", payer)["payer"] == my_account(payer)


def test_pick_card_draws_an_active_card_the_filter_keeps_and_none_when_none_does() -> None:
    customer = CTX.one(
        "SELECT * FROM customers WHERE customer_id IN (SELECT customer_id FROM cards "
        "WHERE status = 'active' AND card_kind = 'credit') ORDER BY customer_id LIMIT 1"
    )
    ids = {c["card_id"] for c in active_cards(CTX, customer["customer_id"], CREDIT_CARD)}
    drawn = [pick_card(CTX, random.Random(seed), customer, CREDIT_CARD) for seed in range(8)]
    assert ids and all(card is not None and card["card_id"] in ids for card in drawn)
    assert pick_card(CTX, random.Random(0), customer, "card_kind = 'no such kind'") is None


def test_card_words_name_a_card_as_the_customer_does_and_its_linked_account() -> None:
    card = CTX.one("SELECT * FROM cards WHERE card_kind = 'credit' ORDER BY card_id LIMIT 1")
    assert card_words(card) == {
        "named": f"{card['product']} card ending {card['last4']}",
        "product": card["product"],
        "last4": card["last4"],
        "kind": "credit",
        "account": card["linked_account"],
    }
