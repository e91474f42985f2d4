"""How the narratives speak to the customer: in the second person, each record named once.

Only the LLM customer reads a narrative. "You want to close my Rs. 1,13,000 FD from June 2025
(Rs. 1,13,000)" left it unsure whose FD "my" was, and said the amount twice in one breath
(task audit finding 6). Every shipped task is read; the families are the file's own.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from decimal import Decimal
from typing import Any

import pytest

from pytest_bankbench.authoring import phrasing
from pytest_bankbench.money import amounts_in
from pytest_bankbench.tasks.loader import shipped_tasks

TASKS = shipped_tasks()
FAMILIES = sorted({t.family for t in TASKS})
FIRST_PERSON = re.compile(r"\b(I|I'm|I've|me|my|mine|myself)(?![\w'])")
# An amount as a narrative writes it: "Rs. 1,13,000", "Rs 450", "Rs. 2.5 lakh".
RUPEES = re.compile(r"Rs\.? ?\d[\d,]*(?:\.\d+)?(?: (?:lakh|crore)s?\b)?")
# One clause of a narrative: what lies between sentence and clause stops ("Rs." is none).
CLAUSE_STOP = re.compile(r"(?<!Rs)[.;:](?:\s|$)")


def first_person(narrative: str) -> list[str]:
    """The first-person words of a narrative (it addresses the customer as "you")."""
    return [m.group(0) for m in FIRST_PERSON.finditer(narrative)]


def repeated_amounts(narrative: str) -> list[Decimal]:
    """The amounts a narrative writes twice within one clause."""
    repeated: list[Decimal] = []
    for clause in CLAUSE_STOP.split(narrative):
        seen: list[Decimal] = []
        for match in RUPEES.finditer(clause):
            seen += sorted(amounts_in(match.group(0)))
        repeated += sorted({a for a in seen if seen.count(a) > 1})
    return repeated


def test_the_checks_catch_the_audited_wording() -> None:
    bad = "You want to close my Rs. 1,13,000 FD from June 2025 (Rs. 1,13,000) before maturity."
    assert first_person(bad) == ["my"]
    assert repeated_amounts(bad) == [Decimal(113000)]
    good = "You want to close your Rs. 1,13,000 FD from June 2025 before maturity."
    assert first_person(good) == [] and repeated_amounts(good) == []
    # Two clauses may each name an amount (the minimum told, then agreed).
    assert repeated_amounts("The minimum is Rs 500; once told, you agree to Rs 500 a month.") == []


def _offending(family: str, check: Callable[[str], list[Any]]) -> dict[str, list[Any]]:
    """The family's tasks whose narrative the check finds something in, and what it found."""
    found = {t.task_id: check(t.scenario.narrative) for t in TASKS if t.family == family}
    return {task_id: what for task_id, what in found.items() if what}


@pytest.mark.parametrize("family", FAMILIES)
def test_no_narrative_mixes_persons(family: str) -> None:
    mixed = _offending(family, first_person)
    assert not mixed, mixed


@pytest.mark.parametrize("family", FAMILIES)
def test_no_narrative_repeats_an_amount_in_one_clause(family: str) -> None:
    repeats = _offending(family, repeated_amounts)
    assert not repeats, repeats


@pytest.mark.parametrize(
    ("said", "told"),
    [
        ("my Rs. 2,00,000 FD from June 2025", "your Rs. 2,00,000 FD from June 2025"),
        ("the Rs. 85,000 FD I opened in May 2025", "the Rs. 85,000 FD you opened in May 2025"),
        ("I was charged but never received it", "you were charged but never received it"),
        ("nobody has got back to me", "nobody has got back to you"),
        ("I'm sure it's in one of my bags", "you're sure it's in one of your bags"),
        ("the Imperial hotel", "the Imperial hotel"),
    ],
)
def test_yours_turns_the_customers_words_to_the_second_person(said: str, told: str) -> None:
    assert phrasing.yours(said) == told
