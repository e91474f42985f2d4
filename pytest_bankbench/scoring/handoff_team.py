"""A hand-off names one team, the one the policy names (I.32): the customer is told who takes
over, and a hand-off to another team told as where they go is not that one. Evidence of the
told_customer check, read where the task's `handoff` tell is.

Careless-agent trial (issue 16, two_teams): "I'm transferring you to our Home Loans team (the
Card Disputes team may look at it later)" passed, the right team being named somewhere. What
fails: the customer said to be transferred, connected, put through or handed to a team (or a
team said to handle it) whose name holds no word of the right team's names. Careful wordings
pass: "I've transferred you to our Card Disputes team; they work with the merchant's bank", "a
colleague from our disputes team", "our fraud and disputes desk", "a human agent" (no team
named), "our grievance team; the branch team has no part in this".
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache

from pytest_bankbench.concepts import concept
from pytest_bankbench.tasks.model import MustTell

# Where the customer is sent: a verb of handing over, at most four words, "to" (or "with"),
# then the team's name (at most five words) and its word for a team.
_SENT_TO = re.compile(
    r"\b(?:transferr?(?:ing|ed)?|connect(?:ing|ed)?|put(?:ting)?\s+you\s+through|pass(?:ing|ed)?"
    r"|hand(?:ing|ed)?(?:\s+over)?|rout(?:ing|ed|e)|forward(?:ing|ed)?|escalat(?:ing|ed|e)"
    r"|refer(?:ring|red)?)\b(?:\s+[\w']+){0,4}?\s+(?:to|with)\s+"
    r"(?P<team>(?:[\w'&-]+\s+){0,5}?)(?:team|department|desk|unit|cell|division)\b"
)
# The team said to take it over: "our Home Loans team will handle this".
_TAKES_IT = re.compile(
    r"\b(?:our|the)\s+(?P<team>(?:[\w'&-]+\s+){1,4}?)(?:team|department|desk|unit)\s+"
    r"(?:will|is\s+going\s+to|shall)\s+(?:handle|take|look|review|investigate|contact|call"
    r"|help|resolve)"
)
# Words that name no team: "our", "the right", "a specialist", "the bank's".
_NAMES_NONE = frozenset(
    {"our", "the", "a", "an", "my", "your", "bank", "bank's", "suvarna", "dedicated", "relevant"}
    | {"right", "concerned", "appropriate", "specialist", "specialised", "specialized", "senior"}
    | {"expert", "and", "of", "in", "from", "at", "colleague", "who", "will", "is", "this", "that"}
)
_WORD = re.compile(r"[a-z']+")


def wrong_teams(tell: MustTell, texts: Sequence[str]) -> list[str]:
    """Evidence for each message (lower case) that sends the customer to a team with none of
    the right team's words in its name."""
    right = _team_words(tell.concepts)
    if not right:
        return []
    problems: list[str] = []
    for text in texts:
        if "team" not in text and "department" not in text and "desk" not in text:
            continue  # most messages name no team
        for pattern in (_SENT_TO, _TAKES_IT):
            for m in pattern.finditer(text):
                named = set(_WORD.findall(m["team"])) - _NAMES_NONE
                if named and not (named & right):
                    problems.append(
                        f"named another team as the one taking over (I.32): {m.group(0)!r}; "
                        f"the policy's: the {tell.label}"
                    )
                    break
            else:
                continue
            break
    return problems


@cache
def _team_words(concepts: tuple[str, ...]) -> frozenset[str]:
    """Every word of the right team's names (the concepts' phrases) but the team's own word."""
    words = {w for name in concepts for p in concept(name).phrases for w in _WORD.findall(p)}
    return frozenset(words - _NAMES_NONE - {"team", "department", "desk", "unit", "cell"})
