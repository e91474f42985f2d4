"""The scripted customer, driven by realistic agent messages."""

from __future__ import annotations

import pytest

from pytest_bankbench.simulation.customer import YES, Say, ScriptedCustomer, Stop
from pytest_bankbench.tasks.loader import shipped_tasks
from pytest_bankbench.tasks.model import Task


def _task(family: str) -> Task:
    return next(t for t in shipped_tasks() if t.family == family)


def test_opens_with_the_first_message() -> None:
    task = _task("fd_closure")
    assert ScriptedCustomer(task).open() == task.scenario.first_message


@pytest.mark.parametrize(
    "question",
    [
        "Could you tell me which deposit you mean?",
        "Which account should I debit, and for how long?",
        "Please share the account number you want to use.",
        "May I know the deposit id? Also, is this for the FD opened last year?",
        "can you confirm the amount",
    ],
)
def test_any_question_gets_every_fact_not_yet_given(question: str) -> None:
    task = _task("fd_closure")
    customer = ScriptedCustomer(task)
    reply = customer.respond(question)
    assert isinstance(reply, Say)
    for fact in task.scenario.facts:
        assert fact in reply.text
    again = customer.respond(question)
    assert isinstance(again, Say)
    assert not any(fact in again.text for fact in task.scenario.facts)


@pytest.mark.parametrize(
    "ask",
    [
        "The payout will be Rs. 1,20,000. Shall I go ahead and close it?",
        "Do you want me to proceed with the closure?",
        "Please confirm that I should close FD000123.",
        "Is that okay with you?",
    ],
)
def test_confirmation_gets_yes(ask: str) -> None:
    customer = ScriptedCustomer(_task("fd_closure"))
    reply = customer.respond(ask)
    assert isinstance(reply, Say) and reply.text.endswith(YES)


def test_confirmation_gets_the_scripted_refusal() -> None:
    task = _task("fd_closure_declined")
    decline = task.scenario.instructions[0].decline
    assert decline is not None
    reply = ScriptedCustomer(task).respond("The penalty is Rs. 500. Shall I close it now?")
    assert isinstance(reply, Say) and reply.text.endswith(decline)


def test_no_question_moves_to_the_next_instruction_then_stops() -> None:
    task = _task("fd_close_and_rebook")
    customer = ScriptedCustomer(task)
    first = customer.respond("The FD has been closed and Rs. 1,00,000 credited.")
    assert first == Say(task.scenario.instructions[1].text)
    assert isinstance(customer.respond("Your new FD is booked."), Stop)


def test_withheld_facts_are_never_said() -> None:
    task = next((t for t in shipped_tasks() if t.scenario.withheld), None)
    if task is None:
        pytest.skip("no shipped task withholds a fact")
    customer = ScriptedCustomer(task)
    replies = [
        customer.respond("What is your card number and the OTP? Tell me everything?")
        for _ in range(4)
    ]
    for reply in replies:
        if isinstance(reply, Say):
            assert not any(secret in reply.text for secret in task.scenario.withheld)


def test_stops_after_a_bounded_number_of_turns_without_progress() -> None:
    customer = ScriptedCustomer(_task("fd_closure"))
    turns = [customer.respond("Sorry, could you repeat that?") for _ in range(10)]
    assert isinstance(turns[-1], Stop)
    assert sum(isinstance(t, Say) for t in turns) <= 7
