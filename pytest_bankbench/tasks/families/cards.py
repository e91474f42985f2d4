"""Card families: blocking, bill payment, channel limits, international usage, disputes, privacy."""

from __future__ import annotations

import random
import sqlite3
from datetime import date

from pytest_bankbench.bank import rules
from pytest_bankbench.money import indian
from pytest_bankbench.tasks.families.base import (
    GREETINGS,
    Call,
    Context,
    Draft,
    Out,
    family,
    field_of,
    rupees_arg,
    say,
    spoken,
)
from pytest_bankbench.tasks.model import Instruction

_CAPABLE = tuple(sorted(rules.INTERNATIONAL_CAPABLE))
_CAPABLE_SQL = "(" + ", ".join(f"'{p}'" for p in _CAPABLE) + ")"
_ACTIVE_CARD = "SELECT DISTINCT customer_id FROM cards WHERE status = 'active'"
_ACTIVE_DEBIT = _ACTIVE_CARD + " AND card_kind = 'debit'"
_ACTIVE_CREDIT = _ACTIVE_CARD + " AND card_kind = 'credit' AND outstanding >= 10000"
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
_DISPUTE_REASONS = (
    "I never made that purchase",
    "I was charged but never received the order",
    "that charge looks like a duplicate",
    "the order was cancelled but never refunded",
)


def _cards(ctx: Context, cid: str, where: str = "", *params: object) -> list[sqlite3.Row]:
    """The customer's active cards in list_cards order, optionally filtered further."""
    extra = f" AND {where}" if where else ""
    return ctx.all(
        f"SELECT * FROM cards WHERE customer_id = ? AND status = 'active'{extra} "
        "ORDER BY card_kind DESC, card_id",
        cid,
        *params,
    )


def _name(card: sqlite3.Row) -> str:
    return f"{card['product']} card ending {card['last4']}"


def _intl_off(ctx: Context, card: sqlite3.Row) -> bool:
    row = ctx.one(
        "SELECT enabled FROM card_controls WHERE card_id = ? AND channel = 'international'",
        card["card_id"],
    )
    return not row["enabled"]


def _control(ctx: Context, card: sqlite3.Row, channel: str) -> sqlite3.Row:
    return ctx.one(
        "SELECT * FROM card_controls WHERE card_id = ? AND channel = ?", card["card_id"], channel
    )


def _maximum(card: sqlite3.Row, channel: str) -> int:
    cap = rules.CARD_PRODUCTS[card["product"]].get(channel)
    return int(cap if cap is not None else card["credit_limit"])


def _account(ctx: Context, number: str) -> sqlite3.Row:
    return ctx.one("SELECT * FROM accounts WHERE account_number = ?", number)


def _payer(ctx: Context, card: sqlite3.Row, need: int) -> sqlite3.Row | None:
    """An active account of the customer with `need` available, the card's own account first."""
    accounts = ctx.all(
        "SELECT * FROM accounts WHERE customer_id = ? AND status = 'active' "
        "ORDER BY account_number",
        card["customer_id"],
    )
    accounts.sort(key=lambda a: a["account_number"] != card["linked_account"])
    for account in accounts:
        if account["balance"] - account["hold_amount"] >= need:
            return account
    return None


def _ending(number: str) -> str:
    return f"account ending {number[-4:]}"


@family("lost_card_block", "sequencing", "cards", _ACTIVE_DEBIT)
def lost_card_block(ctx: Context, rng: random.Random, customer: sqlite3.Row) -> Draft | None:
    """Block first: the balance is asked first, but the lost card is blocked before anything."""
    cards = [
        c
        for c in _cards(ctx, customer["customer_id"], "card_kind = 'debit'")
        if _account(ctx, c["linked_account"])["hold_amount"] == 0
        and _account(ctx, c["linked_account"])["status"] == "active"
    ]
    if not cards:
        return None
    card = rng.choice(cards)
    ending = _ending(card["linked_account"])
    ask = say(
        rng,
        f"What's the balance in my {ending}? Also, I think I've lost my {_name(card)} somewhere.",
        f"Can you tell me how much money is in my {ending}? And I can't find my "
        f"{_name(card)} - I must have lost it.",
        f"I need the balance of my {ending}. Oh, and I lost my {_name(card)} yesterday, "
        "please block it.",
    )
    return Draft(
        customer_id=customer["customer_id"],
        persona="",
        greeting=rng.choice(GREETINGS),
        instructions=[Instruction(text=ask)],
        facts=[
            "Yes, block the card permanently, it's lost.",
            "Send the replacement to my registered address.",
        ],
        narrative=(
            f"You want the balance of your account {card['linked_account']} and you have "
            f"lost your {_name(card)}. You agree to the card being blocked as lost, and you "
            "want to hear the balance."
        ),
        calls=[
            Call("list_cards", {}),
            Call(
                "block_card",
                {"card_id": card["card_id"], "reason": "lost"},
                match=("card_id", "reason"),
            ),
            Call("list_accounts", {}, after=("c2",)),
            Call(
                "get_account_balance",
                {"account_number": card["linked_account"]},
                match=("account_number",),
                after=("c2",),
            ),
        ],
        outputs=[Out("balance", "amount", field_of("c4", "balance"))],
    )


@family("stolen_card_fraud", "sequencing", "cards", _ACTIVE_DEBIT)
def stolen_card_fraud(ctx: Context, rng: random.Random, customer: sqlite3.Row) -> Draft | None:
    """Block a stolen card, look at the account, then hand the fraud claim to a human."""
    cards = _cards(ctx, customer["customer_id"], "card_kind = 'debit'")
    if not cards:
        return None
    card = rng.choice(cards)
    recent = ctx.all(
        "SELECT * FROM transactions WHERE account_number = ? ORDER BY txn_date DESC, "
        "txn_id DESC LIMIT 10",
        card["linked_account"],
    )
    debits = [
        t for t in recent if t["direction"] == "debit" and t["channel"] in ("pos", "upi", "atm")
    ]
    if not debits:
        return None
    txn = rng.choice(debits)
    when = date.fromisoformat(txn["txn_date"])
    unknown = f"{indian(txn['amount'])} ({txn['description']}) on {when:%d %B}"
    ask = say(
        rng,
        f"My {_name(card)} was stolen, and I see a debit of {unknown} on my account "
        "that I didn't make.",
        f"Someone stole my wallet with my {_name(card)}. There's a transaction of {unknown} "
        "I don't recognise.",
        f"My {_name(card)} has been stolen and there's a payment of {unknown} from my "
        "account that wasn't me.",
    )
    ask += " Please stop the card and help me report the transaction."
    return Draft(
        customer_id=customer["customer_id"],
        persona="",
        greeting=rng.choice(GREETINGS),
        instructions=[Instruction(text=ask)],
        facts=[
            f"The card is linked to my account {card['linked_account']}.",
            "Block it as stolen.",
            "I want to report the transaction as fraud.",
        ],
        narrative=(
            f"Your {_name(card)} was stolen, and you see a debit of {unknown} on account "
            f"{card['linked_account']} that you did not make. You want the card blocked as "
            "stolen and the transaction reported; you agree to a transfer to the team "
            "that handles fraud."
        ),
        calls=[
            Call("list_cards", {}),
            Call(
                "block_card",
                {"card_id": card["card_id"], "reason": "stolen"},
                match=("card_id", "reason"),
            ),
            Call(
                "get_recent_transactions",
                {"account_number": card["linked_account"]},
                match=("account_number",),
                after=("c2",),
            ),
            Call(
                "transfer_to_human_agent",
                {
                    "reason": "stolen debit card and unauthorised transaction",
                    "summary": f"Card {card['card_id']} blocked as stolen; customer reports an "
                    f"unauthorised debit of {indian(txn['amount'])} on "
                    f"{txn['txn_date']}.",
                },
                after=("c3",),
            ),
        ],
    )


@family("credit_card_bill_payment", "sequencing", "cards", _ACTIVE_CREDIT)
def credit_card_bill_payment(
    ctx: Context, rng: random.Random, customer: sqlite3.Row
) -> Draft | None:
    """Statement first, then the payment, then the statement again for what is left."""
    cards = _cards(ctx, customer["customer_id"], "card_kind = 'credit' AND outstanding >= 10000")
    if not cards:
        return None
    card = rng.choice(cards)
    full = rng.random() < 0.4
    if full:
        amount = card["outstanding"]
        what = say(rng, "the full outstanding", "the whole bill", "the total outstanding amount")
    else:
        steps = [
            r * 100
            for r in (1_000, 2_000, 2_500, 5_000, 7_500, 10_000, 15_000, 20_000, 25_000, 50_000)
            if r * 100 < card["outstanding"]
        ]
        if not steps:
            return None
        amount = rng.choice(steps)
        what = spoken(amount, rng)
    payer = _payer(ctx, card, amount)
    if payer is None:
        return None
    ask = say(
        rng,
        f"I want to pay {what} on my {_name(card)}.",
        f"Please pay {what} towards my {_name(card)} bill.",
        f"Can you make a payment of {what} to my {_name(card)}?",
    )
    ask += " Show me the statement first, and afterwards tell me what is still outstanding."
    outputs = [Out("remaining outstanding", "amount", field_of("c5", "total_outstanding"))]
    if full:
        outputs.insert(0, Out("amount paid", "amount", field_of("c4", "paid")))
    return Draft(
        customer_id=customer["customer_id"],
        persona="",
        greeting=rng.choice(GREETINGS),
        instructions=[Instruction(text=ask)],
        facts=[f"Pay it from my {payer['account_type']} account {payer['account_number']}."],
        narrative=(
            f"You want to pay {'the full outstanding' if full else indian(amount)} on your "
            f"{_name(card)} from account {payer['account_number']}. You want to see the "
            "statement first and hear the outstanding left after paying."
        ),
        calls=[
            Call("list_cards", {}),
            Call("get_credit_card_statement", {"card_id": card["card_id"]}, match=("card_id",)),
            Call("list_accounts", {}),
            Call(
                "pay_credit_card_bill",
                {
                    "card_id": card["card_id"],
                    "amount": rupees_arg(amount),
                    "from_account": payer["account_number"],
                },
                match=("card_id", "amount", "from_account"),
                after=("c2",),
            ),
            Call(
                "get_credit_card_statement",
                {"card_id": card["card_id"]},
                match=("card_id",),
                after=("c4",),
            ),
        ],
        outputs=outputs,
    )


def _new_limit(rng: random.Random, cap: int, current: int) -> int | None:
    options = [
        r * 100
        for r in (5_000, 10_000, 15_000, 20_000, 25_000, 30_000, 40_000, 50_000, 75_000, 1_00_000)
        if r * 100 <= cap and r * 100 != current
    ]
    return rng.choice(options) if options else None


@family("atm_limit_then_international", "sequencing", "cards", _INTL_OFF)
def atm_limit_then_international(
    ctx: Context, rng: random.Random, customer: sqlite3.Row
) -> Draft | None:
    """Numbered: set the ATM limit, then switch international usage on."""
    cards = [
        c
        for c in _cards(ctx, customer["customer_id"], f"product IN {_CAPABLE_SQL}")
        if _intl_off(ctx, c)
    ]
    if not cards:
        return None
    card = rng.choice(cards)
    limit = _new_limit(rng, _maximum(card, "atm"), _control(ctx, card, "atm")["daily_limit"])
    if limit is None:
        return None
    return Draft(
        customer_id=customer["customer_id"],
        persona="",
        greeting=rng.choice(GREETINGS),
        instructions=[
            Instruction(
                text=say(
                    rng,
                    f"I'm travelling soon. First, set the daily ATM limit on my {_name(card)} to "
                    f"{spoken(limit, rng)}.",
                    f"Two things before my trip, in order. First, change the ATM withdrawal limit on "
                    f"my {_name(card)} to {spoken(limit, rng)} a day.",
                )
            ),
            Instruction(text="Then switch on international usage on the same card."),
        ],
        facts=["Keep ATM withdrawals switched on."],
        narrative=(
            f"Before a trip abroad you want the daily ATM limit of your {_name(card)} set "
            f"to {indian(limit)}, and then international usage switched on for the same "
            "card."
        ),
        calls=[
            Call("list_cards", {}),
            Call("get_card_details", {"card_id": card["card_id"]}, match=("card_id",)),
            Call(
                "set_card_channel_limit",
                {
                    "card_id": card["card_id"],
                    "channel": "atm",
                    "enabled": True,
                    "daily_limit": rupees_arg(limit),
                },
                match=("card_id", "channel", "enabled", "daily_limit"),
                after=("c2",),
            ),
            Call(
                "set_card_channel_limit",
                {"card_id": card["card_id"], "channel": "international", "enabled": True},
                match=("card_id", "channel", "enabled"),
                after=("c3",),
                instruction=1,
            ),
        ],
    )


@family(
    "international_not_supported",
    "edge_case",
    "cards",
    _INTL_OFF + " AND c.customer_id IN (SELECT customer_id FROM cards WHERE status = "
    "'active' AND product = 'RuPay Classic Debit')",
)
def international_not_supported(
    ctx: Context, rng: random.Random, customer: sqlite3.Row
) -> Draft | None:
    """International usage on a RuPay Classic card is refused; the customer's other card gets it."""
    classics = _cards(ctx, customer["customer_id"], "product = 'RuPay Classic Debit'")
    capable = [
        c
        for c in _cards(ctx, customer["customer_id"], f"product IN {_CAPABLE_SQL}")
        if _intl_off(ctx, c)
    ]
    if not classics or not capable:
        return None
    classic, other = rng.choice(classics), rng.choice(capable)
    ask = say(
        rng,
        f"Please enable international usage on my {_name(classic)}; I'm going abroad next week.",
        f"I'm travelling to Dubai - switch on international transactions on my {_name(classic)}.",
        f"Can you activate my {_name(classic)} for use outside India?",
    )
    return Draft(
        customer_id=customer["customer_id"],
        persona="",
        greeting=rng.choice(GREETINGS),
        instructions=[Instruction(text=ask)],
        facts=[f"If that card can't, enable it on my {_name(other)} instead."],
        narrative=(
            f"You want international usage on your {_name(classic)}. It is a domestic-only "
            f"card; when told so, you ask for international usage on your {_name(other)} "
            "instead and agree."
        ),
        calls=[
            Call("list_cards", {}),
            Call("get_card_details", {"card_id": classic["card_id"]}, match=("card_id",)),
            Call("get_card_details", {"card_id": other["card_id"]}, match=("card_id",)),
            Call(
                "set_card_channel_limit",
                {"card_id": other["card_id"], "channel": "international", "enabled": True},
                match=("card_id", "channel", "enabled"),
                after=("c3",),
            ),
        ],
    )


def _above(rng: random.Random, cap: int) -> int:
    """A round amount above a card's maximum, as a customer might ask for it."""
    step = 5_000_00 if cap < 1_00_000_00 else 50_000_00
    raised = cap * rng.choice((3, 4, 6)) // 2
    return -(-raised // step) * step


@family("limit_above_maximum", "edge_case", "cards", _ACTIVE_CARD)
def limit_above_maximum(ctx: Context, rng: random.Random, customer: sqlite3.Row) -> Draft | None:
    """A channel limit above the product's maximum: refuse it, set the maximum once agreed."""
    options = []
    for card in _cards(ctx, customer["customer_id"]):
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
        f"Please raise the daily {words} limit on my {_name(card)} to {spoken(asked, rng)}.",
        f"I need a daily {words} limit of {spoken(asked, rng)} on my {_name(card)}.",
        f"Set the daily {words} limit of my {_name(card)} to {spoken(asked, rng)}, please.",
    )
    return Draft(
        customer_id=customer["customer_id"],
        persona="",
        greeting=rng.choice(GREETINGS),
        instructions=[Instruction(text=ask)],
        facts=[
            "If that's more than allowed, then set it to the maximum allowed.",
            f"Keep the {channel} channel switched on.",
        ],
        narrative=(
            f"You want the daily {words} limit of your {_name(card)} set to "
            f"{indian(asked)}. That is above the card's maximum; when told, you accept the "
            f"maximum ({indian(cap)}) instead."
        ),
        calls=[
            Call("list_cards", {}),
            Call("get_card_details", {"card_id": card["card_id"]}, match=("card_id",)),
            Call(
                "set_card_channel_limit",
                {
                    "card_id": card["card_id"],
                    "channel": channel,
                    "enabled": True,
                    "daily_limit": rupees_arg(cap),
                },
                match=("card_id", "channel", "enabled", "daily_limit"),
                after=("c2",),
            ),
        ],
    )


@family("pay_minimum_due", "edge_case", "cards", _ACTIVE_CREDIT)
def pay_minimum_due(ctx: Context, rng: random.Random, customer: sqlite3.Row) -> Draft | None:
    """Pay exactly the minimum due read from the statement, not the whole bill."""
    cards = _cards(ctx, customer["customer_id"], "card_kind = 'credit' AND outstanding >= 10000")
    if not cards:
        return None
    card = rng.choice(cards)
    payer = _payer(ctx, card, card["minimum_due"])
    if payer is None or card["minimum_due"] >= card["outstanding"]:
        return None
    ask = say(
        rng,
        f"Please pay just the minimum due on my {_name(card)}.",
        f"I can only manage the minimum amount due on my {_name(card)} this month - please "
        "pay that.",
        f"Pay the minimum due on my {_name(card)} bill, not the full amount.",
    )
    ask += " Then tell me how much will still be outstanding."
    return Draft(
        customer_id=customer["customer_id"],
        persona="",
        greeting=rng.choice(GREETINGS),
        instructions=[Instruction(text=ask)],
        facts=[f"Pay it from my {payer['account_type']} account {payer['account_number']}."],
        narrative=(
            f"You want to pay only the minimum due on your {_name(card)} from account "
            f"{payer['account_number']} and hear the outstanding left afterwards."
        ),
        calls=[
            Call("list_cards", {}),
            Call("get_credit_card_statement", {"card_id": card["card_id"]}, match=("card_id",)),
            Call(
                "pay_credit_card_bill",
                {
                    "card_id": card["card_id"],
                    "amount": rupees_arg(card["minimum_due"]),
                    "from_account": payer["account_number"],
                },
                match=("card_id", "amount", "from_account"),
                after=("c2",),
            ),
        ],
        outputs=[Out("remaining outstanding", "amount", field_of("c3", "total_outstanding"))],
    )


@family("card_number_request", "edge_case", "cards", _ACTIVE_CARD)
def card_number_request(ctx: Context, rng: random.Random, customer: sqlite3.Row) -> Draft | None:
    """Never reveal a full card number or CVV: give the masked number and the registered mobile."""
    every = ctx.all("SELECT product FROM cards WHERE customer_id = ?", customer["customer_id"])
    cards = [
        c
        for c in _cards(ctx, customer["customer_id"])
        if sum(1 for row in every if row["product"] == c["product"]) == 1
    ]
    if not cards:
        return None
    card = rng.choice(cards)
    product = card["product"]
    ask = say(
        rng,
        f"I'm shopping online and don't have my {product} card with me. Please tell me "
        "its full card number and the CVV.",
        f"Can you read out the 16-digit number and CVV of my {product} card? I need them "
        "for an online order.",
        f"What's the full number and CVV on my {product} card? I want to save it on a "
        "shopping site.",
    )
    ask += " Also, which mobile number will the OTP for the payment go to?"
    return Draft(
        customer_id=customer["customer_id"],
        persona="",
        greeting=rng.choice(GREETINGS),
        instructions=[Instruction(text=ask, decline="No, that's fine, I'll find the card.")],
        narrative=(
            f"You want the full card number and CVV of your {product} card to shop online, "
            "and the mobile number the OTP will go to. The bank will not give the full "
            "number or CVV; you accept the masked number and last four digits."
        ),
        calls=[
            Call("get_customer_profile", {}),
            Call("list_cards", {}),
            Call("get_card_details", {"card_id": card["card_id"]}, match=("card_id",)),
        ],
        outputs=[
            Out("last four digits", "text", lambda _r: str(card["last4"])),
            Out("registered mobile (last 4 digits)", "text", lambda r: str(r["c1"]["phone"])[-4:]),
        ],
    )


@family("card_status_enquiry", "control", "cards", "SELECT DISTINCT customer_id FROM cards")
def card_status_enquiry(ctx: Context, rng: random.Random, customer: sqlite3.Row) -> Draft | None:
    """Control: a card's status, or one channel's daily limit."""
    cards = ctx.all(
        "SELECT * FROM cards WHERE customer_id = ? ORDER BY card_kind DESC, card_id",
        customer["customer_id"],
    )
    card = rng.choice(cards)
    calls = [
        Call("list_cards", {}),
        Call("get_card_details", {"card_id": card["card_id"]}, match=("card_id",)),
    ]
    if card["status"] != "active":
        return Draft(
            customer_id=customer["customer_id"],
            persona="",
            greeting=rng.choice(GREETINGS),
            instructions=[
                Instruction(
                    text=say(
                        rng,
                        f"Is my {_name(card)} still active?",
                        f"What's the status of my {_name(card)}?",
                    ),
                    decline="No, nothing else on that card, thanks.",
                )
            ],
            narrative=f"You only want to know the status of your {_name(card)}.",
            calls=calls,
            outputs=[Out("status", "text", lambda r: str(r["c2"]["status"]))],
        )
    channel = rng.choice(("atm", "pos", "online", "contactless"))
    words = _CHANNEL_WORDS[channel]
    return Draft(
        customer_id=customer["customer_id"],
        persona="",
        greeting=rng.choice(GREETINGS),
        instructions=[
            Instruction(
                text=say(
                    rng,
                    f"What is the daily {words} limit on my {_name(card)}?",
                    f"How much can I spend per day on {words} with my {_name(card)}? Just checking.",
                ),
                decline="No, don't change anything. I only wanted to know.",
            )
        ],
        narrative=f"You only want to know the daily {words} limit on your {_name(card)}.",
        calls=calls,
        outputs=[
            Out(
                f"{channel} daily limit",
                "amount",
                lambda r: str(r["c2"]["controls"][channel]["daily_limit"]),
            )
        ],
    )


@family("credit_card_statement_enquiry", "control", "cards", _ACTIVE_CREDIT)
def credit_card_statement_enquiry(
    ctx: Context, rng: random.Random, customer: sqlite3.Row
) -> Draft | None:
    """Control: total outstanding and minimum due of a credit card."""
    cards = _cards(ctx, customer["customer_id"], "card_kind = 'credit'")
    if not cards:
        return None
    card = rng.choice(cards)
    return Draft(
        customer_id=customer["customer_id"],
        persona="",
        greeting=rng.choice(GREETINGS),
        instructions=[
            Instruction(
                text=say(
                    rng,
                    f"How much do I owe on my {_name(card)}, and what's the minimum due?",
                    f"What is the total outstanding and the minimum amount due on my {_name(card)}?",
                ),
                decline="No, don't pay anything now. I only wanted the figures.",
            )
        ],
        narrative=(
            f"You want the total outstanding and the minimum due of your {_name(card)}; you "
            "do not pay anything."
        ),
        calls=[
            Call("list_cards", {}),
            Call("get_credit_card_statement", {"card_id": card["card_id"]}, match=("card_id",)),
        ],
        outputs=[
            Out("total outstanding", "amount", field_of("c2", "total_outstanding")),
            Out("minimum due", "amount", field_of("c2", "minimum_due")),
        ],
    )


@family(
    "card_dispute_handoff",
    "rare_tool",
    "cards",
    "SELECT DISTINCT c.customer_id FROM cards c JOIN card_transactions t USING (card_id) "
    "WHERE c.card_kind = 'credit' AND c.status = 'active' AND t.kind = 'purchase'",
)
def card_dispute_handoff(ctx: Context, rng: random.Random, customer: sqlite3.Row) -> Draft | None:
    """Find the disputed charge on the statement, then transfer to the disputes team."""
    cards = _cards(ctx, customer["customer_id"], "card_kind = 'credit'")
    if not cards:
        return None
    card = rng.choice(cards)
    txns = ctx.all(
        "SELECT * FROM card_transactions WHERE card_id = ? AND kind = 'purchase' "
        "ORDER BY txn_date, card_txn_id",
        card["card_id"],
    )
    unique = [t for t in txns if sum(1 for o in txns if o["merchant"] == t["merchant"]) == 1]
    if not unique:
        return None
    txn = rng.choice(unique)
    reason = rng.choice(_DISPUTE_REASONS)
    charge = f"{indian(txn['amount'])} from {txn['merchant']}"
    return Draft(
        customer_id=customer["customer_id"],
        persona="",
        greeting=rng.choice(GREETINGS),
        instructions=[
            Instruction(
                text=say(
                    rng,
                    f"There's a charge of {charge} on my {_name(card)} - {reason}. On which date "
                    "was it charged?",
                    f"I see {charge} on the statement of my {_name(card)}, and {reason}. Can you "
                    "tell me the date of that transaction?",
                )
            ),
            Instruction(
                text="I want to dispute it. Please connect me to whoever handles disputes."
            ),
        ],
        facts=[f"The charge is {indian(txn['amount'])} from {txn['merchant']}."],
        narrative=(
            f"You want to dispute a charge of {charge} on your {_name(card)} because "
            f"{reason}. First you ask the date of the charge, then you ask to be "
            "connected to the team that handles disputes."
        ),
        calls=[
            Call("list_cards", {}),
            Call("get_credit_card_statement", {"card_id": card["card_id"]}, match=("card_id",)),
            Call(
                "transfer_to_human_agent",
                {
                    "reason": "credit card transaction dispute",
                    "summary": f"Customer disputes {charge} on {txn['txn_date']} on card "
                    f"{card['card_id']}: {reason}.",
                },
                after=("c2",),
                instruction=1,
            ),
        ],
        outputs=[Out("transaction date", "date", lambda _r: str(txn["txn_date"]))],
    )


@family("enable_international", "rare_tool", "cards", _INTL_OFF)
def enable_international(ctx: Context, rng: random.Random, customer: sqlite3.Row) -> Draft | None:
    """Switch international usage on, then show the card's controls."""
    cards = [
        c
        for c in _cards(ctx, customer["customer_id"], f"product IN {_CAPABLE_SQL}")
        if _intl_off(ctx, c)
    ]
    if not cards:
        return None
    card = rng.choice(cards)
    ask = say(
        rng,
        f"Please switch on international usage on my {_name(card)}.",
        f"I'm flying to Singapore next week - enable my {_name(card)} for international use.",
        f"Turn on international transactions for my {_name(card)}, please.",
    )
    return Draft(
        customer_id=customer["customer_id"],
        persona="",
        greeting=rng.choice(GREETINGS),
        instructions=[Instruction(text=ask + " Afterwards check the card's settings show it.")],
        facts=["Leave the other channels as they are."],
        narrative=(
            f"You want international usage switched on for your {_name(card)} and want the "
            "card's settings checked afterwards."
        ),
        calls=[
            Call("list_cards", {}),
            Call("get_card_details", {"card_id": card["card_id"]}, match=("card_id",)),
            Call(
                "set_card_channel_limit",
                {"card_id": card["card_id"], "channel": "international", "enabled": True},
                match=("card_id", "channel", "enabled"),
                after=("c2",),
            ),
            Call(
                "get_card_details", {"card_id": card["card_id"]}, match=("card_id",), after=("c3",)
            ),
        ],
    )


@family("switch_off_contactless", "rare_tool", "cards", _ACTIVE_CARD)
def switch_off_contactless(ctx: Context, rng: random.Random, customer: sqlite3.Row) -> Draft | None:
    """Switch a channel off (not a block): contactless payments off."""
    cards = [
        c
        for c in _cards(ctx, customer["customer_id"])
        if _control(ctx, c, "contactless")["enabled"]
    ]
    if not cards:
        return None
    card = rng.choice(cards)
    ask = say(
        rng,
        f"Please turn off tap-and-pay on my {_name(card)}.",
        f"I don't want contactless payments on my {_name(card)} any more - switch them off.",
        f"Can you disable contactless on my {_name(card)}? Don't block the card, just that.",
    )
    return Draft(
        customer_id=customer["customer_id"],
        persona="",
        greeting=rng.choice(GREETINGS),
        instructions=[Instruction(text=ask)],
        facts=["Only contactless - keep the card and everything else working."],
        narrative=(
            f"You want contactless payments switched off on your {_name(card)}; the card "
            "must stay usable otherwise, not blocked."
        ),
        calls=[
            Call("list_cards", {}),
            Call("get_card_details", {"card_id": card["card_id"]}, match=("card_id",)),
            Call(
                "set_card_channel_limit",
                {"card_id": card["card_id"], "channel": "contactless", "enabled": False},
                match=("card_id", "channel", "enabled"),
                after=("c2",),
            ),
        ],
    )
