"""Deposit families about closing an FD early: the quote, a rebooking, a declined quote, which FD
of several, an FD that matches none of the customer's."""

from __future__ import annotations

import random
import sqlite3
from collections.abc import Callable
from datetime import date

from pytest_bankbench.authoring.base import (
    Call,
    Context,
    Draft,
    Must,
    Out,
    as_step,
    clarify,
    draft,
    family,
    reason,
    record,
    result,
)
from pytest_bankbench.authoring.calls import (
    balance,
    booking_quote,
    closure,
    closure_quote,
    closure_terms,
    create_fd,
    fd_maturity,
    find_fd,
)
from pytest_bankbench.authoring.phrasing import desi, knows, offered_secret, opening, say, spoken
from pytest_bankbench.authoring.pickers import RESERVED, TENURES, fd_name, pick
from pytest_bankbench.money import indian
from pytest_bankbench.tasks.model import Instruction, Topic

_ACTIVE_FD = (
    "SELECT DISTINCT d.customer_id FROM deposits d JOIN customers c USING (customer_id) "
    "WHERE d.deposit_type = 'fd' AND d.status = 'active' AND d.lien_loan_id IS NULL"
)


def _closable(ctx: Context, cid: str) -> list[sqlite3.Row]:
    return ctx.all(
        "SELECT * FROM deposits WHERE customer_id = ? AND deposit_type = 'fd' AND "
        "status = 'active' AND lien_loan_id IS NULL AND start_date <= ? "
        "ORDER BY start_date, deposit_id",
        cid,
        ctx.today.isoformat(),
    )


@family(
    "fd_closure",
    "sequencing",
    "deposits",
    _ACTIVE_FD,
    clause="E.20 Premature closure: 'first call get_fd_closure_quote and share the penalty, the interest payable, the total payout and the account that will be credited' (+ J.36 tell the balance asked)",
)
def fd_closure(ctx: Context, rng: random.Random, customer: sqlite3.Row) -> Draft | None:
    """Quote before commit: the closure quote before closing, then the new balance."""
    fd = pick(rng, _closable(ctx, customer["customer_id"]))
    if fd is None:
        return None
    name = fd_name(ctx, rng, fd)
    if name is None:
        return None
    quote = "Tell me the penalty and the payout first, and my account balance after closing."
    ask = opening(
        rng,
        terse=f"Close {name} early. Penalty and payout first; balance after.",
        chatty=f"Hi, my daughter's college fees are due, so I need to break {name}. {quote}",
        formal=f"Namaskar. I wish to prematurely close {name}. Kindly inform me of the "
        "penalty and the payout beforehand, and of my account balance afterwards.",
        hinglish=f"Hello, mera FD todna hai - {desi(name)}. Pehle penalty aur payout batao, aur "
        "close karne ke baad account balance bhi.",
        unprompted=f"Please close {name} before maturity; the money goes to its linked account "
        f"{fd['linked_account']}. {quote}",
        asked=f"I need to break one of my fixed deposits. {quote}",
        medical=f"There's a medical bill I have to pay this week - please close {name} early. "
        f"{quote}",
    )
    return draft(
        customer,
        ask,
        facts=[knows(f"It's {name}.", "deposit")],
        narrative=(
            f"You want to close {name} ({indian(fd['principal'])}) before maturity. Ask for "
            "the penalty and payout first, agree, and ask for your balance afterwards."
        ),
        calls=[
            find_fd(fd),
            as_step("quote", closure_quote(fd)),
            as_step("close", closure(fd, after=("quote",))),
            as_step("balance", balance(fd["linked_account"], after=("close",))),
        ],
        outputs=[
            Out("payout", "amount", result("close", "payout")),
            Out(
                "balance after closure",
                "amount",
                record("account", fd["linked_account"], "balance"),
            ),
        ],
        disclosures=closure_terms("quote", "close"),
    )


@family(
    "fd_close_and_rebook",
    "sequencing",
    "deposits",
    _ACTIVE_FD.replace("WHERE", "WHERE c.kyc_status = 'full' AND"),
    clause="E.20 quote before premature closure, then E.19 rate card + maturity projection before booking; G.27 do the steps in the order given",
)
def fd_close_and_rebook(ctx: Context, rng: random.Random, customer: sqlite3.Row) -> Draft | None:
    """Numbered: close an old FD at a quote, then rebook the proceeds at the current rate."""
    fds = [fd for fd in _closable(ctx, customer["customer_id"]) if fd["principal"] >= 50_000_00]
    fd = pick(rng, fds)
    if fd is None:
        return None
    name = fd_name(ctx, rng, fd)
    if name is None:
        return None
    days, tenure_text = rng.choice(TENURES[:6])
    amount = fd["principal"]
    said = spoken(amount, rng)
    first, second = opening(
        rng,
        terse=(
            f"Two things, in order. First: close {name}; show me the payout before closing.",
            f"Second: new FD of {said} for {tenure_text} from the same account. Rate and "
            "maturity amount before booking.",
        ),
        chatty=(
            "Hi! The rates have gone up, so I want to move my money around - two things, in "
            f"this order. First, close {name}, but show me the payout before you do it.",
            f"Second, put {said} back into a new FD for {tenure_text} from the same account. "
            "Tell me the new rate and the maturity amount before booking.",
        ),
        formal=(
            "Good morning. I have two requests, in this order. First, kindly close "
            f"{name} after informing me of the closure payout.",
            f"Second, please book a new fixed deposit of {said} for {tenure_text} from the same "
            "account, after telling me the new rate and the maturity amount.",
        ),
        hinglish=(
            f"Hello, do kaam hain, isi order mein. Pehle mera {desi(name)} close karo - payout pehle batana.",
            f"Phir {said} ka naya FD bana do, {tenure_text} ke liye, same account se. Rate aur "
            "maturity amount booking se pehle batao.",
        ),
        unprompted=(
            f"Two things, in this order. First, close {name} (its money goes to account "
            f"{fd['linked_account']}) - show me the payout before you do it.",
            f"Second, book a new FD of {said} for {tenure_text} from account "
            f"{fd['linked_account']}, maturity back to the account - tell me the rate and "
            "the maturity amount before booking.",
        ),
        asked=(
            "Two things, in this order. First, I want to close one of my FDs - show me the "
            "payout before you do it.",
            "Second, put that money into a new FD from the same account - tell me the new "
            "rate and the maturity amount before booking.",
        ),
    )
    return draft(
        customer,
        first,
        second,
        facts=[
            knows(f"The old one is {name}.", "deposit"),
            knows(f"The new FD: {said} for {tenure_text}.", "amount", "tenure"),
            knows("Credit the new deposit's maturity amount to my account.", "maturity"),
        ],
        narrative=(
            f"First close {name} after hearing the payout; then book a new FD of "
            f"{indian(amount)} for {days} days from account {fd['linked_account']} after "
            "hearing the rate and maturity amount."
        ),
        calls=[
            find_fd(fd),
            as_step("quote", closure_quote(fd)),
            as_step("close", closure(fd, after=("quote",))),
            as_step("rates", Call("get_deposit_rate_card", instruction=1)),
            as_step("projection", fd_maturity(amount, days, instruction=1)),
            as_step(
                "booking",
                create_fd(
                    fd["linked_account"],
                    amount,
                    days,
                    after=("close", "rates", "projection"),
                    instruction=1,
                ),
            ),
        ],
        outputs=[
            Out("closure payout", "amount", result("close", "payout")),
            Out("new maturity amount", "amount", result("projection", "maturity_amount"), 1),
        ],
        disclosures=closure_terms("quote", "close") + booking_quote("projection", "booking"),
    )


# Round amounts a customer may misremember an FD as.
_MISREMEMBERED = tuple(
    n * 100 for n in (1_00_000, 1_50_000, 2_00_000, 3_00_000, 5_00_000, 7_50_000)
)


@family(
    "no_matching_fd",
    "edge_case",
    "deposits",
    _ACTIVE_FD + f" AND d.customer_id NOT IN {RESERVED}",
    clause="C.12 'If the details match more than one item, or none, ask. Never guess.'; D.18 nothing is closed without a yes to that exact deposit",
)
def no_matching_fd(ctx: Context, rng: random.Random, customer: sqlite3.Row) -> Draft | None:
    """The FD the customer describes is none of theirs: say so and ask, close nothing."""
    fds = _closable(ctx, customer["customer_id"])
    if not fds:
        return None
    near = rng.choice(fds)
    held = {f["principal"] for f in fds}
    amounts = [a for a in _MISREMEMBERED if a not in held]
    wrong = rng.choice(amounts)
    month = f"{date.fromisoformat(near['start_date']):%B %Y}"
    said = indian(wrong)
    ask = opening(
        rng,
        terse=f"Close my {said} FD from {month}. Payout first.",
        chatty=f"Hi! I need some cash, so I'd like to break the FD of {said} I opened in "
        f"{month}. Tell me what I'd get first, please.",
        formal=f"Good day. Kindly close my fixed deposit of {said}, opened in {month}, after "
        "informing me of the payout.",
        hinglish=f"Hello, mera {said} wala FD jo {month} mein khola tha, usko tod do. Payout "
        "pehle batana.",
        unprompted=f"Please close the {said} fixed deposit I opened in {month} and credit it "
        "to my savings account. Tell me the payout before you close it.",
        asked=f"I want to close one of my FDs early - the {said} one. Tell me the payout first.",
        unsure=f"I think I have an FD of {said} from around {month}. Can you close it? "
        "Payout first, please.",
    )
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
        facts=[knows(f"It's the FD of {said} I opened in {month}.", "deposit", "amount", "date")],
        narrative=(
            f"You believe you have an FD of {said} opened in {month} and want it closed "
            "after hearing the payout. No such FD exists (you misremember); when told so, "
            "you will check your papers, and you do not want any other FD closed."
        ),
        calls=[find_fd(near)],
        tells=[
            reason("no FD matches", "no_match"),
            Must("clarify", "which FD", ("which_one",)),
        ],
        offers=offered_secret("otp", "no_matching_fd", customer["customer_id"]),
    )


@family(
    "fd_closure_declined",
    "edge_case",
    "deposits",
    _ACTIVE_FD,
    clause="D.18 'If the customer declines, do not make the change'; J.36 tell the penalty and payout asked (from the closure quote)",
)
def fd_closure_declined(ctx: Context, rng: random.Random, customer: sqlite3.Row) -> Draft | None:
    """The customer hears the penalty and declines: nothing may be closed."""
    fd = pick(rng, _closable(ctx, customer["customer_id"]))
    if fd is None:
        return None
    name = fd_name(ctx, rng, fd)
    if name is None:
        return None
    ask = opening(
        rng,
        terse=f"Penalty and payout if I close {name} now?",
        chatty=f"Hi! I'm thinking about closing {name} - money's a bit tight. What penalty "
        "would I pay, and how much would I actually get?",
        formal=f"Good afternoon. I am considering the premature closure of {name}. Kindly "
        "inform me of the penalty and the payout.",
        hinglish=f"Hello, mera {desi(name)} todne ka soch rahe hain. Penalty kitni lagegi aur haath mein "
        "kitna aayega?",
        unprompted=f"I'm thinking of closing {name}, linked to account {fd['linked_account']}. "
        "What penalty would I pay and how much would I get?",
        asked="I'm thinking of closing one of my FDs early. What penalty would I pay and how "
        "much would I get?",
    )
    return draft(
        customer,
        Instruction(text=ask, decline="No, don't close it yet. I only want the numbers."),
        Instruction(
            text=say(
                rng,
                "That penalty is too high. Please keep the deposit running; don't close anything.",
                "Hmm, that's more than I expected. Leave the FD as it is - don't close anything.",
                "No way, that's too much of a cut. Keep it running, please; close nothing.",
            ),
            decline="No, please don't close anything.",
        ),
        facts=[knows(f"It's {name}.", "deposit")],
        narrative=(
            f"You ask what closing {name} early would cost and pay. After hearing it you "
            "decide to keep the deposit; you never agree to close it."
        ),
        calls=[find_fd(fd), as_step("quote", closure_quote(fd))],
        outputs=[
            Out("penalty", "amount", result("quote", "penalty")),
            Out("payout", "amount", result("quote", "payout")),
        ],
    )


# -- ambiguous_fd_clarify ---------------------------------------------------------------------------

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
    "ambiguous_fd_clarify",
    "edge_case",
    "deposits",
    f"SELECT customer_id FROM deposits WHERE {_FD} GROUP BY customer_id HAVING "
    "COUNT(*) > COUNT(DISTINCT principal) OR COUNT(*) > COUNT(DISTINCT substr(start_date, 1, 7)) "
    "OR COUNT(*) > COUNT(DISTINCT substr(maturity_date, 1, 7)) ORDER BY 1",
    clause="C.12 'If the details match more than one item, or none, ask. Never guess.'; E.20 closure quote, share penalty, interest, payout and the account credited before closing",
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
    text = opening(
        rng,
        terse=f"Close my {what}. Payout?",
        chatty="Hello! "
        + say(
            rng,
            "My son's college fees are due and I'm short,",
            "We're renovating the kitchen and the contractor wants an advance,",
        )
        + f" so I've decided to break my {what}. Can you do that for me? How much will I get?",
        formal=f"Good morning. Could you please close my {what} before maturity? Kindly tell me "
        "the payout first.",
        hinglish=f"Namaste, woh {what} hai na - please close kar do, paison ki zarurat hai. "
        "Kitna milega?",
        unprompted=f"Hi, please close my {what} early and credit the money to the linked "
        "account. Tell me the penalty and the payout before you do it.",
        asked=f"Hello, I want to close my {what}. How much will I get?",
    )
    return draft(
        customer,
        text,
        facts=[knows(FD_CLARIFIERS[clarifier](fd), "deposit", *_CLARIFY_TOPICS[clarifier])],
        narrative=(
            f"You want to close one FD early: you call it your {what}, but more than one of "
            f"your FDs fits that. The one you mean is the one of {indian(fd['principal'])} "
            f"opened on {fd['start_date']} and maturing on {fd['maturity_date']}; you say so "
            "when asked which. You agree after hearing the penalty and the payout."
        ),
        calls=[
            find_fd(fd),
            as_step("quote", closure_quote(fd)),
            as_step("close", closure(fd, after=("quote",))),
        ],
        outputs=[Out("payout", "amount", result("close", "payout"))],
        disclosures=closure_terms("quote", "close"),
        # C.12: more than one FD fits, so the agent asks which before quoting any (the other
        # that fits is a record the question is about).
        tells=[clarify("which FD", before="quote", record=twin["deposit_id"])],
    )
