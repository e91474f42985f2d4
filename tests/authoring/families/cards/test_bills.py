"""Card-bill families: a payment above the dues pays the outstanding."""

from __future__ import annotations

from pytest_bankbench.authoring.base import Context
from pytest_bankbench.money import amounts_in, indian, to_paise
from tests.authoring.families.shipped import (
    gold_call,
    rupees,
    said_amount,
    tasks_of,
)


def test_pay_more_than_owed_asks_for_more_and_pays_the_outstanding() -> None:
    ctx = Context(tasks_of("pay_more_than_owed")[0].bank_seed)
    for task in tasks_of("pay_more_than_owed"):
        pay = gold_call(task, "pay_credit_card_bill")
        card = ctx.one("SELECT * FROM cards WHERE card_id = ?", pay.arguments["card_id"])
        paid = rupees(pay.arguments["amount"])
        assert to_paise(paid) == card["outstanding"], task.task_id
        opening = task.scenario.first_message
        asked = [v for v in amounts_in(opening) if said_amount(v, opening)]
        assert asked and max(asked) > paid, (task.task_id, asked, paid)
        assert indian(card["outstanding"]) not in opening
        assert [rupees(d.value) for d in task.disclosures] == [paid]
