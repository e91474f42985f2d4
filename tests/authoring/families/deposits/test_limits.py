"""Deposit-limit families: every shipped task poses the rule its family is named for."""

from __future__ import annotations

from collections import Counter
from decimal import Decimal

from pytest_bankbench.bank import rules
from pytest_bankbench.money import to_paise
from tests.authoring.families.shipped import (
    tasks_of,
)


def test_tax_saver_fixed_tenure_books_a_regular_fd_for_the_tenure_asked() -> None:
    asked: Counter[int] = Counter()
    for task in tasks_of("tax_saver_fixed_tenure"):
        booking = next(c for c in task.gold if c.tool == "create_fd")
        days = booking.arguments["tenure_days"]
        assert isinstance(days, int) and days != rules.TAX_SAVER_DAYS, task.task_id
        asked[days] += 1
        assert {d.label for d in task.disclosures} == {"rate", "maturity amount"}
        # The fixed tenure is the reason and a regular FD the alternative, both before booking.
        told = {(t.kind, t.concepts, t.before) for t in task.tells}
        assert told == {
            ("reason", ("fixed_tenure",), booking.id),
            ("alternative", ("regular_fd",), booking.id),
        }, task.task_id
        assert "1825 days" in (task.scenario.instructions[0].explain or "")
    assert len(asked) >= 3, asked


def test_deposit_outside_limits_covers_every_limit_and_books_the_nearest_allowed() -> None:
    kinds: Counter[str] = Counter()
    for task in tasks_of("deposit_outside_limits"):
        booking = next(c for c in task.gold if c.tool in {"create_fd", "create_rd"})
        args = booking.arguments
        if booking.tool == "create_rd":
            assert args["monthly_instalment"] == 500
            kinds["rd minimum"] += 1
            continue
        amount = to_paise(Decimal(str(args["amount"])))
        if amount == rules.FD_MIN:
            kinds["fd minimum"] += 1
        elif amount == rules.FD_MAX:
            kinds["fd maximum"] += 1
        elif args["tenure_days"] == rules.FD_MIN_DAYS:
            kinds["shortest tenure"] += 1
        else:
            assert args["tenure_days"] == rules.FD_MAX_DAYS, task.task_id
            kinds["longest tenure"] += 1
        assert any(f.after for f in task.scenario.structured_facts()), task.task_id
        # The limit is the reason; the deposit booked instead is offered before the booking.
        reason, offer = task.tells
        assert reason.kind == "reason" and reason.concepts == ("outside_limits",)
        assert offer.kind == "alternative" and offer.before == booking.id and offer.values
    assert set(kinds) == {
        "rd minimum",
        "fd minimum",
        "fd maximum",
        "shortest tenure",
        "longest tenure",
    }, kinds
