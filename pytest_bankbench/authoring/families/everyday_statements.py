"""Everyday families about account statements: a period, and one longer than the policy's twelve
months."""

from __future__ import annotations

import random
import sqlite3
from datetime import date

from pytest_bankbench.authoring.base import (
    Context,
    Draft,
    as_step,
    draft,
    family,
    reason,
)
from pytest_bankbench.authoring.calls import (
    find_account,
    listed,
    statement,
)
from pytest_bankbench.authoring.phrasing import (
    desi,
    ending,
    knows,
    last4,
    long_date,
    my_account,
    opening,
    say,
)
from pytest_bankbench.authoring.pickers import active_accounts, pick
from pytest_bankbench.bank import rules
from pytest_bankbench.tasks.model import Instruction


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


# -- statement_over_twelve_months ------------------------------------------------------------------

# The concept an agent states when it tells the longest statement period.
TWELVE_MONTHS = ("period_too_long",)


def _fallbacks(start: date, today: date) -> list[tuple[date, date, str]]:
    """Periods of up to 12 months inside start..today the customer may settle for."""
    latest = rules.add_months(today, -12)
    out = [
        (
            latest,
            today,
            f"Then just send the latest 12 months, from {long_date(latest)} to {long_date(today)}.",
        )
    ]
    fy_end = date(today.year if today.month > 3 else today.year - 1, 3, 31)
    fy_start = date(fy_end.year - 1, 4, 1)
    if start <= fy_start:
        out.append(
            (
                fy_start,
                fy_end,
                f"Then make it the last financial year, {long_date(fy_start)} to "
                f"{long_date(fy_end)}.",
            )
        )
    year = today.year - 1
    if start <= date(year, 1, 1):
        out.append(
            (
                date(year, 1, 1),
                date(year, 12, 31),
                f"Then make it calendar year {year}: 1 January {year} to 31 December {year}.",
            )
        )
    return out


@family(
    "statement_over_twelve_months",
    "rare_tool",
    "everyday",
    "SELECT DISTINCT customer_id FROM accounts WHERE status = 'active' ORDER BY 1",
    clause="K.44 'Statement requests: any period of up to 12 months within the last 5 years, ending no later than today, by email (registered email) or post (registered address)'; H.29 explain the rule, act on the alternative only if the customer agrees",
)
def statement_over_twelve_months(
    ctx: Context, rng: random.Random, customer: sqlite3.Row
) -> Draft | None:
    """A statement over more than 12 months is refused; request the period the customer settles for."""
    account = pick(rng, active_accounts(ctx, customer["customer_id"]))
    if account is None:
        return None
    today = ctx.today
    start = rules.add_months(today, -rng.choice((15, 18, 20, 24, 30, 36))).replace(day=1)
    delivery = rng.choice(("email", "post"))
    by = "by email" if delivery == "email" else "by post"
    begin, end, fallback = rng.choice(_fallbacks(start, today))
    period = f"from {long_date(start)} to today"
    text = opening(
        rng,
        terse=f"Statement of {ending(account)} {period}, {by}.",
        chatty=f"Hi! I'm applying for a home loan and the bank there wants all my statements, "
        f"so please send me a statement of {ending(account)} {period}, {by}.",
        formal=f"Good morning. Could you please arrange a statement of {ending(account)} for the "
        f"period {period} ({long_date(today)}), sent {by}?",
        hinglish=f"Namaste, mujhe apne {account['account_type']} account ending {last4(account)} "
        f"ka statement chahiye {period}, {by} bhej do please.",
        unprompted=f"Hello, please request a statement of {ending(account)} {period}, {by} to "
        "my registered details. I need it for a visa application.",
        asked=f"Hi, I need an account statement {period}.",
    )
    return draft(
        customer,
        Instruction(
            text=text,
            explain="I'm afraid I cannot request that period: a single statement can cover at "
            "most 12 months.",
        ),
        facts=[
            knows(f"It's for {my_account(account)}.", "account"),
            knows(f"Send it {by}.", "delivery"),
            knows(fallback, "period", "date", after=TWELVE_MONTHS),
        ],
        narrative=(
            f"You want a statement of account {account['account_number']} from "
            f"{start.isoformat()} to today, delivered {by}. Once told a statement can cover at "
            f"most 12 months, you settle for {begin.isoformat()} to {end.isoformat()}."
        ),
        # The account is looked up (its state), not its type: any result showing it will do.
        calls=[
            as_step(
                "account",
                listed("list_accounts", "account", account["account_number"], ("status",)),
            ),
            statement(account["account_number"], begin, end, delivery, after=("account",)),
        ],
        tells=[reason("longest statement period", "period_too_long")],
    )
