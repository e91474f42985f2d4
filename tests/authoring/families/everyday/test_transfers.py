"""Transfer families: a mode refused by its limit, sent by NEFT; a corrected amount replaces the
opening's."""

from __future__ import annotations

import pytest

from pytest_bankbench.bank import rules
from pytest_bankbench.money import amounts_in, plain
from tests.authoring.families.shipped import (
    gold_call,
    rupees,
    said_amount,
    tasks_of,
)


@pytest.mark.parametrize(
    ("family", "asked", "also", "limit"),
    [
        ("rtgs_below_minimum", "RTGS", "IMPS", rules.TRANSFER_LIMITS["RTGS"][0]),
        ("imps_above_maximum", "IMPS", "RTGS", rules.TRANSFER_LIMITS["IMPS"][1]),
    ],
)
def test_a_mode_refused_by_its_limit_is_sent_by_neft_once_the_limit_is_told(
    family: str, asked: str, also: str, limit: int
) -> None:
    for task in tasks_of(family):
        call = gold_call(task, "transfer_funds")
        paise = int(rupees(call.arguments["amount"]) * 100)
        low, high = rules.TRANSFER_LIMITS[asked]
        assert not low <= paise <= high, task.task_id
        assert call.arguments["mode"] == "NEFT" and call.allowed == {"mode": (also,)}
        for mode in ("NEFT", also):
            low, high = rules.TRANSFER_LIMITS[mode]
            assert low <= paise <= high, (task.task_id, mode)
        assert task.scenario.instructions[0].accepts == ("NEFT", also)
        reason = next(t for t in task.tells if t.kind == "reason")
        assert [v.value for v in reason.values] == [plain(limit)], task.task_id
        accept = task.scenario.structured_facts()[-1]
        assert accept.about == ("mode",) and f"NEFT or {also}" in accept.text
        assert reason.concepts[0] in accept.after, task.task_id


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
