"""Deposit families about booking: an FD (its rate, a tenure in months, a changed quote), an RD, a
KYC block."""

from __future__ import annotations

import random
import sqlite3

from pytest_bankbench.authoring import base, calls, phrasing, pickers, terms
from pytest_bankbench.authoring.base import Context, Draft, draft, family
from pytest_bankbench.bank import rules
from pytest_bankbench.money import indian
from pytest_bankbench.tasks.model import Instruction

# The FD amounts (rupees) a customer books or asks about.
_FD_AMOUNTS = (25_000, 50_000, 75_000, 1_00_000, 1_50_000, 2_00_000, 3_00_000)


def _funded_full_kyc(need: int) -> str:
    """Customers with full KYC and an active account without a hold holding `need` paise."""
    return (
        "SELECT c.customer_id FROM customers c JOIN accounts a USING (customer_id) "
        f"WHERE c.kyc_status = 'full' AND {pickers.unheld(need)} GROUP BY c.customer_id ORDER BY 1"
    )


KYC_STATUSES = ("full", "pending", "expired")


@family("SELECT customer_id FROM customers WHERE kyc_status <> 'full'")
def kyc_blocks_new_fd(ctx: Context, rng: random.Random, customer: sqlite3.Row) -> Draft | None:
    """No new FD without full KYC: check the profile, quote if asked, book nothing."""
    amount = rng.choice(_FD_AMOUNTS) * 100
    days, tenure_text = rng.choice(pickers.TENURES)
    said = phrasing.spoken(amount, rng)
    status = customer["kyc_status"]
    ask = phrasing.opening_text(rng, "kyc_blocks_new_fd", said=said, tenure=tenure_text)
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
            phrasing.knows(f"{said} for {tenure_text}.", "amount", "tenure"),
            phrasing.knows("Use my main savings account.", "account"),
            phrasing.knows("Then what is my KYC status?", "identity", after=("kyc_not_full",)),
        ],
        narrative=(
            f"You want an FD of {indian(amount)} for {days} days and its rate. Your KYC is "
            f"{status}; when told the FD cannot be opened you ask for your KYC status and "
            "accept."
        ),
        # The rate was asked; a maturity projection for a booking the policy forbids is not.
        calls=[
            base.as_step("kyc", calls.profile(customer["customer_id"], ("kyc_status",))),
            base.Call("get_deposit_rate_card"),
        ],
        outputs=[
            base.Out(
                "KYC status",
                "choice",
                base.record("customer", customer["customer_id"], "kyc_status"),
                rivals=tuple(k for k in KYC_STATUSES if k != status),
            ),
            base.Out("rate", "percent", base.rate_card(days)),
        ],
        tells=[
            base.reason("KYC not full", "kyc_not_full", record=customer["customer_id"]),
            base.alternative("re-KYC at a branch or by video KYC", "re_kyc"),
        ],
    )


@family("SELECT customer_id FROM customers")
def fd_rate_query(ctx: Context, rng: random.Random, customer: sqlite3.Row) -> Draft | None:
    """Control: the applicable rate for a tenure."""
    days, tenure_text = rng.choice(pickers.TENURES)
    return draft(
        customer,
        phrasing.opening_text(rng, "fd_rate_query", tenure=tenure_text),
        facts=[phrasing.knows(f"For {tenure_text}.", "tenure")],
        narrative=f"You only want to know the FD rate that applies to you for {days} days.",
        calls=[base.Call("get_deposit_rate_card")],
        outputs=[base.Out("rate", "percent", base.rate_card(days))],
    )


@family(pickers.FULL_KYC)
def rd_opening(ctx: Context, rng: random.Random, customer: sqlite3.Row) -> Draft | None:
    """Open a recurring deposit after checking KYC and the rate."""
    instalment = rng.choice((1_000, 2_000, 2_500, 5_000, 7_500, 10_000)) * 100
    months = rng.choice((12, 18, 24, 36, 60))
    account = pickers.funding_account(ctx, rng, customer["customer_id"], instalment)
    if account is None:
        return None
    said = phrasing.spoken(instalment, rng)
    mine = phrasing.my_account(account)
    ask = phrasing.opening_text(rng, "rd_opening", said=said, months=months, mine=mine)
    told_rate = terms.rd_rate(months, "booking")
    return draft(
        customer,
        ask,
        facts=[
            phrasing.knows(f"{said} a month for {months} months.", "amount", "tenure"),
            phrasing.knows(f"Debit the instalments from {mine}.", "account"),
        ],
        narrative=(
            f"You want an RD of {indian(instalment)} a month for {months} months from "
            f"account {account['account_number']}; ask for the rate first."
        ),
        calls=[
            calls.profile(customer["customer_id"], ("kyc_status",)),
            *calls.rd_booking_calls(account["account_number"], instalment, months),
        ],
        outputs=told_rate[0],
        disclosures=told_rate[1],
    )


# -- an FD tenure given in months -------------------------------------------------------------
@family(_funded_full_kyc(50_000_00))
def fd_tenure_in_months(ctx: Context, rng: random.Random, customer: sqlite3.Row) -> Draft | None:
    """The customer says months; the days are agreed before the quote and the booking."""
    amount = rng.choice((25_000, 50_000, 75_000, 1_00_000, 1_50_000)) * 100
    account = pickers.pick_funded(ctx, rng, customer["customer_id"], amount)
    if account is None:
        return None
    months = rng.choice((6, 9, 15, 18, 21, 27, 30))
    end = rules.add_months(ctx.today, months)
    days = (end - ctx.today).days
    what = phrasing.spoken(amount, rng)
    named = phrasing.ending(account)
    first = phrasing.opening_text(rng, "fd_tenure_in_months", said=what, months=months, named=named)
    return draft(
        customer,
        first + " Tell me the rate and the maturity amount before booking.",
        facts=[
            phrasing.knows(f"{what} for {months} months.", "amount"),
            phrasing.knows(
                f"{months} months from today is {end.day} {end:%B %Y}, so {days} days.",
                "tenure",
                "date",
                "maturity",
            ),
            *pickers.fd_funding_facts(named),
        ],
        narrative=(
            f"You want an FD of {indian(amount)} for {months} months from the account ending "
            f"{account['account_number'][-4:]}. Asked for the exact tenure, you say {days} days "
            f"(until {end.isoformat()}). You want the rate and maturity amount first."
        ),
        calls=calls.fd_booking_calls(account["account_number"], amount, days),
        outputs=[base.Out("maturity amount", "amount", base.result("quote", "maturity_amount"))],
        disclosures=terms.booking_quote("quote", "booking"),
        # C.10: "agree the exact number of days with them before quoting".
        tells=[
            base.agree(
                "tenure in days",
                base.told(
                    "tenure",
                    "count",
                    base.known(str(days), base.argument("quote", "tenure_days")),
                    unit="days",
                ),
                before="quote",
            )
        ],
    )


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


# How the customer changes the tenure at the confirmation: {first} asked, {second} wanted.
_CORRECTIONS = (
    "Actually, make it {second} instead.",
    "Hmm, on second thought, make the tenure {second} instead of {first}.",
    "Wait - change the tenure to {second}, please, not {first}.",
)


def _slab(days: int) -> int:
    return next(i for i, (low, high, _r) in enumerate(rules.FD_SLABS) if low <= days <= high)


@family(_funded_full_kyc(3_10_000_00))
def fd_quote_redo_after_change(
    ctx: Context, rng: random.Random, customer: sqlite3.Row
) -> Draft | None:
    """The tenure changes at the confirmation: project the new tenure, quote it, then book."""
    amount = rng.choice(_FD_AMOUNTS) * 100
    account = pickers.pick_funded(ctx, rng, customer["customer_id"], amount + 10_000_00)
    if account is None:
        return None
    first, first_text = rng.choice(FD_TENURES)
    second, second_text = rng.choice([t for t in FD_TENURES if _slab(t[0]) != _slab(first)])
    said = phrasing.spoken(amount, rng)
    named = phrasing.ending(account)
    text = phrasing.opening_text(
        rng, "fd_quote_redo_after_change", said=said, tenure=first_text, named=named
    )
    correction = rng.choice(_CORRECTIONS).format(first=first_text, second=second_text)
    return draft(
        customer,
        Instruction(text=text, correction=correction),
        facts=[
            phrasing.knows(f"{indian(amount)} for {first_text}.", "amount", "tenure"),
            *pickers.fd_funding_facts(
                phrasing.my_account(account), "At maturity, credit the money to my account."
            ),
        ],
        narrative=(
            f"You want an FD of {indian(amount)} from account {account['account_number']}, "
            f"maturity proceeds credited to the account. You first ask for {first} days; when "
            f"the assistant asks you to confirm, you change the tenure to {second} days. You "
            "agree once you have heard the rate and maturity amount for the new tenure."
        ),
        calls=[
            base.as_step("rates", base.Call("get_deposit_rate_card")),
            calls.fd_maturity(amount, first),
            base.as_step("new quote", calls.fd_maturity(amount, second)),
            base.as_step(
                "booking",
                calls.create_fd(
                    account["account_number"], amount, second, after=("rates", "new quote")
                ),
            ),
        ],
        outputs=[
            base.Out("maturity amount", "amount", base.result("new quote", "maturity_amount"))
        ],
        disclosures=terms.booking_quote("new quote", "booking"),
    )
