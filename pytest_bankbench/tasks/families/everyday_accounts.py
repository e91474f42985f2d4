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
    desi,
    draft,
    ending,
    family,
    field_of,
    funded_customers,
    knows,
    last4,
    long_date,
    my_account,
    offered_secret,
    opening,
    pick_funded,
    reason,
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
    """Identify the account the customer named by its last digits and check its state: any
    result showing the account's status will do (list_accounts, get_account_balance); its type
    is not asked for."""
    return listed("list_accounts", "account", account["account_number"], ("status",))


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
    their = "her" if pronoun == "she" else "his"
    ask = opening(
        rng,
        terse=f"Balance of {ending(own)}? And of my {relative}'s a/c {other}.",
        chatty=f"Hi! I look after the money at home, so I keep an eye on everyone's accounts. "
        f"What's the balance in {ending(own)}? And please check my {relative}'s account "
        f"{other} too - {pronoun} asked me to find out.",
        formal=f"Good morning. Could you please tell me the balance of {ending(own)}, and also "
        f"that of my {relative}'s account {other}?",
        hinglish=f"Hello, mere {desi(ending(own))} ka balance batao. Aur mere {relative} ka account "
        f"{other} bhi check kar do, unhone hi bola hai.",
        unprompted=f"Please tell me the balance of my account {own['account_number']} and of "
        f"my {relative}'s account {other} - {pronoun} is fine with me checking it.",
        asked=f"I'd like to know two balances: mine, and my {relative}'s.",
        caring=f"My {relative} isn't well and I'm handling {their} bills. Can you tell me the "
        f"balance of account {other}, and of {ending(own)} as well?",
    )
    return draft(
        customer,
        "",
        Instruction(
            text=ask,
            decline="No, just my own balance then.",
            explain="I can only share details of accounts you hold yourself. Bank secrecy and "
            f"privacy rules don't allow me to look at your {relative}'s account, even with "
            f"{their} permission - {pronoun} would need to contact the bank directly.",
        ),
        facts=[
            knows(f"My own account number is {own['account_number']}.", "account"),
            knows(f"My {relative}'s account number is {other}.", "account"),
            knows(f"My {relative} is fine with me checking {their} account.", "identity", "other"),
        ],
        narrative=(
            f"You want the balance of your own account {own['account_number']} and also "
            f"of your {relative}'s account {other}, which belongs to another customer. "
            "You accept being told the bank cannot share the second one."
        ),
        # The profile is not needed: the own account is found and read, the other refused.
        calls=[find_account(own), balance(own["account_number"])],
        outputs=[Out("own balance", "amount", field_of("c2", "balance"))],
        tells=[reason("bank secrecy", "privacy", record=other)],
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
    named = ending(account)
    return draft(
        customer,
        "",
        opening(
            rng,
            terse=f"Balance of a/c ending {last4(account)}?",
            chatty=f"Hi! Payday was only last week and I've already lost track - how much is "
            f"left in {named}?",
            formal=f"Good day. Could you kindly tell me the current balance of {named}?",
            hinglish=f"Hello, mere {desi(named)} mein kitna balance hai? Zara check karke batao.",
            unprompted=f"Please tell me the balance of {my_account(account)}.",
            asked="How much money do I have in my account?",
            worried=f"I think a big payment just went out of {named} - what's the balance "
            "there right now?",
        ),
        facts=[knows(f"It's {my_account(account)}.", "account")],
        narrative=f"You only want the current balance of account {account['account_number']}.",
        calls=[find_account(account), balance(account["account_number"])],
        outputs=[Out("balance", "amount", field_of("c2", "balance"))],
        offers=offered_secret("pin", "balance_enquiry", customer["customer_id"]),
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
    count: int | None = rng.choice((3, 5, 5, 10))
    named = ending(account)
    vague = "Can you show me my recent transactions? I mainly want the amount of the latest one."
    text = opening(
        rng,
        terse=f"Last {count} transactions on a/c ending {last4(account)}? Amount of the "
        "latest one?",
        chatty=f"Hi, I'm trying to reconcile my expenses - can you pull up my last {count} "
        f"transactions on {named}? Mostly I want to know how much the newest one was.",
        formal=f"Good afternoon. Kindly show me the last {count} transactions on {named}, "
        "and tell me the amount of the most recent one.",
        hinglish=f"Hello, mere {desi(named)} ke last {count} transactions dikhao. Sabse latest wala "
        "kitne ka tha?",
        unprompted=f"Show me the last {count} transactions on {my_account(account)}. How "
        "much was the most recent one?",
        asked=vague,
        suspicious=f"I got an SMS about a debit I don't remember. What are the last "
        f"{count} transactions on {named}, and how much was the latest?",
    )
    if text == vague:
        count = None  # no number asked: any count the agent chooses shows the newest
    return draft(
        customer,
        "",
        text,
        facts=[knows(f"It's {my_account(account)}.", "account")],
        narrative=(
            f"You want the {f'last {count}' if count else 'recent'} transactions of account "
            f"{account['account_number']}, and especially the amount of the newest one."
        ),
        # Any count from the one asked up shows the newest transactions asked about.
        calls=[
            find_account(account),
            transactions(account["account_number"], count, at_least=True),
        ],
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
    """Control: the status of one service request the customer describes."""
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
        "",
        opening(
            rng,
            terse=f"Status of {what} from {opened:%B}?",
            chatty=f"Hi, I raised {what} back in {opened:%B} and haven't heard a thing since. "
            "Can you check where it stands?",
            formal=f"Good afternoon. I would like to know the current status of {what}, raised "
            f"on {long_date(opened)}.",
            hinglish=f"Hello, mera {desi(what)} {opened:%B} mein daala tha - uska kya status hai abhi?",
            unprompted=f"What's the status of {what}? I opened it on {long_date(opened)}.",
            asked="I want to check on a request I raised with you a while ago.",
            annoyed=f"This is the third time I'm asking: what is happening with {what} from "
            f"{opened:%B %Y}?",
        ),
        facts=[knows(f"It's {what}, raised on {long_date(opened)}.", "date", "reason", "other")],
        narrative=(
            f"You want to know the status of your {kind} request, opened on {long_date(opened)}."
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
    cheque = f"{leaf:06d}"
    check = "Please check it hasn't been cleared, stop payment on it, and tell me my balance "
    check += "after any charges."
    return draft(
        customer,
        "",
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
    named = ending(account)
    return draft(
        customer,
        "",
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
    named, since, until = ending(account), long_date(start), long_date(end)
    return draft(
        customer,
        "",
        opening(
            rng,
            terse=f"Statement, a/c ending {last4(account)}, {since} to {until}, {by}.",
            chatty=f"Hi! My CA is doing my taxes and wants paperwork for everything, so could "
            f"you send me a statement of {named} from {since} to {until}, {by}?",
            formal=f"Namaskar. Kindly arrange an account statement for {named} covering "
            f"{since} to {until}, sent {by}.",
            hinglish=f"Hello, mere {desi(named)} ka statement chahiye, {since} se {until} tak - {by} bhej do.",
            unprompted=f"Please send me a statement of {my_account(account)} from {since} to "
            f"{until}, {by}.",
            asked="I need an account statement, please.",
            visa=f"The embassy wants my bank statement for a visa application - {named}, "
            f"{since} to {until}, {by}, please.",
        ),
        facts=[
            knows(f"It's for {my_account(account)}.", "account"),
            knows(f"From {since} to {until}.", "period", "date"),
            knows(f"Send it {by}.", "delivery"),
        ],
        narrative=(
            f"You want a statement of account {account['account_number']} for "
            f"{start.isoformat()} to {end.isoformat()}, delivered by {delivery}."
        ),
        calls=[find_account(account), statement(account["account_number"], start, end, delivery)],
    )
