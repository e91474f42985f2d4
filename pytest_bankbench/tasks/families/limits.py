"""Limits the policy sets on a request: a mode's maximum, a cheque already paid, and an FD tenure
given in months (agreed in days before the quote).

Each opening is drawn from six registers: terse, chatty, polite, Hinglish-flavoured English,
details unprompted, and details only when asked (then they are facts with topics).
"""

from __future__ import annotations

import random
import sqlite3
from datetime import date

from pytest_bankbench.bank import rules
from pytest_bankbench.money import indian, plain
from pytest_bankbench.tasks.families.base import (
    Call,
    Context,
    Draft,
    Must,
    Out,
    active_accounts,
    alternative,
    amount_phrases,
    draft,
    ending,
    family,
    field_of,
    opening,
    pick,
    reason,
    spoken,
    told,
    unheld,
)
from pytest_bankbench.tasks.families.calls import (
    booking_quote,
    create_fd,
    fd_maturity,
    find_payee,
    listed,
    transfer,
    transfer_terms,
)
from pytest_bankbench.tasks.families.everyday import registered_payees
from pytest_bankbench.tasks.model import Fact, Instruction

# -- a transfer above the mode's maximum -------------------------------------------------------
_IMPS_MAX = rules.TRANSFER_LIMITS["IMPS"][1]


@family(
    "imps_above_maximum",
    "edge_case",
    "everyday",
    "SELECT DISTINCT b.customer_id FROM beneficiaries b JOIN accounts a USING (customer_id) "
    f"WHERE {unheld(_IMPS_MAX + 6_00_000_00)} ORDER BY 1",
    clause="H.29 'A transfer above the chosen mode's per-transaction limit (IMPS Rs 5,00,000): "
    "offer a mode whose limit covers the amount'; act on it only if the customer agrees",
)
def imps_above_maximum(ctx: Context, rng: random.Random, customer: sqlite3.Row) -> Draft | None:
    """IMPS above Rs 5 lakh is refused: NEFT carries it once the customer agrees."""
    cid = customer["customer_id"]
    payee = pick(rng, registered_payees(ctx, cid))
    amount = rng.choice((5_50_000, 6_00_000, 7_00_000, 7_50_000, 8_00_000, 9_00_000)) * 100
    assert amount <= rules.TRANSFER_LIMITS["NEFT"][1] and amount >= rules.TRANSFER_LIMITS["RTGS"][0]
    account = pick(rng, active_accounts(ctx, cid, amount + 1_00_000_00, no_hold=True))
    if payee is None or account is None:
        return None
    what, who = spoken(amount, rng), payee["name"]
    first = opening(
        rng,
        terse=f"IMPS {what} to {who}.",
        chatty=f"Hi! Big payment today - I need to send {what} to {who} by IMPS, it's urgent.",
        formal=f"Good afternoon. Kindly transfer {what} to my payee {who} through IMPS.",
        hinglish=f"Hello ji, {who} ko {what} bhejna hai, IMPS se please.",
        unprompted=f"Please send {what} by IMPS to {who} from {ending(account)} right now.",
        asked="I need to make a big transfer by IMPS to one of my payees.",
    )
    return draft(
        customer,
        "",
        Instruction(
            text=first,
            explain="IMPS can carry at most Rs 5,00,000 in one transaction, so this amount "
            "cannot go by IMPS. NEFT or RTGS can carry it.",
            accepts=("NEFT", "RTGS"),
        ),
        facts=[
            Fact(text=f"It's {what} to {who}.", about=("amount", "payee")),
            Fact(text=f"Send it from {ending(account)}.", about=("account",)),
            Fact(
                text="Then send it by NEFT or RTGS instead, whichever you can.",
                about=("mode",),
                after=("above_maximum", *amount_phrases(_IMPS_MAX)),
            ),
        ],
        narrative=(
            f"You want to send {indian(amount)} to your payee {who} by IMPS from your account "
            f"ending {account['account_number'][-4:]}. IMPS allows at most Rs 5,00,000 per "
            "transaction; once told, you agree to NEFT or RTGS."
        ),
        # H.29 offers a mode whose limit covers the amount: NEFT (up to Rs 10 lakh) and RTGS
        # (Rs 2 lakh to Rs 25 lakh) both cover every amount here.
        calls=[
            find_payee(payee),
            transfer(
                account["account_number"],
                payee["beneficiary_id"],
                amount,
                "NEFT",
                ("c1",),
                allowed=("RTGS",),
            ),
        ],
        disclosures=transfer_terms("c2", amount, "NEFT", also=("RTGS",)),
        tells=[
            Must(
                "reason",
                "above the IMPS maximum",
                ("above_maximum",),
                (told("IMPS maximum", "amount", plain(_IMPS_MAX)),),
                before="c2",
            ),
            alternative("NEFT or RTGS instead", "other_mode", before="c2"),
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
        "",
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


_FULL_KYC_FUNDED = (
    "SELECT c.customer_id FROM customers c JOIN accounts a USING (customer_id) "
    f"WHERE c.kyc_status = 'full' AND {unheld(50_000_00)} GROUP BY c.customer_id"
)


# -- an FD tenure given in months -------------------------------------------------------------
@family(
    "fd_tenure_in_months",
    "edge_case",
    "deposits",
    _FULL_KYC_FUNDED.replace("50_000_00", "1"),
    clause="C.10 'If the customer gives an FD tenure in months, agree the exact number of days "
    "with them before quoting'; E.19 rate card and maturity projection before booking",
)
def fd_tenure_in_months(ctx: Context, rng: random.Random, customer: sqlite3.Row) -> Draft | None:
    """The customer says months; the days are agreed before the quote and the booking."""
    amount = rng.choice((25_000, 50_000, 75_000, 1_00_000, 1_50_000)) * 100
    account = pick(rng, active_accounts(ctx, customer["customer_id"], amount, no_hold=True))
    if account is None:
        return None
    months = rng.choice((6, 9, 15, 18, 21, 27, 30))
    end = _add_months(ctx.today, months)
    days = (end - ctx.today).days
    what = spoken(amount, rng)
    first = opening(
        rng,
        terse=f"FD {what}, {months} months.",
        chatty=f"Hi there! I've got {what} sitting idle, let's put it in an FD for {months} "
        "months.",
        formal=f"Good day. I would like to book a fixed deposit of {what} for {months} months.",
        hinglish=f"Hello, {what} ka FD banana hai, {months} mahine ke liye.",
        unprompted=f"Book an FD of {what} for {months} months from {ending(account)}, maturity "
        "amount back to the same account.",
        asked="I want to open a fixed deposit for some months.",
    )
    return draft(
        customer,
        "",
        first + " Tell me the rate and the maturity amount before booking.",
        facts=[
            Fact(text=f"{what} for {months} months.", about=("amount",)),
            Fact(
                text=f"{months} months from today is {end.day} {end:%B %Y}, so {days} days.",
                about=("tenure", "date", "maturity"),
            ),
            Fact(text=f"Fund it from {ending(account)}.", about=("account",)),
            Fact(text="Credit the maturity amount to my account.", about=("maturity",)),
        ],
        narrative=(
            f"You want an FD of {indian(amount)} for {months} months from the account ending "
            f"{account['account_number'][-4:]}. Asked for the exact tenure, you say {days} days "
            f"(until {end.isoformat()}). You want the rate and maturity amount first."
        ),
        calls=[
            Call("get_deposit_rate_card"),
            fd_maturity(amount, days),
            create_fd(account["account_number"], amount, days, after=("c1", "c2")),
        ],
        outputs=[Out("maturity amount", "amount", field_of("c2", "maturity_amount"))],
        disclosures=booking_quote("c2", "c3"),
    )


def _add_months(day: date, months: int) -> date:
    return rules.add_months(day, months)
