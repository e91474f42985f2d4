"""The scripted customer reads any agent turn in time that grows with its length, not faster
(issue 19, item 1): a long run of one unit costs at most 30 times a run an eighth as long. How
the costliest of the 10,000 seeded adversarial turns compares with the median is a figure,
printed by bench/adversarial_cost.py."""

from __future__ import annotations

import pytest

from pytest_bankbench.simulation.acts import read
from tests.adversarial import slow_turns, turns

TURNS = list(turns(10_000))


def test_the_turns_are_adversarial_and_seeded() -> None:
    assert len(TURNS) == 10_000 and list(turns(10_000)) == TURNS
    assert any(t.count("\n") > 500 for t in TURNS) and any(t.count("[") > 500 for t in TURNS)
    assert any("9" * 1000 in t for t in TURNS)


@pytest.mark.parametrize(
    ("unit", "count"), [("\n", 20_000), ("1", 40_000), ("[", 20_000), ("if ", 10_000)]
)
def test_a_long_run_of_one_unit_is_read_in_linear_time(unit: str, count: int) -> None:
    # The shapes that were quadratic: newlines (a markdown pattern ran over every following
    # line from each line start), a digit run (the lakh/crore pattern from each digit).
    short, long = unit * (count // 8), unit * count
    median, slow = slow_turns(read, [short] * 7 + [long], bound=30.0)
    assert not slow, (unit, median, slow)
