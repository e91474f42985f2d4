"""Records named by their last digits are ones the session knows (scoring/records_named.py)."""

from __future__ import annotations

import re

import pytest

from pytest_bankbench.simulation.trace import ToolEvent
from pytest_bankbench.tasks.loader import shipped_tasks
from tests.scoring.sessions import failed, gold, said_last

CLOSURES = [t for t in shipped_tasks() if t.family == "fd_closure"][:6]


def _credited(task_id: str) -> str:
    """The last four digits of the account a closure's payout went to (from its result)."""
    trace = gold(task_id)
    closed = next(e for e in trace.events if isinstance(e, ToolEvent) and e.took_effect)
    numbers: list[str] = re.findall(r"\d{10,}", str(closed.output))
    assert numbers, closed.output
    return numbers[0][-4:]


@pytest.mark.parametrize(
    "sentence",
    [
        "Your payout has been credited to your account ending {wrong}.",
        "The money is now in your savings account XX{wrong}.",
        "Credited to a/c **** {wrong} ✅",
    ],
)
def test_a_record_named_by_made_up_digits_fails(sentence: str) -> None:
    """Hunt round 5: 'credited to your account ending 1234' passed 8 of 8."""
    for task in CLOSURES:
        right = _credited(task.task_id)
        wrong = "1234" if right != "1234" else "5678"
        problems = said_last(task, sentence.format(wrong=wrong)).get("told_customer", [])
        assert any(f"ending {wrong}" in p for p in problems), (task.task_id, problems)


@pytest.mark.parametrize(
    "sentence",
    [
        "Your payout has been credited to your account ending {right}.",
        "The money is now in your savings account XX{right}.",
        "Credited to a/c **** {right} ✅",
        "The last four digits of the credited account are {right}.",
        "Interest paid: **1500** rupees (bold, no record).",
    ],
)
def test_a_record_named_by_its_own_digits_passes(sentence: str) -> None:
    for task in CLOSURES:
        text = sentence.format(right=_credited(task.task_id))
        assert "told_customer" not in said_last(task, text), (task.task_id, text)


def test_gold_passes() -> None:
    for task in CLOSURES:
        assert failed(task, gold(task.task_id)) == {}
