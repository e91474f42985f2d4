"""Card families about a card at risk: a lost or stolen card blocked, a disputed charge, a card
number asked for."""

from __future__ import annotations

import hashlib
import random
import sqlite3
from datetime import date

from pytest_bankbench.authoring import base, calls, phrasing, pickers, terms
from pytest_bankbench.authoring.base import Call, Context, Draft, Must, draft, family
from pytest_bankbench.money import indian
from pytest_bankbench.tasks.model import Instruction

_DEBIT = "card_kind = 'debit'"


_ACTIVE_DEBIT = f"{pickers.ACTIVE_CARD} AND {_DEBIT}"


_DISPUTE_REASONS = (
    "I never made that purchase",
    "I was charged but never received the order",
    "that charge looks like a duplicate",
    "the order was cancelled but never refunded",
)


def _block_steps(card: sqlite3.Row, reason: str) -> list[Call]:
    """The gold steps of a block (F.24): the card the customer named ("card"), then the block
    as `reason` ("block"), which `terms.block_terms` are told before."""
    return [
        base.as_step("card", calls.find_card(card)),
        base.as_step("block", calls.block_card(card, reason, after=("card",))),
    ]


@family(_ACTIVE_DEBIT)
def lost_card_block(ctx: Context, rng: random.Random, customer: sqlite3.Row) -> Draft | None:
    """Block first: the balance is asked first, but the lost card is blocked before anything."""
    cards = [
        c
        for c in pickers.active_cards(ctx, customer["customer_id"], _DEBIT)
        if pickers.account_row(ctx, c["linked_account"])["hold_amount"] == 0
        and pickers.account_row(ctx, c["linked_account"])["status"] == "active"
    ]
    card = pickers.pick(rng, cards)
    if card is None:
        return None
    named, account = pickers.card_name(card), card["linked_account"]
    ask = phrasing.opening_text(
        rng,
        "lost_card_block",
        ending=f"account ending {account[-4:]}",
        **pickers.card_words(card),
    )
    return draft(
        customer,
        ask,
        facts=[
            phrasing.knows(f"The account is {account}.", "account"),
            pickers.card_fact(card),
            phrasing.knows("Block it permanently - it's lost.", "reason"),
            phrasing.knows("Send the replacement to my registered address.", "delivery"),
        ],
        narrative=(
            f"You want the balance of your account {account} and you have lost your {named}. "
            "You agree to the card being blocked as lost, and you want to hear the balance."
        ),
        calls=[
            *_block_steps(card, "lost"),
            base.as_step("balance", calls.balance(account, after=("block",))),
        ],
        outputs=[base.Out("balance", "amount", base.record("account", account, "balance"))],
        disclosures=terms.block_terms("block", "lost"),
    )


@family(_ACTIVE_DEBIT)
def stolen_card_fraud(ctx: Context, rng: random.Random, customer: sqlite3.Row) -> Draft | None:
    """Block a stolen card, look at the account, then hand the fraud claim to a human."""
    card = pickers.pick_card(ctx, rng, customer, _DEBIT)
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
    named = pickers.card_name(card)
    ask = phrasing.opening_text(
        rng, "stolen_card_fraud", unknown=unknown, **pickers.card_words(card)
    )
    return draft(
        customer,
        ask,
        facts=[
            phrasing.knows(
                f"The card is linked to my account {card['linked_account']}.", "account"
            ),
            pickers.card_fact(card),
            phrasing.knows(f"The debit I didn't make is {unknown}.", "amount", "date", "other"),
            phrasing.knows("Block it as stolen.", "reason"),
            phrasing.knows("I want to report the transaction as fraud.", "other"),
        ],
        narrative=(
            f"Your {named} was stolen, and you see a debit of {unknown} on account "
            f"{card['linked_account']} that you did not make. You want the card blocked as "
            "stolen and the transaction reported; you agree to a transfer to the team "
            "that handles fraud."
        ),
        calls=[
            *_block_steps(card, "stolen"),
            base.as_step(
                "handoff",
                calls.handoff(
                    "fraud claim: stolen debit card and an unauthorised transaction",
                    f"{named} blocked as stolen; customer reports an unauthorised "
                    f"debit of {indian(txn['amount'])} on {txn['txn_date']}.",
                    after=("block",),
                ),
            ),
        ],
        disclosures=terms.block_terms("block", "stolen"),
        # I.32/I.34: the customer is told the fraud claim goes to the Card Disputes team.
        tells=[disputes_team(card, before="handoff")],
    )


def disputes_team(card: sqlite3.Row, before: str, instruction: int = 0) -> Must:
    """I.32: disputes and fraud claims are handed to the Card Disputes team, which the
    customer is told before the transfer `before`."""
    return Must(
        "handoff",
        "Card Disputes team",
        ("card_disputes_team",),
        instruction=instruction,
        record=card["card_id"],
        before=before,
    )


@family(pickers.ACTIVE_CARD)
def card_number_request(ctx: Context, rng: random.Random, customer: sqlite3.Row) -> Draft | None:
    """Never reveal a full card number or CVV: give the masked number and the registered mobile."""
    every = ctx.all("SELECT product FROM cards WHERE customer_id = ?", customer["customer_id"])
    cards = [
        c
        for c in pickers.active_cards(ctx, customer["customer_id"])
        if sum(1 for row in every if row["product"] == c["product"]) == 1
    ]
    card = pickers.pick(rng, cards)
    if card is None:
        return None
    product = card["product"]
    ask = phrasing.opening_text(rng, "card_number_request", **pickers.card_words(card))
    return draft(
        customer,
        Instruction(
            text=ask,
            decline="No, that's fine, I'll find the card.",
            # The rule in words a synonym may replace without leaving a secret asked for: the
            # metamorphic suite rewords each reason (tests/scoring/variants.py).
            explain="For your security, Suvarna Bank never gives out full card numbers or CVVs, "
            "not even to the card holder: cards are only shown masked. I can tell you the last "
            "four digits.",
        ),
        facts=[phrasing.knows(f"It's my {product} card; I want its full number and CVV.", "card")],
        narrative=(
            f"You want the full card number and CVV of your {product} card to shop online, "
            "and the mobile number the OTP will go to. The bank will not give the full "
            "number or CVV; you accept the masked number and last four digits."
        ),
        # The masked number in the card list is all that may be shared: no card details read.
        calls=[
            base.as_step("profile", calls.profile(customer["customer_id"], ("phone",))),
            calls.find_card(card),
        ],
        # The customer's own mobile may be told masked or in full (A.4/A.5 mask card numbers,
        # not the holder's own contact details).
        outputs=[
            base.Out(
                "last four digits", "digits", base.record("card", card["card_id"], "masked_number")
            ),
            base.Out(
                "registered mobile",
                "digits",
                base.record("customer", customer["customer_id"], "phone"),
                also=_phone_forms(str(customer["phone"])),
            ),
        ],
        # A secret the scripted customer must never say, whatever the agent asks (drawn from
        # the customer id, not the family's rng, so no other task changes).
        withheld=[f"The card's PIN is {_pin(customer['customer_id'])}."],
        # The refusal's reason (the preamble: "explain the reason politely"): a full number
        # or CVV is never shared, cards are shown masked (A.4, A.5).
        tells=[base.reason("full card number never shared", "masked_only", record=card["card_id"])],
    )


def _phone_forms(phone: str) -> tuple[str, ...]:
    """A mobile number told in full, as people write it: 9876543210, 98765 43210, 98765-43210."""
    return (phone, f"{phone[:5]} {phone[5:]}", f"{phone[:5]}-{phone[5:]}")


def _pin(customer_id: str) -> str:
    return str(1000 + int(hashlib.sha256(customer_id.encode()).hexdigest(), 16) % 9000)


@family(
    "SELECT DISTINCT c.customer_id FROM cards c JOIN card_transactions t USING (card_id) "
    "WHERE c.card_kind = 'credit' AND c.status = 'active' AND t.kind = 'purchase'"
)
def card_dispute_handoff(ctx: Context, rng: random.Random, customer: sqlite3.Row) -> Draft | None:
    """Find the disputed charge on the statement, then transfer to the disputes team."""
    card = pickers.pick_card(ctx, rng, customer, pickers.CREDIT_CARD)
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
    listed = ctx.all(
        "SELECT card_txn_id FROM card_transactions WHERE card_id = ? ORDER BY txn_date, card_txn_id",
        card["card_id"],
    )
    at = [t["card_txn_id"] for t in listed].index(txn["card_txn_id"])
    reason = rng.choice(_DISPUTE_REASONS)
    charge = f"{indian(txn['amount'])} from {txn['merchant']}"
    named = pickers.card_name(card)
    return draft(
        customer,
        *phrasing.opening_requests(
            rng, "card_dispute_handoff", 2, charge=charge, reason=reason, **pickers.card_words(card)
        ),
        facts=[
            pickers.card_fact(card),
            phrasing.knows(f"The charge is {charge}.", "amount", "other"),
        ],
        narrative=(
            f"You want to dispute a charge of {charge} on your {named} because "
            f"{phrasing.yours(reason)}. First you ask the date of the charge, then you ask to be "
            "connected to the team that handles disputes."
        ),
        calls=[
            calls.find_card(card),
            base.as_step(
                "statement", calls.card_statement(card, fields=("statement_transactions",))
            ),
            base.as_step(
                "handoff",
                calls.handoff(
                    "credit card transaction dispute",
                    f"Customer disputes {charge} on {txn['txn_date']} on the {named}: {reason}.",
                    after=("statement",),
                    instruction=1,
                ),
            ),
        ],
        # The statement lists every transaction of the card in this order: the date is read there.
        outputs=[
            base.Out(
                "transaction date", "date", base.result("statement", f"transactions.{at}.date")
            )
        ],
        tells=[disputes_team(card, before="handoff", instruction=1)],
    )
