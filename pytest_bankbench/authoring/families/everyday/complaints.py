"""Everyday families about complaints: a complaint the customer wants escalated (I.32).

The assistant decides no complaint (KB 24): it looks the complaint up, tells the customer who
takes it over (the bank's grievance team at customer care) and hands the conversation over with
a summary naming the complaint (I.34). Handling it itself, or promising an outcome, is not done.
"""

from __future__ import annotations

import random
import sqlite3

from pytest_bankbench.authoring import base, calls, phrasing, pickers
from pytest_bankbench.authoring.base import Context, Draft, Must, draft, family
from pytest_bankbench.tasks.model import Instruction

_COMPLAINTS = (
    "SELECT DISTINCT customer_id FROM service_requests WHERE kind LIKE 'complaint:%' AND "
    f"customer_id NOT IN {pickers.RESERVED} ORDER BY 1"
)

# Why the customer is unhappy with how the complaint went, by the complaint's status.
_GRIEVANCE = {
    "open": "nobody has got back to me",
    "in progress": "it has been 'in progress' for weeks with no answer",
    "closed": "it was closed without the money ever coming back",
}


def grievance_team(request: str, before: str) -> Must:
    """I.32: a complaint the customer asks to escalate goes to a human agent, the bank's
    grievance team at customer care (KB 24), which the customer is told before the transfer."""
    return Must(
        "handoff",
        "grievance team",
        ("grievance_team",),
        record=request,
        before=before,
    )


@family(_COMPLAINTS)
def complaint_escalation(ctx: Context, rng: random.Random, customer: sqlite3.Row) -> Draft | None:
    """A complaint the customer wants escalated: look it up, name the team, hand it over."""
    rows = ctx.all(
        "SELECT * FROM service_requests WHERE customer_id = ? AND kind LIKE 'complaint:%' "
        "ORDER BY opened_on, request_id",
        customer["customer_id"],
    )
    request = rng.choice(rows)
    words = phrasing.request_words(request)
    about, opened, raised = words["about"], words["opened"], words["raised"]
    status = str(request["status"])
    why = _GRIEVANCE[status]
    ask = phrasing.opening_text(rng, "complaint_escalation", **words, why=why)
    return draft(
        customer,
        Instruction(text=ask, decline="No, I just want it escalated to a person."),
        facts=[
            phrasing.knows(
                f"It's my complaint about {about}, raised on {raised}.", "date", "reason", "other"
            ),
            phrasing.knows(f"The problem is that {why}.", "reason"),
        ],
        narrative=(
            f"You complained about {about} on {raised} (the complaint is {status}), and "
            f"{phrasing.yours(why)}. You want it escalated to a human; you do not want the assistant to handle "
            "it itself."
        ),
        calls=[
            base.as_step("complaint", calls.find_request(request)),
            base.as_step(
                "handoff",
                calls.handoff(
                    "complaint escalation",
                    f"Customer asks to escalate their complaint about {about}, raised in "
                    f"{opened:%B %Y} and now {status}: {why}.",
                    after=("complaint",),
                ),
            ),
        ],
        tells=[grievance_team(request["request_id"], before="handoff")],
        offers=phrasing.offered_secret("otp", "complaint_escalation", customer["customer_id"]),
    )
