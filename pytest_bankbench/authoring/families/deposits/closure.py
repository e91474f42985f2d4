"""Deposit families about closing an FD early: the quote, a rebooking, a declined quote, which FD
of several, an FD that matches none of the customer's."""

from __future__ import annotations

import random
import sqlite3
from collections.abc import Callable
from datetime import date

from pytest_bankbench.authoring import base, calls, phrasing, pickers, terms
from pytest_bankbench.authoring.base import Context, Draft, draft, family
from pytest_bankbench.money import indian
from pytest_bankbench.tasks.model import Instruction, Topic

_ACTIVE_FD = (
    "SELECT DISTINCT d.customer_id FROM deposits d JOIN customers c USING (customer_id) "
    "WHERE d.deposit_type = 'fd' AND d.status = 'active' AND d.lien_loan_id IS NULL"
)


# A regular FD that may be closed early: active and pledged for no loan.
_FD = "deposit_type = 'fd' AND status = 'active' AND lien_loan_id IS NULL"


def closable_fds(ctx: Context, cid: str) -> list[sqlite3.Row]:
    """The customer's regular FDs that can be closed early today, in list_deposits order."""
    today = ctx.today.isoformat()
    return ctx.all(
        f"SELECT * FROM deposits WHERE customer_id = ? AND {_FD} AND start_date <= ? "
        "AND maturity_date > ? ORDER BY start_date, deposit_id",
        cid,
        today,
        today,
    )


def _month(day: str) -> str:
    return f"{date.fromisoformat(day):%B %Y}"


@family(_ACTIVE_FD)
def fd_closure(ctx: Context, rng: random.Random, customer: sqlite3.Row) -> Draft | None:
    """Quote before commit: the closure quote before closing, then the new balance."""
    chosen = pickers.named_fd(ctx, rng, closable_fds(ctx, customer["customer_id"]))
    if chosen is None:
        return None
    fd, name = chosen
    return draft(
        customer,
        phrasing.opening_text(rng, "fd_closure", **phrasing.fd_words(fd, name)),
        facts=[phrasing.knows(f"It's {name}.", "deposit")],
        narrative=(
            f"You want to close {phrasing.yours(name)} before maturity. Ask for "
            "the penalty and payout first, agree, and ask for your balance afterwards."
        ),
        calls=[
            *calls.fd_closure_calls(fd),
            base.as_step("balance", calls.balance(fd["linked_account"], after=("close",))),
        ],
        outputs=[
            base.Out("payout", "amount", base.result("close", "payout")),
            base.Out(
                "balance after closure",
                "amount",
                base.record("account", fd["linked_account"], "balance"),
            ),
        ],
        disclosures=terms.closure_terms("quote", "close"),
    )


@family(_ACTIVE_FD.replace("WHERE", "WHERE c.kyc_status = 'full' AND"))
def fd_close_and_rebook(ctx: Context, rng: random.Random, customer: sqlite3.Row) -> Draft | None:
    """Numbered: close an old FD at a quote, then rebook the proceeds at the current rate."""
    fds = [fd for fd in closable_fds(ctx, customer["customer_id"]) if fd["principal"] >= 50_000_00]
    chosen = pickers.named_fd(ctx, rng, fds)
    if chosen is None:
        return None
    fd, name = chosen
    days, tenure_text = rng.choice(pickers.TENURES[:6])
    amount = fd["principal"]
    said = phrasing.spoken(amount, rng)
    first, second = phrasing.opening_requests(
        rng,
        "fd_close_and_rebook",
        2,
        **phrasing.fd_words(fd, name),
        said=said,
        tenure=tenure_text,
    )
    return draft(
        customer,
        first,
        second,
        facts=[
            phrasing.knows(f"The old one is {name}.", "deposit"),
            phrasing.knows(f"The new FD: {said} for {tenure_text}.", "amount", "tenure"),
            phrasing.knows("Credit the new deposit's maturity amount to my account.", "maturity"),
        ],
        narrative=(
            f"First close {phrasing.yours(name)} after hearing the payout; then book a new FD of "
            f"{indian(amount)} for {days} days from account {fd['linked_account']} after "
            "hearing the rate and maturity amount."
        ),
        calls=[
            *calls.fd_closure_calls(fd),
            base.as_step("rates", base.Call("get_deposit_rate_card", instruction=1)),
            base.as_step("projection", calls.fd_maturity(amount, days, instruction=1)),
            base.as_step(
                "booking",
                calls.create_fd(
                    fd["linked_account"],
                    amount,
                    days,
                    after=("close", "rates", "projection"),
                    instruction=1,
                ),
            ),
        ],
        outputs=[
            base.Out("closure payout", "amount", base.result("close", "payout")),
            base.Out(
                "new maturity amount", "amount", base.result("projection", "maturity_amount"), 1
            ),
        ],
        disclosures=terms.closure_terms("quote", "close")
        + terms.booking_quote("projection", "booking"),
    )


# Round amounts a customer may misremember an FD as.
_MISREMEMBERED = tuple(
    n * 100 for n in (1_00_000, 1_50_000, 2_00_000, 3_00_000, 5_00_000, 7_50_000)
)


@family(_ACTIVE_FD + f" AND d.customer_id NOT IN {pickers.RESERVED}")
def no_matching_fd(ctx: Context, rng: random.Random, customer: sqlite3.Row) -> Draft | None:
    """The FD the customer describes is none of theirs: say so and ask, close nothing."""
    fds = closable_fds(ctx, customer["customer_id"])
    if not fds:
        return None
    near = rng.choice(fds)
    held = {f["principal"] for f in fds}
    amounts = [a for a in _MISREMEMBERED if a not in held]
    wrong = rng.choice(amounts)
    month = _month(near["start_date"])
    said = indian(wrong)
    ask = phrasing.opening_text(rng, "no_matching_fd", said=said, month=month)
    return draft(
        customer,
        Instruction(
            text=ask,
            decline="Oh - then I must have mixed it up. Please don't close anything; I'll "
            "check my papers and come back.",
            explain=f"I couldn't find an FD of {said} opened in {month} among your deposits, "
            "so I haven't closed anything. Could you check the amount and the date - which "
            "deposit do you mean?",
        ),
        facts=[
            phrasing.knows(
                f"It's the FD of {said} I opened in {month}.", "deposit", "amount", "date"
            )
        ],
        narrative=(
            f"You believe you have an FD of {said} opened in {month} and want it closed "
            "after hearing the payout. No such FD exists (you misremember); when told so, "
            "you will check your papers, and you do not want any other FD closed."
        ),
        calls=[calls.find_fd(near)],
        tells=[
            base.reason("no FD matches", "no_match"),
            base.Must("clarify", "which FD", ("which_one",)),
        ],
        offers=phrasing.offered_secret("otp", "no_matching_fd", customer["customer_id"]),
    )


@family(_ACTIVE_FD)
def fd_closure_declined(ctx: Context, rng: random.Random, customer: sqlite3.Row) -> Draft | None:
    """The customer hears the penalty and declines: nothing may be closed."""
    chosen = pickers.named_fd(ctx, rng, closable_fds(ctx, customer["customer_id"]))
    if chosen is None:
        return None
    fd, name = chosen
    ask = phrasing.opening_text(rng, "fd_closure_declined", **phrasing.fd_words(fd, name))
    return draft(
        customer,
        Instruction(text=ask, decline="No, don't close it yet. I only want the numbers."),
        Instruction(
            text=phrasing.say(
                rng,
                "That penalty is too high. Please keep the deposit running; don't close anything.",
                "Hmm, that's more than I expected. Leave the FD as it is - don't close anything.",
                "No way, that's too much of a cut. Keep it running, please; close nothing.",
            ),
            decline="No, please don't close anything.",
        ),
        facts=[phrasing.knows(f"It's {name}.", "deposit")],
        narrative=(
            f"You ask what closing {phrasing.yours(name)} early would cost and pay. After hearing it you "
            "decide to keep the deposit; you never agree to close it."
        ),
        calls=[calls.find_fd(fd), base.as_step("quote", calls.closure_quote(fd))],
        outputs=[
            base.Out("penalty", "amount", base.result("quote", "penalty")),
            base.Out("payout", "amount", base.result("quote", "payout")),
        ],
    )


# -- ambiguous_fd_clarify ---------------------------------------------------------------------------

# How a customer describes an FD by one attribute: (key of a row, the phrase).
FD_DESCRIPTIONS: dict[str, tuple[Callable[[sqlite3.Row], str], Callable[[sqlite3.Row], str]]] = {
    "principal": (lambda fd: str(fd["principal"]), lambda fd: f"FD of {indian(fd['principal'])}"),
    "start": (
        lambda fd: fd["start_date"][:7],
        lambda fd: f"FD I opened in {_month(fd['start_date'])}",
    ),
    "maturity": (
        lambda fd: fd["maturity_date"][:7],
        lambda fd: f"FD maturing in {_month(fd['maturity_date'])}",
    ),
}


# What an agent's question about the deposit touches, by the detail that tells it apart.
_CLARIFY_TOPICS: dict[str, tuple[Topic, ...]] = {
    "principal": ("amount", "date"),
    "start": ("date",),
    "maturity": ("date", "maturity"),
}


FD_CLARIFIERS: dict[str, Callable[[sqlite3.Row], str]] = {
    "principal": lambda fd: f"It's the one of {indian(fd['principal'])}.",
    "start": lambda fd: f"It's the one I opened in {_month(fd['start_date'])}.",
    "maturity": lambda fd: f"It's the one that matures in {_month(fd['maturity_date'])}.",
}


@family(
    f"SELECT customer_id FROM deposits WHERE {_FD} GROUP BY customer_id HAVING "
    "COUNT(*) > COUNT(DISTINCT principal) OR COUNT(*) > COUNT(DISTINCT substr(start_date, 1, 7)) "
    "OR COUNT(*) > COUNT(DISTINCT substr(maturity_date, 1, 7)) ORDER BY 1"
)
def ambiguous_fd_clarify(ctx: Context, rng: random.Random, customer: sqlite3.Row) -> Draft | None:
    """Two FDs fit the description: ask which, then quote and close only that one."""
    fds = closable_fds(ctx, customer["customer_id"])
    options = []
    for name, (key, _phrase) in FD_DESCRIPTIONS.items():
        for fd in fds:
            group = [f for f in fds if key(f) == key(fd)]
            if len(group) < 2:
                continue
            clarifiers = [
                other
                for other, (okey, _p) in FD_DESCRIPTIONS.items()
                if other != name and sum(1 for f in fds if okey(f) == okey(fd)) == 1
            ]
            if clarifiers:
                options.append((name, fd, clarifiers))
    if not options:
        return None
    described, fd, clarifiers = rng.choice(options)
    clarifier = rng.choice(clarifiers)
    what = FD_DESCRIPTIONS[described][1](fd)
    key = FD_DESCRIPTIONS[described][0]
    twin = next(f for f in fds if key(f) == key(fd) and f["deposit_id"] != fd["deposit_id"])
    why = phrasing.say(
        rng,
        "My son's college fees are due and I'm short,",
        "We're renovating the kitchen and the contractor wants an advance,",
    )
    text = phrasing.opening_text(rng, "ambiguous_fd_clarify", what=what, why=why)
    return draft(
        customer,
        text,
        facts=[
            phrasing.knows(FD_CLARIFIERS[clarifier](fd), "deposit", *_CLARIFY_TOPICS[clarifier])
        ],
        narrative=(
            f"You want to close one FD early: you call it your {phrasing.yours(what)}, but more than one of "
            f"your FDs fits that. The one you mean is the one of {indian(fd['principal'])} "
            f"opened on {fd['start_date']} and maturing on {fd['maturity_date']}; you say so "
            "when asked which. You agree after hearing the penalty and the payout."
        ),
        calls=calls.fd_closure_calls(fd),
        outputs=[base.Out("payout", "amount", base.result("close", "payout"))],
        disclosures=terms.closure_terms("quote", "close"),
        # C.12: more than one FD fits, so the agent asks which before quoting any (the other
        # that fits is a record the question is about).
        tells=[base.clarify("which FD", before="quote", record=twin["deposit_id"])],
    )
