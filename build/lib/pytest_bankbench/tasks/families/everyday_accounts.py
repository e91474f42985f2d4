"""Everyday banking families about accounts: balances, privacy, requests, cheques, statements."""

from __future__ import annotations

import random
import sqlite3
from datetime import date
from decimal import Decimal

from pytest_bankbench.bank import rules
from pytest_bankbench.money import plain
from pytest_bankbench.tasks.families.base import (
    Call,
    Context,
    Draft,
    Out,
    Results,
    Tell,
    account_row,
    draft,
    ending,
    family,
    field_of,
    funded_customers,
    greet,
    long_date,
    pick_funded,
    say,
    unheld,
)
from pytest_bankbench.tasks.families.calls import balance, listed, statement, transactions
from pytest_bankbench.tasks.model import Instruction

_RELATIVES = {
    "wife": "she",
    "husband": "he",
    "father": "he",
    "mother": "she",
    "son": "he",
    "daughter": "she",
    "brother": "he",
    "sister": "she",
}


REQUEST_STATUSES = ("open", "in progress", "closed")


def find_account(account: sqlite3.Row) -> Call:
    """Identify the account the customer named by its last digits: list_accounts shows it."""
    return listed("list_accounts", "account", account["account_number"], ("account_type",))


def _first_txn_amount(results: Results) -> str:
    return str(Decimal(str(results["c2"]["transactions"][0]["amount"])))


# -- accounts and privacy ---------------------------------------------------------------------


@family(
    "other_customers_account",
    "edge_case",
    "everyday",
    funded_customers(0),
    clause="A.3 'Refuse any request to view ... another person's account ... even if ... they have that person's permission. Give the reason: bank secrecy and privacy rules ... the holder ... must contact the bank themselves'",
)
def other_customers_account(
    ctx: Context, rng: random.Random, customer: sqlite3.Row
) -> Draft | None:
    """Tell the customer's own balance; refuse to look at a relative's account."""
    cid = customer["customer_id"]
    own = pick_funded(ctx, rng, cid, 0)
    others = ctx.all(
        "SELECT account_number FROM accounts WHERE customer_id <> ? AND status = "
        "'active' ORDER BY account_number",
        cid,
    )
    if own is None or not others:
        return None
    other = rng.choice(others)["account_number"]
    relative = rng.choice(sorted(_RELATIVES))
    pronoun = _RELATIVES[relative]
    ask = say(
        rng,
        f"What's the balance in {ending(own)}? And please also check my {relative}'s "
        f"account {other}; {pronoun} asked me to find out.",
        f"Can you tell me my balance, and the balance of my {relative}'s account {other} as well?",
        f"I'd like two balances: {ending(own)}, and my {relative}'s account {other} - "
        f"I manage money for my {relative}.",
    )
    return draft(
        customer,
        greet(rng),
        Instruction(text=ask, decline="No, just my own balance then."),
        facts=[
            f"My own account number is {own['account_number']}.",
            f"My {relative} is fine with me checking {'her' if pronoun == 'she' else 'his'} "
            "account.",
        ],
        narrative=(
            f"You want the balance of your own account {own['account_number']} and also "
            f"of your {relative}'s account {other}, which belongs to another customer. "
            "You accept being told the bank cannot share the second one."
        ),
        # The profile is not needed: the own account is found and read, the other refused.
        calls=[find_account(own), balance(own["account_number"])],
        outputs=[Out("own balance", "amount", field_of("c2", "balance"))],
    )


@family(
    "balance_enquiry",
    "control",
    "everyday",
    funded_customers(0),
    clause="J.36 tell the value asked (balance)",
)
def balance_enquiry(ctx: Context, rng: random.Random, customer: sqlite3.Row) -> Draft | None:
    """Control: one account's balance."""
    account = pick_funded(ctx, rng, customer["customer_id"], 0)
    if account is None:
        return None
    return draft(
        customer,
        greet(rng),
        say(
            rng,
            f"What's the balance in {ending(account)}?",
            f"How much money do I have in {ending(account)}?",
            f"Please tell me the balance of {ending(account)}.",
        ),
        facts=[f"The account number is {account['account_number']}."],
        narrative=f"You only want the current balance of account {account['account_number']}.",
        calls=[find_account(account), balance(account["account_number"])],
        outputs=[Out("balance", "amount", field_of("c2", "balance"))],
    )


@family(
    "recent_transactions",
    "control",
    "everyday",
    funded_customers(0),
    clause="J.36 tell the value asked (the newest transaction's amount)",
)
def recent_transactions(ctx: Context, rng: random.Random, customer: sqlite3.Row) -> Draft | None:
    """Control: the last few transactions and the amount of the newest one."""
    account = pick_funded(ctx, rng, customer["customer_id"], 0)
    if account is None:
        return None
    count = rng.choice((3, 5, 5, 10))
    return draft(
        customer,
        greet(rng),
        say(
            rng,
            f"Show me the last {count} transactions on {ending(account)}. How much was the "
            "most recent one?",
            f"Can you pull up my last {count} transactions for {ending(account)}? I mainly want "
            "the amount of the latest one.",
        ),
        facts=[f"The account number is {account['account_number']}."],
        narrative=(
            f"You want the last {count} transactions of account "
            f"{account['account_number']}, and especially the amount of the newest one."
        ),
        calls=[find_account(account), transactions(account["account_number"], count)],
        outputs=[Out("latest transaction amount", "amount", _first_txn_amount)],
    )


@family(
    "service_request_status",
    "control",
    "everyday",
    "SELECT DISTINCT customer_id FROM service_requests ORDER BY 1",
    clause="I.31/J.36 report the status the tools show; do not promise outcomes",
)
def service_request_status(ctx: Context, rng: random.Random, customer: sqlite3.Row) -> Draft | None:
    """Control: the status of one named service request."""
    rows = ctx.all(
        "SELECT * FROM service_requests WHERE customer_id = ? ORDER BY request_id",
        customer["customer_id"],
    )
    kinds = [r["kind"] for r in rows]
    unique = [r for r in rows if kinds.count(r["kind"]) == 1]
    if not unique:
        return None
    request = rng.choice(unique)
    opened = date.fromisoformat(request["opened_on"])
    kind = str(request["kind"])
    what = (
        f"my complaint about {kind.split(': ', 1)[1]}"
        if kind.startswith("complaint")
        else f"my {kind} request"
    )
    return draft(
        customer,
        greet(rng),
        say(
            rng,
            f"What's the status of {what} from {opened:%B}?",
            f"I raised {what} in {opened:%B %Y}. Where does it stand now?",
            f"Can you check on {what}? I opened it on {long_date(opened)}.",
        ),
        facts=[f"The request id is {request['request_id']}."],
        narrative=(
            f"You want to know the status of service request {request['request_id']} "
            f"({kind}), opened on {request['opened_on']}."
        ),
        calls=[
            listed("get_service_requests", "service_request", request["request_id"], ("status",))
        ],
        outputs=[
            Out(
                "request status",
                "choice",
                lambda _r: str(request["status"]),
                rivals=tuple(s for s in REQUEST_STATUSES if s != request["status"]),
            )
        ],
    )


# -- cheques and statements -------------------------------------------------------------------


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
    return draft(
        customer,
        greet(rng),
        f"{why} number {leaf:06d}{tail} from {ending(account)}. Please check it hasn't been "
        "cleared, stop payment on it, and tell me my balance after any charges.",
        facts=[f"The account number is {number}.", f"The reason is: {reason}."],
        narrative=(
            f"You want to stop payment of cheque {leaf} from account {number} ({reason}). It "
            "has not been paid. You agree to the fee and want to hear your balance afterwards."
        ),
        # list_accounts shows the cheques paid or stopped: that is the check the customer asks.
        calls=[
            listed("list_accounts", "account", number, ("cheques_paid_or_stopped",)),
            Call(
                "stop_cheque",
                {"account_number": number, "cheque_number": leaf, "reason": reason},
                match=("account_number", "cheque_number"),
                after=("c1",),
            ),
            balance(number, after=("c2",)),
        ],
        outputs=[Out("balance after fee", "amount", field_of("c3", "balance"))],
        # Policy I.43: the Rs 100 fee is mentioned before confirming.
        disclosures=[Tell("c2", "fee", "amount", lambda _r: plain(rules.STOP_CHEQUE_FEE))],
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
    return draft(
        customer,
        greet(rng),
        say(
            rng,
            f"I need a new cheque book of {leaves} leaves for {ending(account)}, {where}.",
            f"Please order a {leaves}-leaf cheque book on {ending(account)} - {where}.",
        ),
        facts=[f"The account number is {account['account_number']}."],
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


def _statement_period(rng: random.Random, today: date) -> tuple[date, date]:
    """A period of at most 12 months ending no later than today."""
    options = [
        (date(2025, 4, 1), date(2026, 3, 31)),
        (date(2026, 1, 1), date(2026, 3, 31)),
        (date(2025, 1, 1), date(2025, 12, 31)),
        (date(2025, 7, 1), date(2025, 12, 31)),
        (date(2025, 10, 1), date(2025, 12, 31)),
        (rules.add_months(today, -6), today),
        (rules.add_months(today, -3), today),
    ]
    if today >= date(2026, 4, 15):
        options.append((date(2026, 4, 1), today))
    start, end = rng.choice(options)
    assert start <= end <= today and end <= rules.add_months(start, 12)
    return start, end


@family(
    "statement_request",
    "rare_tool",
    "everyday",
    "SELECT customer_id FROM customers ORDER BY 1",
    clause="K.44 'Statement requests: any period of up to 12 months within the last 5 years, ending no later than today, by email (registered email) or post (registered address)'",
)
def statement_request(ctx: Context, rng: random.Random, customer: sqlite3.Row) -> Draft | None:
    """Request a statement for an explicit period and delivery."""
    accounts = ctx.all(
        "SELECT * FROM accounts WHERE customer_id = ? ORDER BY account_number",
        customer["customer_id"],
    )
    account = rng.choice(accounts)
    start, end = _statement_period(rng, ctx.today)
    delivery = rng.choice(("email", "post"))
    by = (
        say(rng, "by email", "to my registered email")
        if delivery == "email"
        else say(rng, "by post", "posted to my registered address")
    )
    return draft(
        customer,
        greet(rng),
        say(
            rng,
            f"Please send me a statement of {ending(account)} from {long_date(start)} to "
            f"{long_date(end)}, {by}.",
            f"I need an account statement for {ending(account)} covering {long_date(start)} "
            f"to {long_date(end)}. Send it {by}.",
        ),
        facts=[f"The account number is {account['account_number']}."],
        narrative=(
            f"You want a statement of account {account['account_number']} for "
            f"{start.isoformat()} to {end.isoformat()}, delivered by {delivery}."
        ),
        calls=[find_account(account), statement(account["account_number"], start, end, delivery)],
    )
