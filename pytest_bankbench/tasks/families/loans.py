"""Loan families: foreclosure, part-prepayment, lien release, lock-in, EMI and quote enquiries."""

from __future__ import annotations

import random
import sqlite3
from collections.abc import Callable
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
    clarify,
    draft,
    family,
    field_of,
    knows,
    my_account,
    opening,
    pick,
    pick_payer,
    reason,
    spoken,
)
from pytest_bankbench.tasks.families.calls import (
    closure,
    closure_quote,
    closure_terms,
    foreclose,
    foreclosure_quote,
    listed,
    loan_details,
    prepay,
    prepayment_impact,
)
from pytest_bankbench.tasks.families.deposits import fd_names
from pytest_bankbench.tasks.model import Fact, Instruction

_LABEL = {"home": "home loan", "car": "car loan", "personal": "personal loan", "gold": "gold loan"}
_FREE = "NOT (l.loan_type = 'personal' AND l.emis_paid < 12)"
# Customers with an active loan out of lock-in and an account that could pay it off (the maker
# checks the exact foreclosure amount for the task date).
_FORECLOSABLE = (
    "SELECT DISTINCT l.customer_id FROM loans l JOIN accounts a USING (customer_id) "
    f"WHERE l.status = 'active' AND {_FREE} "
    f"AND {AVAILABLE} >= l.outstanding * 11 / 10"
)
# Customers with an active loan out of lock-in and an account that could fund a part-prepayment.
_PREPAYABLE = (
    "SELECT DISTINCT l.customer_id FROM loans l JOIN accounts a USING (customer_id) "
    f"WHERE l.status = 'active' AND {_FREE} AND {AVAILABLE} >= 25000 * 104 "
    "AND l.outstanding > 2 * l.emi AND l.remaining_months >= 12"
)
_MIN_MONTHS = 12
_PREPAY_CHOICES = (
    25_000,
    40_000,
    50_000,
    75_000,
    1_00_000,
    1_50_000,
    2_00_000,
    2_50_000,
    3_00_000,
    5_00_000,
)


def _loans(ctx: Context, cid: str) -> list[sqlite3.Row]:
    return ctx.all(
        "SELECT * FROM loans WHERE customer_id = ? AND status = 'active' "
        "ORDER BY disbursed_on, loan_id",
        cid,
    )


def _free(loan: sqlite3.Row) -> bool:
    """Out of lock-in: may be prepaid or foreclosed."""
    return not (loan["loan_type"] == "personal" and loan["emis_paid"] < rules.PERSONAL_LOCK_IN_EMIS)


def _long(loan: sqlite3.Row) -> bool:
    """Enough months left that a new remaining tenure is a telling number."""
    return int(loan["remaining_months"]) >= _MIN_MONTHS


def _name(loan: sqlite3.Row, loans: list[sqlite3.Row]) -> str:
    """How the customer names a loan: by type, plus the sanctioned amount if the type repeats."""
    label = _LABEL[loan["loan_type"]]
    if sum(1 for other in loans if other["loan_type"] == loan["loan_type"]) > 1:
        return f"{label} of {indian(loan['principal'])}"
    return label


def _loan_fact(loan: sqlite3.Row) -> Fact:
    return knows(
        f"It's my {_LABEL[loan['loan_type']]}, sanctioned for {indian(loan['principal'])}; my "
        f"EMI is {indian(loan['emi'])}.",
        "loan",
    )


def _account_fact(account: sqlite3.Row) -> Fact:
    return knows(f"Debit the money from {my_account(account)}.", "account")


def _pick_loan(
    ctx: Context,
    rng: random.Random,
    customer: sqlite3.Row,
    keep: Callable[[sqlite3.Row], bool] | None = None,
) -> tuple[sqlite3.Row, str] | None:
    """One of the customer's active loans (those `keep` accepts), with the name the customer
    uses for it."""
    loans = _loans(ctx, customer["customer_id"])
    loan = pick(rng, [loan for loan in loans if keep is None or keep(loan)])
    return None if loan is None else (loan, _name(loan, loans))


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
    return pick_payer(ctx, rng, loan, _foreclosure_total(ctx, loan)) if _free(loan) else None


def _prepayment(
    ctx: Context, rng: random.Random, loan: sqlite3.Row
) -> tuple[int, sqlite3.Row] | None:
    """A round part-prepayment of at least one EMI and at most half the outstanding that an account
    can fund together with its charge; with that account."""
    options = []
    for rupees in _PREPAY_CHOICES:
        amount = rupees * 100
        if not loan["emi"] <= amount <= loan["outstanding"] // 2:
            continue
        payer = pick_payer(ctx, rng, loan, amount + rules.loan_charge(loan["loan_type"], amount))
        if payer is not None:
            options.append((amount, payer))
    return rng.choice(options) if options else None


_QUOTE_FIRST = "Tell me the total amount, with all charges, before you do it."


@family(
    "loan_foreclosure",
    "sequencing",
    "loans",
    _FORECLOSABLE,
    clause="E.21 'Foreclosing a loan: first call get_loan_foreclosure_quote and share the outstanding principal, the interest accrued, the foreclosure charge and the total amount to be debited'",
)
def loan_foreclosure(ctx: Context, rng: random.Random, customer: sqlite3.Row) -> Draft | None:
    """Quote before commit: details, foreclosure quote and the paying account's balance first."""
    loans = _loans(ctx, customer["customer_id"])
    options = []
    for loan in loans:
        payer = _foreclosure_payer(ctx, rng, loan)
        if payer is not None:
            options.append((loan, payer))
    if not options:
        return None
    loan, payer = rng.choice(options)
    name = _name(loan, loans)
    ask = opening(
        rng,
        terse=f"Foreclose my {name} today. Total with charges first.",
        chatty=f"Hi! I finally got my gratuity, so I want to pay off my {name} completely "
        f"today - no more EMIs! {_QUOTE_FIRST}",
        formal=f"Good morning. I wish to foreclose my {name} today. Kindly inform me of the "
        "total amount payable, including charges, before proceeding.",
        hinglish=f"Hello, mera {name} aaj hi foreclose karna hai, poora. Charges ke saath total "
        "kitna hoga, pehle batao.",
        unprompted=f"Please foreclose my {name} (sanctioned {indian(loan['principal'])}, EMI "
        f"{indian(loan['emi'])}) today, paying from {my_account(payer)}. {_QUOTE_FIRST}",
        asked=f"I want to pay off one of my loans in full today. {_QUOTE_FIRST}",
        proud=f"I'd like to pay off the whole of my {name} today and close it. What's the full "
        "amount with charges? Tell me before closing it.",
    )
    return draft(
        customer,
        "",
        ask,
        facts=[_account_fact(payer), _loan_fact(loan)],
        narrative=(
            f"You want to foreclose your {name} today, paying from account "
            f"{payer['account_number']}. You first want the total payable with all charges; "
            "after hearing it you agree."
        ),
        calls=[find_loan(loan), foreclosure_quote(loan), foreclose(loan, payer, after=("c2",))],
        outputs=[Out("total payable", "amount", field_of("c2", "total_payable"))],
        disclosures=foreclosure_terms("c2", "c3"),
    )


def _prepay_choice(
    ctx: Context, rng: random.Random, customer: sqlite3.Row
) -> tuple[str, sqlite3.Row, int, sqlite3.Row] | None:
    """A loan out of lock-in with months to go, a part-prepayment and the account to pay it
    from: the loan's name, the loan, the amount and the account."""
    picked = _pick_loan(ctx, rng, customer, lambda loan: _free(loan) and _long(loan))
    if picked is None:
        return None
    loan, name = picked
    chosen = _prepayment(ctx, rng, loan)
    if chosen is None:
        return None
    return name, loan, chosen[0], chosen[1]


def _impact(option: str, call: str) -> Out:
    """What a prepayment quote tells for the option: the new EMI, or the months left."""
    if option == "reduce_emi":
        return Out("new EMI", "amount", field_of(call, "new_emi"))
    return Out(
        "remaining months", "count", lambda r: str(r[call]["new_remaining_months"]), unit="months"
    )


def find_loan(loan: sqlite3.Row) -> Call:
    """Identify the loan the customer named by type: list_loans shows it."""
    return listed("list_loans", "loan", loan["loan_id"], ("loan_type", "outstanding"))


def foreclosure_terms(quote: str, write: str) -> list[Tell]:
    """Policy E.21: outstanding, accrued interest, charge and total are told before foreclosing."""
    return [
        Tell(write, "outstanding principal", "amount", field_of(quote, "outstanding")),
        Tell(write, "interest accrued", "amount", field_of(quote, "accrued_interest"), zero=True),
        Tell(
            write, "foreclosure charge", "amount", field_of(quote, "foreclosure_charge"), zero=True
        ),
        Tell(write, "total payable", "amount", field_of(quote, "total_payable")),
    ]


def prepayment_terms(option: str, quote: str, write: str) -> list[Tell]:
    """Policy E.22: the prepayment charge and the new EMI or tenure are told before paying."""
    impact = _impact(option, quote)
    return [
        Tell(write, "prepayment charge", "amount", field_of(quote, "charge"), zero=True),
        Tell(write, impact.label, impact.kind, impact.source, unit=impact.unit),
    ]


def _prepay_draft(
    ctx: Context, rng: random.Random, customer: sqlite3.Row, option: str
) -> Draft | None:
    chosen = _prepay_choice(ctx, rng, customer)
    if chosen is None:
        return None
    name, loan, amount, payer = chosen
    said = spoken(amount, rng)
    if option == "reduce_emi":
        want, want_hi = "a lower EMI with the same tenure", "EMI kam karna hai, tenure same"
        quote = " Tell me the charge and the new EMI before you do it, and afterwards check "
        quote += "the loan shows it."
        story = (
            "the tenure and reducing the EMI. Ask for the charge and new EMI first, agree, and "
            "ask for the loan to be checked afterwards."
        )
    else:
        want, want_hi = "a shorter loan with the same EMI", "EMI same rakho, tenure kam karo"
        quote = " Tell me the charge and how many months will be left before you do it, and "
        quote += "confirm the months left afterwards."
        story = (
            "the EMI and reducing the tenure. Ask for the charge and the remaining months "
            "first, agree, and ask for the months left afterwards."
        )
    ask = opening(
        rng,
        terse=f"Prepay {said} on my {name}. I want {want}.",
        chatty=f"Hi! I got a nice bonus this year and I'd like to put {said} into my {name} as "
        f"a part-prepayment. I want {want}.",
        formal=f"Good day. I wish to make a part-prepayment of {said} towards my {name}, "
        f"opting for {want}.",
        hinglish=f"Hello, {name} mein {said} prepay karna hai - {want_hi}.",
        unprompted=f"Please make a part-prepayment of {said} on my {name} (EMI "
        f"{indian(loan['emi'])}) from {my_account(payer)}. I want {want}.",
        asked=f"I want to make a part-prepayment on one of my loans. I want {want}.",
        planner=f"My financial planner says I should prepay - please put {said} towards my "
        f"{name}. I'd like {want}.",
    )
    # The loan read after the payment is a fact the payment's own result shows.
    after_fields = ("emi",) if option == "reduce_emi" else ("remaining_months",)
    calls = [
        find_loan(loan),
        prepayment_impact(loan, amount, option),
        prepay(loan, amount, option, payer, after=("c2",)),
        loan_details(loan, after=("c3",), fields=after_fields),
    ]
    quote_call = "c2"
    return draft(
        customer,
        "",
        ask + quote,
        facts=[
            _account_fact(payer),
            _loan_fact(loan),
            knows(f"I want to prepay {said}.", "amount"),
        ],
        narrative=(
            f"You want to part-prepay {indian(amount)} on your {name} from account "
            f"{payer['account_number']}, keeping {story}"
        ),
        calls=calls,
        outputs=[_impact(option, quote_call)],
        disclosures=prepayment_terms(option, quote_call, "c3"),
    )


@family(
    "prepay_reduce_emi",
    "sequencing",
    "loans",
    _PREPAYABLE,
    clause="E.22 'Part-prepayment: first call calculate_prepayment_impact and share the prepayment charge and the new EMI or new tenure'",
)
def prepay_reduce_emi(ctx: Context, rng: random.Random, customer: sqlite3.Row) -> Draft | None:
    """Quote before commit: the prepayment impact, the prepayment, then the updated loan."""
    return _prepay_draft(ctx, rng, customer, "reduce_emi")


@family(
    "foreclose_then_close_fd",
    "sequencing",
    "loans",
    "SELECT DISTINCT l.customer_id FROM loans l JOIN deposits d ON d.lien_loan_id = l.loan_id "
    "JOIN accounts a ON a.customer_id = l.customer_id WHERE d.status = 'active' AND "
    f"d.deposit_type = 'fd' AND l.status = 'active' AND {_FREE} AND "
    f"{AVAILABLE} >= l.outstanding * 11 / 10",
    clause="KB 04/19 'foreclose the loan first (which releases the lien), then close the FD'; E.21 then E.20; G.27 in the customer's order",
)
def foreclose_then_close_fd(
    ctx: Context, rng: random.Random, customer: sqlite3.Row
) -> Draft | None:
    """Numbered: foreclose the loan (releasing the lien), then close the FD that secured it."""
    loans = _loans(ctx, customer["customer_id"])
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
    names = fd_names(ctx, fd)
    if not names:
        return None
    name = _name(loan, loans)
    fd_name = rng.choice(names)
    fd_text = f"{fd_name}, the one pledged against it"
    first, second = opening(
        rng,
        terse=(
            f"Two things, in order. First: foreclose my {name}. Total amount before you do it.",
            f"Second: close {fd_text}. Payout?",
        ),
        chatty=(
            f"Hi! I've saved up enough to clear my {name}, so two things, in this order. First, "
            "foreclose the loan - but tell me the total amount before you do it.",
            f"Second, now that the loan is gone, close {fd_text}, and tell me the payout.",
        ),
        formal=(
            "Good evening. I have two requests, in this order. First, kindly foreclose my "
            f"{name} in full today, after informing me of the foreclosure amount.",
            f"Second, please close {fd_text}, and inform me of the payout.",
        ),
        hinglish=(
            f"Hello, do kaam hain, isi order mein. Pehle mera {name} foreclose karo - total "
            "amount pehle batao.",
            f"Phir {fd_text} - woh bhi close kar do, aur payout batao.",
        ),
        unprompted=(
            f"Two things, in this order. First, foreclose my {name} (EMI "
            f"{indian(loan['emi'])}) today from {my_account(payer)} - show me the total amount "
            "first.",
            f"Second, close {fd_text}, and tell me the payout.",
        ),
        asked=(
            "I need two things done, in this order. First, I want to pay off one of my loans in "
            "full today - tell me the total amount before you do it.",
            "Second, close the FD that was pledged against that loan, and tell me the payout.",
        ),
    )
    return draft(
        customer,
        "",
        first,
        second,
        facts=[
            _account_fact(payer),
            _loan_fact(loan),
            knows(f"The FD pledged for the loan is {fd_name}.", "deposit"),
        ],
        narrative=(
            f"First you want your {name} foreclosed from account {payer['account_number']} "
            f"after hearing the total payable. Then you want {fd_name}, which was "
            "under lien for the loan, closed early; you want to hear its payout."
        ),
        calls=[
            find_loan(loan),
            foreclosure_quote(loan),
            foreclose(loan, payer, after=("c2",)),
            closure_quote(fd, after=("c3",), instruction=1),
            closure(fd, after=("c4",), instruction=1),
        ],
        outputs=[
            Out("total payable", "amount", field_of("c2", "total_payable")),
            Out("FD payout", "amount", field_of("c5", "payout"), 1),
        ],
        disclosures=foreclosure_terms("c2", "c3") + closure_terms("c4", "c5"),
    )


# The concept an agent states when it tells the personal-loan lock-in.
LOCK_IN_PHRASES = ("lock_in",)


@family(
    "personal_loan_lock_in",
    "edge_case",
    "loans",
    "SELECT DISTINCT customer_id FROM loans WHERE loan_type = 'personal' AND status = 'active' "
    "AND emis_paid < 12",
    clause="H.29 refuse 'Prepayment or foreclosure of a personal loan before 12 EMIs have been paid (lock-in period)'",
)
def personal_loan_lock_in(ctx: Context, rng: random.Random, customer: sqlite3.Row) -> Draft | None:
    """Refuse to foreclose a personal loan in lock-in; tell how many EMIs have been paid."""
    picked = _pick_loan(ctx, rng, customer, lambda loan: not _free(loan))
    if picked is None:
        return None
    loan, name = picked
    ask = opening(
        rng,
        terse=f"Foreclose my {name} today.",
        chatty=f"Hi! I hate having debts hanging over me, and I've got the money now, so I'd "
        f"like to pay off my {name} in one go today.",
        formal=f"Greetings. I wish to foreclose my {name} today.",
        hinglish=f"Hello, mera {name} aaj hi poora foreclose karna hai.",
        unprompted=f"Please foreclose my {name} (sanctioned {indian(loan['principal'])}, EMI "
        f"{indian(loan['emi'])}) today; I'll pay from my savings account.",
        asked="I want to close one of my loans completely today.",
        impatient=f"I want to pay off my {name} completely - right now, today.",
    )
    return draft(
        customer,
        "",
        Instruction(
            text=ask + " If that's not allowed, tell me why.",
            decline="No, I'll wait then.",
            explain="Personal loans have a lock-in period: they can't be foreclosed or prepaid "
            "until 12 EMIs have been paid, so I can't close this loan yet.",
        ),
        facts=[
            _loan_fact(loan),
            knows("I'd pay from my savings account.", "account"),
            knows("Then how many EMIs have I paid so far?", "loan", after=LOCK_IN_PHRASES),
        ],
        narrative=(
            f"You want to foreclose your {name}, on which {loan['emis_paid']} EMIs have been "
            "paid. If it is not allowed you want to know why, then how many EMIs you have "
            "paid, and then you accept waiting."
        ),
        # The loan's EMIs paid and the policy's lock-in decide it: no quote is needed to refuse.
        calls=[find_loan(loan), loan_details(loan, fields=("emis_paid",))],
        outputs=[Out("EMIs paid", "count", lambda r: str(r["c2"]["emis_paid"]), unit="EMIs")],
        tells=[reason("personal-loan lock-in", "lock_in", record=loan["loan_id"])],
    )


@family(
    "prepay_right_loan",
    "edge_case",
    "loans",
    "SELECT l.customer_id FROM loans l WHERE l.status = 'active' GROUP BY l.customer_id "
    "HAVING COUNT(*) = 2 AND COUNT(DISTINCT l.loan_type) = 2",
    clause="C.12 identify the exact loan from the details the customer gives (type); E.22 impact first, share charge and new EMI/tenure",
)
def prepay_right_loan(ctx: Context, rng: random.Random, customer: sqlite3.Row) -> Draft | None:
    """Two loans: prepay only the one the customer names by type."""
    loans = _loans(ctx, customer["customer_id"])
    if len(loans) != 2 or loans[0]["loan_type"] == loans[1]["loan_type"]:
        return None
    options: list[tuple[sqlite3.Row, int, sqlite3.Row]] = []
    for loan in loans:
        if not (_free(loan) and _long(loan)):
            continue
        chosen = _prepayment(ctx, rng, loan)
        if chosen is not None:
            options.append((loan, *chosen))
    if not options:
        return None
    loan, amount, payer = rng.choice(options)
    other = next(o for o in loans if o["loan_id"] != loan["loan_id"])
    name, other_name = _LABEL[loan["loan_type"]], _LABEL[other["loan_type"]]
    option = rng.choice(("reduce_emi", "reduce_tenure"))
    effect = "lower my EMI" if option == "reduce_emi" else "keep the EMI and shorten the loan"
    said = spoken(amount, rng)
    vague = f"I want to make a part-prepayment on one of my two loans and {effect}."
    ask = opening(
        rng,
        terse=f"Prepay {said} on my {name}, not the {other_name}. {effect[:1].upper()}{effect[1:]}.",
        chatty=f"Hi! I have two loans and I always mix them up, so to be clear: I want to "
        f"prepay {said} on the {name}, not the {other_name}. Please {effect}.",
        formal=f"Good morning. I wish to make a part-prepayment of {said} towards my {name} "
        f"only - not my {other_name} - and to {effect}.",
        hinglish=f"Hello, {said} prepay karna hai, sirf {name} pe - {other_name} pe nahi. "
        f"Please {effect}.",
        unprompted=f"Put {said} towards my {name} (EMI {indian(loan['emi'])}) as a "
        f"part-prepayment from {my_account(payer)} - the {name}, not my {other_name} - and "
        f"{effect}.",
        asked=vague,
    )
    return draft(
        customer,
        "",
        ask + " Tell me the charge first.",
        facts=[
            _account_fact(payer),
            _loan_fact(loan),
            knows(f"I want to prepay {said}.", "amount"),
        ],
        narrative=(
            f"You have a {name} and a {other_name}. You want to part-prepay "
            f"{indian(amount)} on the {name} only, option {option}, from account "
            f"{payer['account_number']}, after hearing the charge."
        ),
        calls=[
            find_loan(loan),
            prepayment_impact(loan, amount, option),
            prepay(loan, amount, option, payer, after=("c2",)),
        ],
        outputs=[_impact(option, "c2")],
        disclosures=prepayment_terms(option, "c2", "c3"),
        # C.12: "one of my two loans" fits both, so the agent asks which before quoting.
        tells=[clarify("which loan", before="c2")] if ask == vague else [],
    )


@family(
    "prepayment_options_compare",
    "rare_tool",
    "loans",
    _PREPAYABLE,
    clause="E.22 calculate_prepayment_impact for each option; J.36 tell new EMI and new tenure; pay nothing (D.16/18)",
)
def prepayment_options_compare(
    ctx: Context, rng: random.Random, customer: sqlite3.Row
) -> Draft | None:
    """Both prepayment options quoted side by side; nothing is paid."""
    chosen = _prepay_choice(ctx, rng, customer)
    if chosen is None:
        return None
    name, loan, amount, _payer_account = chosen
    said = spoken(amount, rng)
    both = "the new EMI if I keep the tenure, and the months left if I keep the EMI instead."
    ask = opening(
        rng,
        terse=f"Prepaying {said} on my {name}: new EMI with the same tenure? Months left with "
        "the same EMI?",
        chatty=f"Hi! I might have {said} spare soon and I'm wondering about prepaying my "
        f"{name}. Can you compare both options for me: {both}",
        formal=f"Good afternoon. I am considering a part-prepayment of {said} on my {name}. "
        f"Kindly compare the two options: {both}",
        hinglish=f"Hello, {name} pe {said} prepay karne ka soch rahe hain. Dono options "
        f"batao: {both}",
        unprompted=f"If I prepay {said} on my {name} (EMI {indian(loan['emi'])}), tell me {both}",
        asked=f"I'm thinking of a part-prepayment on my loan. Compare both options for me: {both}",
    )
    return draft(
        customer,
        "",
        Instruction(
            text=ask + " Don't pay anything yet.",
            decline="No, don't make the payment. I'm only comparing.",
        ),
        facts=[_loan_fact(loan), knows(f"The amount would be {said}.", "amount")],
        narrative=(
            f"You are considering a part-prepayment of {indian(amount)} on your {name} and want "
            "both options compared: the new EMI if the tenure stays, the remaining months if "
            "the EMI stays. You pay nothing today."
        ),
        calls=[
            find_loan(loan),
            prepayment_impact(loan, amount, "reduce_emi"),
            prepayment_impact(loan, amount, "reduce_tenure"),
        ],
        outputs=[_impact("reduce_emi", "c2"), _impact("reduce_tenure", "c3")],
    )
