"""The shared record pickers: what they return for no rows, and that a name they give tells the
record apart."""

from __future__ import annotations

import random

from pytest_bankbench.authoring.pickers import fd_names, named_fd
from tests.authoring.families.shipped import CTX


def test_named_fd_is_none_without_deposits_and_else_an_fd_with_one_of_its_names() -> None:
    assert named_fd(CTX, random.Random(0), []) is None
    fds = CTX.all("SELECT * FROM deposits WHERE deposit_type = 'fd' AND status = 'active'")
    named = [chosen for seed in range(20) if (chosen := named_fd(CTX, random.Random(seed), fds))]
    assert named, "some active FD has a name that tells it apart"
    for fd, name in named:
        assert fd in fds
        assert name in fd_names(CTX, fd)
