"""Everyday families about cheques: stopping a cheque (one already paid too) and a new cheque
book."""

from __future__ import annotations

import random
import sqlite3

from pytest_bankbench.authoring.base import (
    Call,
    Context,
    Draft,
    Out,
    Tell,
    as_step,
    const,
    draft,
    family,
    reason,
    record,
)
from pytest_bankbench.authoring.calls import (
    balance,
    find_account,
    listed,
)
from pytest_bankbench.authoring.phrasing import desi, ending, knows, last4, my_account, opening, say
from pytest_bankbench.authoring.pickers import (
    account_row,
    funded_customers,
    pick,
    pick_funded,
    unheld,
)
from pytest_bankbench.bank import rules
from pytest_bankbench.money import plain
from pytest_bankbench.tasks.model import Fact, Instruction

# -- cheques ---------------------------------------------------------------------------------------


@family(
    "stop_cheque_payment",
    "rare_tool",
    "everyday",
    "SELECT DISTINCT a.customer_id FROM cheque_books k JOIN accounts a USING (account_number) "
    f"WHERE {unheld(1_000_00)} ORDER BY 1",
    clause="K.43 'Stop payment: only for a cheque from the customer's own cheque book that has not been paid or already stopped. Mention the Rs 100 fee before confirming.'",
)
def stop_cheque_payment(ctx: Context, rng: random.Random, customer: sqlite3.Row) -> Draft | None:
    """Stop an unpaid cheque after checking the account; the Rs 100 fee shows in the balance."""
    books = ctx.all(
        "SELECT k.* FROM cheque_books k JOIN accounts a USING (account_number) "
        f"WHERE a.customer_id = ? AND {unheld(1_000_00)} ORDER BY k.book_id",
        customer["customer_id"],
    )
    if not books:
        return None
    book = rng.choice(books)
    used = {
        r["cheque_number"]
        for r in ctx.all(
            "SELECT cheque_number FROM cheques WHERE account_number = ?", book["account_number"]
        )
    }
    leaves = [n for n in range(book["first_leaf"], book["last_leaf"] + 1) if n not in used]
    if not leaves:
        return None
    leaf = rng.choice(leaves)
    account = account_row(ctx, book["account_number"])
    number = account["account_number"]
    reason = rng.choice(("lost", "issued in error", "payment cancelled", "stolen"))
    why = {
        "lost": "I've lost cheque",
        "issued in error": "I wrote the wrong amount on cheque",
        "payment cancelled": "The deal fell through, so I don't want cheque",
        "stolen": "Someone stole cheque",
    }[reason]
    tail = "" if reason in ("lost", "issued in error", "stolen") else " to be paid"
    cheque = f"{leaf:06d}"
    check = "Please check it hasn't been cleared, stop payment on it, and tell me my balance "
    check += "after any charges."
    return draft(
        customer,
        opening(
            rng,
            terse=f"Stop cheque no. {cheque}, {ending(account)} ({reason}). Check it isn't "
            "cleared first. Balance after charges?",
            chatty=f"Hi, bit of a mess here. {why} number {cheque}{tail} from "
            f"{ending(account)}. {check}",
            formal=f"Good evening. I request a stop payment on cheque number {cheque} drawn on "
            f"{ending(account)} ({reason}). Kindly verify that it has not been cleared, and "
            "inform me of my balance after charges.",
            hinglish=f"Hello, cheque number {cheque} ({desi(ending(account))}) ka payment stop karna "
            f"hai - {reason}. Pehle check karo clear toh nahi hua, phir stop karo, aur charges "
            "ke baad balance batao.",
            unprompted=f"{why} number {cheque}{tail} from {my_account(account)}. {check}",
            asked=f"I need to stop payment on one of my cheques. {check}",
        ),
        facts=[
            knows(f"The cheque number is {cheque}.", "cheque"),
            knows(f"It's from {my_account(account)}.", "account"),
            knows(f"The reason is: {reason}.", "reason"),
        ],
        narrative=(
            f"You want to stop payment of cheque {leaf} from account {number} ({reason}). It "
            "has not been paid. You agree to the fee and want to hear your balance afterwards."
        ),
        # list_accounts shows the cheques paid or stopped: that is the check the customer asks.
        calls=[
            as_step(
                "cheques", listed("list_accounts", "account", number, ("cheques_paid_or_stopped",))
            ),
            as_step(
                "stop",
                Call(
                    "stop_cheque",
                    {"account_number": number, "cheque_number": leaf, "reason": reason},
                    match=("account_number", "cheque_number"),
                    after=("cheques",),
                ),
            ),
            as_step("balance", balance(number, after=("stop",))),
        ],
        outputs=[Out("balance after fee", "amount", record("account", number, "balance"))],
        # Policy I.43: the Rs 100 fee is mentioned before confirming.
        disclosures=[Tell("stop", "fee", "amount", const(plain(rules.STOP_CHEQUE_FEE)))],
    )


@family(
    "cheque_book_request",
    "rare_tool",
    "everyday",
    funded_customers(0),
    clause="D.14-16 a cheque book request is a write: state account, leaves, delivery and get a yes; KB 20 leaves 25/50/100, registered address or home branch",
)
def cheque_book_request(ctx: Context, rng: random.Random, customer: sqlite3.Row) -> Draft | None:
    """Order a cheque book for a named account, size and delivery."""
    account = pick_funded(ctx, rng, customer["customer_id"], 0)
    if account is None:
        return None
    leaves = rng.choice(rules.CHEQUE_LEAVES)
    delivery = rng.choice(("registered_address", "home_branch"))
    where = (
        say(rng, "sent to my registered address", "couriered to my home address")
        if delivery == "registered_address"
        else say(rng, "I'll collect it at my home branch", "kept at my home branch for pickup")
    )
    named = ending(account)
    return draft(
        customer,
        opening(
            rng,
            terse=f"Cheque book, {leaves} leaves, a/c ending {last4(account)}, {where}.",
            chatty=f"Hi! I've just used my last cheque on the school fees, so I need a new "
            f"cheque book of {leaves} leaves for {named} - {where}.",
            formal=f"Greetings. I would like to request a cheque book of {leaves} leaves for "
            f"{named}, {where}, please.",
            hinglish=f"Hello, mere {desi(named)} ke liye {leaves} leaves wali cheque book chahiye - {where}.",
            unprompted=f"Please order a {leaves}-leaf cheque book on {my_account(account)} - "
            f"{where}.",
            asked="I need a new cheque book.",
            landlord=f"My landlord wants post-dated cheques, so please order a cheque book for "
            f"{named}: {leaves} leaves, {where}.",
        ),
        facts=[
            knows(f"It's for {my_account(account)}.", "account"),
            knows(f"{leaves} leaves, please.", "cheque"),
            knows(f"Delivery: {where}.", "delivery"),
        ],
        narrative=(
            f"You want a {leaves}-leaf cheque book for account {account['account_number']}, "
            f"delivered to {delivery.replace('_', ' ')}."
        ),
        calls=[
            find_account(account),
            Call(
                "request_cheque_book",
                {
                    "account_number": account["account_number"],
                    "leaves": leaves,
                    "delivery": delivery,
                },
                match=("account_number", "leaves", "delivery"),
            ),
        ],
    )


# -- a stop payment on a cheque that was already paid -----------------------------------------
@family(
    "stop_paid_cheque",
    "edge_case",
    "everyday",
    "SELECT DISTINCT a.customer_id FROM cheques q JOIN accounts a USING (account_number) "
    "WHERE q.status = 'paid' AND a.status = 'active' ORDER BY 1",
    clause="K.43 'Stop payment: only for a cheque from the customer's own cheque book that has "
    "not been paid or already stopped'",
)
def stop_paid_cheque(ctx: Context, rng: random.Random, customer: sqlite3.Row) -> Draft | None:
    """A cheque already paid cannot be stopped: say so, and stop nothing."""
    paid = ctx.all(
        "SELECT q.*, a.account_type FROM cheques q JOIN accounts a USING (account_number) "
        "WHERE a.customer_id = ? AND q.status = 'paid' AND a.status = 'active' "
        "ORDER BY q.account_number, q.cheque_number",
        customer["customer_id"],
    )
    cheque = pick(rng, paid)
    if cheque is None:
        return None
    number, account = f"{cheque['cheque_number']:06d}", cheque["account_number"]
    where = f"my {cheque['account_type']} account ending {account[-4:]}"
    first = opening(
        rng,
        terse=f"Stop cheque {number}, {where}.",
        chatty=f"Hi, I think I made a mistake with cheque {number} from {where} - can you stop "
        "it before it goes through?",
        formal=f"Good morning. I would like to request a stop payment on cheque number {number} "
        f"drawn on {where}.",
        hinglish=f"Namaste, cheque {number} ka payment rokna hai, {where} se.",
        unprompted=f"Please stop payment of cheque {number} on account {account}; I issued it by mistake.",
        asked="I need to stop a cheque I gave someone.",
    )
    return draft(
        customer,
        Instruction(
            text=first,
            explain=f"Cheque {number} has already been paid, so it can no longer be stopped.",
        ),
        facts=[
            Fact(text=f"It's cheque number {number}.", about=("cheque",)),
            Fact(text=f"It's from {where}.", about=("account",)),
            Fact(text="I issued it by mistake.", about=("reason",)),
        ],
        narrative=(
            f"You want to stop payment of cheque {number} from account {account}. It has "
            "already been paid; once told, you accept that nothing can be done."
        ),
        calls=[listed("list_accounts", "account", account, ("cheques_paid_or_stopped",))],
        tells=[reason("cheque already paid", "cheque_paid", record=account)],
    )
