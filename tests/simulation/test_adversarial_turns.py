"""The scripted customer reads any agent turn in time that grows with its length, not faster
(issue 19, item 1): 10,000 adversarial turns, none costing more than 10 times the median."""

from __future__ import annotations

import pytest

from pytest_bankbench.simulation.acts import read
from pytest_bankbench.simulation.customer import ScriptedCustomer
from pytest_bankbench.tasks.loader import shipped_tasks
from tests.adversarial import slow_turns, turns

TURNS = list(turns(10_000))


def test_the_turns_are_adversarial_and_seeded() -> None:
    assert len(TURNS) == 10_000 and list(turns(10_000)) == TURNS
    assert any(t.count("\n") > 500 for t in TURNS) and any(t.count("[") > 500 for t in TURNS)
    assert any("9" * 1000 in t for t in TURNS)


def test_no_turn_costs_ten_times_the_median_for_the_customer() -> None:
    task = shipped_tasks()[0]

    def fresh() -> ScriptedCustomer:
        customer = ScriptedCustomer(task)
        customer.open()
        return customer

    median, slow = slow_turns(lambda text, customer: customer.respond(text), TURNS, prepare=fresh)
    assert not slow, f"median {median * 1000:.2f} ms; slowest: {sorted(slow, reverse=True)[:3]}"


@pytest.mark.parametrize(
    ("unit", "count"), [("\n", 20_000), ("1", 40_000), ("[", 20_000), ("if ", 10_000)]
)
def test_a_long_run_of_one_unit_is_read_in_linear_time(unit: str, count: int) -> None:
    # The shapes that were quadratic: newlines (a markdown pattern ran over every following
    # line from each line start), a digit run (the lakh/crore pattern from each digit).
    short, long = unit * (count // 8), unit * count
    median, slow = slow_turns(read, [short] * 7 + [long], bound=30.0)
    assert not slow, (unit, median, slow)
