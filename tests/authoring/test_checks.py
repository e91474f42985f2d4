"""The look-ups added before writes, and the draft ids of a chain: step names, else positions."""

from __future__ import annotations

import pytest

from pytest_bankbench.authoring.base import Call, as_step
from pytest_bankbench.authoring.checks import StepNameClash, with_checks


def _chain() -> list[Call]:
    return [
        Call("list_accounts"),
        as_step("quote", Call("get_fd_closure_quote", {"deposit_id": "FD00001"})),
        as_step(
            "transfer",
            Call("transfer_funds", {"from_account": "100000000001"}, after=("quote",)),
        ),
    ]


def test_named_steps_keep_their_names_and_the_others_their_positions() -> None:
    calls, ids = with_checks(_chain(), "CUST00001")
    # The debited account's status and balance are looked up before the transfer (C.11).
    assert ids == ["c1", "quote", "k1", "transfer"]
    assert [c.tool for c in calls][2] == "get_account_balance"
    assert calls[3].after == ("quote", "k1")


@pytest.mark.parametrize("name", ["quote", "c1", "k2"])
def test_a_step_name_used_twice_or_shaped_like_a_position_is_refused(name: str) -> None:
    chain = [*_chain(), as_step(name, Call("list_accounts"))]
    with pytest.raises(StepNameClash):
        with_checks(chain, "CUST00001")
