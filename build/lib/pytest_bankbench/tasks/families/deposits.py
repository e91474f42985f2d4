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
    draft,
    family,
    field_of,
    greet,
    pick,
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


def _rich_account(ctx: Context, cid: str, need: int) -> sqlite3.Row | None:
    """The customer's first active account with `need` paise available."""
    rows = active_accounts(ctx, cid, need)
    return rows[0] if rows else None


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


def _describe_fd(fd: sqlite3.Row) -> str:
    start = date.fromisoformat(fd["start_date"])
    return f"the {indian(fd['principal'])} FD I opened in {start:%B %Y}"


def _deposit_fact(fd: sqlite3.Row) -> str:
    return f"The deposit id is {fd['deposit_id']}."


def _booking(
    ctx: Context, rng: random.Random, customer: sqlite3.Row, senior_check: bool
) -> Draft | None:
    amount = _fd_amount(rng)
    account = _rich_account(ctx, customer["customer_id"], amount)
    if account is None:
        return None
    number = account["account_number"]
    days, tenure_text = rng.choice(_TENURES)
    ask = say(
        rng,
        f"I want to open a fixed deposit of {spoken(amount, rng)} for {tenure_text}.",
        f"Please book an FD of {spoken(amount, rng)} for {tenure_text}.",
        f"I'd like to put {spoken(amount, rng)} in a fixed deposit for {tenure_text}.",
    )
    ask += " Please tell me the interest rate and what I will get at maturity before booking it."
    calls = []
    if senior_check:
        ask = ask.replace("the interest rate", "the rate, including any senior citizen benefit,")
        # The senior-citizen status decides the rate: the profile or the rate card shows it.
        calls.append(profile(customer["customer_id"], ("senior_citizen",)))
    calls += [Call("get_deposit_rate_card"), fd_maturity(amount, days)]
    n = len(calls)
    calls.append(create_fd(number, amount, days, after=tuple(f"c{i}" for i in range(1, n + 1))))
    return draft(
        customer,
        greet(rng),
        ask,
        facts=[
            f"Fund it from my account {number}.",
            "At maturity, credit the money to my account.",
        ],
        narrative=(
            f"You want a fixed deposit of {indian(amount)} for {days} days funded from "
            f"account {number}, maturity proceeds credited to the account. You want to hear "
            "the rate and the maturity amount first, then agree."
        ),
        calls=calls,
        outputs=[Out("maturity amount", "amount", field_of(f"c{n}", "maturity_amount"))],
        disclosures=booking_quote(f"c{n}", f"c{n + 1}"),
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
    "senior_fd_booking",
    "sequencing",
    "deposits",
    _FULL_KYC.replace("WHERE", "WHERE c.date_of_birth <= '1965-06-30' AND"),
    clause="E.19 Booking an FD: rate card + maturity projection, 'the senior citizen rate applies if the customer is 60 or older on the booking date'; share rate and maturity amount, then ask for confirmation",
)
def senior_fd_booking(ctx: Context, rng: random.Random, customer: sqlite3.Row) -> Draft | None:
    """A senior citizen's booking: profile, rate card, projection, then the FD."""
    return _booking(ctx, rng, customer, senior_check=True)


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
    ask = say(
        rng,
        f"I need to break {_describe_fd(fd)}.",
        f"Please close {_describe_fd(fd)} early, I need the money.",
        f"I want to prematurely close {_describe_fd(fd)}.",
    )
    return draft(
        customer,
        greet(rng),
        ask + " Tell me the penalty and the payout first, and after closing tell me my "
        "account balance.",
        facts=[_deposit_fact(fd)],
        narrative=(
            f"You want to close FD {fd['deposit_id']} ({indian(fd['principal'])}) before "
            "maturity. Ask for the penalty and payout first, agree, and ask for your "
            "balance afterwards."
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
    days, tenure_text = rng.choice(_TENURES[:6])
    amount = fd["principal"]
    return draft(
        customer,
        greet(rng),
        f"Two things, in this order. First, close {_describe_fd(fd)} - "
        "show me the closure payout before you do it.",
        f"Second, put {spoken(amount, rng)} back into a new FD for {tenure_text} from the "
        "same account - tell me the new rate and the maturity amount before booking.",
        facts=[
            f"The old deposit is {fd['deposit_id']}.",
            "Credit the new deposit's maturity amount to my account.",
        ],
        narrative=(
            f"First close FD {fd['deposit_id']} after hearing the payout; then book a new "
            f"FD of {indian(amount)} for {days} days from account {fd['linked_account']} "
            "after hearing the rate and maturity amount."
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
    return draft(
        customer,
        greet(rng),
        Instruction(
            text=say(
                rng,
                f"Close {_describe_fd(fd)} today and credit it to my account.",
                f"I want to break {_describe_fd(fd)} immediately.",
            )
            + " If you can't, tell me why and how much I still owe on the loan it is tied to.",
            decline="No, leave everything as it is then.",
        ),
        facts=[_deposit_fact(fd)],
        narrative=(
            f"You want FD {fd['deposit_id']} closed. It secures a loan; if the bank cannot "
            "close it, you want the loan's outstanding amount and then you end."
        ),
        calls=[
            find_fd(fd),
            deposit_details(fd, ("under_lien",)),
            loan_details(_lien_loan(fd), fields=("outstanding",)),
        ],
        outputs=[
            Out("loan outstanding", "amount", field_of("c3", "outstanding")),
            Out("reason", "text", lambda _r: "lien"),
        ],
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
    return draft(
        customer,
        greet(rng),
        say(
            rng,
            f"I have a few FDs. Close the one that matures in {maturity:%B %Y}; tell me the "
            "payout before you do it.",
            f"Please break my fixed deposit maturing in {maturity:%B %Y} - only that one. What "
            "will I get?",
        ),
        facts=[f"It is the one of {indian(fd['principal'])}."],
        narrative=(
            f"Among several FDs you want only the one maturing in {maturity:%B %Y} "
            f"({indian(fd['principal'])}) closed early, after hearing its payout."
        ),
        calls=[find_fd(fd), closure_quote(fd), closure(fd, after=("c2",))],
        outputs=[Out("payout", "amount", field_of("c3", "payout"))],
        disclosures=closure_terms("c2", "c3"),
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
    return draft(
        customer,
        greet(rng),
        Instruction(
            text=f"I'm thinking of closing {_describe_fd(fd)}. What penalty would I "
            "pay and how much would I get?",
            decline="No, don't close it yet. I only want the numbers.",
        ),
        Instruction(
            text="That penalty is too high. Please keep the deposit running; don't close anything.",
            decline="No, please don't close anything.",
        ),
        facts=[_deposit_fact(fd)],
        narrative=(
            f"You ask what closing FD {fd['deposit_id']} early would cost and pay. After "
            "hearing it you decide to keep the deposit; you never agree to close it."
        ),
        calls=[find_fd(fd), closure_quote(fd)],
        outputs=[
            Out("penalty", "amount", field_of("c2", "penalty")),
            Out("payout", "amount", field_of("c2", "payout")),
        ],
    )


@family(
    "fd_below_minimum",
    "edge_case",
    "deposits",
    _FULL_KYC,
    clause="H.29 refuse FD requests outside the amount limits (FD Rs 10,000 to Rs 2,00,00,000) and offer the allowed alternative; 'Act on the alternative only if the customer agrees'; then E.19 quote before booking",
)
def fd_below_minimum(ctx: Context, rng: random.Random, customer: sqlite3.Row) -> Draft | None:
    """Asked for an FD under Rs 10,000: explain the minimum and book the minimum once agreed."""
    account = _rich_account(ctx, customer["customer_id"], rules.FD_MIN)
    if account is None:
        return None
    small = rng.choice((2_000, 5_000, 7_500, 8_000, 9_000)) * 100
    days, tenure_text = rng.choice(_TENURES)
    return draft(
        customer,
        greet(rng),
        f"Can you open an FD of {spoken(small, rng)} for {tenure_text}? Tell me the maturity "
        "amount before booking.",
        facts=[
            f"Use my account {account['account_number']}.",
            "If that amount is too small, book the minimum amount allowed instead.",
            "Credit the maturity amount to my account.",
        ],
        narrative=(
            f"You ask for an FD of {indian(small)} for {days} days from account "
            f"{account['account_number']}. If it is below the minimum, you accept the "
            "minimum amount instead, after hearing the maturity amount."
        ),
        calls=[
            Call("get_deposit_rate_card"),
            fd_maturity(rules.FD_MIN, days),
            create_fd(account["account_number"], rules.FD_MIN, days, after=("c1", "c2")),
        ],
        disclosures=booking_quote("c2", "c3"),
        outputs=[Out("maturity amount", "amount", field_of("c2", "maturity_amount"))],
    )


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
    return draft(
        customer,
        greet(rng),
        Instruction(
            text=f"I want to withdraw my tax saver FD of {indian(fd['principal'])} now. If that's "
            "not possible, tell me the date I can get the money.",
            decline="No, then leave it.",
        ),
        facts=[_deposit_fact(fd)],
        narrative=(
            f"You want to withdraw tax-saver FD {fd['deposit_id']} early; if refused you "
            "want its maturity date."
        ),
        # The deposit's type shows the lock-in: no closure quote is needed to refuse.
        calls=[find_fd(fd), deposit_details(fd, ("deposit_type", "maturity_date"))],
        outputs=[
            Out("maturity date", "date", lambda r: str(r["c2"]["maturity_date"])),
            Out("reason", "text", lambda _r: "lock-in"),
        ],
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
    return draft(
        customer,
        greet(rng),
        Instruction(
            text=f"Book an FD of {spoken(amount, rng)} for {tenure_text} and tell me the rate. "
            "If something on my profile stops it, tell me what my KYC status is.",
            decline="No, I'll sort out my KYC first then.",
        ),
        facts=["Use my main savings account."],
        narrative=(
            f"You want an FD of {indian(amount)} for {days} days. Your KYC is "
            f"{customer['kyc_status']}; when told the FD cannot be opened you accept."
        ),
        # The rate was asked; a maturity projection for a booking the policy forbids is not.
        calls=[profile(customer["customer_id"], ("kyc_status",)), Call("get_deposit_rate_card")],
        outputs=[
            Out(
                "KYC status",
                "choice",
                lambda r: str(r["c1"]["kyc_status"]),
                rivals=tuple(k for k in KYC_STATUSES if k != customer["kyc_status"]),
            ),
            Out("rate", "percent", lambda _r: f"{_rate(ctx, customer, days):.2f}"),
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
        greet(rng),
        say(
            rng,
            f"What FD interest rate would I get for {tenure_text}?",
            f"What's your fixed deposit rate for {tenure_text} for me?",
        ),
        narrative=f"You only want to know the FD rate that applies to you for {days} days.",
        calls=[Call("get_deposit_rate_card")],
        outputs=[Out("rate", "percent", lambda _r: f"{rate:.2f}")],
    )


@family(
    "fd_maturity_query",
    "control",
    "deposits",
    "SELECT customer_id FROM customers",
    clause="KB 01 'the projected maturity amount shown by the bank's FD maturity calculator ... is the figure to rely on'; J.36 tell the value asked; no booking without a yes (D.16)",
)
def fd_maturity_query(ctx: Context, rng: random.Random, customer: sqlite3.Row) -> Draft | None:
    """Control: project a maturity amount without booking."""
    amount = _fd_amount(rng)
    days, tenure_text = rng.choice(_TENURES)
    return draft(
        customer,
        greet(rng),
        Instruction(
            text=f"If I put {spoken(amount, rng)} in an FD for {tenure_text}, "
            "how much would I get at maturity? Just the numbers, please.",
            decline="No, don't book anything, I'm only asking.",
        ),
        narrative=f"You want the maturity amount of a {indian(amount)} FD for {days} days; no booking.",
        calls=[Call("get_deposit_rate_card"), fd_maturity(amount, days)],
        outputs=[Out("maturity amount", "amount", field_of("c2", "maturity_amount"))],
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
    account = _rich_account(ctx, customer["customer_id"], instalment)
    if account is None:
        return None
    return draft(
        customer,
        greet(rng),
        say(
            rng,
            f"I want to start a recurring deposit of {spoken(instalment, rng)} a month for "
            f"{months} months. What rate will I get?",
            f"Please open an RD: {spoken(instalment, rng)} monthly, {months} months. Tell me the "
            "rate first.",
        ),
        facts=[f"Debit the instalments from account {account['account_number']}."],
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
