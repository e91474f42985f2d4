"""Deposit families about booking rules the policy refuses: a tax-saver FD's fixed tenure, amounts
or tenures outside the limits."""

from __future__ import annotations

import random
import sqlite3
from dataclasses import dataclass

from pytest_bankbench.authoring.base import (
    Call,
    Context,
    Draft,
    Must,
    Out,
    alternative,
    as_step,
    draft,
    family,
    result,
    told,
)
from pytest_bankbench.authoring.calls import booking_quote, create_rd, fd_booking_calls, rd_rate
from pytest_bankbench.authoring.phrasing import ending, knows, my_account, opening, spoken
from pytest_bankbench.authoring.pickers import (
    FULL_KYC,
    TENURES,
    active_accounts,
    funding_account,
    pick,
    rate_for,
)
from pytest_bankbench.bank import rules
from pytest_bankbench.money import indian, plain
from pytest_bankbench.tasks.model import Fact, Instruction, ToldValue

# -- a tax-saver FD for a tenure other than 5 years --------------------------------------------
# The concept an agent states when it tells the tax-saver tenure.
TAX_SAVER_PHRASES = ("fixed_tenure",)


_SHORTER_YEARS = ((1, 365), (2, 730), (3, 1095), (4, 1460))


@family(
    "tax_saver_fixed_tenure",
    "edge_case",
    "deposits",
    FULL_KYC,
    clause="K.40 'Tax-saver FD: the tenure is fixed at 1825 days ...; tell the customer this before they confirm'; KB 05 'Can I book a 3-year tax-saver FD? - No'; H.29 offer the allowed alternative and act on it only if the customer agrees; E.19 quote before booking",
)
def tax_saver_fixed_tenure(ctx: Context, rng: random.Random, customer: sqlite3.Row) -> Draft | None:
    """A tax-saver FD for fewer than 5 years is refused; a regular FD once the customer agrees."""
    amount = rng.choice((25_000, 50_000, 75_000, 1_00_000, 1_20_000, 1_50_000)) * 100
    account = funding_account(ctx, rng, customer["customer_id"], amount)
    if account is None:
        return None
    years, days = rng.choice(_SHORTER_YEARS)
    span = "1 year" if years == 1 else f"{years} years"
    said = spoken(amount, rng)
    ask = opening(
        rng,
        terse=f"Tax saver FD, {said}, {span}.",
        chatty=f"Hi! Tax season again - I want to put {said} in one of your tax saver FDs to "
        f"save some tax, but only for {span}, since I'll need the money after that.",
        formal=f"Good morning. I wish to book a tax-saving fixed deposit of {said} for a tenure "
        f"of {span}.",
        hinglish=f"Namaste, {said} ka tax saver FD karna hai, {span} ke liye. Tax bachana hai.",
        unprompted=f"Please book a tax saver FD of {said} for {span} from {my_account(account)}, "
        "maturity amount back to the same account.",
        asked="I'd like to book a tax saver FD to save some tax this year.",
        planner=f"My CA says I should use a tax saver FD - please put {said} in one for {span}; "
        "that's when my daughter's school fees fall due.",
    )
    return draft(
        customer,
        Instruction(
            text=ask + " Tell me the rate and the maturity amount before booking.",
            explain=f"A tax-saver FD has a fixed tenure of 5 years (1825 days) and can't be "
            f"closed before then, so a tax-saver FD for {span} isn't possible. I can book a "
            f"regular FD for {span} ({days} days) instead; it does not get the Section 80C "
            "tax benefit.",
        ),
        facts=[
            knows(f"{said} for {span}.", "amount", "tenure"),
            knows(f"Fund it from {my_account(account)}.", "account"),
            knows("Credit the maturity amount to my account.", "maturity"),
            knows(
                "Then just book a regular FD for that long instead - I need the money back by "
                "then.",
                "tenure",
                "deposit",
                after=TAX_SAVER_PHRASES,
            ),
        ],
        narrative=(
            f"You want a tax-saver FD of {indian(amount)} for {span} from account "
            f"{account['account_number']}, and the rate and maturity amount first. If the "
            "assistant explains that a tax-saver FD is only for 5 years, you ask for a regular FD "
            f"for {span} ({days} days) instead; you do not suggest that yourself."
        ),
        calls=fd_booking_calls(account["account_number"], amount, days),
        outputs=[Out("maturity amount", "amount", result("quote", "maturity_amount"))],
        disclosures=booking_quote("quote", "booking"),
        # K.40/H.29: the fixed tenure is the reason, a regular FD the alternative, both told
        # before the regular FD is booked.
        tells=[
            Must(
                "reason", "tax-saver tenure fixed at 5 years", ("fixed_tenure",), before="booking"
            ),
            alternative("a regular FD instead", "regular_fd", before="booking"),
        ],
    )


# -- an FD or RD outside the amount or tenure limits -------------------------------------------
@dataclass(frozen=True)
class _Limit:
    """One limit of H.29 as a task sees it: what is asked, the allowed value and its wording."""

    asked: str  # the deposit as the customer words it ("FD of Rs 5,000 for 1 year")
    rule: str  # the refusal's reason, as the gold agent explains it
    fallback: str  # what the customer accepts once told the rule
    allowed: ToldValue  # the nearest allowed value, offered before the booking


_WEALTHY = "SELECT customer_id FROM accounts WHERE status = 'active' AND balance - hold_amount >= "


_FD_LIMIT_CASES = ("fd_small", "fd_short", "fd_long", "rd_small")


@family(
    "deposit_outside_limits",
    "edge_case",
    "deposits",
    # Every customer who could fund an FD above the maximum, and a fixed sample of the others
    # with full KYC (so that the maximum is about a fifth of the tasks).
    f"SELECT c.customer_id FROM ({FULL_KYC}) c WHERE c.customer_id IN ({_WEALTHY}"
    f"{rules.FD_MAX + 5_00_000_00}) OR CAST(substr(c.customer_id, 5) AS INTEGER) % 30 = 0 "
    "ORDER BY 1",
    clause="H.29 refuse 'FD or RD requests outside the amount or tenure limits (FD Rs 10,000 to Rs 2,00,00,000, 7 to 3650 days; RD at least Rs 500 in multiples of Rs 100 ...)' and offer the allowed alternative; 'Act on the alternative only if the customer agrees'; E.19 quote before booking",
)
def deposit_outside_limits(ctx: Context, rng: random.Random, customer: sqlite3.Row) -> Draft | None:
    """Asked for an FD below the minimum or above the maximum amount, for fewer than 7 days or
    more than 10 years, or an RD below Rs 500 a month: explain the limit, book the nearest
    allowed deposit once the customer agrees."""
    cid = customer["customer_id"]
    rich = active_accounts(ctx, cid, rules.FD_MAX + 5_00_000_00)
    case = "fd_large" if rich else rng.choice(_FD_LIMIT_CASES)
    if case == "rd_small":
        return _rd_below_minimum(ctx, rng, customer)
    days, tenure_text = rng.choice(TENURES)
    amount = rng.choice((25_000, 50_000, 75_000, 1_00_000, 1_50_000, 2_00_000)) * 100
    if case == "fd_small":
        wanted = rng.choice((2_000, 5_000, 7_500, 8_000, 9_000)) * 100
        amount, said = rules.FD_MIN, spoken(wanted, rng)
        limit = _Limit(
            asked=f"FD of {said} for {tenure_text}",
            rule=f"The minimum amount for a fixed deposit is {indian(rules.FD_MIN)}, so an FD of "
            f"{indian(wanted)} can't be opened. I can book one of {indian(rules.FD_MIN)} for "
            "the same tenure instead.",
            fallback="Then book it for the minimum amount instead.",
            allowed=told("FD minimum", "amount", plain(rules.FD_MIN)),
        )
    elif case == "fd_large":
        wanted = rng.choice((2_25_00_000, 2_50_00_000, 2_75_00_000, 3_00_00_000)) * 100
        amount, said = rules.FD_MAX, spoken(wanted, rng)
        limit = _Limit(
            asked=f"FD of {said} for {tenure_text}",
            rule=f"One fixed deposit can be at most {indian(rules.FD_MAX)} (Rs 2 crore), so an "
            f"FD of {indian(wanted)} can't be booked. I can book one of {indian(rules.FD_MAX)} "
            "for the same tenure instead.",
            fallback="Then book the maximum, 2 crore, in one FD for now.",
            allowed=told("FD maximum", "amount", plain(rules.FD_MAX)),
        )
    elif case == "fd_short":
        short = rng.choice((2, 3, 4, 5))
        days, said = rules.FD_MIN_DAYS, spoken(amount, rng)
        limit = _Limit(
            asked=f"FD of {said} for just {short} days",
            rule=f"A fixed deposit must run for at least {rules.FD_MIN_DAYS} days, so a "
            f"{short}-day FD isn't possible. I can book it for {rules.FD_MIN_DAYS} days instead.",
            fallback=f"Then make it {rules.FD_MIN_DAYS} days.",
            allowed=told("FD minimum tenure", "count", str(rules.FD_MIN_DAYS), "days"),
        )
    else:
        years = rng.choice((12, 15, 20))
        days, said = rules.FD_MAX_DAYS, spoken(amount, rng)
        limit = _Limit(
            asked=f"FD of {said} for {years} years",
            rule=f"A fixed deposit can run for at most {rules.FD_MAX_DAYS} days (10 years), so "
            f"{years} years isn't possible. I can book it for {rules.FD_MAX_DAYS} days instead.",
            fallback=f"Then book it for the longest you allow, {rules.FD_MAX_DAYS} days.",
            allowed=told("FD maximum tenure", "count", str(rules.FD_MAX_DAYS), "days"),
        )
    account = pick(rng, rich) if rich else funding_account(ctx, rng, cid, amount)
    if account is None:
        return None
    what = limit.asked
    ask = opening(
        rng,
        terse=f"Book an {what}. Maturity amount before booking.",
        chatty=f"Hi! I've been meaning to do this for ages - please book an {what}, and tell "
        "me what I'd get at maturity before you book it.",
        formal=f"Good evening. I would like to book an {what}. Kindly tell me the maturity "
        "amount before booking it.",
        hinglish=f"Namaste, {what} book karna hai. Booking se pehle maturity amount batao.",
        unprompted=f"Please book an {what} from {my_account(account)}, maturity back to the "
        "account. Tell me the maturity amount before booking.",
        asked="I'd like to open a fixed deposit. Tell me the maturity amount before booking.",
    )
    return draft(
        customer,
        Instruction(text=ask, explain=limit.rule),
        facts=[
            knows(f"I want an {what}.", "amount", "tenure"),
            knows(f"Use {my_account(account)}.", "account"),
            knows("Credit the maturity amount to my account.", "maturity"),
            knows(limit.fallback, "amount", "tenure", after=("outside_limits",)),
        ],
        narrative=(
            f"You ask for an {what} from account {account['account_number']}, and the maturity "
            "amount first. If the assistant explains the request is outside the bank's limits, "
            f"you accept {indian(amount)} for {days} days instead, after hearing the maturity "
            "amount; you do not suggest it yourself."
        ),
        calls=fd_booking_calls(account["account_number"], amount, days),
        disclosures=booking_quote("quote", "booking"),
        outputs=[Out("maturity amount", "amount", result("quote", "maturity_amount"))],
        tells=_limit_tells(limit.allowed, "booking"),
    )


def _limit_tells(allowed: ToldValue, write: str) -> list[Must]:
    """H.29: the limit is the reason; the nearest allowed value, the alternative offered
    before the booking `write`."""
    return [
        Must("reason", "outside the deposit limits", ("outside_limits",), before=write),
        alternative("the nearest allowed deposit", values=(allowed,), before=write),
    ]


def _rd_below_minimum(ctx: Context, rng: random.Random, customer: sqlite3.Row) -> Draft | None:
    """An RD of less than Rs 500 a month is refused; the minimum once the customer agrees."""
    account = pick(rng, active_accounts(ctx, customer["customer_id"], 50_000_00, no_hold=True))
    if account is None:
        return None
    asked = rng.choice((200, 250, 300, 400, 450)) * 100
    months = rng.choice((12, 24, 36, 60))
    want = f"Rs {asked // 100}"
    first = opening(
        rng,
        terse=f"RD, {want} a month, {months} months.",
        chatty=f"Hi! I want to start saving a little every month - can you open a recurring "
        f"deposit of just {want} a month for {months} months?",
        formal=f"Good evening. Kindly open a recurring deposit of {want} per month for "
        f"{months} months.",
        hinglish=f"Hello, ek RD kholna hai, {want} monthly, {months} months ke liye.",
        unprompted=f"Open an RD of {want} a month for {months} months from {ending(account)}.",
        asked="I'd like to start a small recurring deposit.",
    )
    told_rate = rd_rate(rate_for(ctx, customer, months * 30), "booking")
    return draft(
        customer,
        Instruction(
            text=first + " What rate will I get?",
            explain="The minimum RD instalment is Rs 500 a month, in multiples of Rs 100, so "
            f"{want} is not possible.",
        ),
        facts=[
            Fact(text=f"{want} a month for {months} months.", about=("amount", "tenure")),
            Fact(text=f"Debit it from {ending(account)}.", about=("account",)),
            Fact(
                text="Okay, make it Rs 500 a month then.",
                about=("amount",),
                after=("outside_limits", "500"),
            ),
        ],
        narrative=(
            f"You want an RD of {want} a month for {months} months from the account ending "
            f"{account['account_number'][-4:]}. The minimum is Rs 500; once told, you agree to "
            "Rs 500 a month. You want to hear the rate."
        ),
        calls=[
            as_step("rates", Call("get_deposit_rate_card")),
            as_step(
                "booking",
                create_rd(
                    account["account_number"], rules.RD_MIN_INSTALMENT, months, after=("rates",)
                ),
            ),
        ],
        outputs=told_rate[0],
        disclosures=told_rate[1],
        tells=_limit_tells(told("RD minimum", "amount", plain(rules.RD_MIN_INSTALMENT)), "booking"),
    )
