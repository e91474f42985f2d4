"""Everyday families about account statements: a period, and one longer than the policy's twelve
months."""

from __future__ import annotations

import random
import sqlite3
from datetime import date

from pytest_bankbench.authoring import base, calls, phrasing, pickers
from pytest_bankbench.authoring.base import Context, Draft, draft, family
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


@family("SELECT customer_id FROM customers ORDER BY 1")
def statement_request(ctx: Context, rng: random.Random, customer: sqlite3.Row) -> Draft | None:
    """Request a statement for an explicit period and delivery."""
    account = rng.choice(pickers.customer_accounts(ctx, customer["customer_id"]))
    start, end = _statement_period(rng, ctx.today)
    delivery = rng.choice(("email", "post"))
    by = (
        phrasing.say(rng, "by email", "to my registered email")
        if delivery == "email"
        else phrasing.say(rng, "by post", "posted to my registered address")
    )
    since, until = phrasing.long_date(start), phrasing.long_date(end)
    return draft(
        customer,
        phrasing.opening_text(
            rng,
            "statement_request",
            since=since,
            until=until,
            by=by,
            **phrasing.account_words(account),
        ),
        facts=[
            pickers.request_fact(account),
            phrasing.knows(f"From {since} to {until}.", "period", "date"),
            phrasing.knows(f"Send it {by}.", "delivery"),
        ],
        narrative=(
            f"You want a statement of account {account['account_number']} for "
            f"{start.isoformat()} to {end.isoformat()}, delivered by {delivery}."
        ),
        calls=[
            calls.find_account(account),
            calls.statement(account["account_number"], start, end, delivery),
        ],
    )


# -- statement_over_twelve_months --------------------------------------------------------------

# The concept an agent states when it tells the longest statement period.
TWELVE_MONTHS = ("period_too_long",)


def _fallbacks(start: date, today: date) -> list[tuple[date, date, str]]:
    """Periods of up to 12 months inside start..today the customer may settle for."""
    latest = rules.add_months(today, -12)
    out = [
        (
            latest,
            today,
            f"Then just send the latest 12 months, from {phrasing.long_date(latest)} to "
            f"{phrasing.long_date(today)}.",
        )
    ]
    fy_end = date(today.year if today.month > 3 else today.year - 1, 3, 31)
    fy_start = date(fy_end.year - 1, 4, 1)
    if start <= fy_start:
        out.append(
            (
                fy_start,
                fy_end,
                f"Then make it the last financial year, {phrasing.long_date(fy_start)} to "
                f"{phrasing.long_date(fy_end)}.",
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


@family("SELECT DISTINCT customer_id FROM accounts WHERE status = 'active' ORDER BY 1")
def statement_over_twelve_months(
    ctx: Context, rng: random.Random, customer: sqlite3.Row
) -> Draft | None:
    """A statement over more than 12 months is refused; request the period the customer
    settles for."""
    account = pickers.pick(rng, pickers.active_accounts(ctx, customer["customer_id"]))
    if account is None:
        return None
    today = ctx.today
    start = rules.add_months(today, -rng.choice((15, 18, 20, 24, 30, 36))).replace(day=1)
    delivery = rng.choice(("email", "post"))
    by = "by email" if delivery == "email" else "by post"
    begin, end, fallback = rng.choice(_fallbacks(start, today))
    period = f"from {phrasing.long_date(start)} to today"
    text = phrasing.opening_text(
        rng,
        "statement_over_twelve_months",
        period=period,
        today=phrasing.long_date(today),
        by=by,
        **phrasing.account_words(account),
    )
    return draft(
        customer,
        Instruction(
            text=text,
            explain="I'm afraid I cannot request that period: a single statement can cover at "
            "most 12 months.",
        ),
        facts=[
            pickers.request_fact(account),
            phrasing.knows(f"Send it {by}.", "delivery"),
            phrasing.knows(fallback, "period", "date", after=TWELVE_MONTHS),
        ],
        narrative=(
            f"You want a statement of account {account['account_number']} from "
            f"{start.isoformat()} to today, delivered {by}. Once told a statement can cover at "
            f"most 12 months, you settle for {begin.isoformat()} to {end.isoformat()}."
        ),
        calls=[
            base.as_step("account", calls.find_account(account)),
            calls.statement(account["account_number"], begin, end, delivery, after=("account",)),
        ],
        tells=[base.reason("longest statement period", "period_too_long")],
    )
