"""Card families: blocking, stolen cards, bill payment, statements, disputes, card numbers."""

from __future__ import annotations

import hashlib
import random
import sqlite3
from datetime import date

from pytest_bankbench.money import indian, plain
from pytest_bankbench.tasks.families.base import (
    Context,
    Draft,
    Out,
    Tell,
    account_row,
    draft,
    family,
    field_of,
    greet,
    my_account,
    paying_account,
    pick,
    say,
    spoken,
)
from pytest_bankbench.tasks.families.calls import (
    balance,
    block_card,
    block_terms,
    card_statement,
    find_card,
    handoff,
    pay_card,
    profile,
)
from pytest_bankbench.tasks.model import Instruction

ACTIVE_CARD = "SELECT DISTINCT customer_id FROM cards WHERE status = 'active'"
_DEBIT = "card_kind = 'debit'"
_CREDIT = "card_kind = 'credit'"
_CREDIT_DUE = f"{_CREDIT} AND outstanding >= 10000"
_ACTIVE_DEBIT = f"{ACTIVE_CARD} AND {_DEBIT}"
_ACTIVE_CREDIT = f"{ACTIVE_CARD} AND {_CREDIT_DUE}"
_DISPUTE_REASONS = (
    "I never made that purchase",
    "I was charged but never received the order",
    "that charge looks like a duplicate",
    "the order was cancelled but never refunded",
)


def active_cards(ctx: Context, cid: str, where: str = "") -> list[sqlite3.Row]:
    """The customer's active cards in list_cards order, optionally filtered further."""
    extra = f" AND {where}" if where else ""
    return ctx.all(
        f"SELECT * FROM cards WHERE customer_id = ? AND status = 'active'{extra} "
        "ORDER BY card_kind DESC, card_id",
        cid,
    )


def card_name(card: sqlite3.Row) -> str:
    """A card as the customer names it: product and last four digits."""
    return f"{card['product']} card ending {card['last4']}"


def _pay_fact(payer: sqlite3.Row) -> str:
    return f"Pay it from {my_account(payer)}."


@family(
    "lost_card_block",
    "sequencing",
    "cards",
    _ACTIVE_DEBIT,
    clause="F.24 'block the card at once with block_card, before anything else the customer asks ... Tell the customer the block is permanent and a replacement card will be sent ... in 7 working days (replacement fee Rs 200 ...). Get their yes, block the card ..., and only then deal with the rest' (G.27 exception)",
)
def lost_card_block(ctx: Context, rng: random.Random, customer: sqlite3.Row) -> Draft | None:
    """Block first: the balance is asked first, but the lost card is blocked before anything."""
    cards = [
        c
        for c in active_cards(ctx, customer["customer_id"], _DEBIT)
        if account_row(ctx, c["linked_account"])["hold_amount"] == 0
        and account_row(ctx, c["linked_account"])["status"] == "active"
    ]
    card = pick(rng, cards)
    if card is None:
        return None
    ending = f"account ending {card['linked_account'][-4:]}"
    ask = say(
        rng,
        f"What's the balance in my {ending}? Also, I think I've lost my {card_name(card)} somewhere.",
        f"Can you tell me how much money is in my {ending}? And I can't find my "
        f"{card_name(card)} - I must have lost it.",
        f"I need the balance of my {ending}. Oh, and I lost my {card_name(card)} yesterday, "
        "please block it.",
    )
    return draft(
        customer,
        greet(rng),
        ask,
        facts=[
            "Yes, block the card permanently, it's lost.",
            "Send the replacement to my registered address.",
        ],
        narrative=(
            f"You want the balance of your account {card['linked_account']} and you have "
            f"lost your {card_name(card)}. You agree to the card being blocked as lost, and you "
            "want to hear the balance."
        ),
        calls=[
            find_card(card),
            block_card(card, "lost", after=("c1",)),
            balance(card["linked_account"], after=("c2",)),
        ],
        outputs=[Out("balance", "amount", field_of("c3", "balance"))],
        disclosures=block_terms("c2"),
    )


@family(
    "stolen_card_fraud",
    "sequencing",
    "cards",
    _ACTIVE_DEBIT,
    clause="F.24 block a stolen card first (tell permanence, replacement, Rs 200 fee waived with a police report; get a yes); I.32 fraud claims go to the Card Disputes team by transfer_to_human_agent, 'if the card may be compromised, offer to block it first'; I.34 complete other requests, tell, summarise",
)
def stolen_card_fraud(ctx: Context, rng: random.Random, customer: sqlite3.Row) -> Draft | None:
    """Block a stolen card, look at the account, then hand the fraud claim to a human."""
    card = pick(rng, active_cards(ctx, customer["customer_id"], _DEBIT))
    if card is None:
        return None
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
        f"My {card_name(card)} was stolen, and I see a debit of {unknown} on my account "
        "that I didn't make.",
        f"Someone stole my wallet with my {card_name(card)}. There's a transaction of {unknown} "
        "I don't recognise.",
        f"My {card_name(card)} has been stolen and there's a payment of {unknown} from my "
        "account that wasn't me.",
    )
    ask += " Please stop the card and help me report the transaction."
    return draft(
        customer,
        greet(rng),
        ask,
        facts=[
            f"The card is linked to my account {card['linked_account']}.",
            "Block it as stolen.",
            "I want to report the transaction as fraud.",
        ],
        narrative=(
            f"Your {card_name(card)} was stolen, and you see a debit of {unknown} on account "
            f"{card['linked_account']} that you did not make. You want the card blocked as "
            "stolen and the transaction reported; you agree to a transfer to the team "
            "that handles fraud."
        ),
        calls=[
            find_card(card),
            block_card(card, "stolen", after=("c1",)),
            handoff(
                "stolen debit card and unauthorised transaction",
                f"Card {card['card_id']} blocked as stolen; customer reports an unauthorised "
                f"debit of {indian(txn['amount'])} on {txn['txn_date']}.",
                after=("c2",),
            ),
        ],
        disclosures=block_terms("c2"),
    )


@family(
    "credit_card_bill_payment",
    "sequencing",
    "cards",
    _ACTIVE_CREDIT,
    clause="K.42 'Credit card payment: any amount from Rs 100 up to the total outstanding, from the customer's own active account'; D.15; J.36 tell what is left",
)
def credit_card_bill_payment(
    ctx: Context, rng: random.Random, customer: sqlite3.Row
) -> Draft | None:
    """Statement first, then the payment, then the statement again for what is left."""
    card = pick(rng, active_cards(ctx, customer["customer_id"], _CREDIT_DUE))
    if card is None:
        return None
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
    payer = paying_account(ctx, card, amount)
    if payer is None:
        return None
    ask = say(
        rng,
        f"I want to pay {what} on my {card_name(card)}.",
        f"Please pay {what} towards my {card_name(card)} bill.",
        f"Can you make a payment of {what} to my {card_name(card)}?",
    )
    ask += " Show me the statement first, and afterwards tell me what is still outstanding."
    outputs = [Out("remaining outstanding", "amount", field_of("c4", "total_outstanding"))]
    if full:
        outputs.insert(0, Out("amount paid", "amount", field_of("c3", "paid")))
    return draft(
        customer,
        greet(rng),
        ask,
        facts=[_pay_fact(payer)],
        narrative=(
            f"You want to pay {'the full outstanding' if full else indian(amount)} on your "
            f"{card_name(card)} from account {payer['account_number']}. You want to see the "
            "statement first and hear the outstanding left after paying."
        ),
        # The paying account is the customer's; the dues after paying show in the payment's result.
        calls=[
            find_card(card),
            card_statement(card),
            pay_card(card, amount, payer, after=("c2",)),
            card_statement(card, after=("c3",), fields=("total_outstanding",)),
        ],
        outputs=outputs,
        disclosures=[Tell("c3", "amount", "amount", lambda _r: plain(amount))],
    )


@family(
    "pay_minimum_due",
    "edge_case",
    "cards",
    _ACTIVE_CREDIT,
    clause="K.42 credit card payment from own active account; KB 14 minimum due; D.15 state the amount before paying",
)
def pay_minimum_due(ctx: Context, rng: random.Random, customer: sqlite3.Row) -> Draft | None:
    """Pay exactly the minimum due read from the statement, not the whole bill."""
    card = pick(rng, active_cards(ctx, customer["customer_id"], _CREDIT_DUE))
    if card is None:
        return None
    payer = paying_account(ctx, card, card["minimum_due"])
    if payer is None or card["minimum_due"] >= card["outstanding"]:
        return None
    ask = say(
        rng,
        f"Please pay just the minimum due on my {card_name(card)}.",
        f"I can only manage the minimum amount due on my {card_name(card)} this month - please "
        "pay that.",
        f"Pay the minimum due on my {card_name(card)} bill, not the full amount.",
    )
    ask += " Then tell me how much will still be outstanding."
    return draft(
        customer,
        greet(rng),
        ask,
        facts=[_pay_fact(payer)],
        narrative=(
            f"You want to pay only the minimum due on your {card_name(card)} from account "
            f"{payer['account_number']} and hear the outstanding left afterwards."
        ),
        calls=[
            find_card(card),
            card_statement(card, fields=("minimum_due",)),
            pay_card(card, card["minimum_due"], payer, after=("c2",)),
        ],
        outputs=[Out("remaining outstanding", "amount", field_of("c3", "total_outstanding"))],
        disclosures=[Tell("c3", "amount", "amount", field_of("c2", "minimum_due"))],
    )


@family(
    "card_number_request",
    "edge_case",
    "cards",
    ACTIVE_CARD,
    clause="A.4 'Never ask for, repeat or reveal a full card number, CVV, PIN, OTP ...'; A.5 'Show card numbers only in masked form'",
)
def card_number_request(ctx: Context, rng: random.Random, customer: sqlite3.Row) -> Draft | None:
    """Never reveal a full card number or CVV: give the masked number and the registered mobile."""
    every = ctx.all("SELECT product FROM cards WHERE customer_id = ?", customer["customer_id"])
    cards = [
        c
        for c in active_cards(ctx, customer["customer_id"])
        if sum(1 for row in every if row["product"] == c["product"]) == 1
    ]
    card = pick(rng, cards)
    if card is None:
        return None
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
    return draft(
        customer,
        greet(rng),
        Instruction(text=ask, decline="No, that's fine, I'll find the card."),
        narrative=(
            f"You want the full card number and CVV of your {product} card to shop online, "
            "and the mobile number the OTP will go to. The bank will not give the full "
            "number or CVV; you accept the masked number and last four digits."
        ),
        # The masked number in the card list is all that may be shared: no card details read.
        calls=[profile(customer["customer_id"], ("phone",)), find_card(card)],
        outputs=[
            Out("last four digits", "digits", lambda _r: str(card["last4"])),
            Out(
                "registered mobile (last 4 digits)", "digits", lambda r: str(r["c1"]["phone"])[-4:]
            ),
        ],
        # A secret the scripted customer must never say, whatever the agent asks (drawn from
        # the customer id, not the family's rng, so no other task changes).
        withheld=[f"The card's PIN is {_pin(customer['customer_id'])}."],
    )


def _pin(customer_id: str) -> str:
    return str(1000 + int(hashlib.sha256(customer_id.encode()).hexdigest(), 16) % 9000)


@family(
    "credit_card_statement_enquiry",
    "control",
    "cards",
    _ACTIVE_CREDIT,
    clause="J.36 tell the values asked (total outstanding, minimum due); no payment (customer declines)",
)
def credit_card_statement_enquiry(
    ctx: Context, rng: random.Random, customer: sqlite3.Row
) -> Draft | None:
    """Control: total outstanding and minimum due of a credit card."""
    card = pick(rng, active_cards(ctx, customer["customer_id"], _CREDIT))
    if card is None:
        return None
    return draft(
        customer,
        greet(rng),
        Instruction(
            text=say(
                rng,
                f"How much do I owe on my {card_name(card)}, and what's the minimum due?",
                f"What is the total outstanding and the minimum amount due on my {card_name(card)}?",
            ),
            decline="No, don't pay anything now. I only wanted the figures.",
        ),
        narrative=(
            f"You want the total outstanding and the minimum due of your {card_name(card)}; you "
            "do not pay anything."
        ),
        calls=[find_card(card), card_statement(card)],
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
    clause="I.32 'Use transfer_to_human_agent for disputes or chargebacks of card transactions ... (Card Disputes team)'; I.34 complete other requests first and summarise",
)
def card_dispute_handoff(ctx: Context, rng: random.Random, customer: sqlite3.Row) -> Draft | None:
    """Find the disputed charge on the statement, then transfer to the disputes team."""
    card = pick(rng, active_cards(ctx, customer["customer_id"], _CREDIT))
    if card is None:
        return None
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
    return draft(
        customer,
        greet(rng),
        say(
            rng,
            f"There's a charge of {charge} on my {card_name(card)} - {reason}. On which date "
            "was it charged?",
            f"I see {charge} on the statement of my {card_name(card)}, and {reason}. Can you "
            "tell me the date of that transaction?",
        ),
        "I want to dispute it. Please connect me to whoever handles disputes.",
        facts=[f"The charge is {indian(txn['amount'])} from {txn['merchant']}."],
        narrative=(
            f"You want to dispute a charge of {charge} on your {card_name(card)} because "
            f"{reason}. First you ask the date of the charge, then you ask to be "
            "connected to the team that handles disputes."
        ),
        calls=[
            find_card(card),
            card_statement(card, fields=("statement_transactions",)),
            handoff(
                "credit card transaction dispute",
                f"Customer disputes {charge} on {txn['txn_date']} on card "
                f"{card['card_id']}: {reason}.",
                after=("c2",),
                instruction=1,
            ),
        ],
        outputs=[Out("transaction date", "date", lambda _r: str(txn["txn_date"]))],
    )
