"""Transfer families: a corrected amount replaces the opening's."""

from __future__ import annotations

from pytest_bankbench.money import amounts_in
from tests.authoring.families.shipped import (
    gold_call,
    rupees,
    said_amount,
    tasks_of,
)


def test_transfer_correction_corrects_the_amount_of_the_opening() -> None:
    for task in tasks_of("transfer_correction"):
        amount = rupees(gold_call(task, "transfer_funds").arguments["amount"])
        opening = task.scenario.first_message
        correction = task.scenario.instructions[0].correction
        assert correction is not None
        assert not said_amount(amount, opening), task.task_id
        assert said_amount(amount, correction), task.task_id
        wrong = [v for v in amounts_in(opening) if v != amount and said_amount(v, opening)]
        assert len(wrong) == 1 and said_amount(wrong[0], correction), task.task_id
        told = {d.label: d.value for d in task.disclosures}
        assert rupees(told["amount"]) == amount
