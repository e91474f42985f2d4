"""Everyday families where the account to pay from cannot pay: dormant or short of
funds."""

from __future__ import annotations

import random
import sqlite3

from pytest_bankbench.authoring import base, calls, phrasing, pickers, terms
from pytest_bankbench.authoring.base import Context, Draft, draft, family
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
    "SELECT DISTINCT d.customer_id FROM accounts d JOIN accounts a ON a.customer_id = "
    f"d.customer_id AND {pickers.unheld(12_000_00)} "
    "JOIN beneficiaries b ON b.customer_id = d.customer_id WHERE d.status = 'dormant' "
    "ORDER BY 1"
)
def dormant_source_account(ctx: Context, rng: random.Random, customer: sqlite3.Row) -> Draft | None:
    """No debit from a dormant account: pay from the active account the customer names."""
    cid = customer["customer_id"]
    dormant = pickers.pick(rng, pickers.customer_accounts(ctx, cid, "dormant"))
    assert dormant is not None  # eligibility guarantees one
    chosen = pickers.payment(ctx, rng, cid, 12_000_00, _AMOUNTS, most=dormant["balance"])
    if chosen is None:
        return None
    payee, active, amount = chosen
    mode = rng.choice(("IMPS", "NEFT"))
    old = dormant["account_number"]
    said, name = phrasing.spoken(amount, rng), payee["name"]
    ask = phrasing.opening_text(
        rng,
        "dormant_source_account",
        **phrasing.payment_words(payee, said, mode, dormant),
    )
    # Only once the agent has said the account is dormant does the customer name the active
    # account to pay from instead; that account, by its last digits, is the alternative (H.29).
    return draft(
        customer,
        Instruction(
            text=ask,
            explain=f"Your savings account ending {phrasing.last4(dormant)} is dormant, so no "
            "payments can be made from it until it is reactivated at a branch. Your "
            f"{active['account_type']} account ending {phrasing.last4(active)} has enough "
            "balance, so I can send it from there instead.",
        ),
        facts=[
            phrasing.knows(f"From my savings account {old}.", "account"),
            pickers.payee_fact(payee, said),
            phrasing.knows(f"Use {mode}.", "mode"),
            phrasing.knows(
                f"Then send it from {phrasing.my_account(active)} instead.",
                "account",
                after=DORMANT_PHRASES,
            ),
        ],
        narrative=(
            f"You want to pay {indian(amount)} by {mode} to your payee {name} from savings "
            f"account {old}, which you have not used for years. If the assistant explains that "
            f"it cannot be used, you want the money sent from your {active['account_type']} "
            f"account {active['account_number']} instead; you do not offer that account before."
        ),
        calls=[
            base.as_step("old account", calls.find_account(dormant)),
            calls.find_payee(payee),
            base.as_step(
                "transfer",
                calls.transfer(
                    active["account_number"],
                    payee["beneficiary_id"],
                    amount,
                    mode,
                    after=("old account",),
                ),
            ),
        ],
        disclosures=terms.transfer_terms("transfer", amount, mode),
        tells=[
            base.reason("account dormant", "dormant", record=old),
            base.alternative(
                "another active account",
                values=(
                    base.told(
                        "account to pay from",
                        "digits",
                        base.record("account", active["account_number"], "account_number"),
                    ),
                ),
                record=active["account_number"],
                before="transfer",
            ),
        ],
    )


# The concept an agent states when a debit is more than the available balance.
SHORT_PHRASES = ("insufficient_funds",)


@family(
    "SELECT DISTINCT b.customer_id FROM beneficiaries b JOIN accounts a USING (customer_id) "
    "WHERE a.status = 'active' AND a.balance - a.hold_amount <= 90000000 ORDER BY 1"
)
def insufficient_funds(ctx: Context, rng: random.Random, customer: sqlite3.Row) -> Draft | None:
    """A transfer above the available balance: send nothing, tell what is available."""
    cid = customer["customer_id"]
    payees = pickers.registered_payees(ctx, cid)
    accounts = [
        a
        for a in pickers.active_accounts(ctx, cid, 0)
        if a["balance"] - a["hold_amount"] <= 9_00_000_00
    ]
    if not payees or not accounts:
        return None
    payee = rng.choice(payees)
    account = rng.choice(accounts)
    available = account["balance"] - account["hold_amount"]
    step = 5_000_00 if available >= 1_00_000_00 else 1_000_00
    amount = (available // step + 1) * step + rng.choice((0, 1, 2, 5)) * step
    mode = "IMPS" if amount <= 5_00_000_00 and rng.random() < 0.5 else "NEFT"
    said = phrasing.spoken(amount, rng)
    # H.29: another active account that has enough is offered (the customer declines it).
    cover = [
        a
        for a in pickers.active_accounts(ctx, cid, amount)
        if a["account_number"] != account["account_number"]
    ]
    offer = ""
    tells = [
        base.reason(
            "not enough available balance", "insufficient_funds", record=account["account_number"]
        )
    ]
    if cover:
        offer = (
            f" Your {cover[0]['account_type']} account ending {phrasing.last4(cover[0])} has "
            "enough available balance, so I can send it from there instead if you like."
        )
        tells.append(
            base.alternative(
                "another active account",
                values=tuple(
                    base.told(
                        "account to pay from",
                        "digits",
                        base.record("account", a["account_number"], "account_number"),
                    )
                    for a in cover
                ),
            )
        )
    ask = phrasing.opening_text(
        rng,
        "insufficient_funds",
        **phrasing.payment_words(payee, said, mode, account),
    )
    return draft(
        customer,
        Instruction(
            text=ask,
            decline="No, don't send anything then.",
            explain=f"The available balance in your account ending {phrasing.last4(account)} is "
            f"insufficient for {indian(amount)}, so I can't make this transfer.{offer}",
        ),
        facts=[
            phrasing.knows(f"The account number is {account['account_number']}.", "account"),
            phrasing.knows(f"It's {said}, by {mode}.", "amount", "mode"),
            phrasing.knows(
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
            base.as_step(
                "balance",
                calls.balance(account["account_number"], fields=("status", "available_balance")),
            )
        ]
        + [
            calls.balance(a["account_number"], fields=("status", "available_balance"))
            for a in cover[:1]
        ],
        outputs=[
            base.Out(
                "available balance",
                "amount",
                base.record("account", account["account_number"], "available_balance"),
            )
        ],
        tells=tells,
    )
