"""Deposit families about FDs the policy will not close: a lien, a tax-saver lock-in, and a later
step that needed one."""

from __future__ import annotations

import random
import sqlite3
from datetime import date

from pytest_bankbench.authoring import base, calls, phrasing, pickers
from pytest_bankbench.authoring.base import Context, Draft, draft, family
from pytest_bankbench.bank import rules
from pytest_bankbench.money import indian
from pytest_bankbench.tasks.model import Instruction

# The FDs each family refuses to close: an FD pledged for an active loan, a tax-saver FD.
_LIENED = (
    "deposit_type = 'fd' AND status = 'active' AND lien_loan_id IN "
    "(SELECT loan_id FROM loans WHERE status = 'active')"
)
_TAX_SAVER = "deposit_type = 'tax_saver_fd' AND status = 'active'"


def _holders(where: str) -> str:
    """Eligibility: the customers with a deposit matching `where`."""
    return f"SELECT DISTINCT customer_id FROM deposits WHERE {where} ORDER BY 1"


def _deposit(ctx: Context, rng: random.Random, customer: sqlite3.Row, where: str) -> sqlite3.Row:
    """One of the customer's deposits matching `where` (eligibility guarantees one)."""
    return rng.choice(
        ctx.all(
            f"SELECT * FROM deposits WHERE customer_id = ? AND {where} ORDER BY deposit_id",
            customer["customer_id"],
        )
    )


@family(_holders(_LIENED))
def fd_lien_refusal(ctx: Context, rng: random.Random, customer: sqlite3.Row) -> Draft | None:
    """Refuse closing an FD under lien; tell the outstanding of the loan it secures."""
    fd = _deposit(ctx, rng, customer, _LIENED)
    name = pickers.fd_name(ctx, rng, fd)
    if name is None:
        return None
    loan = ctx.one("SELECT loan_id, loan_type FROM loans WHERE loan_id = ?", fd["lien_loan_id"])
    label = f"{loan['loan_type']} loan"
    ask = phrasing.opening_text(rng, "fd_lien_refusal", **phrasing.fd_words(fd, name))
    return draft(
        customer,
        Instruction(
            text=ask + " If you can't, tell me why.",
            decline="No, leave everything as it is then.",
            explain=f"This FD is under lien: it is pledged as security for your {label}, so it "
            "can't be closed until the loan is repaid and the lien is released.",
        ),
        facts=[
            phrasing.knows(f"It's {name}.", "deposit"),
            phrasing.knows("Then how much do I still owe on that loan?", "loan", after=("lien",)),
        ],
        # KB 04: the lien is released once the loan is closed; that is the option to tell.
        tells=[
            base.reason("FD under lien", "lien", record=fd["deposit_id"]),
            base.alternative("close the loan first", "foreclose_first", record=fd["deposit_id"]),
        ],
        narrative=(
            f"You want {phrasing.yours(name)} closed. It secures your {label}; if the bank explains it cannot "
            "close it, you then ask how much you still owe on the loan, and end."
        ),
        calls=[
            calls.find_fd(fd),
            calls.deposit_details(fd, ("under_lien",)),
            base.as_step("loan", calls.loan_details(loan, fields=("outstanding",))),
        ],
        outputs=[
            base.Out(
                "loan outstanding", "amount", base.record("loan", loan["loan_id"], "outstanding")
            )
        ],
    )


@family(_holders(_TAX_SAVER))
def tax_saver_lock_in(ctx: Context, rng: random.Random, customer: sqlite3.Row) -> Draft | None:
    """Refuse to close a tax-saver FD early; tell the date it matures."""
    fd = _deposit(ctx, rng, customer, _TAX_SAVER)
    amount = indian(fd["principal"])
    started = f"{date.fromisoformat(fd['start_date']):%B %Y}"
    ask = phrasing.opening_text(
        rng, "tax_saver_lock_in", amount=amount, started=started, linked=fd["linked_account"]
    )
    return draft(
        customer,
        Instruction(
            text=ask + " If you can't, tell me why.",
            decline="No, then leave it.",
            explain="Tax-saver FDs have a lock-in of 5 years, so this one can't be withdrawn or "
            "closed before it matures.",
        ),
        facts=[
            phrasing.knows(f"It's my tax saver FD of {amount}, opened in {started}.", "deposit"),
            phrasing.knows(
                "Then when can I get the money?", "date", "maturity", after=("lock_in",)
            ),
        ],
        narrative=(
            f"You want to withdraw your tax-saver FD of {amount} early; if refused you ask "
            "when it matures."
        ),
        # The deposit's type shows the lock-in: no closure quote is needed to refuse.
        calls=[
            calls.find_fd(fd),
            base.as_step("details", calls.deposit_details(fd, ("deposit_type", "maturity_date"))),
        ],
        outputs=[
            base.Out(
                "maturity date", "date", base.record("deposit", fd["deposit_id"], "maturity_date")
            )
        ],
        tells=[base.reason("tax-saver lock-in", "lock_in", record=fd["deposit_id"])],
    )


# -- a later step that depended on a refused one -----------------------------------------------
# Either FD the families above refuse to close.
_REFUSED = f"(({_LIENED}) OR ({_TAX_SAVER}))"


@family(_holders(f"{_REFUSED} AND customer_id IN (SELECT customer_id FROM beneficiaries)"))
def refused_step_blocks_next(
    ctx: Context, rng: random.Random, customer: sqlite3.Row
) -> Draft | None:
    """Numbered: close an FD, then pay a payee from its payout. The FD cannot be closed, so the
    payment that depended on it is not made from other money: the customer declines that."""
    cid = customer["customer_id"]
    fd = _deposit(ctx, rng, customer, _REFUSED)
    payee = pickers.pick(rng, pickers.registered_payees(ctx, cid))
    if payee is None:
        return None
    name = pickers.fd_name(ctx, rng, fd)
    if name is None:
        return None
    locked = fd["deposit_type"] == "tax_saver_fd"
    sums = [a * 100 for a in (20_000, 25_000, 40_000, 50_000, 75_000, 1_00_000, 1_50_000)]
    amount = rng.choice([a for a in sums if a <= fd["principal"]] or [rules.FD_MIN])
    mode = rng.choice(("IMPS", "NEFT"))
    said, who = phrasing.spoken(amount, rng), payee["name"]
    if locked:
        why = "This is a tax-saver FD: it has a lock-in of 5 years and can't be closed early."
        refusal = base.reason("tax-saver lock-in", "lock_in", record=fd["deposit_id"])
    else:
        why = (
            "This FD is under lien: it is pledged as security for your loan, so it can't be "
            "closed until the loan is repaid and the lien is released."
        )
        refusal = base.reason("FD under lien", "lien", record=fd["deposit_id"])
    first, second = phrasing.opening_requests(
        rng,
        "refused_step_blocks_next",
        2,
        **phrasing.fd_words(fd, name),
        said=said,
        who=who,
        mode=mode,
    )
    facts = [
        phrasing.knows(f"It's {name}.", "deposit"),
        phrasing.knows(f"It's {said} for {who}, by {mode}.", "payee", "amount", "mode"),
    ]
    second_step = Instruction(
        text=second,
        decline="No - that money was to come from the FD, so don't send anything now.",
        explain=f"As the FD could not be closed, I have not sent the {indian(amount)} to "
        f"{who}: that payment was to come from its payout.",
    )
    return draft(
        customer,
        Instruction(
            text=first + " If you can't, tell me why.",
            decline="No, leave the FD as it is then.",
            explain=why,
        ),
        second_step,
        facts=facts,
        narrative=(
            f"First you want {phrasing.yours(name)} closed, then {indian(amount)} of the payout sent to your "
            f"payee {who} by {mode}. The FD cannot be closed ("
            + ("a tax-saver FD, locked in for 5 years" if locked else "it is under lien for a loan")
            + "). Then nothing is to be sent: the payment was to come from the FD, and you "
            "decline if offered to pay it from other money."
        ),
        # The deposit's type or lien shows the refusal: no closure quote, and no transfer.
        calls=[
            calls.find_fd(fd),
            calls.deposit_details(fd, ("deposit_type",) if locked else ("under_lien",)),
        ],
        tells=[
            refusal,
            # G.28 and J.38 on the step that depended on it: what was not done, and why.
            base.reason(
                "payment depended on the FD", "depended_on", record=fd["deposit_id"], instruction=1
            ),
        ],
    )
