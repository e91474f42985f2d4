"""Everyday families about accounts: balances, recent transactions, another customer's account,
service requests."""

from __future__ import annotations

import random
import sqlite3

from pytest_bankbench.authoring import base, calls, phrasing, pickers
from pytest_bankbench.authoring.base import Context, Draft, draft, family
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
# Other words for each status, as banks' assistants say them (audit2): "resolved" for closed,
# "under process" for in progress; each also a rival of the other statuses.
STATUS_WORDS: dict[str, tuple[str, ...]] = {
    "open": (),
    "in progress": ("under process", "being processed", "being worked on"),
    "closed": ("resolved",),
}


# -- accounts and privacy ---------------------------------------------------------------------


@family(pickers.funded_customers(0))
def other_customers_account(
    ctx: Context, rng: random.Random, customer: sqlite3.Row
) -> Draft | None:
    """Tell the customer's own balance; refuse to look at a relative's account."""
    cid = customer["customer_id"]
    own = pickers.pick_funded(ctx, rng, cid, 0)
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
    number = own["account_number"]
    ask = phrasing.opening_text(
        rng,
        "other_customers_account",
        **phrasing.account_words(own),
        relative=relative,
        other=other,
        pronoun=pronoun,
        their=their,
    )
    return draft(
        customer,
        Instruction(
            text=ask,
            decline="No, just my own balance then.",
            explain="I can only share details of accounts you hold yourself. Bank secrecy and "
            f"privacy rules don't allow me to look at your {relative}'s account, even with "
            f"{their} permission - {pronoun} would need to contact the bank directly.",
        ),
        facts=[
            phrasing.knows(f"My own account number is {number}.", "account"),
            phrasing.knows(f"My {relative}'s account number is {other}.", "account"),
            phrasing.knows(
                f"My {relative} is fine with me checking {their} account.", "identity", "other"
            ),
        ],
        narrative=(
            f"You want the balance of your own account {number} and also "
            f"of your {relative}'s account {other}, which belongs to another customer. "
            "You accept being told the bank cannot share the second one."
        ),
        # The profile is not needed: the own account is found and read, the other refused.
        calls=[calls.find_account(own), base.as_step("balance", calls.balance(number))],
        outputs=[base.Out("own balance", "amount", base.record("account", number, "balance"))],
        tells=[base.reason("bank secrecy", "privacy", record=other)],
    )


@family(pickers.funded_customers(0))
def balance_enquiry(ctx: Context, rng: random.Random, customer: sqlite3.Row) -> Draft | None:
    """Control: one account's balance."""
    account = pickers.pick_funded(ctx, rng, customer["customer_id"], 0)
    if account is None:
        return None
    number, mine = account["account_number"], phrasing.my_account(account)
    return draft(
        customer,
        phrasing.opening_text(rng, "balance_enquiry", **phrasing.account_words(account)),
        facts=[phrasing.knows(f"It's {mine}.", "account")],
        narrative=f"You only want the current balance of account {number}.",
        calls=[calls.find_account(account), base.as_step("balance", calls.balance(number))],
        outputs=[base.Out("balance", "amount", base.record("account", number, "balance"))],
        offers=phrasing.offered_secret("pin", "balance_enquiry", customer["customer_id"]),
    )


@family(pickers.funded_customers(0))
def recent_transactions(ctx: Context, rng: random.Random, customer: sqlite3.Row) -> Draft | None:
    """Control: the last few transactions and the amount of the newest one."""
    account = pickers.pick_funded(ctx, rng, customer["customer_id"], 0)
    if account is None:
        return None
    count: int | None = rng.choice((3, 5, 5, 10))
    number, mine = account["account_number"], phrasing.my_account(account)
    text = phrasing.opening_text(
        rng,
        "recent_transactions",
        **phrasing.account_words(account),
        count=count,
    )
    if text == phrasing.openings()["recent_transactions"]["asked"]:
        count = None  # no number asked: any count the agent chooses shows the newest
    return draft(
        customer,
        text,
        facts=[phrasing.knows(f"It's {mine}.", "account")],
        narrative=(
            f"You want the {f'last {count}' if count else 'recent'} transactions of account "
            f"{number}, and especially the amount of the newest one."
        ),
        # Any count from the one asked up shows the newest transactions asked about.
        calls=[
            calls.find_account(account),
            base.as_step("transactions", calls.transactions(number, count, at_least=True)),
        ],
        outputs=[
            base.Out(
                "latest transaction amount",
                "amount",
                base.result("transactions", "transactions.0.amount"),
            )
        ],
    )


@family("SELECT DISTINCT customer_id FROM service_requests ORDER BY 1")
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
    words = phrasing.request_words(request)
    what, raised = words["what"], words["raised"]
    return draft(
        customer,
        phrasing.opening_text(rng, "service_request_status", **words),
        facts=[phrasing.knows(f"It's {what}, raised on {raised}.", "date", "reason", "other")],
        narrative=f"You want to know the status of your {request['kind']} request, opened on "
        f"{raised}.",
        calls=[calls.find_request(request)],
        outputs=[
            base.Out(
                "request status",
                "choice",
                base.record("service_request", request["request_id"], "status"),
                rivals=tuple(
                    word
                    for s in REQUEST_STATUSES
                    if s != request["status"]
                    for word in (s, *STATUS_WORDS[s])
                ),
                also=STATUS_WORDS[request["status"]],
            )
        ],
    )
