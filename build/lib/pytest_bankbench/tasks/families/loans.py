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
    active_accounts,
    draft,
    family,
    field_of,
    greet,
    my_account,
    paying_account,
    pick,
    say,
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
from pytest_bankbench.tasks.model import Instruction

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


def _loan_fact(loan: sqlite3.Row) -> str:
    return (
        f"The {_LABEL[loan['loan_type']]} was sanctioned for {indian(loan['principal'])}; my "
        f"EMI is {indian(loan['emi'])}."
    )


def _account_fact(account: sqlite3.Row) -> str:
    return f"Debit the money from {my_account(account)}."


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


def _foreclosure_payer(ctx: Context, loan: sqlite3.Row) -> sqlite3.Row | None:
    """The account that can pay off a loan out of lock-in today, or None."""
    return paying_account(ctx, loan, _foreclosure_total(ctx, loan)) if _free(loan) else None


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
        payer = paying_account(ctx, loan, amount + rules.loan_charge(loan["loan_type"], amount))
        if payer is not None:
            options.append((amount, payer))
    return rng.choice(options) if options else None


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
        payer = _foreclosure_payer(ctx, loan)
        if payer is not None:
            options.append((loan, payer))
    if not options:
        return None
    loan, payer = rng.choice(options)
    name = _name(loan, loans)
    ask = say(
        rng,
        f"I want to close my {name} completely today.",
        f"Please foreclose my {name}; I want to pay it off in full now.",
        f"I'd like to pay off the whole of my {name} today and close it.",
    )
    ask += say(
        rng,
        " Tell me the total amount including charges before you do it.",
        " What is the full amount I have to pay, with charges? Tell me before closing it.",
    )
    return draft(
        customer,
        greet(rng),
        ask,
        facts=[_account_fact(payer), _loan_fact(loan)],
        narrative=(
            f"You want to foreclose your {name} (loan {loan['loan_id']}) today, paying from "
            f"account {payer['account_number']}. You first want the total payable with all "
            "charges; after hearing it you agree."
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
    if option == "reduce_emi":
        ask = say(
            rng,
            f"I want to prepay {spoken(amount, rng)} on my {name} and bring the EMI down, "
            "keeping the same tenure.",
            f"Please make a part-prepayment of {spoken(amount, rng)} towards my {name}. I want "
            "a lower EMI, not a shorter loan.",
            f"I have {spoken(amount, rng)} to put into my {name} - reduce my EMI with it.",
        )
        ask += (
            " Tell me the charge and the new EMI before you do it, and afterwards check the "
            "loan shows it."
        )
        story = (
            "the tenure and reducing the EMI. Ask for the charge and new EMI first, agree, and "
            "ask for the loan to be checked afterwards."
        )
    else:
        ask = say(
            rng,
            f"I want to prepay {spoken(amount, rng)} on my {name} and finish it sooner - "
            "keep the EMI the same.",
            f"Please put {spoken(amount, rng)} towards my {name} as a part-prepayment to cut "
            "the tenure; I'm fine with the current EMI.",
            f"Can you make a prepayment of {spoken(amount, rng)} on my {name}? Reduce the "
            "number of months, not the EMI.",
        )
        ask += (
            " Tell me the charge and how many months will be left before you do it, and "
            "confirm the months left afterwards."
        )
        story = (
            "the EMI and reducing the tenure. Ask for the charge and the remaining months "
            "first, agree, and ask for the months left afterwards."
        )
    # The loan read after the payment is a fact the payment's own result shows.
    after_fields = ("emi",) if option == "reduce_emi" else ("remaining_months",)
    calls = [
        find_loan(loan),
        prepayment_impact(loan, amount, option),
        prepay(loan, amount, option, payer, after=("c2",)),
        loan_details(loan, after=("c3",), fields=after_fields),
    ]
    quote = "c2"
    return draft(
        customer,
        greet(rng),
        ask,
        facts=[_account_fact(payer), _loan_fact(loan)],
        narrative=(
            f"You want to part-prepay {indian(amount)} on your {name} (loan "
            f"{loan['loan_id']}) from account {payer['account_number']}, keeping {story}"
        ),
        calls=calls,
        outputs=[_impact(option, quote)],
        disclosures=prepayment_terms(option, quote, "c3"),
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
    "prepay_reduce_tenure",
    "sequencing",
    "loans",
    _PREPAYABLE,
    clause="E.22 part-prepayment: impact first, share the charge and the new tenure",
)
def prepay_reduce_tenure(ctx: Context, rng: random.Random, customer: sqlite3.Row) -> Draft | None:
    """Quote before commit: the impact on the tenure, the prepayment, then the months left."""
    return _prepay_draft(ctx, rng, customer, "reduce_tenure")


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
        payer = _foreclosure_payer(ctx, loan)
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
    name = _name(loan, loans)
    start = date.fromisoformat(fd["start_date"])
    fd_text = f"the {indian(fd['principal'])} FD from {start:%B %Y} that is pledged against it"
    return draft(
        customer,
        greet(rng),
        say(
            rng,
            f"Two things, in this order. First, foreclose my {name} - tell me the total "
            "amount before you do it.",
            f"I need two things done in order. First close my {name} in full today; show me "
            "the foreclosure amount first.",
        ),
        f"Second, now close {fd_text}, and tell me the payout.",
        facts=[
            _account_fact(payer),
            f"The deposit pledged for the loan is {fd['deposit_id']}.",
            _loan_fact(loan),
        ],
        narrative=(
            f"First you want your {name} (loan {loan['loan_id']}) foreclosed from account "
            f"{payer['account_number']} after hearing the total payable. Then you want FD "
            f"{fd['deposit_id']} ({indian(fd['principal'])}), which was under lien for the "
            "loan, closed early; you want to hear its payout."
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
    ask = say(
        rng,
        f"I want to foreclose my {name} today.",
        f"Please close my {name} completely - I want to pay it all off now.",
        f"I'd like to pay off my {name} in one go today.",
    )
    ask += " If that's not allowed, tell me why and how many EMIs I have paid so far."
    return draft(
        customer,
        greet(rng),
        Instruction(text=ask, decline="No, I'll wait then."),
        facts=[_loan_fact(loan), "I'd pay from my savings account."],
        narrative=(
            f"You want to foreclose your {name} (loan {loan['loan_id']}), on which "
            f"{loan['emis_paid']} EMIs have been paid. If it is not allowed you want to "
            "know why and how many EMIs you have paid, and then you accept waiting."
        ),
        # The loan's EMIs paid and the policy's lock-in decide it: no quote is needed to refuse.
        calls=[find_loan(loan), loan_details(loan, fields=("emis_paid",))],
        outputs=[
            Out("EMIs paid", "count", lambda r: str(r["c2"]["emis_paid"]), unit="EMIs"),
            Out("reason", "text", lambda _r: "lock"),
        ],
    )


@family(
    "foreclosure_short_of_funds",
    "edge_case",
    "loans",
    f"SELECT DISTINCT l.customer_id FROM loans l WHERE l.status = 'active' AND {_FREE} AND "
    "l.outstanding > (SELECT COALESCE(SUM(a.balance - a.hold_amount), 0) FROM accounts a "
    "WHERE a.customer_id = l.customer_id AND a.status = 'active')",
    clause="H.29 refuse 'Any debit ... for more than the available balance: offer another ... active account if one has enough'; E.21 quote",
)
def foreclosure_short_of_funds(
    ctx: Context, rng: random.Random, customer: sqlite3.Row
) -> Draft | None:
    """Quote the foreclosure, find no account that can pay it, and foreclose nothing."""
    accounts = active_accounts(ctx, customer["customer_id"])
    funds = sum(a["balance"] - a["hold_amount"] for a in accounts)
    picked = _pick_loan(
        ctx, rng, customer, lambda loan: _free(loan) and _foreclosure_total(ctx, loan) > funds
    )
    if picked is None:
        return None
    loan, name = picked
    ask = say(
        rng,
        f"I want to foreclose my {name} today from my savings.",
        f"Please close my {name} in full today using the money in my account.",
        f"Can I pay off my whole {name} today from my account?",
    )
    ask += " Tell me the total amount payable."
    return draft(
        customer,
        greet(rng),
        Instruction(text=ask, decline="No, leave it then; I'll arrange the money first."),
        facts=[_loan_fact(loan), "Use whichever of my accounts has the money."],
        narrative=(
            f"You want to foreclose your {name} (loan {loan['loan_id']}) today and ask for "
            "the total payable. Your accounts do not hold enough money; when told, you "
            "decide to arrange the funds first and nothing is closed."
        ),
        calls=[find_loan(loan), foreclosure_quote(loan), Call("list_accounts")],
        outputs=[Out("total payable", "amount", field_of("c2", "total_payable"))],
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
    ask = say(
        rng,
        f"I want to prepay {spoken(amount, rng)} on my {name}, not the {other_name}. "
        f"Please {effect}.",
        f"Put {spoken(amount, rng)} towards my {name} as a part-prepayment - the {name}, "
        f"not my {other_name} - and {effect}.",
        f"I have two loans; I want to prepay {spoken(amount, rng)} only on the {name}. "
        f"I'd like to {effect}.",
    )
    ask += " Tell me the charge first."
    return draft(
        customer,
        greet(rng),
        ask,
        facts=[_account_fact(payer), _loan_fact(loan)],
        narrative=(
            f"You have a {name} and a {other_name}. You want to part-prepay "
            f"{indian(amount)} on the {name} only (loan {loan['loan_id']}), option "
            f"{option}, from account {payer['account_number']}, after hearing the charge."
        ),
        calls=[
            find_loan(loan),
            prepayment_impact(loan, amount, option),
            prepay(loan, amount, option, payer, after=("c2",)),
        ],
        outputs=[_impact(option, "c2")],
        disclosures=prepayment_terms(option, "c2", "c3"),
    )


@family(
    "emi_enquiry",
    "control",
    "loans",
    "SELECT DISTINCT customer_id FROM loans WHERE status = 'active'",
    clause="J.36 tell the value asked (EMI)",
)
def emi_enquiry(ctx: Context, rng: random.Random, customer: sqlite3.Row) -> Draft | None:
    """Control: the EMI of one loan."""
    picked = _pick_loan(ctx, rng, customer)
    if picked is None:
        return None
    loan, name = picked
    return draft(
        customer,
        greet(rng),
        say(
            rng,
            f"What is the EMI on my {name}?",
            f"How much is my monthly instalment for the {name}?",
            f"Can you tell me my {name} EMI amount?",
        ),
        narrative=f"You only want to know the EMI of your {name} (loan {loan['loan_id']}).",
        calls=[find_loan(loan), loan_details(loan, fields=("emi",))],
        outputs=[Out("EMI", "amount", field_of("c2", "emi"))],
    )


@family(
    "foreclosure_quote_enquiry",
    "control",
    "loans",
    f"SELECT DISTINCT l.customer_id FROM loans l WHERE l.status = 'active' AND {_FREE}",
    clause="J.36 tell the foreclosure amount; D.16 no write without an explicit yes (customer declines)",
)
def foreclosure_quote_enquiry(
    ctx: Context, rng: random.Random, customer: sqlite3.Row
) -> Draft | None:
    """Control: the foreclosure amount, without foreclosing."""
    picked = _pick_loan(ctx, rng, customer, _free)
    if picked is None:
        return None
    loan, name = picked
    return draft(
        customer,
        greet(rng),
        Instruction(
            text=say(
                rng,
                f"How much would I need to pay today to close my {name}? Just asking.",
                f"What is the foreclosure amount on my {name} as of today? I only want the "
                "figure for now.",
            ),
            decline="No, don't close anything. I only wanted the amount.",
        ),
        narrative=(
            f"You want the amount needed to foreclose your {name} (loan {loan['loan_id']}) "
            "today. You do not want it closed."
        ),
        calls=[find_loan(loan), foreclosure_quote(loan)],
        outputs=[Out("total payable", "amount", field_of("c2", "total_payable"))],
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
    ask = say(
        rng,
        f"If I prepay {spoken(amount, rng)} on my {name}, what would my new EMI be "
        "if I keep the tenure, and how many months would be left if I keep the EMI "
        "instead?",
        f"I'm thinking of a part-prepayment of {spoken(amount, rng)} on my {name}. Compare "
        "both options for me: the new EMI with the same tenure, and the months remaining "
        "with the same EMI.",
    )
    return draft(
        customer,
        greet(rng),
        Instruction(
            text=ask + " Don't pay anything yet.",
            decline="No, don't make the payment. I'm only comparing.",
        ),
        facts=[_loan_fact(loan)],
        narrative=(
            f"You are considering a part-prepayment of {indian(amount)} on your {name} "
            f"(loan {loan['loan_id']}) and want both options compared: the new EMI if the "
            "tenure stays, the remaining months if the EMI stays. You pay nothing today."
        ),
        calls=[
            find_loan(loan),
            prepayment_impact(loan, amount, "reduce_emi"),
            prepayment_impact(loan, amount, "reduce_tenure"),
        ],
        outputs=[_impact("reduce_emi", "c2"), _impact("reduce_tenure", "c3")],
    )
