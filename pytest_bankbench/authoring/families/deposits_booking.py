"""Deposit families about booking: an FD (its rate, a tenure in months, a changed quote), an RD, a
KYC block."""

from __future__ import annotations

import random
import sqlite3
from datetime import date

from pytest_bankbench.authoring.base import (
    Call,
    Context,
    Draft,
    Out,
    alternative,
    as_step,
    const,
    draft,
    family,
    reason,
    record,
    result,
)
from pytest_bankbench.authoring.calls import (
    booking_quote,
    create_fd,
    create_rd,
    fd_booking_calls,
    fd_maturity,
    profile,
    rd_rate,
)
from pytest_bankbench.authoring.phrasing import (
    ending,
    knows,
    my_account,
    opening,
    say,
    spoken,
)
from pytest_bankbench.authoring.pickers import (
    FULL_KYC,
    TENURES,
    active_accounts,
    funding_account,
    pick,
    pick_funded,
    rate_for,
    unheld,
)
from pytest_bankbench.bank import rules
from pytest_bankbench.money import indian
from pytest_bankbench.tasks.model import Fact, Instruction


def _fd_amount(rng: random.Random) -> int:
    return rng.choice((25_000, 50_000, 75_000, 1_00_000, 1_50_000, 2_00_000, 3_00_000)) * 100


KYC_STATUSES = ("full", "pending", "expired")


@family(
    "kyc_blocks_new_fd",
    "edge_case",
    "deposits",
    "SELECT customer_id FROM customers WHERE kyc_status <> 'full'",
    clause="H.29 refuse 'New FDs, tax-saver FDs or RDs when the customer's KYC status is not \"full\": explain re-KYC at any branch or by video KYC'",
)
def kyc_blocks_new_fd(ctx: Context, rng: random.Random, customer: sqlite3.Row) -> Draft | None:
    """No new FD without full KYC: check the profile, quote if asked, book nothing."""
    amount = _fd_amount(rng)
    days, tenure_text = rng.choice(TENURES)
    said = spoken(amount, rng)
    status = customer["kyc_status"]
    ask = opening(
        rng,
        terse=f"Book an FD, {said}, {tenure_text}. Rate?",
        chatty=f"Hi! My bonus just came in and I want to park {said} in a fixed deposit for "
        f"{tenure_text}. Can you book it and tell me the rate?",
        formal=f"Namaskar. Kindly book a fixed deposit of {said} for {tenure_text} and "
        "inform me of the applicable rate.",
        hinglish=f"Namaste, {said} ka FD book karna hai, {tenure_text} ke liye. Rate kya milega?",
        unprompted=f"Please book an FD of {said} for {tenure_text} from my main savings "
        "account and tell me the rate.",
        asked="I want to book a fixed deposit. What rate will I get?",
    )
    return draft(
        customer,
        Instruction(
            text=ask,
            decline="No, I'll sort out my KYC first then.",
            # No rival status word ("full") is said: the status told is the customer's own.
            explain="New fixed deposits can only be opened when your KYC is up to date, and "
            f"your KYC status is {status}. You can complete re-KYC at any branch or by video "
            "KYC.",
        ),
        facts=[
            knows(f"{said} for {tenure_text}.", "amount", "tenure"),
            knows("Use my main savings account.", "account"),
            knows("Then what is my KYC status?", "identity", after=("kyc_not_full",)),
        ],
        narrative=(
            f"You want an FD of {indian(amount)} for {days} days and its rate. Your KYC is "
            f"{status}; when told the FD cannot be opened you ask for your KYC status and "
            "accept."
        ),
        # The rate was asked; a maturity projection for a booking the policy forbids is not.
        calls=[
            as_step("kyc", profile(customer["customer_id"], ("kyc_status",))),
            Call("get_deposit_rate_card"),
        ],
        outputs=[
            Out(
                "KYC status",
                "choice",
                record("customer", customer["customer_id"], "kyc_status"),
                rivals=tuple(k for k in KYC_STATUSES if k != status),
            ),
            Out("rate", "percent", const(rate_for(ctx, customer, days))),
        ],
        tells=[
            reason("KYC not full", "kyc_not_full", record=customer["customer_id"]),
            alternative("re-KYC at a branch or by video KYC", "re_kyc"),
        ],
    )


@family(
    "fd_rate_query",
    "control",
    "deposits",
    "SELECT customer_id FROM customers",
    clause="KB 01 rate card by tenure slab, senior citizens +0.50%; J.35 'Do not invent rates'",
)
def fd_rate_query(ctx: Context, rng: random.Random, customer: sqlite3.Row) -> Draft | None:
    """Control: the applicable rate for a tenure."""
    days, tenure_text = rng.choice(TENURES)
    rate = rate_for(ctx, customer, days)
    return draft(
        customer,
        opening(
            rng,
            terse=f"FD rate for {tenure_text}?",
            chatty=f"Hi! My neighbour says your FD rates are good these days - what would I get "
            f"for {tenure_text}?",
            formal=f"Good morning. May I know the fixed deposit interest rate applicable to me "
            f"for {tenure_text}?",
            hinglish=f"Hello, {tenure_text} ke FD pe kitna interest milega mujhe?",
            unprompted=f"What FD interest rate would I get for {tenure_text}, at my age?",
            asked="What FD rate would I get?",
            comparing=f"I'm comparing banks before I invest. What's your fixed deposit rate for "
            f"{tenure_text}, for me?",
        ),
        facts=[knows(f"For {tenure_text}.", "tenure")],
        narrative=f"You only want to know the FD rate that applies to you for {days} days.",
        calls=[Call("get_deposit_rate_card")],
        outputs=[Out("rate", "percent", const(rate))],
    )


@family(
    "rd_opening",
    "rare_tool",
    "deposits",
    FULL_KYC,
    clause="KB 06 Opening an RD: 'The rate for the tenure and the projected maturity value are shown. On confirmation, the RD is opened and the first instalment is debited at once'; H.29 KYC must be full; D.15-16",
)
def rd_opening(ctx: Context, rng: random.Random, customer: sqlite3.Row) -> Draft | None:
    """Open a recurring deposit after checking KYC and the rate."""
    instalment = rng.choice((1_000, 2_000, 2_500, 5_000, 7_500, 10_000)) * 100
    months = rng.choice((12, 18, 24, 36, 60))
    account = funding_account(ctx, rng, customer["customer_id"], instalment)
    if account is None:
        return None
    said = spoken(instalment, rng)
    ask = opening(
        rng,
        terse=f"Open an RD: {said} a month, {months} months. Rate first.",
        chatty=f"Hi! I want to get into the habit of saving, so I'd like to start a recurring "
        f"deposit of {said} a month for {months} months. What rate will I get?",
        formal=f"Good day. I wish to open a recurring deposit of {said} per month for "
        f"{months} months. Kindly inform me of the rate first.",
        hinglish=f"Namaste, har mahine {said} ka RD start karna hai, {months} months ke liye. "
        "Rate kya milega?",
        unprompted=f"Please open an RD of {said} monthly for {months} months from "
        f"{my_account(account)}. Tell me the rate first.",
        asked="I'd like to open a recurring deposit. Tell me the rate first.",
        wedding=f"I'm saving up for my daughter's wedding - please start an RD of {said} a "
        f"month for {months} months. What's the rate?",
    )
    told_rate = rd_rate(rate_for(ctx, customer, months * 30), "booking")
    return draft(
        customer,
        ask,
        facts=[
            knows(f"{said} a month for {months} months.", "amount", "tenure"),
            knows(f"Debit the instalments from {my_account(account)}.", "account"),
        ],
        narrative=(
            f"You want an RD of {indian(instalment)} a month for {months} months from "
            f"account {account['account_number']}; ask for the rate first."
        ),
        calls=[
            profile(customer["customer_id"], ("kyc_status",)),
            as_step("rates", Call("get_deposit_rate_card")),
            as_step(
                "booking",
                create_rd(account["account_number"], instalment, months, after=("rates",)),
            ),
        ],
        outputs=told_rate[0],
        disclosures=told_rate[1],
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
        calls=fd_booking_calls(account["account_number"], amount, days),
        outputs=[Out("maturity amount", "amount", result("quote", "maturity_amount"))],
        disclosures=booking_quote("quote", "booking"),
    )


def _add_months(day: date, months: int) -> date:
    return rules.add_months(day, months)


# -- fd_quote_redo_after_change ------------------------------------------------------------------

FD_TENURES = (
    (91, "91 days"),
    (180, "180 days"),
    (365, "1 year"),
    (400, "400 days"),
    (730, "2 years"),
    (1095, "3 years"),
    (1825, "5 years"),
)


_FD_AMOUNTS = (25_000, 50_000, 75_000, 1_00_000, 1_50_000, 2_00_000, 3_00_000)


def _slab(days: int) -> int:
    return next(i for i, (low, high, _r) in enumerate(rules.FD_SLABS) if low <= days <= high)


@family(
    "fd_quote_redo_after_change",
    "sequencing",
    "deposits",
    "SELECT c.customer_id FROM customers c JOIN accounts a USING (customer_id) "
    f"WHERE c.kyc_status = 'full' AND {unheld(3_10_000_00)} GROUP BY c.customer_id ORDER BY 1",
    clause="E.23 quotes are for today: 'if ... anything has changed, quote again'; D.17 'If anything changes after confirmation (amount, account, tenure, mode, option), confirm again'; E.19 rate card and maturity projection, share the rate and the maturity amount, then ask for confirmation",
)
def fd_quote_redo_after_change(
    ctx: Context, rng: random.Random, customer: sqlite3.Row
) -> Draft | None:
    """The tenure changes at the confirmation: project the new tenure, quote it, then book."""
    amount = rng.choice(_FD_AMOUNTS) * 100
    account = pick_funded(ctx, rng, customer["customer_id"], amount + 10_000_00)
    if account is None:
        return None
    first, first_text = rng.choice(FD_TENURES)
    second, second_text = rng.choice([t for t in FD_TENURES if _slab(t[0]) != _slab(first)])
    said = spoken(amount, rng)
    quote = "Tell me the rate and the maturity amount before booking."
    text = opening(
        rng,
        terse=f"FD of {said} for {first_text}. Rate and maturity amount first.",
        chatty=f"Hi! I finally have some savings sitting idle, so I'd like to put {said} in a "
        f"fixed deposit for {first_text}. {quote}",
        formal=f"Good morning. Could you please open a fixed deposit of {said} for "
        f"{first_text}? Kindly share the interest rate and the maturity amount before booking it.",
        hinglish=f"Namaste, mujhe {said} ka FD karna hai, {first_text} ke liye. Rate aur "
        "maturity amount pehle bata dena, phir book karna.",
        unprompted=f"Hello, please book an FD of {said} for {first_text} from {ending(account)}, "
        f"with the maturity amount credited back to that account. {quote}",
        asked=f"Hi, I'd like to open a fixed deposit. {quote}",
    )
    correction = say(
        rng,
        f"Actually, make it {second_text} instead.",
        f"Hmm, on second thought, make the tenure {second_text} instead of {first_text}.",
        f"Wait - change the tenure to {second_text}, please, not {first_text}.",
    )
    return draft(
        customer,
        Instruction(text=text, correction=correction),
        facts=[
            knows(f"{indian(amount)} for {first_text}.", "amount", "tenure"),
            knows(f"Fund it from {my_account(account)}.", "account"),
            knows("At maturity, credit the money to my account.", "maturity"),
        ],
        narrative=(
            f"You want an FD of {indian(amount)} from account {account['account_number']}, "
            f"maturity proceeds credited to the account. You first ask for {first} days; when "
            f"the assistant asks you to confirm, you change the tenure to {second} days. You "
            "agree once you have heard the rate and maturity amount for the new tenure."
        ),
        calls=[
            as_step("rates", Call("get_deposit_rate_card")),
            fd_maturity(amount, first),
            as_step("new quote", fd_maturity(amount, second)),
            as_step(
                "booking",
                create_fd(account["account_number"], amount, second, after=("rates", "new quote")),
            ),
        ],
        outputs=[Out("maturity amount", "amount", result("new quote", "maturity_amount"))],
        disclosures=booking_quote("new quote", "booking"),
    )
