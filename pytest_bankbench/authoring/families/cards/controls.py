"""Card families about card controls: channel limits, international usage, card status."""

from __future__ import annotations

import random
import sqlite3

from pytest_bankbench.authoring import base, calls, phrasing, pickers
from pytest_bankbench.authoring.base import Context, Draft, draft, family
from pytest_bankbench.bank import rules
from pytest_bankbench.money import indian, plain
from pytest_bankbench.tasks.model import Instruction

_CAPABLE = tuple(sorted(rules.INTERNATIONAL_CAPABLE))


_CAPABLE_SQL = "(" + ", ".join(f"'{p}'" for p in _CAPABLE) + ")"


# Active international-capable cards whose international switch is still off.
_INTL_OFF = (
    "SELECT DISTINCT c.customer_id FROM cards c JOIN card_controls k USING (card_id) "
    f"WHERE c.status = 'active' AND c.product IN {_CAPABLE_SQL} AND "
    "k.channel = 'international' AND k.enabled = 0"
)


# How the customer says a channel is kept working.
_CHANNEL_USE = {
    "atm": "ATM withdrawals",
    "pos": "shop (POS) payments",
    "online": "online payments",
    "contactless": "contactless payments",
}


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
        for c in pickers.active_cards(ctx, cid, f"product IN {_CAPABLE_SQL}")
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


@family(_INTL_OFF)
def atm_limit_then_international(
    ctx: Context, rng: random.Random, customer: sqlite3.Row
) -> Draft | None:
    """Numbered: set the ATM limit, then switch international usage on."""
    card = pickers.pick(rng, _intl_off(ctx, customer["customer_id"]))
    if card is None:
        return None
    limit = _new_limit(rng, _maximum(card, "atm"), _control(ctx, card, "atm")["daily_limit"])
    if limit is None:
        return None
    named, said = pickers.card_name(card), phrasing.spoken(limit, rng)
    place = rng.choice(("Dubai", "Singapore", "London", "Bangkok", "Toronto", "Sydney"))
    return draft(
        customer,
        *phrasing.opening_requests(
            rng,
            "atm_limit_then_international",
            2,
            said=said,
            place=place,
            **pickers.card_words(card),
        ),
        facts=[
            pickers.card_fact(card),
            phrasing.knows(f"Set the daily ATM limit to {said}.", "limit", "amount"),
            phrasing.knows("Keep ATM withdrawals switched on.", "channel"),
        ],
        narrative=(
            f"Before a trip abroad you want the daily ATM limit of your {named} set to "
            f"{indian(limit)}, and then international usage switched on for the same card."
        ),
        calls=[
            calls.find_card(card),
            base.as_step(
                "details", calls.card_details(card, fields=("controls", "international_supported"))
            ),
            base.as_step(
                "atm limit", calls.set_channel(card, "atm", True, limit, after=("details",))
            ),
            calls.set_channel(card, "international", True, after=("atm limit",), instruction=1),
        ],
    )


# The concept an agent states when it tells the customer a card cannot be used abroad.
DOMESTIC_PHRASES = ("not_supported",)


@family(
    _INTL_OFF + " AND c.customer_id IN (SELECT customer_id FROM cards WHERE status = "
    "'active' AND product = 'RuPay Classic Debit')"
)
def international_not_supported(
    ctx: Context, rng: random.Random, customer: sqlite3.Row
) -> Draft | None:
    """International usage on a RuPay Classic card is refused; the customer's other card gets it."""
    classics = pickers.active_cards(ctx, customer["customer_id"], "product = 'RuPay Classic Debit'")
    capable = _intl_off(ctx, customer["customer_id"])
    if not classics or not capable:
        return None
    classic, other = rng.choice(classics), rng.choice(capable)
    named, instead = pickers.card_name(classic), pickers.card_name(other)
    place = rng.choice(("Dubai", "Singapore", "London", "Bangkok", "Kathmandu", "Paris"))
    ask = phrasing.opening_text(
        rng, "international_not_supported", place=place, **pickers.card_words(classic)
    )
    return draft(
        customer,
        Instruction(
            text=ask,
            explain=f"Your {named} is a domestic-only card: international usage is not "
            f"supported on it. Your {instead} does support it, so I can switch international "
            "usage on for that card instead.",
        ),
        facts=[
            pickers.card_fact(classic),
            phrasing.knows(
                f"Then enable it on my {instead} instead.",
                "card",
                after=DOMESTIC_PHRASES,
            ),
        ],
        narrative=(
            f"You want international usage on your {named}. It is a domestic-only card; when "
            f"the assistant tells you so, you ask for international usage on your {instead} "
            "instead and agree. You do not mention that card before."
        ),
        calls=[
            # The product shows whether a card works abroad (policy F and the card list).
            base.as_step("asked card", calls.find_card(classic)),
            base.as_step("other card", calls.find_card(other)),
            base.as_step(
                "switch on",
                calls.set_channel(other, "international", True, after=("asked card", "other card")),
            ),
        ],
        tells=[
            base.reason(
                "international usage not supported", "not_supported", record=classic["card_id"]
            ),
            base.alternative(
                "the card that supports it",
                values=(
                    base.told(
                        "other card",
                        "digits",
                        base.record("card", other["card_id"], "masked_number"),
                    ),
                ),
                record=other["card_id"],
                before="switch on",
            ),
        ],
    )


def _above(rng: random.Random, cap: int) -> int:
    """A round amount above a card's maximum, as a customer might ask for it."""
    step = 5_000_00 if cap < 1_00_000_00 else 50_000_00
    raised = cap * rng.choice((3, 4, 6)) // 2
    return -(-raised // step) * step


@family(pickers.ACTIVE_CARD)
def limit_above_maximum(ctx: Context, rng: random.Random, customer: sqlite3.Row) -> Draft | None:
    """A channel limit above the product's maximum: refuse it, set the maximum once agreed."""
    options = []
    for card in pickers.active_cards(ctx, customer["customer_id"]):
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
    named, said = pickers.card_name(card), phrasing.spoken(asked, rng)
    ask = phrasing.opening_text(
        rng,
        "limit_above_maximum",
        words=words,
        said=said,
        use=_CHANNEL_USE[channel],
        **pickers.card_words(card),
    )
    return draft(
        customer,
        Instruction(
            text=ask,
            explain=f"The maximum daily {words} limit on a {card['product']} card is "
            f"{indian(cap)}, so {indian(asked)} is above the limit. I can set it to the "
            f"maximum, {indian(cap)}, instead.",
        ),
        facts=[
            pickers.card_fact(card),
            phrasing.knows(f"The daily {words} limit, to {said}.", "limit", "channel", "amount"),
            phrasing.knows(f"Keep {_CHANNEL_USE[channel]} switched on.", "channel"),
            phrasing.knows(
                "Then set it to the maximum allowed.",
                "limit",
                after=("above_maximum", *phrasing.amount_phrases(cap)),
            ),
        ],
        narrative=(
            f"You want the daily {words} limit of your {named} set to "
            f"{indian(asked)}. That is above the card's maximum; when the assistant tells you, "
            f"you accept the maximum ({indian(cap)}) instead. You do not suggest it yourself."
        ),
        calls=[
            calls.find_card(card),
            base.as_step("details", calls.card_details(card, fields=("controls",))),
            base.as_step(
                "set limit", calls.set_channel(card, channel, True, cap, after=("details",))
            ),
        ],
        # The maximum is what H.29 offers (told before it is set), not a value asked for.
        disclosures=[
            base.Tell(
                "set limit",
                "new daily limit",
                "amount",
                base.known(plain(cap), base.argument("set limit", "daily_limit")),
            )
        ],
        tells=[
            base.reason("above the card's maximum", "above_maximum", record=card["card_id"]),
            base.alternative(
                "set the maximum",
                values=(
                    base.told(
                        "maximum daily limit",
                        "amount",
                        base.result("details", f"controls.{channel}.maximum_limit"),
                    ),
                ),
                record=card["card_id"],
                before="set limit",
            ),
        ],
    )


@family("SELECT DISTINCT customer_id FROM cards")
def card_status_enquiry(ctx: Context, rng: random.Random, customer: sqlite3.Row) -> Draft | None:
    """Control: a card's status, or one channel's daily limit."""
    card = rng.choice(pickers.customer_cards(ctx, customer["customer_id"]))
    named = pickers.card_name(card)
    if card["status"] != "active":
        shown, decline = "status", "No, nothing else on that card, thanks."
        text = phrasing.opening_text(rng, "card_status_enquiry/status", **pickers.card_words(card))
        wanted = f"the status of your {named}"
        output = base.Out(
            "status", "choice", base.record("card", card["card_id"], "status"), rivals=("active",)
        )
    else:
        channel = rng.choice(("atm", "pos", "online", "contactless"))
        words = _CHANNEL_WORDS[channel]
        shown, decline = "controls", "No, don't change anything. I only wanted to know."
        text = phrasing.opening_text(
            rng, "card_status_enquiry/limit", words=words, **pickers.card_words(card)
        )
        wanted = f"the daily {words} limit on your {named}"
        output = base.Out(
            f"{channel} daily limit",
            "amount",
            base.result("details", f"controls.{channel}.daily_limit"),
        )
    return draft(
        customer,
        Instruction(text=text, decline=decline),
        facts=[pickers.card_fact(card)],
        narrative=f"You only want to know {wanted}.",
        calls=[
            calls.find_card(card),
            base.as_step("details", calls.card_details(card, fields=(shown,))),
        ],
        offers=phrasing.offered_secret("cvv", "card_status_enquiry", customer["customer_id"]),
        outputs=[output],
    )
