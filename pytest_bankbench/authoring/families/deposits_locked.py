"""Deposit families about FDs the policy will not close: a lien, a tax-saver lock-in, and a later
step that needed one."""

from __future__ import annotations

import random
import sqlite3
from datetime import date

from pytest_bankbench.authoring.base import (
    Context,
    Draft,
    Out,
    alternative,
    as_step,
    draft,
    family,
    reason,
    record,
)
from pytest_bankbench.authoring.calls import (
    deposit_details,
    find_fd,
    loan_details,
)
from pytest_bankbench.authoring.phrasing import desi, knows, opening, spoken
from pytest_bankbench.authoring.pickers import fd_name, pick, registered_payees
from pytest_bankbench.bank import rules
from pytest_bankbench.money import indian
from pytest_bankbench.tasks.model import Instruction


def _deposit(ctx: Context, rng: random.Random, customer: sqlite3.Row, where: str) -> sqlite3.Row:
    """One of the customer's deposits matching `where` (eligibility guarantees one)."""
    return rng.choice(
        ctx.all(
            f"SELECT * FROM deposits WHERE customer_id = ? AND {where}", customer["customer_id"]
        )
    )


def _lien_loan(fd: sqlite3.Row) -> dict[str, str]:
    return {"loan_id": fd["lien_loan_id"]}


# The concept an agent states when it tells the customer an FD secures a loan.
LIEN_PHRASES = ("lien",)


@family(
    "fd_lien_refusal",
    "edge_case",
    "deposits",
    "SELECT DISTINCT d.customer_id FROM deposits d JOIN loans l ON l.loan_id = d.lien_loan_id "
    "WHERE d.status = 'active' AND l.status = 'active' AND d.deposit_type = 'fd'",
    clause="H.29 refuse 'premature closure of an FD under lien (until the loan is closed and the lien released)'; KB 04: tell the options (foreclose the loan first, or keep the FD)",
)
def fd_lien_refusal(ctx: Context, rng: random.Random, customer: sqlite3.Row) -> Draft | None:
    """Refuse closing an FD under lien; tell the outstanding of the loan it secures."""
    fd = _deposit(
        ctx, rng, customer, "lien_loan_id IS NOT NULL AND status = 'active' AND deposit_type = 'fd'"
    )
    name = fd_name(ctx, rng, fd)
    if name is None:
        return None
    loan = ctx.one("SELECT loan_type FROM loans WHERE loan_id = ?", fd["lien_loan_id"])
    label = f"{loan['loan_type']} loan"
    ask = opening(
        rng,
        terse=f"Close {name} today, credit my account.",
        chatty=f"Hi! The roof is leaking and I need cash for repairs, so please close {name} "
        "today and put the money in my account.",
        formal=f"Good afternoon. Kindly close {name} today and credit the proceeds to my account.",
        hinglish=f"Hello, mera {desi(name)} aaj hi tod do please, paisa account mein daal do.",
        unprompted=f"Please close {name} today and credit the money to its linked account "
        f"{fd['linked_account']}.",
        asked="I want to break one of my FDs today.",
        business=f"My shop needs working capital this week - close {name} and credit the "
        "payout to my account.",
    )
    return draft(
        customer,
        Instruction(
            text=ask + " If you can't, tell me why.",
            decline="No, leave everything as it is then.",
            explain=f"This FD is under lien: it is pledged as security for your {label}, so it "
            "can't be closed until the loan is repaid and the lien is released.",
        ),
        facts=[
            knows(f"It's {name}.", "deposit"),
            knows("Then how much do I still owe on that loan?", "loan", after=LIEN_PHRASES),
        ],
        # KB 04: the lien is released once the loan is closed; that is the option to tell.
        tells=[
            reason("FD under lien", "lien", record=fd["deposit_id"]),
            alternative("close the loan first", "foreclose_first", record=fd["deposit_id"]),
        ],
        narrative=(
            f"You want {name} closed. It secures your {label}; if the bank explains it cannot "
            "close it, you then ask how much you still owe on the loan, and end."
        ),
        calls=[
            find_fd(fd),
            deposit_details(fd, ("under_lien",)),
            as_step("loan", loan_details(_lien_loan(fd), fields=("outstanding",))),
        ],
        outputs=[
            Out(
                "loan outstanding",
                "amount",
                record("loan", _lien_loan(fd)["loan_id"], "outstanding"),
            )
        ],
    )


# The concept an agent states when it tells the tax-saver lock-in.
LOCK_IN_PHRASES = ("lock_in",)


@family(
    "tax_saver_lock_in",
    "edge_case",
    "deposits",
    "SELECT DISTINCT customer_id FROM deposits WHERE deposit_type = 'tax_saver_fd' "
    "AND status = 'active'",
    clause="H.29 / K.40 refuse premature closure of a tax-saver FD 'before 5 years'; KB 05: 'Requests for premature closure of a tax-saver FD are declined with this reason'",
)
def tax_saver_lock_in(ctx: Context, rng: random.Random, customer: sqlite3.Row) -> Draft | None:
    """Refuse to close a tax-saver FD early; tell the date it matures."""
    fd = _deposit(ctx, rng, customer, "deposit_type = 'tax_saver_fd' AND status = 'active'")
    amount = indian(fd["principal"])
    started = f"{date.fromisoformat(fd['start_date']):%B %Y}"
    ask = opening(
        rng,
        terse=f"Withdraw my tax saver FD of {amount} now.",
        chatty=f"Hi! I put {amount} in a tax saver FD a while back to save on tax, and now I "
        "need that money. Can I withdraw it now?",
        formal=f"Greetings. I wish to withdraw my tax-saving fixed deposit of {amount} "
        "prematurely.",
        hinglish=f"Hello, mera tax saver FD hai {amount} ka - woh abhi nikalna hai.",
        unprompted=f"Please close my tax saver FD of {amount}, opened in {started}, and credit "
        f"it to account {fd['linked_account']}.",
        asked="I want to withdraw one of my fixed deposits now - the tax saver one.",
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
            knows(f"It's my tax saver FD of {amount}, opened in {started}.", "deposit"),
            knows("Then when can I get the money?", "date", "maturity", after=LOCK_IN_PHRASES),
        ],
        narrative=(
            f"You want to withdraw your tax-saver FD of {amount} early; if refused you ask "
            "when it matures."
        ),
        # The deposit's type shows the lock-in: no closure quote is needed to refuse.
        calls=[
            find_fd(fd),
            as_step("details", deposit_details(fd, ("deposit_type", "maturity_date"))),
        ],
        outputs=[
            Out("maturity date", "date", record("deposit", fd["deposit_id"], "maturity_date"))
        ],
        tells=[reason("tax-saver lock-in", "lock_in", record=fd["deposit_id"])],
    )


# -- a later step that depended on a refused one -----------------------------------------------
_BLOCKED_FD = (
    "d.status = 'active' AND (d.deposit_type = 'tax_saver_fd' OR (d.deposit_type = 'fd' AND "
    "d.lien_loan_id IN (SELECT loan_id FROM loans WHERE status = 'active')))"
)


@family(
    "refused_step_blocks_next",
    "sequencing",
    "deposits",
    "SELECT DISTINCT d.customer_id FROM deposits d JOIN beneficiaries b USING (customer_id) "
    f"WHERE {_BLOCKED_FD} ORDER BY 1",
    clause="G.28 'If a step cannot be done, say so and why, and check with the customer before doing any later step that depended on it'; H.29 no premature closure of a tax-saver FD (before 5 years) or of an FD under lien",
)
def refused_step_blocks_next(
    ctx: Context, rng: random.Random, customer: sqlite3.Row
) -> Draft | None:
    """Numbered: close an FD, then pay a payee from its payout. The FD cannot be closed, so the
    payment that depended on it is not made from other money: the customer declines that."""
    cid = customer["customer_id"]
    fd = pick(
        rng,
        ctx.all(
            f"SELECT d.* FROM deposits d WHERE d.customer_id = ? AND {_BLOCKED_FD} "
            "ORDER BY d.deposit_id",
            cid,
        ),
    )
    payee = pick(rng, registered_payees(ctx, cid))
    if fd is None or payee is None:
        return None
    name = fd_name(ctx, rng, fd)
    if name is None:
        return None
    locked = fd["deposit_type"] == "tax_saver_fd"
    sums = [a * 100 for a in (20_000, 25_000, 40_000, 50_000, 75_000, 1_00_000, 1_50_000)]
    amount = rng.choice([a for a in sums if a <= fd["principal"]] or [rules.FD_MIN])
    mode = rng.choice(("IMPS", "NEFT"))
    said, who = spoken(amount, rng), payee["name"]
    if locked:
        why = "This is a tax-saver FD: it has a lock-in of 5 years and can't be closed early."
        refusal = reason("tax-saver lock-in", "lock_in", record=fd["deposit_id"])
    else:
        why = (
            "This FD is under lien: it is pledged as security for your loan, so it can't be "
            "closed until the loan is repaid and the lien is released."
        )
        refusal = reason("FD under lien", "lien", record=fd["deposit_id"])
    first, second = opening(
        rng,
        terse=(
            f"Two steps. First: close {name}, credit my account.",
            f"Second: send {said} of that to {who} by {mode}.",
        ),
        chatty=(
            f"Hi! I promised {who} {said} and I'll take it out of an FD - so two things, in "
            f"order. First, please close {name} and put the money in my account.",
            f"Then, from that money, send {said} to {who} by {mode}.",
        ),
        formal=(
            "Good afternoon. I have two requests, in this order. First, kindly close "
            f"{name} and credit the proceeds to my account.",
            f"Second, from those proceeds, please transfer {said} to my payee {who} by {mode}.",
        ),
        hinglish=(
            f"Hello, do kaam hain. Pehle mera {desi(name)} tod do, paisa account mein daal do.",
            f"Phir usi paise se {who} ko {said} bhej do, {mode} se.",
        ),
        unprompted=(
            f"Two things, in order. First, close {name} and credit it to its linked account "
            f"ending {fd['linked_account'][-4:]}.",
            f"Then send {said} from that payout to my payee {who} by {mode}.",
        ),
        asked=(
            "I need two things, in order. First, I want to break one of my FDs today.",
            "Then I want to pay one of my payees out of that money.",
        ),
    )
    facts = [
        knows(f"It's {name}.", "deposit"),
        knows(f"It's {said} for {who}, by {mode}.", "payee", "amount", "mode"),
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
            f"First you want {name} closed, then {indian(amount)} of the payout sent to your "
            f"payee {who} by {mode}. The FD cannot be closed ("
            + ("a tax-saver FD, locked in for 5 years" if locked else "it is under lien for a loan")
            + "). Then nothing is to be sent: the payment was to come from the FD, and you "
            "decline if offered to pay it from other money."
        ),
        # The deposit's type or lien shows the refusal: no closure quote, and no transfer.
        calls=[
            find_fd(fd),
            deposit_details(fd, ("deposit_type",) if locked else ("under_lien",)),
        ],
        tells=[refusal],
    )
