"""Closure families: an ambiguous opening fits two FDs, the fact names one; an FD that matches
none of the customer's is asked about, never guessed."""

from __future__ import annotations

from pytest_bankbench.authoring.base import Context
from pytest_bankbench.authoring.families.deposits.closure import (
    FD_CLARIFIERS,
    FD_DESCRIPTIONS,
    closable_fds,
)
from pytest_bankbench.money import amounts_in, to_paise
from pytest_bankbench.runner import builtin_agent, run_task
from pytest_bankbench.tasks.model import GoldCall
from tests.authoring.families.shipped import (
    gold_call,
    played,
    tasks_of,
    with_gold,
    without_explain,
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


def test_the_fd_asked_for_is_none_of_the_customers_and_nothing_is_closed() -> None:
    ctx = Context(tasks_of("no_matching_fd")[0].bank_seed)
    for task in tasks_of("no_matching_fd"):
        ctx.today = task.task_date
        held = {fd["principal"] for fd in closable_fds(ctx, task.customer_id)}
        asked = {to_paise(a) for a in amounts_in(task.scenario.first_message)}
        assert asked and not asked & held, task.task_id
        assert [c.tool for c in task.gold] == ["list_deposits"]
        assert {t.concepts for t in task.tells} == {("no_match",), ("which_one",)}


def test_gold_says_no_fd_matches_and_asks() -> None:
    task = tasks_of("no_matching_fd")[0]
    result = run_task(task, builtin_agent("gold", task))
    assert result.verdict.passed, result.verdict.evidence


def test_closing_the_nearest_fd_instead_of_asking_fails() -> None:
    """A careless agent guesses the FD opened that month and closes it without asking."""
    task = tasks_of("no_matching_fd")[1]
    near = str(task.gold[0].facts.key if task.gold[0].facts else "")
    guessed = [
        task.gold[0],
        *(
            GoldCall(
                id=f"c{n}",
                tool=tool,
                arguments={"deposit_id": near},
                match=("deposit_id",),
                after=(f"c{n - 1}",),
                instruction=0,
            )
            for n, tool in ((2, "get_fd_closure_quote"), (3, "close_fd_premature"))
        ),
    ]
    verdict = played(task, without_explain(with_gold(task, guessed)), agent="no-consent")
    assert not verdict.passed and verdict.failure_type == "unrequested_write", verdict.evidence


def test_not_saying_that_no_fd_matches_fails() -> None:
    task = tasks_of("no_matching_fd")[2]
    verdict = played(task, without_explain(task))
    assert not verdict.passed and verdict.failure_type == "not_told", verdict.evidence


def test_the_rebooking_request_names_the_amount_booked() -> None:
    """Audit finding 7: "put that money into a new FD" meant the payout (principal plus
    interest less the penalty), while the FD booked is the old principal. Each task's second
    request names the amount of its create_fd."""
    for task in tasks_of("fd_close_and_rebook"):
        booked = to_paise(str(gold_call(task, "create_fd").arguments["amount"]))
        second = task.scenario.instructions[1].text
        named = {to_paise(a) for a in amounts_in(second)}
        assert booked in named, (task.task_id, second)
