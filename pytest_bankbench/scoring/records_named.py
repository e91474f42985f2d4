"""A record named by its last digits is one the session knows (J.35: do not invent values).

Agents name accounts, cards, FDs and loans by their last four digits ("your account ending
9028", "card XX7247", "**** 1219"). Hunt round 5: "Your payout has been credited to your
account ending 1234." passed 8 of 8 in fd_closure, though no account of the customer, no tool
result and no word of the customer's ends in 1234: a made-up account told as where the money
went. Such digits must be in what the session gave the agent: a tool's arguments, result or
error, or the customer's words ("50105106087477" holds "7477"). Evidence of the told_customer
check.

Accepted: "credited to your savings account ending 9028" (list_accounts showed it), "your card
ending 7247" (the customer said it). Refused: "credited to your account ending 1234" where
nothing gave 1234.
"""

from __future__ import annotations

import json
import re

from pytest_bankbench.scoring.safeguards import quote
from pytest_bankbench.scoring.view import SessionView
from pytest_bankbench.simulation.trace import ToolEvent

# Last digits after a cue: "ending 9028", "ending in 9028", "ends with 9028", "XX9028",
# "**** 9028", "last four digits 9028" (two stars are markdown's bold: "**1500** rupees").
_TAIL = re.compile(
    r"(?:\bending(?: in| with)?|\bends (?:in|with)|\bx{2,}|\*{3,}|\blast (?:four|4) digits"
    r"(?: are| of)?)[\s:]*(\d{4})(?![\d,])",
    re.IGNORECASE,
)
_CUES = ("ending", "ends", "xx", "***", "digits")  # substrings: most messages hold none


def invented_records(view: SessionView) -> list[str]:
    """Evidence for each last-four-digits the agent said that nothing in the session holds."""
    # What the session gave, read only once a tail is said: the customer's words first (most
    # tails are of the account or card the customer named), the calls only for the rest.
    said: str | None = None
    calls: str | None = None
    problems: list[str] = []
    for message in view.agent:
        if not any(cue in message.lowered for cue in _CUES):
            continue
        for tail in dict.fromkeys(_TAIL.findall(message.text)):
            if said is None:
                said = "\n".join(m.text for m in view.messages if m.event.role == "customer")
            if tail in said:
                continue
            if calls is None:
                calls = _calls(view)
            if tail not in calls:
                problems.append(
                    f"named a record by last digits no tool result or the customer gave (J.35:"
                    f" do not invent values): ending {tail} in {quote(message.text)}"
                )
    return problems


def _calls(view: SessionView) -> str:
    """Each call's arguments, result and error, as text."""
    parts = []
    for call in view.calls:
        event: ToolEvent = call.event
        parts.append(json.dumps([event.call.arguments, event.output], default=str))
        parts.append(event.error or "")
    return "\n".join(parts)
