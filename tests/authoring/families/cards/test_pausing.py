"""F.25: a card to stop for a while has its channels switched off, never blocked."""

from __future__ import annotations

import pytest

from pytest_bankbench.authoring.families.cards.pausing import CHANNELS
from pytest_bankbench.runner import builtin_agent, run_task
from pytest_bankbench.tasks.model import GoldCall, Task
from tests.authoring.families.shipped import (
    played,
    tasks_of,
    with_gold,
    without_explain,
)

TASKS = tasks_of("pause_card_channels")


def test_every_channel_on_is_switched_off_and_nothing_is_blocked() -> None:
    for task in TASKS:
        writes = [c for c in task.gold if c.tool == "set_card_channel_limit"]
        assert [c.arguments["channel"] for c in writes] == [
            c for c in CHANNELS if any(w.arguments["channel"] == c for w in writes)
        ]
        assert writes and all(c.arguments["enabled"] is False for c in writes)
        assert "block_card" not in {c.tool for c in task.gold}
        first = task.scenario.first_message.lower()
        assert any(word in first for word in ("block", "cancel", "pause")), task.task_id


def test_gold_passes_and_tells_the_channels_go_off_instead() -> None:
    task = TASKS[0]
    assert run_task(task, builtin_agent("gold", task)).verdict.passed


@pytest.mark.parametrize("task", TASKS[:3], ids=lambda t: t.task_id)
def test_a_block_instead_of_a_pause_fails(task: Task) -> None:
    card = task.gold[-1].arguments["card_id"]
    block = GoldCall(
        id="c3",
        tool="block_card",
        arguments={"card_id": card, "reason": "lost"},
        match=("card_id",),
        after=("c2",),
        instruction=0,
    )
    verdict = played(task, with_gold(task, [*task.gold[:2], block]))
    assert not verdict.passed
    assert verdict.failure_type in {"unrequested_write", "wrong_final_state"}, verdict.evidence


def test_switching_off_only_one_channel_fails() -> None:
    task = TASKS[1]
    verdict = played(task, with_gold(task, list(task.gold[:3])))
    assert not verdict.passed and not verdict.checks["final_state"], verdict.evidence


def test_pausing_without_offering_the_channels_instead_fails() -> None:
    task = TASKS[2]
    verdict = played(task, without_explain(task))
    assert not verdict.passed and verdict.failure_type == "not_told", verdict.evidence
    assert any("channels_off" in line for line in verdict.evidence["told_customer"])
