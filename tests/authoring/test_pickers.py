"""The shared record pickers: what they return for no rows, and that a name they give tells the
record apart."""

from __future__ import annotations

import random

from pytest_bankbench.authoring.pickers import (
    customer_accounts,
    fd_funding_facts,
    fd_names,
    named_fd,
    payee_fact,
    request_fact,
    source_fact,
)
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
