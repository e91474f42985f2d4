"""Card families about card controls: channel limits, international usage, card status."""

from __future__ import annotations

import random
import sqlite3

from pytest_bankbench.bank import rules
from pytest_bankbench.money import indian, plain
from pytest_bankbench.tasks.families.base import (
    Context,
    Draft,
    Out,
    Tell,
    draft,
    family,
    greet,
    pick,
    say,
    spoken,
)
from pytest_bankbench.tasks.families.calls import card_details, find_card, set_channel
from pytest_bankbench.tasks.families.cards import ACTIVE_CARD, active_cards, card_name
from pytest_bankbench.tasks.model import Instruction

_CAPABLE = tuple(sorted(rules.INTERNATIONAL_CAPABLE))
_CAPABLE_SQL = "(" + ", ".join(f"'{p}'" for p in _CAPABLE) + ")"
# Active international-capable cards whose international switch is still off.
_INTL_OFF = (
    "SELECT DISTINCT c.customer_id FROM cards c JOIN card_controls k USING (card_id) "
    f"WHERE c.status = 'active' AND c.product IN {_CAPABLE_SQL} AND "
    "k.channel = 'international' AND k.enabled = 0"
)
_CHANNEL_WORDS = {
    "atm": "ATM withdrawal",
    "pos": "shop (POS)",
    "online": "online",
    "contactless": "contactless (tap and pay)",
}


def _control(ctx: Context, card: sqlite3.Row, channel: str) -> sqlite3.Row:
    return ctx.one(
        "SELECT * FROM card_controls WHERE card_id = ? AND channel = ?", card["card_id"], channel
    )


def _intl_off(ctx: Context, cid: str) -> list[sqlite3.Row]:
    """The customer's active international-capable cards whose international switch is off."""
    return [
        c
        for c in active_cards(ctx, cid, f"product IN {_CAPABLE_SQL}")
        if not _control(ctx, c, "international")["enabled"]
    ]


def _maximum(card: sqlite3.Row, channel: str) -> int:
    cap = rules.CARD_PRODUCTS[card["product"]].get(channel)
    return int(cap if cap is not None else card["credit_limit"])


def _new_limit(rng: random.Random, cap: int, current: int) -> int | None:
    options = [
        r * 100
        for r in (5_000, 10_000, 15_000, 20_000, 25_000, 30_000, 40_000, 50_000, 75_000, 1_00_000)
        if r * 100 <= cap and r * 100 != current
    ]
    return rng.choice(options) if options else None


@family(
    "atm_limit_then_international",
    "sequencing",
    "cards",
    _INTL_OFF,
    clause="F.26 'Channel limits ... from Rs 0 up to the maximum for the card type. International usage can be switched on only for cards that support it'; G.27 in order; C.11 check current limits",
)
def atm_limit_then_international(
    ctx: Context, rng: random.Random, customer: sqlite3.Row
) -> Draft | None:
    """Numbered: set the ATM limit, then switch international usage on."""
    card = pick(rng, _intl_off(ctx, customer["customer_id"]))
    if card is None:
        return None
    limit = _new_limit(rng, _maximum(card, "atm"), _control(ctx, card, "atm")["daily_limit"])
    if limit is None:
        return None
    return draft(
        customer,
        greet(rng),
        say(
            rng,
            f"I'm travelling soon. First, set the daily ATM limit on my {card_name(card)} to "
            f"{spoken(limit, rng)}.",
            f"Two things before my trip, in order. First, change the ATM withdrawal limit on "
            f"my {card_name(card)} to {spoken(limit, rng)} a day.",
        ),
        "Then switch on international usage on the same card.",
        facts=["Keep ATM withdrawals switched on."],
        narrative=(
            f"Before a trip abroad you want the daily ATM limit of your {card_name(card)} set "
            f"to {indian(limit)}, and then international usage switched on for the same "
            "card."
        ),
        calls=[
            find_card(card),
            card_details(card, fields=("controls", "international_supported")),
            set_channel(card, "atm", True, limit, after=("c2",)),
            set_channel(card, "international", True, after=("c3",), instruction=1),
        ],
    )


@family(
    "international_not_supported",
    "edge_case",
    "cards",
    _INTL_OFF + " AND c.customer_id IN (SELECT customer_id FROM cards WHERE status = "
    "'active' AND product = 'RuPay Classic Debit')",
    clause="H.29 / F.26 refuse international usage on a RuPay Classic Debit card; KB 16 alternative: 'use another of the customer's cards that supports international usage'; act on it only if the customer agrees",
)
def international_not_supported(
    ctx: Context, rng: random.Random, customer: sqlite3.Row
) -> Draft | None:
    """International usage on a RuPay Classic card is refused; the customer's other card gets it."""
    classics = active_cards(ctx, customer["customer_id"], "product = 'RuPay Classic Debit'")
    capable = _intl_off(ctx, customer["customer_id"])
    if not classics or not capable:
        return None
    classic, other = rng.choice(classics), rng.choice(capable)
    ask = say(
        rng,
        f"Please enable international usage on my {card_name(classic)}; I'm going abroad next week.",
        f"I'm travelling to Dubai - switch on international transactions on my {card_name(classic)}.",
        f"Can you activate my {card_name(classic)} for use outside India?",
    )
    return draft(
        customer,
        greet(rng),
        ask,
        facts=[f"If that card can't, enable it on my {card_name(other)} instead."],
        narrative=(
            f"You want international usage on your {card_name(classic)}. It is a domestic-only "
            f"card; when told so, you ask for international usage on your {card_name(other)} "
            "instead and agree."
        ),
        calls=[
            # The product shows whether a card works abroad (policy F and the card list).
            find_card(classic),
            find_card(other),
            set_channel(other, "international", True, after=("c1", "c2")),
        ],
    )


def _above(rng: random.Random, cap: int) -> int:
    """A round amount above a card's maximum, as a customer might ask for it."""
    step = 5_000_00 if cap < 1_00_000_00 else 50_000_00
    raised = cap * rng.choice((3, 4, 6)) // 2
    return -(-raised // step) * step


@family(
    "limit_above_maximum",
    "edge_case",
    "cards",
    ACTIVE_CARD,
    clause="H.29 refuse 'A card channel limit above the card type's maximum: offer to set the maximum'; act on it only if the customer agrees",
)
def limit_above_maximum(ctx: Context, rng: random.Random, customer: sqlite3.Row) -> Draft | None:
    """A channel limit above the product's maximum: refuse it, set the maximum once agreed."""
    options = []
    for card in active_cards(ctx, customer["customer_id"]):
        for channel in ("atm", "pos", "online", "contactless"):
            control = _control(ctx, card, channel)
            if control["daily_limit"] < _maximum(card, channel):
                options.append((card, channel))
    if not options:
        return None
    card, channel = rng.choice(options)
    cap = _maximum(card, channel)
    asked = _above(rng, cap)
    words = _CHANNEL_WORDS[channel]
    ask = say(
        rng,
        f"Please raise the daily {words} limit on my {card_name(card)} to {spoken(asked, rng)}.",
        f"I need a daily {words} limit of {spoken(asked, rng)} on my {card_name(card)}.",
        f"Set the daily {words} limit of my {card_name(card)} to {spoken(asked, rng)}, please.",
    )
    return draft(
        customer,
        greet(rng),
        ask,
        facts=[
            "If that's more than allowed, then set it to the maximum allowed.",
            f"Keep the {channel} channel switched on.",
        ],
        narrative=(
            f"You want the daily {words} limit of your {card_name(card)} set to "
            f"{indian(asked)}. That is above the card's maximum; when told, you accept the "
            f"maximum ({indian(cap)}) instead."
        ),
        calls=[
            find_card(card),
            card_details(card, fields=("controls",)),
            set_channel(card, channel, True, cap, after=("c2",)),
        ],
        outputs=[Out("maximum daily limit", "amount", lambda _r: plain(cap))],
        disclosures=[Tell("c3", "new daily limit", "amount", lambda _r: plain(cap))],
    )


@family(
    "card_status_enquiry",
    "control",
    "cards",
    "SELECT DISTINCT customer_id FROM cards",
    clause="J.36 tell the value asked (card status, or a channel's daily limit)",
)
def card_status_enquiry(ctx: Context, rng: random.Random, customer: sqlite3.Row) -> Draft | None:
    """Control: a card's status, or one channel's daily limit."""
    cards = ctx.all(
        "SELECT * FROM cards WHERE customer_id = ? ORDER BY card_kind DESC, card_id",
        customer["customer_id"],
    )
    card = rng.choice(cards)
    if card["status"] != "active":
        calls = [find_card(card), card_details(card, fields=("status",))]
        return draft(
            customer,
            greet(rng),
            Instruction(
                text=say(
                    rng,
                    f"Is my {card_name(card)} still active?",
                    f"What's the status of my {card_name(card)}?",
                ),
                decline="No, nothing else on that card, thanks.",
            ),
            narrative=f"You only want to know the status of your {card_name(card)}.",
            calls=calls,
            outputs=[Out("status", "choice", lambda r: str(r["c2"]["status"]), rivals=("active",))],
        )
    channel = rng.choice(("atm", "pos", "online", "contactless"))
    words = _CHANNEL_WORDS[channel]
    calls = [find_card(card), card_details(card, fields=("controls",))]
    return draft(
        customer,
        greet(rng),
        Instruction(
            text=say(
                rng,
                f"What is the daily {words} limit on my {card_name(card)}?",
                f"How much can I spend per day on {words} with my {card_name(card)}? Just checking.",
            ),
            decline="No, don't change anything. I only wanted to know.",
        ),
        narrative=f"You only want to know the daily {words} limit on your {card_name(card)}.",
        calls=calls,
        outputs=[
            Out(
                f"{channel} daily limit",
                "amount",
                lambda r: str(r["c2"]["controls"][channel]["daily_limit"]),
            )
        ],
    )


@family(
    "enable_international",
    "rare_tool",
    "cards",
    _INTL_OFF,
    clause="F.26 international usage only for Visa Platinum Debit and Suvarna Rewards Credit; C.11 check current switches",
)
def enable_international(ctx: Context, rng: random.Random, customer: sqlite3.Row) -> Draft | None:
    """Switch international usage on, then show the card's controls."""
    card = pick(rng, _intl_off(ctx, customer["customer_id"]))
    if card is None:
        return None
    ask = say(
        rng,
        f"Please switch on international usage on my {card_name(card)}.",
        f"I'm flying to Singapore next week - enable my {card_name(card)} for international use.",
        f"Turn on international transactions for my {card_name(card)}, please.",
    )
    return draft(
        customer,
        greet(rng),
        ask + " Afterwards check the card's settings show it.",
        facts=["Leave the other channels as they are."],
        narrative=(
            f"You want international usage switched on for your {card_name(card)} and want the "
            "card's settings checked afterwards."
        ),
        calls=[
            find_card(card),
            card_details(card, fields=("international_supported",)),
            set_channel(card, "international", True, after=("c2",)),
            card_details(card, after=("c3",), fields=("controls",)),
        ],
    )


@family(
    "switch_off_contactless",
    "rare_tool",
    "cards",
    ACTIVE_CARD,
    clause="F.25 'If a customer only wants to pause a card ..., offer to switch its channels off instead of blocking it'; D.15 state the change",
)
def switch_off_contactless(ctx: Context, rng: random.Random, customer: sqlite3.Row) -> Draft | None:
    """Switch a channel off (not a block): contactless payments off."""
    cards = [
        c
        for c in active_cards(ctx, customer["customer_id"])
        if _control(ctx, c, "contactless")["enabled"]
    ]
    card = pick(rng, cards)
    if card is None:
        return None
    ask = say(
        rng,
        f"Please turn off tap-and-pay on my {card_name(card)}.",
        f"I don't want contactless payments on my {card_name(card)} any more - switch them off.",
        f"Can you disable contactless on my {card_name(card)}? Don't block the card, just that.",
    )
    return draft(
        customer,
        greet(rng),
        ask,
        facts=["Only contactless - keep the card and everything else working."],
        narrative=(
            f"You want contactless payments switched off on your {card_name(card)}; the card "
            "must stay usable otherwise, not blocked."
        ),
        calls=[
            find_card(card),
            card_details(card, fields=("controls",)),
            set_channel(card, "contactless", False, after=("c2",)),
        ],
    )
