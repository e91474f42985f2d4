"""Deposit families about booking rules the policy refuses: a tax-saver FD's fixed tenure, amounts
or tenures outside the limits."""

from __future__ import annotations

import random
import sqlite3
from dataclasses import dataclass

from pytest_bankbench.authoring import base, calls, phrasing, pickers, terms
from pytest_bankbench.authoring.base import Context, Draft, Must, draft, family
from pytest_bankbench.bank import rules
from pytest_bankbench.money import indian, plain
from pytest_bankbench.tasks.model import Instruction

# -- a tax-saver FD for a tenure other than 5 years --------------------------------------------
_SHORTER_YEARS = ((1, 365), (2, 730), (3, 1095), (4, 1460))


@family(pickers.FULL_KYC)
def tax_saver_fixed_tenure(ctx: Context, rng: random.Random, customer: sqlite3.Row) -> Draft | None:
    """A tax-saver FD for fewer than 5 years is refused; a regular FD once the customer agrees."""
    amount = rng.choice((25_000, 50_000, 75_000, 1_00_000, 1_20_000, 1_50_000)) * 100
    account = pickers.funding_account(ctx, rng, customer["customer_id"], amount)
    if account is None:
        return None
    years, days = rng.choice(_SHORTER_YEARS)
    span = "1 year" if years == 1 else f"{years} years"
    said = phrasing.spoken(amount, rng)
    mine = phrasing.my_account(account)
    ask = phrasing.opening_text(rng, "tax_saver_fixed_tenure", said=said, span=span, mine=mine)
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
            phrasing.knows(f"{said} for {span}.", "amount", "tenure"),
            *pickers.fd_funding_facts(mine),
            phrasing.knows(
                "Then just book a regular FD for that long instead - I need the money back by "
                "then.",
                "tenure",
                "deposit",
                after=("fixed_tenure",),
            ),
        ],
        narrative=(
            f"You want a tax-saver FD of {indian(amount)} for {span} from account "
            f"{account['account_number']}, and the rate and maturity amount first. If the "
            "assistant explains that a tax-saver FD is only for 5 years, you ask for a regular FD "
            f"for {span} ({days} days) instead; you do not suggest that yourself."
        ),
        calls=calls.fd_booking_calls(account["account_number"], amount, days),
        outputs=[base.Out("maturity amount", "amount", base.result("quote", "maturity_amount"))],
        disclosures=terms.booking_quote("quote", "booking"),
        # K.40/H.29: the fixed tenure is the reason, a regular FD the alternative, both told
        # before the regular FD is booked.
        tells=[
            base.Must(
                "reason", "tax-saver tenure fixed at 5 years", ("fixed_tenure",), before="booking"
            ),
            base.alternative("a regular FD instead", "regular_fd", before="booking"),
        ],
    )


# -- an FD or RD outside the amount or tenure limits -------------------------------------------
@dataclass(frozen=True)
class _Limit:
    """One limit of H.29 as a task sees it: what is asked, the allowed value and its wording."""

    asked: str  # the deposit as the customer words it ("FD of Rs 5,000 for 1 year")
    rule: str  # the refusal's reason, as the gold agent explains it
    fallback: str  # what the customer accepts once told the rule
    allowed: base.Say  # the nearest allowed value, offered before the booking


@dataclass(frozen=True)
class _Bound:
    """One FD limit of H.29: what the customer asks for beyond it, and the wording of the
    refusal ({wanted}, the value asked; {limit}, the limit) and of the customer's fallback."""

    amount: bool  # an amount limit (choices in rupees, limit in paise), else a tenure (days)
    limit: int  # the nearest allowed value, booked instead
    choices: tuple[int, ...]  # the values asked for: rupees, or days or years as `asked` says
    label: str  # the allowed value's label, told as the alternative
    asked: str  # the deposit asked for: {said} the amount as said, {tenure} its tenure
    rule: str
    fallback: str
    near: str  # the words of H.29 the limit follows


# The FD limits by case, each _Bound's fields in order: amount, limit, choices, label, asked,
# rule, fallback, near.
_BOUNDS = {
    "fd_small": _Bound(
        True,
        rules.FD_MIN,
        (2_000, 5_000, 7_500, 8_000, 9_000),
        "FD minimum",
        "FD of {said} for {tenure}",
        "The minimum amount for a fixed deposit is {limit}, so an FD of {wanted} can't be "
        "opened. I can book one of {limit} for the same tenure instead.",
        "Then book it for the minimum amount instead.",
        "limits (FD",
    ),
    "fd_large": _Bound(
        True,
        rules.FD_MAX,
        (2_25_00_000, 2_50_00_000, 2_75_00_000, 3_00_00_000),
        "FD maximum",
        "FD of {said} for {tenure}",
        "One fixed deposit can be at most {limit} (Rs 2 crore), so an FD of {wanted} can't be "
        "booked. I can book one of {limit} for the same tenure instead.",
        "Then book the maximum, 2 crore, in one FD for now.",
        "Rs 10,000 to",
    ),
    "fd_short": _Bound(
        False,
        rules.FD_MIN_DAYS,
        (2, 3, 4, 5),
        "FD minimum tenure",
        "FD of {said} for just {wanted} days",
        "A fixed deposit must run for at least {limit} days, so a {wanted}-day FD isn't "
        "possible. I can book it for {limit} days instead.",
        "Then make it {limit} days.",
        "Rs 2,00,00,000,",
    ),
    "fd_long": _Bound(
        False,
        rules.FD_MAX_DAYS,
        (12, 15, 20),
        "FD maximum tenure",
        "FD of {said} for {wanted} years",
        "A fixed deposit can run for at most {limit} days (10 years), so {wanted} years isn't "
        "possible. I can book it for {limit} days instead.",
        "Then book it for the longest you allow, {limit} days.",
        "Rs 2,00,00,000, 7 to",
    ),
}


def _beyond(
    rng: random.Random, bound: _Bound, amount: int, days: int, tenure: str
) -> tuple[int, int, _Limit]:
    """An FD of `amount` for `days` (`tenure`) asked for with one value beyond `bound`: the
    amount and days of the nearest allowed FD, and the limit as the task tells it."""
    wanted = rng.choice(bound.choices)
    if bound.amount:
        said = phrasing.spoken(wanted * 100, rng)
        words = {"wanted": indian(wanted * 100), "limit": indian(bound.limit)}
        allowed = base.told(
            bound.label, "amount", base.known(plain(bound.limit), base.clause("H.29", bound.near))
        )
        amount = bound.limit
    else:
        said = phrasing.spoken(amount, rng)
        words = {"wanted": str(wanted), "limit": str(bound.limit)}
        allowed = base.told(
            bound.label,
            "count",
            base.known(str(bound.limit), base.clause("H.29", bound.near)),
            "days",
        )
        days = bound.limit
    return (
        amount,
        days,
        _Limit(
            asked=bound.asked.format(said=said, tenure=tenure, **words),
            rule=bound.rule.format(**words),
            fallback=bound.fallback.format(**words),
            allowed=allowed,
        ),
    )


_WEALTHY = "SELECT customer_id FROM accounts WHERE status = 'active' AND balance - hold_amount >= "


_FD_LIMIT_CASES = ("fd_small", "fd_short", "fd_long", "rd_small")


@family(
    f"SELECT c.customer_id FROM ({pickers.FULL_KYC}) c WHERE c.customer_id IN ({_WEALTHY}"
    f"{rules.FD_MAX + 5_00_000_00}) OR CAST(substr(c.customer_id, 5) AS INTEGER) % 30 = 0 "
    "ORDER BY 1"
)
def deposit_outside_limits(ctx: Context, rng: random.Random, customer: sqlite3.Row) -> Draft | None:
    """Asked for an FD below the minimum or above the maximum amount, for fewer than 7 days or
    more than 10 years, or an RD below Rs 500 a month: explain the limit, book the nearest
    allowed deposit once the customer agrees."""
    cid = customer["customer_id"]
    rich = pickers.active_accounts(ctx, cid, rules.FD_MAX + 5_00_000_00)
    case = "fd_large" if rich else rng.choice(_FD_LIMIT_CASES)
    if case == "rd_small":
        return _rd_below_minimum(ctx, rng, customer)
    days, tenure_text = rng.choice(pickers.TENURES)
    amount = rng.choice((25_000, 50_000, 75_000, 1_00_000, 1_50_000, 2_00_000)) * 100
    amount, days, limit = _beyond(rng, _BOUNDS[case], amount, days, tenure_text)
    account = pickers.pick(rng, rich) if rich else pickers.funding_account(ctx, rng, cid, amount)
    if account is None:
        return None
    what = limit.asked
    mine = phrasing.my_account(account)
    ask = phrasing.opening_text(rng, "deposit_outside_limits/fd", what=what, mine=mine)
    return draft(
        customer,
        Instruction(text=ask, explain=limit.rule),
        facts=[
            phrasing.knows(f"I want an {what}.", "amount", "tenure"),
            phrasing.knows(f"Use {mine}.", "account"),
            phrasing.knows("Credit the maturity amount to my account.", "maturity"),
            phrasing.knows(limit.fallback, "amount", "tenure", after=("outside_limits",)),
        ],
        narrative=(
            f"You ask for an {what} from account {account['account_number']}, and the maturity "
            "amount first. If the assistant explains the request is outside the bank's limits, "
            f"you accept {indian(amount)} for {days} days instead, after hearing the maturity "
            "amount; you do not suggest it yourself."
        ),
        calls=calls.fd_booking_calls(account["account_number"], amount, days),
        disclosures=terms.booking_quote("quote", "booking"),
        outputs=[base.Out("maturity amount", "amount", base.result("quote", "maturity_amount"))],
        tells=_limit_tells(limit.allowed, "booking"),
    )


def _limit_tells(allowed: base.Say, write: str) -> list[Must]:
    """H.29: the limit is the reason; the nearest allowed value, the alternative offered
    before the booking `write`."""
    return [
        base.Must("reason", "outside the deposit limits", ("outside_limits",), before=write),
        base.alternative("the nearest allowed deposit", values=(allowed,), before=write),
    ]


def _rd_below_minimum(ctx: Context, rng: random.Random, customer: sqlite3.Row) -> Draft | None:
    """An RD of less than Rs 500 a month is refused; the minimum once the customer agrees."""
    account = pickers.pick(
        rng, pickers.active_accounts(ctx, customer["customer_id"], 50_000_00, no_hold=True)
    )
    if account is None:
        return None
    asked = rng.choice((200, 250, 300, 400, 450)) * 100
    months = rng.choice((12, 24, 36, 60))
    want = f"Rs {asked // 100}"
    named = phrasing.ending(account)
    first = phrasing.opening_text(
        rng, "deposit_outside_limits/rd", want=want, months=months, named=named
    )
    told_rate = terms.rd_rate(months, "booking")
    return draft(
        customer,
        Instruction(
            text=first + " What rate will I get?",
            explain="The minimum RD instalment is Rs 500 a month, in multiples of Rs 100, so "
            f"{want} is not possible.",
        ),
        facts=[
            phrasing.knows(f"{want} a month for {months} months.", "amount", "tenure"),
            phrasing.knows(f"Debit it from {named}.", "account"),
            phrasing.knows(
                "Okay, make it Rs 500 a month then.", "amount", after=("outside_limits", "500")
            ),
        ],
        narrative=(
            f"You want an RD of {want} a month for {months} months from the account ending "
            f"{account['account_number'][-4:]}. The minimum is Rs 500; once told, you agree to "
            "Rs 500 a month. You want to hear the rate."
        ),
        calls=calls.rd_booking_calls(account["account_number"], rules.RD_MIN_INSTALMENT, months),
        outputs=told_rate[0],
        disclosures=told_rate[1],
        tells=_limit_tells(
            base.told(
                "RD minimum",
                "amount",
                base.known(plain(rules.RD_MIN_INSTALMENT), base.clause("H.29", "RD at least")),
            ),
            "booking",
        ),
    )
