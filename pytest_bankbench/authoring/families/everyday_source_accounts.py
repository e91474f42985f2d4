"""Everyday families where the account to pay from cannot pay: dormant or short of
funds."""

from __future__ import annotations

import random
import sqlite3

from pytest_bankbench.authoring.base import (
    Context,
    Draft,
    Must,
    Out,
    alternative,
    as_step,
    draft,
    family,
    reason,
    record,
    told,
)
from pytest_bankbench.authoring.calls import balance, find_payee, listed, transfer, transfer_terms
from pytest_bankbench.authoring.phrasing import desi, ending, knows, last4, opening, spoken
from pytest_bankbench.authoring.pickers import (
    active_accounts,
    payment,
    pick,
    registered_payees,
    unheld,
)
from pytest_bankbench.money import indian
from pytest_bankbench.tasks.model import Instruction

_AMOUNTS = (
    2_000,
    3_500,
    5_000,
    7_500,
    10_000,
    12_000,
    15_000,
    20_000,
    25_000,
    30_000,
    40_000,
    50_000,
    60_000,
    75_000,
    1_00_000,
)


# The concept an agent states when it tells the customer an account cannot be debited.
DORMANT_PHRASES = ("dormant",)


@family(
    "dormant_source_account",
    "edge_case",
    "everyday",
    "SELECT DISTINCT d.customer_id FROM accounts d JOIN accounts a ON a.customer_id = "
    f"d.customer_id AND {unheld(12_000_00)} "
    "JOIN beneficiaries b ON b.customer_id = d.customer_id WHERE d.status = 'dormant' "
    "ORDER BY 1",
    clause="H.29 'Any debit ... from a dormant or frozen account ...: offer another of the customer's active accounts if one has enough available balance'",
)
def dormant_source_account(ctx: Context, rng: random.Random, customer: sqlite3.Row) -> Draft | None:
    """No debit from a dormant account: pay from the active account the customer names."""
    cid = customer["customer_id"]
    dormant = pick(
        rng,
        ctx.all(
            "SELECT * FROM accounts WHERE customer_id = ? AND status = 'dormant' "
            "ORDER BY account_number",
            cid,
        ),
    )
    assert dormant is not None  # eligibility guarantees one
    chosen = payment(ctx, rng, cid, 12_000_00, _AMOUNTS, most=dormant["balance"])
    if chosen is None:
        return None
    payee, active, amount = chosen
    mode = rng.choice(("IMPS", "NEFT"))
    old = dormant["account_number"]
    said, name = spoken(amount, rng), payee["name"]
    ask = opening(
        rng,
        terse=f"Pay {name} {said} by {mode} from a/c {old}.",
        chatty=f"Hi there! I found the passbook of my savings account {old} while cleaning up, "
        f"and there's money in it - please send {said} from it to {name} by {mode}.",
        formal=f"Good evening. Kindly transfer {said} from my savings account {old} to my "
        f"payee {name} via {mode}.",
        hinglish=f"Hi, mere savings account {old} se {name} ko {said} bhejna hai, {mode} se.",
        unprompted=f"Please send {said} to my payee {name} by {mode} from my savings account "
        f"{old}.",
        asked="I want to pay one of my payees from my savings account.",
        story=f"My grandmother opened savings account {old} for me years ago - please send "
        f"{said} from it to {name} by {mode}.",
    )
    return _from_another_account(
        customer,
        ask,
        "dormant, so no payments can be made from it until it is reactivated at a branch",
        DORMANT_PHRASES,
        reason("account dormant", "dormant", record=old),
        ", which you have not used for years. If the assistant explains that it cannot be used",
        (dormant, payee, active, amount, mode, said),
    )


def _from_another_account(
    customer: sqlite3.Row,
    ask: str,
    why: str,
    phrases: tuple[str, ...],
    refusal: Must,
    story: str,
    payment: tuple[sqlite3.Row, sqlite3.Row, sqlite3.Row, int, str, str],
) -> Draft:
    """A transfer from an account that takes no debits: the agent says `why`, and only then (one
    of `phrases` said) does the customer name the active account to pay from instead. `story`
    ends the narrative's first sentence and starts the condition of its second. `refusal` is
    the reason told; the active account, by its last digits, is the alternative (H.29)."""
    blocked, payee, active, amount, mode, said = payment
    old, name = blocked["account_number"], payee["name"]
    return draft(
        customer,
        Instruction(
            text=ask,
            explain=f"Your savings account ending {last4(blocked)} is {why}. Your "
            f"{active['account_type']} account ending {last4(active)} has enough balance, so I "
            "can send it from there instead.",
        ),
        facts=[
            knows(f"From my savings account {old}.", "account"),
            knows(f"It's {said} for {name}, who is on my payee list.", "payee", "amount"),
            knows(f"Use {mode}.", "mode"),
            knows(
                f"Then send it from my {active['account_type']} account "
                f"{active['account_number']} instead.",
                "account",
                after=phrases,
            ),
        ],
        narrative=(
            f"You want to pay {indian(amount)} by {mode} to your payee {name} from savings "
            f"account {old}{story}, you want the money sent from "
            f"your {active['account_type']} account {active['account_number']} instead; you do "
            "not offer that account before."
        ),
        calls=[
            as_step("old account", listed("list_accounts", "account", old, ("status",))),
            find_payee(payee),
            as_step(
                "transfer",
                transfer(
                    active["account_number"],
                    payee["beneficiary_id"],
                    amount,
                    mode,
                    after=("old account",),
                ),
            ),
        ],
        disclosures=transfer_terms("transfer", amount, mode),
        tells=[
            refusal,
            alternative(
                "another active account",
                values=(told("account to pay from", "digits", last4(active)),),
                record=active["account_number"],
                before="transfer",
            ),
        ],
    )


# The concept an agent states when a debit is more than the available balance.
SHORT_PHRASES = ("insufficient_funds",)


@family(
    "insufficient_funds",
    "edge_case",
    "everyday",
    "SELECT DISTINCT b.customer_id FROM beneficiaries b JOIN accounts a USING (customer_id) "
    "WHERE a.status = 'active' AND a.balance - a.hold_amount <= 90000000 ORDER BY 1",
    clause="H.29 refuse 'Any debit ... for more than the available balance: offer another of the customer's active accounts if one has enough available balance'",
)
def insufficient_funds(ctx: Context, rng: random.Random, customer: sqlite3.Row) -> Draft | None:
    """A transfer above the available balance: send nothing, tell what is available."""
    cid = customer["customer_id"]
    payees = registered_payees(ctx, cid)
    accounts = [
        a for a in active_accounts(ctx, cid, 0) if a["balance"] - a["hold_amount"] <= 9_00_000_00
    ]
    if not payees or not accounts:
        return None
    payee = rng.choice(payees)
    account = rng.choice(accounts)
    available = account["balance"] - account["hold_amount"]
    step = 5_000_00 if available >= 1_00_000_00 else 1_000_00
    amount = (available // step + 1) * step + rng.choice((0, 1, 2, 5)) * step
    mode = "IMPS" if amount <= 5_00_000_00 and rng.random() < 0.5 else "NEFT"
    said, name = spoken(amount, rng), payee["name"]
    # H.29: another active account that has enough is offered (the customer declines it).
    cover = [
        a
        for a in active_accounts(ctx, cid, amount)
        if a["account_number"] != account["account_number"]
    ]
    offer = ""
    tells = [
        reason(
            "not enough available balance", "insufficient_funds", record=account["account_number"]
        )
    ]
    if cover:
        offer = (
            f" Your {cover[0]['account_type']} account ending {last4(cover[0])} has enough "
            "available balance, so I can send it from there instead if you like."
        )
        tells.append(
            alternative(
                "another active account",
                values=tuple(told("account to pay from", "digits", last4(a)) for a in cover),
            )
        )
    ask = opening(
        rng,
        terse=f"Transfer {said} to {name}, {mode}, from {ending(account)}.",
        chatty=f"Hi! My nephew's admission fees are due and {name} is handling it, so I need "
        f"to send {said} by {mode} from {ending(account)}. Can you do that?",
        formal=f"Good afternoon. Please transfer {said} to my payee {name} by {mode}, debiting "
        f"{ending(account)}.",
        hinglish=f"Hello, mere {desi(ending(account))} se {name} ko {said} bhejna hai, {mode} se. Abhi "
        "kar do.",
        unprompted=f"Please send {said} to my payee {name} by {mode} from my "
        f"{account['account_type']} account {account['account_number']}.",
        asked=f"I need to send some money to {name}.",
        hurried=f"Quick one - {said} to {name} by {mode} from {ending(account)}, please.",
    )
    return draft(
        customer,
        Instruction(
            text=ask,
            decline="No, don't send anything then.",
            explain=f"The available balance in your account ending {last4(account)} is "
            f"insufficient for {indian(amount)}, so I can't make this transfer.{offer}",
        ),
        facts=[
            knows(f"The account number is {account['account_number']}.", "account"),
            knows(f"It's {said}, by {mode}.", "amount", "mode"),
            knows(
                "Then don't send anything, not from another account either - just tell me how "
                "much I can actually use.",
                "amount",
                after=SHORT_PHRASES,
            ),
        ],
        narrative=(
            f"You want to send {indian(amount)} by {mode} from account "
            f"{account['account_number']} to your payee {payee['name']}. The account's "
            f"available balance is less than that; once told so, you do not send anything "
            "(not from another account either) and only want to hear the available "
            "balance."
        ),
        # Refusing needs only the available balance; the payee need not be looked up.
        # The account it offers instead is looked up first: it is offered because it has enough.
        calls=[
            as_step(
                "balance",
                balance(account["account_number"], fields=("status", "available_balance")),
            )
        ]
        + [balance(a["account_number"], fields=("status", "available_balance")) for a in cover[:1]],
        outputs=[
            Out(
                "available balance",
                "amount",
                record("account", account["account_number"], "available_balance"),
            )
        ],
        tells=tells,
    )
