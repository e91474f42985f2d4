"""The scorer reads any agent turn in time that grows with its length, not faster (issue 19,
item 1): a long run of one unit put into a gold session's last agent message costs at most 30
times a run an eighth as long. How the costliest of 2,000 seeded adversarial turns compares with
the median is a figure, printed by bench/adversarial_cost.py."""

from __future__ import annotations

import pytest

from pytest_bankbench.bank.store import Bank
from pytest_bankbench.run.play import expected_changes
from pytest_bankbench.scoring.scorer import score
from pytest_bankbench.simulation.agents import GoldAgent
from pytest_bankbench.simulation.customer import ScriptedCustomer
from pytest_bankbench.simulation.session import run_session
from pytest_bankbench.simulation.trace import Trace
from pytest_bankbench.tasks.loader import shipped_tasks
from pytest_bankbench.tasks.model import Task
from tests.adversarial import in_last_agent_message, slow_turns

TASK = next(t for t in shipped_tasks() if t.family == "fd_closure")


def _gold(task: Task) -> Trace:
    with Bank(task.customer_id, task.task_date, task.bank_seed) as bank:
        return run_session(task, GoldAgent(task), ScriptedCustomer(task), bank)


GOLD = _gold(TASK)
EXPECTED = expected_changes(TASK)
_with_turn = in_last_agent_message(GOLD)


@pytest.mark.parametrize(("unit", "count"), [("[", 20_000), ("{", 20_000), ("pin ", 5_000)])
def test_a_long_run_of_one_unit_is_scored_in_linear_time(unit: str, count: int) -> None:
    # The shapes that were quadratic: brackets (each opening rescanned to the end), a concept
    # named at every word (each negation looked back to the text's start).
    def scored(text: str) -> object:
        return score(TASK, _with_turn(text), EXPECTED)

    median, slow = slow_turns(scored, [unit * (count // 8)] * 7 + [unit * count], bound=30.0)
    assert not slow, (unit, median, slow)
