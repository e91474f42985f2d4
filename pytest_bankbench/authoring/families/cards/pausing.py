"""Card families about pausing a card: switching its channels off instead of blocking it (F.25).

A blocked card cannot be unblocked (F.25), so a customer who only wants a card stopped for a
while gets its channels switched off, each with the customer's yes; a block is a write the
customer never asked for, and fails the task.
"""

from __future__ import annotations

import random
import sqlite3

from pytest_bankbench.authoring import base, calls, phrasing, pickers
from pytest_bankbench.authoring.base import Context, Draft, draft, family
from pytest_bankbench.tasks.model import Instruction

# The channels F.26 names, in the order the card's controls list them.
CHANNELS = ("atm", "pos", "online", "contactless")

# Active cards with at least one channel on and international usage off (switching that off
# too would be a change the customer did not ask for, or one they did: left out of the tasks).
_PAUSABLE = (
    "SELECT DISTINCT c.customer_id FROM cards c WHERE c.status = 'active' AND EXISTS (SELECT 1 "
    "FROM card_controls k WHERE k.card_id = c.card_id AND k.channel <> 'international' AND "
    "k.enabled = 1) AND NOT EXISTS (SELECT 1 FROM card_controls k WHERE k.card_id = c.card_id "
    f"AND k.channel = 'international' AND k.enabled = 1) AND c.customer_id NOT IN {pickers.RESERVED} "
    "ORDER BY 1"
)


def _enabled(ctx: Context, card: sqlite3.Row) -> list[str]:
    rows = ctx.all(
        "SELECT channel FROM card_controls WHERE card_id = ? AND enabled = 1", card["card_id"]
    )
    on = {r["channel"] for r in rows}
    return [c for c in CHANNELS if c in on]


def _pausable(ctx: Context, cid: str) -> list[sqlite3.Row]:
    return [c for c in pickers.active_cards(ctx, cid) if _enabled(ctx, c) and not _intl_on(ctx, c)]


def _intl_on(ctx: Context, card: sqlite3.Row) -> bool:
    row = ctx.all(
        "SELECT 1 FROM card_controls WHERE card_id = ? AND channel = 'international' AND "
        "enabled = 1",
        card["card_id"],
    )
    return bool(row)


@family(_PAUSABLE)
def pause_card_channels(ctx: Context, rng: random.Random, customer: sqlite3.Row) -> Draft | None:
    """A card to stop for a few days: switch its channels off, never block it."""
    card = pickers.pick(rng, _pausable(ctx, customer["customer_id"]))
    if card is None:
        return None
    named = pickers.card_name(card)
    channels = _enabled(ctx, card)
    place = rng.choice(("at home", "in the car", "at my office", "in one of my bags"))
    ask = phrasing.opening_text(rng, "pause_card_channels", place=place, **pickers.card_words(card))
    return draft(
        customer,
        Instruction(
            text=ask,
            explain="A blocked card can never be used again, so rather than block it I can "
            "switch off its channels for now - each one you use - and you can switch them "
            "back on once you find it.",
        ),
        facts=[
            pickers.card_fact(card),
            phrasing.knows(
                "Switch off everything on it for now; I'll turn it back on myself.", "channel"
            ),
            phrasing.knows(f"I'm quite sure it's {place}; nobody has taken it.", "reason", "other"),
        ],
        narrative=(
            f"You have misplaced your {named}, probably {phrasing.yours(place)}, and want it stopped for a "
            "few days, not blocked: a blocked card cannot be used again. You agree to its "
            "channels being switched off, one by one."
        ),
        calls=[
            calls.find_card(card),
            base.as_step("details", calls.card_details(card, fields=("status", "controls"))),
            *(calls.set_channel(card, channel, False, after=("details",)) for channel in channels),
        ],
        tells=[
            base.alternative(
                "switch the channels off instead of blocking",
                "channels_off",
                record=card["card_id"],
            )
        ],
        offers=phrasing.offered_secret("pin", "pause_card_channels", customer["customer_id"]),
    )
