"""The shared record pickers: what they return for no rows, and that a name they give tells the
record apart."""

from __future__ import annotations

import random

from pytest_bankbench.authoring.pickers import fd_funding_facts, fd_names, named_fd
from tests.authoring.families.shipped import CTX


def test_named_fd_is_none_without_deposits_and_else_an_fd_with_one_of_its_names() -> None:
    assert named_fd(CTX, random.Random(0), []) is None
    fds = CTX.all("SELECT * FROM deposits WHERE deposit_type = 'fd' AND status = 'active'")
    named = [chosen for seed in range(20) if (chosen := named_fd(CTX, random.Random(seed), fds))]
    assert named, "some active FD has a name that tells it apart"
    for fd, name in named:
        assert fd in fds
        assert name in fd_names(CTX, fd)


def test_an_fd_booking_tells_its_funding_account_and_where_the_maturity_goes() -> None:
    account, maturity = fd_funding_facts("my savings account ending 1234")
    assert (account.text, account.about) == (
        "Fund it from my savings account ending 1234.",
        ("account",),
    )
    assert maturity.about == ("maturity",) and "maturity amount" in maturity.text
    _, told = fd_funding_facts("my account", "At maturity, credit the money to my account.")
    assert told.text == "At maturity, credit the money to my account."
