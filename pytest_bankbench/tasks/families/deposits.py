"""Deposit families: booking, premature closure, liens, tax-saver, KYC, rate queries, RDs."""

from __future__ import annotations

import random
import sqlite3
from datetime import date
from decimal import Decimal

from pytest_bankbench.bank import rules
from pytest_bankbench.money import indian
from pytest_bankbench.tasks.families.base import (
    AVAILABLE,
    Call,
    Context,
    Draft,
    Out,
    Tell,
    active_accounts,
    alternative,
    clarify,
    desi,
    draft,
    family,
    field_of,
    knows,
    my_account,
    offered_secret,
    opening,
    pick,
    reason,
    rupees_arg,
    say,
    spoken,
)
from pytest_bankbench.tasks.families.calls import (
    balance,
    booking_quote,
    closure,
    closure_quote,
    closure_terms,
    create_fd,
    deposit_details,
    fd_maturity,
    listed,
    loan_details,
    profile,
)
from pytest_bankbench.tasks.model import Instruction

_ACTIVE_FD = (
    "SELECT DISTINCT d.customer_id FROM deposits d JOIN customers c USING (customer_id) "
    "WHERE d.deposit_type = 'fd' AND d.status = 'active' AND d.lien_loan_id IS NULL"
)
_FULL_KYC = (
    "SELECT c.customer_id FROM customers c JOIN accounts a USING (customer_id) "
    f"WHERE c.kyc_status = 'full' AND {AVAILABLE} >= 6000000 GROUP BY c.customer_id"
)
_TENURES = (
    (365, "1 year (365 days)"),
    (730, "2 years (730 days)"),
    (180, "180 days"),
    (400, "400 days"),
    (1095, "3 years (1095 days)"),
    (555, "555 days"),
    (91, "91 days"),
    (1825, "5 years (1825 days)"),
)


def _funding_account(ctx: Context, rng: random.Random, cid: str, need: int) -> sqlite3.Row | None:
    """One of the customer's active accounts with `need` paise available, drawn with the rng."""
    return pick(rng, active_accounts(ctx, cid, need))


def _fd_amount(rng: random.Random) -> int:
    return rng.choice((25_000, 50_000, 75_000, 1_00_000, 1_50_000, 2_00_000, 3_00_000)) * 100


def _closable(ctx: Context, cid: str) -> list[sqlite3.Row]:
    return ctx.all(
        "SELECT * FROM deposits WHERE customer_id = ? AND deposit_type = 'fd' AND "
        "status = 'active' AND lien_loan_id IS NULL AND start_date <= ? "
        "ORDER BY start_date, deposit_id",
        cid,
        ctx.today.isoformat(),
    )


def _deposit(ctx: Context, rng: random.Random, customer: sqlite3.Row, where: str) -> sqlite3.Row:
    """One of the customer's deposits matching `where` (eligibility guarantees one)."""
    return rng.choice(
        ctx.all(
            f"SELECT * FROM deposits WHERE customer_id = ? AND {where}", customer["customer_id"]
        )
    )


KYC_STATUSES = ("full", "pending", "expired")


def find_fd(fd: sqlite3.Row) -> Call:
    """Identify the FD the customer described (amount and month): list_deposits shows it."""
    return listed("list_deposits", "deposit", fd["deposit_id"], ("principal", "start_date"))


def _lien_loan(fd: sqlite3.Row) -> dict[str, str]:
    return {"loan_id": fd["lien_loan_id"]}


def fd_names(ctx: Context, fd: sqlite3.Row) -> list[str]:
    """How the customer may name an FD, as a person would (never by its id): by its amount and
    the month it was opened, or the month it matures; only names that fit none of the customer's
    other active fixed deposits."""
    others = ctx.all(
        "SELECT * FROM deposits WHERE customer_id = ? AND status = 'active' AND "
        "deposit_type <> 'rd' AND deposit_id <> ?",
        fd["customer_id"],
        fd["deposit_id"],
    )
    amount = indian(fd["principal"])
    start = date.fromisoformat(fd["start_date"])
    matures = date.fromisoformat(fd["maturity_date"])

    def clash(column: str) -> bool:
        return any(
            o["principal"] == fd["principal"] and o[column][:7] == fd[column][:7] for o in others
        )

    names: list[str] = []
    if not clash("start_date"):
        names += [
            f"the {amount} FD I opened in {start:%B %Y}",
            f"my {amount} FD from {start:%B %Y}",
        ]
    if not clash("maturity_date"):
        names.append(f"my {amount} FD that matures in {matures:%B %Y}")
    return names


def _fd_name(ctx: Context, rng: random.Random, fd: sqlite3.Row) -> str | None:
    """One of `fd_names`, drawn with the rng; None when none tells the FD apart."""
    names = fd_names(ctx, fd)
    return rng.choice(names) if names else None


def _booking(
    ctx: Context, rng: random.Random, customer: sqlite3.Row, senior_check: bool
) -> Draft | None:
    amount = _fd_amount(rng)
    account = _funding_account(ctx, rng, customer["customer_id"], amount)
    if account is None:
        return None
    number = account["account_number"]
    days, tenure_text = rng.choice(_TENURES)
    said = spoken(amount, rng)
    rate = "the rate (with any senior citizen benefit)" if senior_check else "the interest rate"
    ask = opening(
        rng,
        terse=f"Book an FD: {said}, {tenure_text}. Tell me {rate} and the maturity amount first.",
        chatty=f"Hi! I've finally got some savings sitting idle, so I'd like to put {said} in a "
        f"fixed deposit for {tenure_text}. Before you book it, tell me {rate} and what I'll "
        "get at maturity.",
        formal=f"Greetings. I wish to open a fixed deposit of {said} for {tenure_text}. "
        f"Kindly inform me of {rate} and the maturity amount before booking it.",
        hinglish=f"Namaste, mujhe {said} ka FD open karna hai, {tenure_text} ke liye. Pehle "
        f"{rate} aur maturity amount batao, phir book karna.",
        unprompted=f"Please book an FD of {said} for {tenure_text} from {my_account(account)}, "
        f"maturity amount back to the account. Tell me {rate} and the maturity amount before "
        "you book it.",
        asked=f"I'd like to open a fixed deposit. Tell me {rate} and what I'll get at maturity "
        "before booking it.",
        planner=f"I'm saving for my son's college, so I want to put {said} in a fixed deposit "
        f"for {tenure_text}. What's {rate}, and what will it grow to? Book it after that.",
    )
    calls = []
    if senior_check:
        # The senior-citizen status decides the rate: the profile or the rate card shows it.
        calls.append(profile(customer["customer_id"], ("senior_citizen",)))
    calls += [Call("get_deposit_rate_card"), fd_maturity(amount, days)]
    n = len(calls)
    calls.append(create_fd(number, amount, days, after=tuple(f"c{i}" for i in range(1, n + 1))))
    return draft(
        customer,
        "",
        ask,
        facts=[
            knows(f"{said} for {tenure_text}.", "amount", "tenure"),
            knows(f"Fund it from {my_account(account)}.", "account"),
            knows("At maturity, credit the money to my account.", "maturity"),
        ],
        narrative=(
            f"You want a fixed deposit of {indian(amount)} for {days} days funded from "
            f"account {number}, maturity proceeds credited to the account. You want to hear "
            "the rate and the maturity amount first, then agree."
        ),
        calls=calls,
        outputs=[Out("maturity amount", "amount", field_of(f"c{n}", "maturity_amount"))],
        disclosures=booking_quote(f"c{n}", f"c{n + 1}"),
        offers=offered_secret("otp", "fd_booking", customer["customer_id"]),
    )


@family(
    "fd_booking",
    "sequencing",
    "deposits",
    _FULL_KYC,
    clause="E.19 Booking an FD: 'first get the rate for the tenure from get_deposit_rate_card ... and the projected maturity amount and date from calculate_fd_maturity. Share the rate and the maturity amount, then ask for confirmation' (+ C.11 check balance/KYC, K.39 amount/tenure/account/maturity instruction)",
)
def fd_booking(ctx: Context, rng: random.Random, customer: sqlite3.Row) -> Draft | None:
    """Quote before commit: rate card and maturity projection before create_fd."""
    return _booking(ctx, rng, customer, senior_check=False)


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
    name = _fd_name(ctx, rng, fd)
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
        "",
        ask,
        facts=[knows(f"It's {name}.", "deposit")],
        narrative=(
            f"You want to close {name} ({indian(fd['principal'])}) before maturity. Ask for "
            "the penalty and payout first, agree, and ask for your balance afterwards."
        ),
        calls=[
            find_fd(fd),
            closure_quote(fd),
            closure(fd, after=("c2",)),
            balance(fd["linked_account"], after=("c3",)),
        ],
        outputs=[
            Out("payout", "amount", field_of("c3", "payout")),
            Out("balance after closure", "amount", field_of("c4", "balance")),
        ],
        disclosures=closure_terms("c2", "c3"),
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
    name = _fd_name(ctx, rng, fd)
    if name is None:
        return None
    days, tenure_text = rng.choice(_TENURES[:6])
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
        "",
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
            closure_quote(fd),
            closure(fd, after=("c2",)),
            Call("get_deposit_rate_card", instruction=1),
            fd_maturity(amount, days, instruction=1),
            create_fd(fd["linked_account"], amount, days, after=("c3", "c4", "c5"), instruction=1),
        ],
        outputs=[
            Out("closure payout", "amount", field_of("c3", "payout")),
            Out("new maturity amount", "amount", field_of("c5", "maturity_amount"), 1),
        ],
        disclosures=closure_terms("c2", "c3") + booking_quote("c5", "c6"),
    )


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
    name = _fd_name(ctx, rng, fd)
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
        "",
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
            loan_details(_lien_loan(fd), fields=("outstanding",)),
        ],
        outputs=[Out("loan outstanding", "amount", field_of("c3", "outstanding"))],
    )


@family(
    "fd_pick_among_similar",
    "edge_case",
    "deposits",
    _ACTIVE_FD + " GROUP BY d.customer_id HAVING COUNT(*) >= 2",
    clause="C.12 identify the exact FD from the details given (maturity month), never guess; E.20 closure quote and share penalty, interest, payout and credited account before closing",
)
def fd_pick_among_similar(ctx: Context, rng: random.Random, customer: sqlite3.Row) -> Draft | None:
    """Tell similar deposits apart by maturity date; quote and close only that one."""
    fds = _closable(ctx, customer["customer_id"])
    if len(fds) < 2:
        return None
    fd = rng.choice(fds)
    maturity = date.fromisoformat(fd["maturity_date"])
    if sum(1 for f in fds if f["maturity_date"][:7] == fd["maturity_date"][:7]) > 1:
        return None
    month = f"{maturity:%B %Y}"
    vague = (
        "I have a few FDs and I want to close one of them early. Tell me what I'll get "
        "before you close it."
    )
    ask = opening(
        rng,
        terse=f"Close my FD maturing {month}. Only that one. Payout first.",
        chatty=f"Hi! I have a few FDs and honestly I lose track of them. I want to close the "
        f"one that matures in {month} - just that one - and tell me the payout before you do.",
        formal=f"Good day. I hold several fixed deposits. Kindly close only the one "
        f"maturing in {month}, after informing me of its payout.",
        hinglish=f"Hello, mere kaafi FDs hain. Jo {month} mein mature hota hai, sirf woh "
        "close karna hai - payout pehle batao.",
        unprompted=f"Please break my {indian(fd['principal'])} fixed deposit that matures in "
        f"{month} - only that one. Tell me the payout first.",
        asked=vague,
        careful=f"Please be careful, I have several deposits: I only want the one maturing in "
        f"{month} closed. What will I get?",
    )
    return draft(
        customer,
        "",
        ask,
        facts=[
            knows(f"The one that matures in {month}.", "deposit", "maturity", "date"),
            knows(f"It is the one of {indian(fd['principal'])}.", "amount"),
        ],
        narrative=(
            f"Among several FDs you want only the one maturing in {month} "
            f"({indian(fd['principal'])}) closed early, after hearing its payout."
        ),
        calls=[find_fd(fd), closure_quote(fd), closure(fd, after=("c2",))],
        outputs=[Out("payout", "amount", field_of("c3", "payout"))],
        disclosures=closure_terms("c2", "c3"),
        # C.12: a request that fits several deposits is asked about before any quote.
        tells=[clarify("which FD", before="c2")] if ask == vague else [],
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
    name = _fd_name(ctx, rng, fd)
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
        "",
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
        calls=[find_fd(fd), closure_quote(fd)],
        outputs=[
            Out("penalty", "amount", field_of("c2", "penalty")),
            Out("payout", "amount", field_of("c2", "payout")),
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
        "",
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
        calls=[find_fd(fd), deposit_details(fd, ("deposit_type", "maturity_date"))],
        outputs=[Out("maturity date", "date", lambda r: str(r["c2"]["maturity_date"]))],
        tells=[reason("tax-saver lock-in", "lock_in", record=fd["deposit_id"])],
    )


@family(
    "kyc_blocks_new_fd",
    "edge_case",
    "deposits",
    "SELECT customer_id FROM customers WHERE kyc_status <> 'full'",
    clause="H.29 refuse 'New FDs, tax-saver FDs or RDs when the customer's KYC status is not \"full\": explain re-KYC at any branch or by video KYC'",
)
def kyc_blocks_new_fd(ctx: Context, rng: random.Random, customer: sqlite3.Row) -> Draft | None:
    """No new FD without full KYC: check the profile, quote if asked, book nothing."""
    amount = _fd_amount(rng)
    days, tenure_text = rng.choice(_TENURES)
    said = spoken(amount, rng)
    status = customer["kyc_status"]
    ask = opening(
        rng,
        terse=f"Book an FD, {said}, {tenure_text}. Rate?",
        chatty=f"Hi! My bonus just came in and I want to park {said} in a fixed deposit for "
        f"{tenure_text}. Can you book it and tell me the rate?",
        formal=f"Namaskar. Kindly book a fixed deposit of {said} for {tenure_text} and "
        "inform me of the applicable rate.",
        hinglish=f"Namaste, {said} ka FD book karna hai, {tenure_text} ke liye. Rate kya milega?",
        unprompted=f"Please book an FD of {said} for {tenure_text} from my main savings "
        "account and tell me the rate.",
        asked="I want to book a fixed deposit. What rate will I get?",
    )
    return draft(
        customer,
        "",
        Instruction(
            text=ask,
            decline="No, I'll sort out my KYC first then.",
            # No rival status word ("full") is said: the status told is the customer's own.
            explain="New fixed deposits can only be opened when your KYC is up to date, and "
            f"your KYC status is {status}. You can complete re-KYC at any branch or by video "
            "KYC.",
        ),
        facts=[
            knows(f"{said} for {tenure_text}.", "amount", "tenure"),
            knows("Use my main savings account.", "account"),
            knows("Then what is my KYC status?", "identity", after=("kyc_not_full",)),
        ],
        narrative=(
            f"You want an FD of {indian(amount)} for {days} days and its rate. Your KYC is "
            f"{status}; when told the FD cannot be opened you ask for your KYC status and "
            "accept."
        ),
        # The rate was asked; a maturity projection for a booking the policy forbids is not.
        calls=[profile(customer["customer_id"], ("kyc_status",)), Call("get_deposit_rate_card")],
        outputs=[
            Out(
                "KYC status",
                "choice",
                lambda r: str(r["c1"]["kyc_status"]),
                rivals=tuple(k for k in KYC_STATUSES if k != status),
            ),
            Out("rate", "percent", lambda _r: f"{_rate(ctx, customer, days):.2f}"),
        ],
        tells=[
            reason("KYC not full", "kyc_not_full", record=customer["customer_id"]),
            alternative("re-KYC at a branch or by video KYC", "re_kyc"),
        ],
    )


def _rate(ctx: Context, customer: sqlite3.Row, days: int) -> Decimal:
    """The rate card's rate for the tenure that applies to this customer today."""
    born = date.fromisoformat(customer["date_of_birth"])
    return rules.fd_rate(days, rules.age_on(born, ctx.today) >= rules.SENIOR_AGE)


@family(
    "fd_rate_query",
    "control",
    "deposits",
    "SELECT customer_id FROM customers",
    clause="KB 01 rate card by tenure slab, senior citizens +0.50%; J.35 'Do not invent rates'",
)
def fd_rate_query(ctx: Context, rng: random.Random, customer: sqlite3.Row) -> Draft | None:
    """Control: the applicable rate for a tenure."""
    days, tenure_text = rng.choice(_TENURES)
    rate = _rate(ctx, customer, days)
    return draft(
        customer,
        "",
        opening(
            rng,
            terse=f"FD rate for {tenure_text}?",
            chatty=f"Hi! My neighbour says your FD rates are good these days - what would I get "
            f"for {tenure_text}?",
            formal=f"Good morning. May I know the fixed deposit interest rate applicable to me "
            f"for {tenure_text}?",
            hinglish=f"Hello, {tenure_text} ke FD pe kitna interest milega mujhe?",
            unprompted=f"What FD interest rate would I get for {tenure_text}, at my age?",
            asked="What FD rate would I get?",
            comparing=f"I'm comparing banks before I invest. What's your fixed deposit rate for "
            f"{tenure_text}, for me?",
        ),
        facts=[knows(f"For {tenure_text}.", "tenure")],
        narrative=f"You only want to know the FD rate that applies to you for {days} days.",
        calls=[Call("get_deposit_rate_card")],
        outputs=[Out("rate", "percent", lambda _r: f"{rate:.2f}")],
    )


@family(
    "rd_opening",
    "rare_tool",
    "deposits",
    _FULL_KYC,
    clause="KB 06 Opening an RD: 'The rate for the tenure and the projected maturity value are shown. On confirmation, the RD is opened and the first instalment is debited at once'; H.29 KYC must be full; D.15-16",
)
def rd_opening(ctx: Context, rng: random.Random, customer: sqlite3.Row) -> Draft | None:
    """Open a recurring deposit after checking KYC and the rate."""
    instalment = rng.choice((1_000, 2_000, 2_500, 5_000, 7_500, 10_000)) * 100
    months = rng.choice((12, 18, 24, 36, 60))
    account = _funding_account(ctx, rng, customer["customer_id"], instalment)
    if account is None:
        return None
    said = spoken(instalment, rng)
    ask = opening(
        rng,
        terse=f"Open an RD: {said} a month, {months} months. Rate first.",
        chatty=f"Hi! I want to get into the habit of saving, so I'd like to start a recurring "
        f"deposit of {said} a month for {months} months. What rate will I get?",
        formal=f"Good day. I wish to open a recurring deposit of {said} per month for "
        f"{months} months. Kindly inform me of the rate first.",
        hinglish=f"Namaste, har mahine {said} ka RD start karna hai, {months} months ke liye. "
        "Rate kya milega?",
        unprompted=f"Please open an RD of {said} monthly for {months} months from "
        f"{my_account(account)}. Tell me the rate first.",
        asked="I'd like to open a recurring deposit. Tell me the rate first.",
        wedding=f"I'm saving up for my daughter's wedding - please start an RD of {said} a "
        f"month for {months} months. What's the rate?",
    )
    return draft(
        customer,
        "",
        ask,
        facts=[
            knows(f"{said} a month for {months} months.", "amount", "tenure"),
            knows(f"Debit the instalments from {my_account(account)}.", "account"),
        ],
        narrative=(
            f"You want an RD of {indian(instalment)} a month for {months} months from "
            f"account {account['account_number']}; ask for the rate first."
        ),
        calls=[
            profile(customer["customer_id"], ("kyc_status",)),
            Call("get_deposit_rate_card"),
            Call(
                "create_rd",
                {
                    "from_account": account["account_number"],
                    "monthly_instalment": rupees_arg(instalment),
                    "tenure_months": months,
                },
                match=("from_account", "monthly_instalment", "tenure_months"),
                after=("c2",),
            ),
        ],
        outputs=[Out("rate", "percent", lambda r: str(r["c3"]["rate_percent"]))],
        disclosures=[Tell("c3", "rate", "percent", lambda r: str(r["c3"]["rate_percent"]))],
    )
