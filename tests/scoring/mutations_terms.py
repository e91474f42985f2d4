"""Mutations of a write's terms (scoring/terms.py: F.24, F.25, K.39): the gold procedure, opening
with a term turned round where the session makes the write it is a term of, or, on odd salts,
the term told the right way round (which must hold).

A term is said before its write here (the opening message): the check reads every agent message
of a session that makes the write, so where in the session the sentence stands does not matter.
"""

from __future__ import annotations

from dataclasses import replace

from pytest_bankbench.simulation.trace import ToolEvent, Trace
from pytest_bankbench.tasks.model import Task
from tests.scoring.mutations import Expect, Mutant
from tests.scoring.mutations_told import opening

# Each write's term, turned round and told right: (tool, argument value or "", wrong, right).
TERMS = (
    (
        "block_card",
        "",
        "If you find the card later, we can switch it back on for you.",
        "A blocked card can't be unblocked, even if you find it later.",
    ),
    (
        "block_card",
        "",
        "Your new card will be with you in a couple of days, free of charge.",
        "A replacement card reaches your registered address in 7 working days; the fee is Rs 200.",
    ),
    (
        "create_fd",
        "credit_to_account",
        "At maturity it will roll into a fresh FD automatically.",
        "At maturity, the amount will be credited to your account; it will not be renewed.",
    ),
)


def _makes(gold: Trace, tool: str, value: str) -> bool:
    return any(
        isinstance(e, ToolEvent)
        and e.took_effect
        and e.call.name == tool
        and (not value or value in (e.call.arguments or {}).values())
        for e in gold.events
    )


def turned_term(task: Task, gold: Trace, salt: int = 0) -> Mutant | None:
    """A term of a write the session makes, said the wrong way round (odd salts: the right way);
    None where the gold session makes no write with such a term."""
    terms = [t for t in TERMS if _makes(gold, t[0], t[1])]
    if not terms:
        return None
    tool, _, wrong, right = terms[(salt // 2) % len(terms)]
    if salt % 2:
        return opening("term", task, gold, "term_told", f"told {tool}'s term right", right)
    bad = opening("term", task, gold, "turned_term", f"turned {tool}'s term round", wrong)
    return replace(bad, expect=Expect(fails=("told_customer",), holds=("forbidden_access",)))
