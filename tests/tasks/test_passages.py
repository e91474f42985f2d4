"""Policy clauses and article passages, and the figures of each kind read in them."""

from __future__ import annotations

import re

import pytest

from pytest_bankbench.paths import data_dir
from pytest_bankbench.tasks.passages import (
    clauses,
    figure,
    figures,
    holds,
    passage_problem,
    policy_clauses,
)

POLICY = """# Policy

## A. First

1. One rule, Rs 100 fee.
   - a sub-point of it, 7 days.
2. Another rule.

## Quick reference

3. Not a clause: no lettered section.
"""


def test_clauses_are_numbered_within_lettered_sections_with_their_sub_points() -> None:
    assert clauses(POLICY) == {
        "A.1": "One rule, Rs 100 fee.\n- a sub-point of it, 7 days.",
        "A.2": "Another rule.",
    }


def test_every_numbered_rule_of_the_shipped_policy_is_a_clause() -> None:
    text = (data_dir() / "policy.md").read_text(encoding="utf-8")
    body = text.split("## Quick reference", 1)[0]
    numbers = re.findall(r"^(\d+)\. ", body, re.MULTILINE)
    assert [c.split(".")[1] for c in policy_clauses()] == numbers
    assert "replacement fee Rs 200" in policy_clauses()["F.24"]


@pytest.mark.parametrize(
    ("kind", "text", "found"),
    [
        ("amount", "from Rs 2,00,000 up to ₹5,00,000.50 (INR 10)", ["200000", "500000.50", "10"]),
        ("percent", "TDS at 10% or 20 %", ["10", "20"]),
        (
            "count",
            "in 7 working days, 24x7, Form DA-3, Rs 200 fee, 10% and 3650 days",
            ["7", "3650"],
        ),
        ("date", "from 2026-04-01 to 2026-06-30", ["2026-04-01", "2026-06-30"]),
        ("text", "anything", []),
    ],
)
def test_figures_of_each_kind(kind: str, text: str, found: list[str]) -> None:
    assert figures(kind, text) == found


def test_a_figure_is_the_first_after_near_or_the_only_one() -> None:
    text = "NEFT Rs 10,00,000; IMPS Rs 5,00,000; RTGS minimum Rs 2,00,000"
    assert figure("amount", text, "IMPS") == "500000"
    assert figure("amount", text, None) is None  # several: which one is not said
    assert figure("amount", "fee Rs 200, again Rs 200.00", None) == "200"
    assert figure("amount", text, "UPI") is None


def test_a_word_is_found_in_the_line_that_holds_near() -> None:
    table = "| Form 15G | below 60 years |\n| Form 15H | senior citizens |"
    assert holds("text", "15H", table, "senior citizens")
    assert not holds("text", "15G", table, "senior citizens")
    assert holds("choice", "police report", "waived with a Police Report.", None)
    assert not holds("text", "port", "with a police report", None)  # whole words only


def test_a_passage_problem_says_what_the_passage_writes() -> None:
    clause = policy_clauses()["F.24"]
    assert passage_problem("amount", "200", clause, None, "F.24") is None
    assert passage_problem("amount", "250", clause, None, "F.24") == (
        "amount 250 is not what F.24 says: 200"
    )
    assert passage_problem("count", "7", clause, None, "F.24") == (
        "F.24 writes several of kind count (4, 7); name the phrase the value follows with `near`"
    )
    assert passage_problem("count", "7", clause, "registered address in", "F.24") is None
    assert passage_problem("count", "7", clause, "courier", "F.24") == (
        "F.24 has no 'courier' for the value to follow"
    )
    assert passage_problem("text", "temporary", clause, None, "F.24") == (
        "F.24 does not say 'temporary'"
    )
