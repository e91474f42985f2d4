"""Loan families about part-prepayment: reducing the EMI or the tenure, the right loan of
several, comparing options."""

from __future__ import annotations

import random
import sqlite3

from pytest_bankbench.authoring.base import (
    Context,
    Draft,
    Out,
    Tell,
    as_step,
    clarify,
    draft,
    family,
    result,
)
from pytest_bankbench.authoring.calls import (
    find_loan,
    loan_details,
    prepay,
    prepayment_impact,
)
from pytest_bankbench.authoring.phrasing import knows, my_account, opening, spoken
from pytest_bankbench.authoring.pickers import (
    AVAILABLE,
    FREE_LOAN,
    LOAN_LABEL,
    customer_loans,
    debit_fact,
    free_to_close,
    loan_fact,
    pick_loan,
    pick_payer,
)
from pytest_bankbench.bank import rules
from pytest_bankbench.money import indian
from pytest_bankbench.tasks.model import Instruction

# Customers with an active loan out of lock-in and an account that could fund a part-prepayment.
_PREPAYABLE = (
    "SELECT DISTINCT l.customer_id FROM loans l JOIN accounts a USING (customer_id) "
    f"WHERE l.status = 'active' AND {FREE_LOAN} AND {AVAILABLE} >= 25000 * 104 "
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


def _long(loan: sqlite3.Row) -> bool:
    """Enough months left that a new remaining tenure is a telling number."""
    return int(loan["remaining_months"]) >= _MIN_MONTHS


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


def _prepay_choice(
    ctx: Context, rng: random.Random, customer: sqlite3.Row
) -> tuple[str, sqlite3.Row, int, sqlite3.Row] | None:
    """A loan out of lock-in with months to go, a part-prepayment and the account to pay it
    from: the loan's name, the loan, the amount and the account."""
    picked = pick_loan(ctx, rng, customer, lambda loan: free_to_close(loan) and _long(loan))
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
        return Out("new EMI", "amount", result(call, "new_emi"))
    return Out("remaining months", "count", result(call, "new_remaining_months"), unit="months")


def prepayment_terms(option: str, quote: str, write: str) -> list[Tell]:
    """Policy E.22: the prepayment charge and the new EMI or tenure are told before paying."""
    impact = _impact(option, quote)
    return [
        Tell(write, "prepayment charge", "amount", result(quote, "charge"), zero=True),
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
        as_step("impact", prepayment_impact(loan, amount, option)),
        as_step("prepay", prepay(loan, amount, option, payer, after=("impact",))),
        loan_details(loan, after=("prepay",), fields=after_fields),
    ]
    return draft(
        customer,
        ask + quote,
        facts=[
            debit_fact(payer),
            loan_fact(loan),
            knows(f"I want to prepay {said}.", "amount"),
        ],
        narrative=(
            f"You want to part-prepay {indian(amount)} on your {name} from account "
            f"{payer['account_number']}, keeping {story}"
        ),
        calls=calls,
        outputs=[_impact(option, "impact")],
        disclosures=prepayment_terms(option, "impact", "prepay"),
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
    "prepay_right_loan",
    "edge_case",
    "loans",
    "SELECT l.customer_id FROM loans l WHERE l.status = 'active' GROUP BY l.customer_id "
    "HAVING COUNT(*) = 2 AND COUNT(DISTINCT l.loan_type) = 2",
    clause="C.12 identify the exact loan from the details the customer gives (type); E.22 impact first, share charge and new EMI/tenure",
)
def prepay_right_loan(ctx: Context, rng: random.Random, customer: sqlite3.Row) -> Draft | None:
    """Two loans: prepay only the one the customer names by type."""
    loans = customer_loans(ctx, customer["customer_id"])
    if len(loans) != 2 or loans[0]["loan_type"] == loans[1]["loan_type"]:
        return None
    options: list[tuple[sqlite3.Row, int, sqlite3.Row]] = []
    for loan in loans:
        if not (free_to_close(loan) and _long(loan)):
            continue
        chosen = _prepayment(ctx, rng, loan)
        if chosen is not None:
            options.append((loan, *chosen))
    if not options:
        return None
    loan, amount, payer = rng.choice(options)
    other = next(o for o in loans if o["loan_id"] != loan["loan_id"])
    name, other_name = LOAN_LABEL[loan["loan_type"]], LOAN_LABEL[other["loan_type"]]
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
        ask + " Tell me the charge first.",
        facts=[
            debit_fact(payer),
            loan_fact(loan),
            knows(f"I want to prepay {said}.", "amount"),
        ],
        narrative=(
            f"You have a {name} and a {other_name}. You want to part-prepay "
            f"{indian(amount)} on the {name} only, option {option}, from account "
            f"{payer['account_number']}, after hearing the charge."
        ),
        calls=[
            find_loan(loan),
            as_step("impact", prepayment_impact(loan, amount, option)),
            as_step("prepay", prepay(loan, amount, option, payer, after=("impact",))),
        ],
        outputs=[_impact(option, "impact")],
        disclosures=prepayment_terms(option, "impact", "prepay"),
        # C.12: "one of my two loans" fits both, so the agent asks which before quoting.
        tells=[clarify("which loan", before="impact")] if ask == vague else [],
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
        Instruction(
            text=ask + " Don't pay anything yet.",
            decline="No, don't make the payment. I'm only comparing.",
        ),
        facts=[loan_fact(loan), knows(f"The amount would be {said}.", "amount")],
        narrative=(
            f"You are considering a part-prepayment of {indian(amount)} on your {name} and want "
            "both options compared: the new EMI if the tenure stays, the remaining months if "
            "the EMI stays. You pay nothing today."
        ),
        calls=[
            find_loan(loan),
            as_step("emi impact", prepayment_impact(loan, amount, "reduce_emi")),
            as_step("tenure impact", prepayment_impact(loan, amount, "reduce_tenure")),
        ],
        outputs=[_impact("reduce_emi", "emi impact"), _impact("reduce_tenure", "tenure impact")],
    )
