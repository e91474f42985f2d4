"""Booking families: a changed tenure is booked at its own quote."""

from __future__ import annotations

from pytest_bankbench.authoring.families.deposits.booking import FD_TENURES
from pytest_bankbench.tasks.replay import replay
from tests.authoring.families.shipped import (
    gold_call,
    rupees,
    tasks_of,
)


def test_fd_quote_redo_books_the_new_tenure_at_its_own_quote() -> None:
    words = dict(FD_TENURES)
    for task in tasks_of("fd_quote_redo_after_change"):
        first, second = (gold_call(task, "calculate_fd_maturity", n) for n in (0, 1))
        booking = gold_call(task, "create_fd")
        old, new = (
            int(str(first.arguments["tenure_days"])),
            int(str(second.arguments["tenure_days"])),
        )
        assert old != new and booking.arguments["tenure_days"] == new
        assert second.id in booking.after
        correction = task.scenario.instructions[0].correction
        assert correction is not None and words[new] in correction, task.task_id
        results = replay(task).results
        assert results[first.id]["rate_percent"] != results[second.id]["rate_percent"]
        told = {d.label: d.value for d in task.disclosures if d.write == booking.id}
        assert told["rate"] == results[second.id]["rate_percent"]
        assert rupees(told["maturity amount"]) == rupees(results[second.id]["maturity_amount"])
        assert rupees(told["maturity amount"]) != rupees(results[first.id]["maturity_amount"])
