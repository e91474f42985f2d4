"""Loan families about closing a loan: foreclosure, foreclosure to free an FD's lien, a personal
loan's lock-in."""

from __future__ import annotations

import random
import sqlite3
from datetime import date
from decimal import Decimal

from pytest_bankbench.authoring import base, calls, phrasing, pickers, terms
from pytest_bankbench.authoring.base import Call, Context, Draft, Tell, draft, family
from pytest_bankbench.bank import rules
from pytest_bankbench.tasks.model import Instruction

# Customers with an active loan out of lock-in and an account that could pay it off (the maker
# checks the exact foreclosure amount for the task date).
_FORECLOSABLE = (
    "SELECT DISTINCT l.customer_id FROM loans l JOIN accounts a USING (customer_id) "
    f"WHERE l.status = 'active' AND {pickers.FREE_LOAN} "
    f"AND {pickers.AVAILABLE} >= l.outstanding * 11 / 10"
)


def _foreclosure_total(ctx: Context, loan: sqlite3.Row) -> int:
    """The amount foreclose_loan will debit on the task date."""
    return rules.foreclosure(
        int(loan["outstanding"]),
        Decimal(loan["rate"]),
        loan["loan_type"],
        date.fromisoformat(loan["last_emi_date"]),
        ctx.today,
    ).total


def _foreclosure_payer(ctx: Context, rng: random.Random, loan: sqlite3.Row) -> sqlite3.Row | None:
    """An account (the customer's choice, drawn with the rng) that can pay off a loan out of
    lock-in today, or None."""
    return (
        pickers.pick_payer(ctx, rng, loan, _foreclosure_total(ctx, loan))
        if pickers.free_to_close(loan)
        else None
    )


@family(_FORECLOSABLE)
def loan_foreclosure(ctx: Context, rng: random.Random, customer: sqlite3.Row) -> Draft | None:
    """Quote before commit: details, foreclosure quote and the paying account's balance first."""
    loans = pickers.customer_loans(ctx, customer["customer_id"])
    options = []
    for loan in loans:
        payer = _foreclosure_payer(ctx, rng, loan)
        if payer is not None:
            options.append((loan, payer))
    if not options:
        return None
    loan, payer = rng.choice(options)
    name = pickers.loan_name(loan, loans)
    ask = phrasing.opening_text(rng, "loan_foreclosure", **pickers.loan_words(loan, name, payer))
    return draft(
        customer,
        ask,
        facts=[pickers.debit_fact(payer), pickers.loan_fact(loan)],
        narrative=(
            f"You want to foreclose your {name} today, paying from account "
            f"{payer['account_number']}. You first want the total payable with all charges; "
            "after hearing it you agree."
        ),
        calls=_foreclosure_steps(loan, payer),
        outputs=[base.Out("total payable", "amount", base.result("quote", "total_payable"))],
        disclosures=foreclosure_terms("quote", "foreclose"),
    )


def _foreclosure_steps(loan: sqlite3.Row, payer: sqlite3.Row) -> list[Call]:
    """The gold steps of a foreclosure as E.21 orders them: the loan the customer named, its
    quote ("quote"), then the foreclosure paid from `payer` ("foreclose")."""
    return [
        calls.find_loan(loan),
        base.as_step("quote", calls.foreclosure_quote(loan)),
        base.as_step("foreclose", calls.foreclose(loan, payer, after=("quote",))),
    ]


def foreclosure_terms(quote: str, write: str) -> list[Tell]:
    """Policy E.21: outstanding, accrued interest, charge and total are told before foreclosing."""
    return [
        Tell(write, "outstanding principal", "amount", base.result(quote, "outstanding")),
        # A nil one too, as "no interest has accrued" or "interest accrued: nil" (said of it).
        Tell(
            write,
            "interest accrued",
            "amount",
            base.result(quote, "accrued_interest"),
            unit="interest",
        ),
        # A nil charge (home and gold loans) is told too: "there is no foreclosure charge".
        Tell(write, "foreclosure charge", "amount", base.result(quote, "foreclosure_charge")),
        Tell(write, "total payable", "amount", base.result(quote, "total_payable")),
    ]


@family(
    "SELECT DISTINCT l.customer_id FROM loans l JOIN deposits d ON d.lien_loan_id = l.loan_id "
    "JOIN accounts a ON a.customer_id = l.customer_id WHERE d.status = 'active' AND "
    f"d.deposit_type = 'fd' AND l.status = 'active' AND {pickers.FREE_LOAN} AND "
    f"{pickers.AVAILABLE} >= l.outstanding * 11 / 10"
)
def foreclose_then_close_fd(
    ctx: Context, rng: random.Random, customer: sqlite3.Row
) -> Draft | None:
    """Numbered: foreclose the loan (releasing the lien), then close the FD that secured it."""
    loans = pickers.customer_loans(ctx, customer["customer_id"])
    options: list[tuple[sqlite3.Row, sqlite3.Row, sqlite3.Row]] = []
    for loan in loans:
        payer = _foreclosure_payer(ctx, rng, loan)
        if payer is None:
            continue
        fds = ctx.all(
            "SELECT * FROM deposits WHERE lien_loan_id = ? AND status = 'active' AND "
            "deposit_type = 'fd' AND start_date <= ? ORDER BY start_date, deposit_id",
            loan["loan_id"],
            ctx.today.isoformat(),
        )
        options.extend((loan, payer, fd) for fd in fds)
    if not options:
        return None
    loan, payer, fd = rng.choice(options)
    names = pickers.fd_names(ctx, fd)
    if not names:
        return None
    name = pickers.loan_name(loan, loans)
    fd_name = rng.choice(names)
    return draft(
        customer,
        *phrasing.opening_requests(
            rng, "foreclose_then_close_fd", 2, fd=fd_name, **pickers.loan_words(loan, name, payer)
        ),
        facts=[
            pickers.debit_fact(payer),
            pickers.loan_fact(loan),
            phrasing.knows(f"The FD pledged for the loan is {fd_name}.", "deposit"),
        ],
        narrative=(
            f"First you want your {name} foreclosed from account {payer['account_number']} "
            f"after hearing the total payable. Then you want {phrasing.yours(fd_name)}, which was "
            "under lien for the loan, closed early; you want to hear its payout."
        ),
        calls=[
            *_foreclosure_steps(loan, payer),
            base.as_step("fd quote", calls.closure_quote(fd, after=("foreclose",), instruction=1)),
            base.as_step("close fd", calls.closure(fd, after=("fd quote",), instruction=1)),
        ],
        outputs=[
            base.Out("total payable", "amount", base.result("quote", "total_payable")),
            base.Out("FD payout", "amount", base.result("close fd", "payout"), 1),
        ],
        disclosures=foreclosure_terms("quote", "foreclose")
        + terms.closure_terms("fd quote", "close fd"),
    )


# The concept an agent states when it tells the personal-loan lock-in.
LOCK_IN_PHRASES = ("lock_in",)


@family(
    "SELECT DISTINCT customer_id FROM loans WHERE loan_type = 'personal' AND status = 'active' "
    "AND emis_paid < 12"
)
def personal_loan_lock_in(ctx: Context, rng: random.Random, customer: sqlite3.Row) -> Draft | None:
    """Refuse to foreclose a personal loan in lock-in; tell how many EMIs have been paid."""
    picked = pickers.pick_loan(ctx, rng, customer, lambda loan: not pickers.free_to_close(loan))
    if picked is None:
        return None
    loan, name = picked
    return draft(
        customer,
        Instruction(
            text=phrasing.opening_text(
                rng, "personal_loan_lock_in", **pickers.loan_words(loan, name)
            ),
            decline="No, I'll wait then.",
            explain="Personal loans have a lock-in period: they can't be foreclosed or prepaid "
            "until 12 EMIs have been paid, so I can't close this loan yet.",
        ),
        facts=[
            pickers.loan_fact(loan),
            phrasing.knows("I'd pay from my savings account.", "account"),
            phrasing.knows("Then how many EMIs have I paid so far?", "loan", after=LOCK_IN_PHRASES),
        ],
        narrative=(
            f"You want to foreclose your {name}, on which {loan['emis_paid']} EMIs have been "
            "paid. If it is not allowed you want to know why, then how many EMIs you have "
            "paid, and then you accept waiting."
        ),
        # The loan's EMIs paid and the policy's lock-in decide it: no quote is needed to refuse.
        calls=[
            calls.find_loan(loan),
            base.as_step("details", calls.loan_details(loan, fields=("emis_paid",))),
        ],
        outputs=[
            base.Out(
                "EMIs paid", "count", base.record("loan", loan["loan_id"], "emis_paid"), unit="EMIs"
            )
        ],
        tells=[base.reason("personal-loan lock-in", "lock_in", record=loan["loan_id"])],
    )
