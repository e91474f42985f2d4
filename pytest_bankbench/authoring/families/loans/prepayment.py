"""Loan families about part-prepayment: reducing the EMI or the tenure, the right loan of
several, comparing options."""

from __future__ import annotations

import random
import sqlite3
from dataclasses import dataclass

from pytest_bankbench.authoring import base, calls, phrasing, pickers
from pytest_bankbench.authoring.base import Call, Context, Draft, Out, Tell, draft, family
from pytest_bankbench.bank import rules
from pytest_bankbench.money import indian
from pytest_bankbench.tasks.model import Fact, Instruction

# Customers with an active loan out of lock-in and an account that could fund a part-prepayment.
_PREPAYABLE = (
    "SELECT DISTINCT l.customer_id FROM loans l JOIN accounts a USING (customer_id) "
    f"WHERE l.status = 'active' AND {pickers.FREE_LOAN} AND {pickers.AVAILABLE} >= 25000 * 104 "
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
        payer = pickers.pick_payer(
            ctx, rng, loan, amount + rules.loan_charge(loan["loan_type"], amount)
        )
        if payer is not None:
            options.append((amount, payer))
    return rng.choice(options) if options else None


@dataclass(frozen=True)
class _Plan:
    """A part-prepayment the customer has in mind: the loan and the name they use for it, the
    amount and how they say it, the account it would be paid from."""

    loan: sqlite3.Row
    name: str
    amount: int
    said: str
    payer: sqlite3.Row

    def words(self) -> dict[str, str]:
        """The values its opening templates name: {said} and `pickers.loan_words`."""
        return {"said": self.said, **pickers.loan_words(self.loan, self.name, self.payer)}

    def facts(self) -> list[Fact]:
        """What the customer says when asked: the account paying, the loan and the amount."""
        return [
            pickers.debit_fact(self.payer),
            pickers.loan_fact(self.loan),
            phrasing.knows(f"I want to prepay {self.said}.", "amount"),
        ]

    def steps(self, option: str) -> list[Call]:
        """Its gold steps as E.22 orders them: the loan the customer named, the impact of
        `option` ("impact"), then the prepayment ("prepay")."""
        loan, amount = self.loan, self.amount
        return [
            calls.find_loan(loan),
            base.as_step("impact", calls.prepayment_impact(loan, amount, option)),
            base.as_step(
                "prepay", calls.prepay(loan, amount, option, self.payer, after=("impact",))
            ),
        ]


def _plan(ctx: Context, rng: random.Random, customer: sqlite3.Row) -> _Plan | None:
    """A loan out of lock-in with months to go, a part-prepayment of it and the account to pay
    it from."""
    picked = pickers.pick_loan(
        ctx, rng, customer, lambda loan: pickers.free_to_close(loan) and _long(loan)
    )
    if picked is None:
        return None
    loan, name = picked
    chosen = _prepayment(ctx, rng, loan)
    if chosen is None:
        return None
    amount, payer = chosen
    return _Plan(loan, name, amount, phrasing.spoken(amount, rng), payer)


def _impact(option: str, call: str) -> Out:
    """What a prepayment quote tells for the option: the new EMI, or the months left."""
    if option == "reduce_emi":
        return Out("new EMI", "amount", base.result(call, "new_emi"))
    return Out(
        "remaining months", "count", base.result(call, "new_remaining_months"), unit="months"
    )


def prepayment_terms(option: str, quote: str, write: str) -> list[Tell]:
    """Policy E.22: the prepayment charge and the new EMI or tenure are told before paying."""
    impact = _impact(option, quote)
    return [
        # A nil charge (home and gold loans) is told too: "there is no prepayment charge".
        Tell(write, "prepayment charge", "amount", base.result(quote, "charge")),
        Tell(write, impact.label, impact.kind, impact.source, unit=impact.unit),
    ]


@family(_PREPAYABLE)
def prepay_reduce_emi(ctx: Context, rng: random.Random, customer: sqlite3.Row) -> Draft | None:
    """Quote before commit: the prepayment impact, the prepayment, then the updated loan."""
    plan = _plan(ctx, rng, customer)
    if plan is None:
        return None
    return draft(
        customer,
        phrasing.opening_text(rng, "prepay_reduce_emi", **plan.words()),
        facts=plan.facts(),
        narrative=(
            f"You want to part-prepay {indian(plan.amount)} on your {plan.name} from account "
            f"{plan.payer['account_number']}, keeping the tenure and reducing the EMI. Ask for "
            "the charge and new EMI first, agree, and ask for the loan to be checked afterwards."
        ),
        calls=[
            *plan.steps("reduce_emi"),
            # The loan read after the payment is a fact the payment's own result shows.
            calls.loan_details(plan.loan, after=("prepay",), fields=("emi",)),
        ],
        outputs=[_impact("reduce_emi", "impact")],
        disclosures=prepayment_terms("reduce_emi", "impact", "prepay"),
    )


@family(
    "SELECT l.customer_id FROM loans l WHERE l.status = 'active' GROUP BY l.customer_id "
    "HAVING COUNT(*) = 2 AND COUNT(DISTINCT l.loan_type) = 2"
)
def prepay_right_loan(ctx: Context, rng: random.Random, customer: sqlite3.Row) -> Draft | None:
    """Two loans: prepay only the one the customer names by type."""
    loans = pickers.customer_loans(ctx, customer["customer_id"])
    if len(loans) != 2 or loans[0]["loan_type"] == loans[1]["loan_type"]:
        return None
    options: list[tuple[sqlite3.Row, int, sqlite3.Row]] = []
    for loan in loans:
        if not (pickers.free_to_close(loan) and _long(loan)):
            continue
        chosen = _prepayment(ctx, rng, loan)
        if chosen is not None:
            options.append((loan, *chosen))
    if not options:
        return None
    loan, amount, payer = rng.choice(options)
    other = next(o for o in loans if o["loan_id"] != loan["loan_id"])
    name, other_name = pickers.LOAN_LABEL[loan["loan_type"]], pickers.LOAN_LABEL[other["loan_type"]]
    option = rng.choice(("reduce_emi", "reduce_tenure"))
    effect = "lower my EMI" if option == "reduce_emi" else "keep the EMI and shorten the loan"
    plan = _Plan(loan, name, amount, phrasing.spoken(amount, rng), payer)
    ask = phrasing.opening_text(
        rng,
        "prepay_right_loan",
        other=other_name,
        effect=effect,
        effect_first=effect[:1].upper() + effect[1:],
        **plan.words(),
    )
    return draft(
        customer,
        ask,
        facts=plan.facts(),
        narrative=(
            f"You have a {name} and a {other_name}. You want to part-prepay "
            f"{indian(amount)} on the {name} only, option {option}, from account "
            f"{payer['account_number']}, after hearing the charge."
        ),
        calls=plan.steps(option),
        outputs=[_impact(option, "impact")],
        disclosures=prepayment_terms(option, "impact", "prepay"),
        # C.12: an opening that names neither loan ("one of my two loans") fits both, so the
        # agent asks which before quoting.
        tells=[base.clarify("which loan", before="impact")] if name not in ask else [],
    )


@family(_PREPAYABLE)
def prepayment_options_compare(
    ctx: Context, rng: random.Random, customer: sqlite3.Row
) -> Draft | None:
    """Both prepayment options quoted side by side; nothing is paid."""
    plan = _plan(ctx, rng, customer)
    if plan is None:
        return None
    return draft(
        customer,
        Instruction(
            text=phrasing.opening_text(rng, "prepayment_options_compare", **plan.words()),
            decline="No, don't make the payment. I'm only comparing.",
        ),
        facts=[
            pickers.loan_fact(plan.loan),
            phrasing.knows(f"The amount would be {plan.said}.", "amount"),
        ],
        narrative=(
            f"You are considering a part-prepayment of {indian(plan.amount)} on your {plan.name} and "
            "want both options compared: the new EMI if the tenure stays, the remaining months "
            "if the EMI stays. You pay nothing today."
        ),
        calls=[
            calls.find_loan(plan.loan),
            base.as_step(
                "emi impact", calls.prepayment_impact(plan.loan, plan.amount, "reduce_emi")
            ),
            base.as_step(
                "tenure impact", calls.prepayment_impact(plan.loan, plan.amount, "reduce_tenure")
            ),
        ],
        outputs=[_impact("reduce_emi", "emi impact"), _impact("reduce_tenure", "tenure impact")],
    )
