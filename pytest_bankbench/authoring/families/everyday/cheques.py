"""Everyday families about cheques: stopping a cheque (one already paid too) and a new cheque
book."""

from __future__ import annotations

import random
import sqlite3

from pytest_bankbench.authoring import base, calls, phrasing, pickers, terms
from pytest_bankbench.authoring.base import Context, Draft, draft, family
from pytest_bankbench.bank import rules
from pytest_bankbench.money import plain
from pytest_bankbench.tasks.model import Fact, Instruction

# -- cheques ---------------------------------------------------------------------------------------


@family(
    "SELECT DISTINCT a.customer_id FROM cheque_books k JOIN accounts a USING (account_number) "
    f"WHERE {pickers.unheld(1_000_00)} ORDER BY 1"
)
def stop_cheque_payment(ctx: Context, rng: random.Random, customer: sqlite3.Row) -> Draft | None:
    """Stop an unpaid cheque after checking the account; the Rs 100 fee shows in the balance."""
    books = ctx.all(
        "SELECT k.* FROM cheque_books k JOIN accounts a USING (account_number) "
        f"WHERE a.customer_id = ? AND {pickers.unheld(1_000_00)} ORDER BY k.book_id",
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
    account = pickers.account_row(ctx, book["account_number"])
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
    return draft(
        customer,
        phrasing.opening_text(
            rng,
            "stop_cheque_payment",
            **phrasing.account_words(account),
            cheque=cheque,
            reason=reason,
            why=why,
            tail=tail,
        ),
        facts=[
            phrasing.knows(f"The cheque number is {cheque}.", "cheque"),
            phrasing.knows(f"It's from {phrasing.my_account(account)}.", "account"),
            phrasing.knows(f"The reason is: {reason}.", "reason"),
        ],
        narrative=(
            f"You want to stop payment of cheque {leaf} from account {number} ({reason}). It "
            "has not been paid. You agree to the fee and want to hear your balance afterwards."
        ),
        # list_accounts shows the cheques paid or stopped: that is the check the customer asks.
        calls=[
            base.as_step(
                "cheques",
                calls.listed("list_accounts", "account", number, ("cheques_paid_or_stopped",)),
            ),
            base.as_step(
                "stop",
                base.Call(
                    "stop_cheque",
                    {"account_number": number, "cheque_number": leaf, "reason": reason},
                    match=("account_number", "cheque_number"),
                    after=("cheques",),
                ),
            ),
            base.as_step("balance", calls.balance(number, after=("stop",))),
        ],
        outputs=[
            base.Out("balance after fee", "amount", base.record("account", number, "balance"))
        ],
        # Policy I.43: the Rs 100 fee is mentioned before confirming.
        disclosures=[
            base.Tell(
                "stop",
                "fee",
                "amount",
                base.known(plain(rules.STOP_CHEQUE_FEE), base.clause("K.43")),
            )
        ],
    )


@family(pickers.funded_customers(0))
def cheque_book_request(ctx: Context, rng: random.Random, customer: sqlite3.Row) -> Draft | None:
    """Order a cheque book for a named account, size and delivery."""
    account = pickers.pick_funded(ctx, rng, customer["customer_id"], 0)
    if account is None:
        return None
    leaves = rng.choice(rules.CHEQUE_LEAVES)
    delivery = rng.choice(("registered_address", "home_branch"))
    where = (
        phrasing.say(rng, "sent to my registered address", "couriered to my home address")
        if delivery == "registered_address"
        else phrasing.say(
            rng, "I'll collect it at my home branch", "kept at my home branch for pickup"
        )
    )
    number = account["account_number"]
    return draft(
        customer,
        phrasing.opening_text(
            rng,
            "cheque_book_request",
            **phrasing.account_words(account),
            leaves=leaves,
            where=where,
        ),
        facts=[
            phrasing.knows(f"It's for {phrasing.my_account(account)}.", "account"),
            phrasing.knows(f"{leaves} leaves, please.", "cheque"),
            phrasing.knows(f"Delivery: {where}.", "delivery"),
        ],
        narrative=(
            f"You want a {leaves}-leaf cheque book for account {number}, "
            f"delivered to {delivery.replace('_', ' ')}."
        ),
        calls=[
            calls.find_account(account),
            base.as_step(
                "request",
                base.Call(
                    "request_cheque_book",
                    {
                        "account_number": number,
                        "leaves": leaves,
                        "delivery": delivery,
                    },
                    match=("account_number", "leaves", "delivery"),
                ),
            ),
        ],
        disclosures=terms.cheque_book_terms("request", leaves, delivery),
    )


# -- a stop payment on a cheque that was already paid -----------------------------------------
@family(
    "SELECT DISTINCT a.customer_id FROM cheques q JOIN accounts a USING (account_number) "
    "WHERE q.status = 'paid' AND a.status = 'active' ORDER BY 1"
)
def stop_paid_cheque(ctx: Context, rng: random.Random, customer: sqlite3.Row) -> Draft | None:
    """A cheque already paid cannot be stopped: say so, and stop nothing."""
    paid = ctx.all(
        "SELECT q.*, a.account_type FROM cheques q JOIN accounts a USING (account_number) "
        "WHERE a.customer_id = ? AND q.status = 'paid' AND a.status = 'active' "
        "ORDER BY q.account_number, q.cheque_number",
        customer["customer_id"],
    )
    cheque = pickers.pick(rng, paid)
    if cheque is None:
        return None
    number, account = f"{cheque['cheque_number']:06d}", cheque["account_number"]
    where = phrasing.ending(cheque)
    first = phrasing.opening_text(
        rng, "stop_paid_cheque", **phrasing.account_words(cheque), cheque=number
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
        calls=[calls.listed("list_accounts", "account", account, ("cheques_paid_or_stopped",))],
        tells=[base.reason("cheque already paid", "cheque_paid", record=account)],
    )
