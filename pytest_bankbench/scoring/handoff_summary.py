"""A hand-off's summary tells the team what the issue is (I.34): what the gold summary names.

Evidence of the told_customer check, read wherever the gold chain hands the customer over:

- the amounts and dates of the gold summary are in the agent's (the reason and the summary
  read together: "Customer disputes Rs. 8,569 from Swiggy on 2026-03-06 ...");
- a dispute or a complaint is called one, and not denied ("no dispute, only wants a limit
  increase" fails);
- it names no other merchant than the disputed charge's (hunt round 5: a summary that sent the
  team after "Amazon" for a Swiggy charge passed 8 of 8). Leaving the merchant out is no
  error: the amount and the date find the charge. A merchant is one the seeded bank draws
  charges from (bank/seed_pools.py), named by its name or its own first word ("Amazon" for
  "Amazon India"; "Indian Oil" and "Tata CLiQ" only whole).
"""

from __future__ import annotations

import re
from functools import cache

from pytest_bankbench.bank.seed_pools import MERCHANTS
from pytest_bankbench.concepts import says, spans
from pytest_bankbench.scoring.outputs import said, shown
from pytest_bankbench.scoring.view import SessionView
from pytest_bankbench.tasks.model import Task

HANDOFF = "transfer_to_human_agent"
_ISO_DATE = re.compile(r"\b\d{4}-\d{2}-\d{2}\b")
_AMOUNT = re.compile(r"Rs\.? ?([\d,]+(?:\.\d+)?)")
_NO_WORDS = frozenset({"no", "not", "never", "without", "nor", "neither"})
# First words too common to name a merchant alone.
_COMMON_FIRST = frozenset({"indian", "tata"})


def summary_problems(task: Task, view: SessionView) -> list[str]:
    """Evidence for each thing the agent's hand-off summary leaves out or gets wrong."""
    gold = next((g for g in task.gold if g.tool == HANDOFF), None)
    if gold is None:
        return []
    calls = [e for e in view.tool_events if e.call.name == HANDOFF and e.call.arguments]
    if not calls:
        return []
    args = calls[0].call.arguments or {}
    written = f"{args.get('reason', '')}. {args.get('summary', '')}"
    wanted_text = f"{gold.arguments.get('reason', '')}. {gold.arguments.get('summary', '')}"
    problems = []
    for amount in _AMOUNT.findall(wanted_text):
        if not said("amount", amount.replace(",", ""), written):
            problems.append(
                f"the hand-off summary does not give the amount "
                f"{shown('amount', amount.replace(',', ''))}: {written!r}"
            )
    for day in _ISO_DATE.findall(wanted_text):
        if not said("date", day, written):
            problems.append(f"the hand-off summary does not give the date {day}: {written!r}")
    summary = str(args.get("summary", ""))
    for issue in ("dispute", "complaint"):
        if says(issue, wanted_text) and not says(issue, written):
            problems.append(f"the hand-off does not say it is a {issue}: {written!r}")
        elif says(issue, wanted_text) and _denied(issue, summary):
            # "... confirms it was genuine; no dispute, only wants a limit increase": the reason
            # says dispute, the summary the team reads says the opposite (careless-agent trial)
            problems.append(f"the hand-off summary says it is no {issue}: {summary!r}")
    wanted = _merchants(wanted_text)
    if wanted:
        others = _merchants(written) - wanted
        if others:
            problems.append(
                f"the hand-off summary names another merchant ({', '.join(sorted(others))}) than"
                f" the disputed charge's ({', '.join(sorted(wanted))}): {written!r}"
            )
    return problems


def _merchants(text: str) -> frozenset[str]:
    """The seeded bank's merchants a text names (by their full names)."""
    lowered = text.lower()
    return frozenset(
        name for name, pattern in _merchant_patterns() if pattern.search(lowered) is not None
    )


@cache
def _merchant_patterns() -> tuple[tuple[str, re.Pattern[str]], ...]:
    found = []
    for name in MERCHANTS:
        words = name.lower().split()
        ways = {" ".join(words)} | ({words[0]} if words[0] not in _COMMON_FIRST else set())
        alternation = "|".join(re.escape(w) for w in sorted(ways, key=len, reverse=True))
        found.append((name, re.compile(rf"(?<![\w-])(?:{alternation})(?![\w-])")))
    return tuple(found)


def _denied(issue: str, text: str) -> bool:
    """The text names the issue only negated: "no dispute", "no dispute or complaint" (a
    negator among the four words before it in its clause)."""
    found = spans(issue, text)
    return bool(found) and all(
        negated or not _NO_WORDS.isdisjoint(re.split(r"[.;:,]", text[:start])[-1].split()[-4:])
        for start, _, negated in found
    )
