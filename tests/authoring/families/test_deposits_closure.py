"""Closure families: an ambiguous opening fits two FDs, the fact names one."""

from __future__ import annotations

from pytest_bankbench.authoring.base import Context
from pytest_bankbench.authoring.families.deposits_closure import (
    FD_CLARIFIERS,
    FD_DESCRIPTIONS,
    closable_fds,
)
from tests.authoring.families.shipped import (
    gold_call,
    tasks_of,
)


def test_ambiguous_fd_opening_fits_two_deposits_and_the_fact_one() -> None:
    ctx = Context(tasks_of("ambiguous_fd_clarify")[0].bank_seed)
    for task in tasks_of("ambiguous_fd_clarify"):
        ctx.today = task.task_date
        fds = closable_fds(ctx, task.customer_id)
        closed = str(gold_call(task, "close_fd_premature").arguments["deposit_id"])
        opening = task.scenario.first_message
        fitting = [
            fd["deposit_id"]
            for fd in fds
            if any(phrase(fd) in opening for _key, phrase in FD_DESCRIPTIONS.values())
        ]
        assert len(fitting) >= 2 and closed in fitting, (task.task_id, fitting)
        (fact,) = task.scenario.structured_facts()
        told = [
            fd["deposit_id"]
            for fd in fds
            if any(c(fd) == fact.text for c in FD_CLARIFIERS.values())
        ]
        assert told == [closed], task.task_id
        assert gold_call(task, "get_fd_closure_quote").arguments["deposit_id"] == closed
