"""Everyday families about complaints: a complaint the customer wants escalated (I.32).

The assistant decides no complaint (KB 24): it looks the complaint up, tells the customer who
takes it over (the bank's grievance team at customer care) and hands the conversation over with
a summary naming the complaint (I.34). Handling it itself, or promising an outcome, is not done.
"""

from __future__ import annotations

import random
import sqlite3
from datetime import date

from pytest_bankbench.authoring.base import (
    Context,
    Draft,
    Must,
    as_step,
    draft,
    family,
)
from pytest_bankbench.authoring.calls import handoff, listed
from pytest_bankbench.authoring.phrasing import desi, knows, long_date, offered_secret, opening
from pytest_bankbench.authoring.pickers import RESERVED
from pytest_bankbench.tasks.model import Instruction

_COMPLAINTS = (
    "SELECT DISTINCT customer_id FROM service_requests WHERE kind LIKE 'complaint:%' AND "
    f"customer_id NOT IN {RESERVED} ORDER BY 1"
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


@family(
    "complaint_escalation",
    "rare_tool",
    "everyday",
    _COMPLAINTS,
    clause="I.32 'Use transfer_to_human_agent for ... complaints where the customer asks for escalation or to speak to a human'; KB 24 the assistant does not decide complaints or promise outcomes; I.34 summarise in the transfer",
)
def complaint_escalation(ctx: Context, rng: random.Random, customer: sqlite3.Row) -> Draft | None:
    """A complaint the customer wants escalated: look it up, name the team, hand it over."""
    rows = ctx.all(
        "SELECT * FROM service_requests WHERE customer_id = ? AND kind LIKE 'complaint:%' "
        "ORDER BY opened_on, request_id",
        customer["customer_id"],
    )
    request = rng.choice(rows)
    about = str(request["kind"]).split(": ", 1)[1]
    opened = date.fromisoformat(request["opened_on"])
    status = str(request["status"])
    why = _GRIEVANCE[status]
    ask = opening(
        rng,
        terse=f"My complaint about {about} from {opened:%B} - {why}. Escalate it. I want a human.",
        chatty=f"Hi. I'm really fed up. I complained about {about} back in {opened:%B}, and "
        f"{why}. I want this escalated - please put me through to a real person.",
        formal=f"Good afternoon. I lodged a complaint regarding {about} on "
        f"{long_date(opened)}, and {why}. I wish to escalate the matter to a human officer.",
        hinglish=f"Hello, maine {opened:%B} mein {desi(about)} ki complaint ki thi, aur {why}. "
        "Isko escalate karo, kisi insaan se baat karwao.",
        unprompted=f"I raised a complaint on {long_date(opened)} about {about}, and {why}. "
        "Please escalate it and transfer me to someone who can sort it out.",
        asked="I want to escalate a complaint I made. Please connect me to a person.",
        angry=f"This is unacceptable. My complaint about {about} from {opened:%B %Y} - {why}. "
        "Escalate it now, I want to speak to a human being.",
    )
    return draft(
        customer,
        Instruction(text=ask, decline="No, I just want it escalated to a person."),
        facts=[
            knows(
                f"It's my complaint about {about}, raised on {long_date(opened)}.",
                "date",
                "reason",
                "other",
            ),
            knows(f"The problem is that {why}.", "reason"),
        ],
        narrative=(
            f"You complained about {about} on {long_date(opened)} (the complaint is "
            f"{status}), and {why}. You want it escalated to a human; you do not want the "
            "assistant to handle it itself."
        ),
        calls=[
            as_step(
                "complaint",
                listed(
                    "get_service_requests", "service_request", request["request_id"], ("status",)
                ),
            ),
            as_step(
                "handoff",
                handoff(
                    "complaint escalation",
                    f"Customer asks to escalate their complaint about {about}, raised in "
                    f"{opened:%B %Y} and now {status}: {why}.",
                    after=("complaint",),
                ),
            ),
        ],
        tells=[grievance_team(request["request_id"], before="handoff")],
        offers=offered_secret("otp", "complaint_escalation", customer["customer_id"]),
    )
