"""Card families about a credit card's bill: paying it, and paying more than is owed."""

from __future__ import annotations

import random
import sqlite3

from pytest_bankbench.authoring import base, calls, phrasing, pickers
from pytest_bankbench.authoring.base import Context, Draft, draft, family
from pytest_bankbench.money import indian, plain
from pytest_bankbench.tasks.model import Fact, Instruction

_CREDIT_DUE = f"{pickers.CREDIT_CARD} AND outstanding >= 10000"


_ACTIVE_CREDIT = f"{pickers.ACTIVE_CARD} AND {_CREDIT_DUE}"


def _pay_fact(payer: sqlite3.Row) -> Fact:
    return phrasing.knows(f"Pay it from {phrasing.my_account(payer)}.", "account")


@family(_ACTIVE_CREDIT)
def credit_card_bill_payment(
    ctx: Context, rng: random.Random, customer: sqlite3.Row
) -> Draft | None:
    """Statement first, then the payment, then the statement again for what is left."""
    card = pickers.pick_card(ctx, rng, customer, _CREDIT_DUE)
    if card is None:
        return None
    full = rng.random() < 0.4
    if full:
        amount = card["outstanding"]
        what = phrasing.say(
            rng, "the full outstanding", "the whole bill", "the total outstanding amount"
        )
    else:
        steps = [
            r * 100
            for r in (1_000, 2_000, 2_500, 5_000, 7_500, 10_000, 15_000, 20_000, 25_000, 50_000)
            if r * 100 < card["outstanding"]
        ]
        if not steps:
            return None
        amount = rng.choice(steps)
        what = phrasing.spoken(amount, rng)
    payer = pickers.pick_payer(ctx, rng, card, amount)
    if payer is None:
        return None
    named = pickers.card_name(card)
    ask = phrasing.opening_text(
        rng,
        "credit_card_bill_payment",
        what=what,
        payer=phrasing.my_account(payer),
        **pickers.card_words(card),
    )
    outputs = [
        base.Out("remaining outstanding", "amount", base.result("dues after", "total_outstanding"))
    ]
    if full:
        outputs.insert(0, base.Out("amount paid", "amount", base.result("pay", "paid")))
    return draft(
        customer,
        ask,
        facts=[
            _pay_fact(payer),
            pickers.card_fact(card),
            phrasing.knows(f"I want to pay {what}.", "amount"),
        ],
        narrative=(
            f"You want to pay {'the full outstanding' if full else indian(amount)} on your "
            f"{named} from account {payer['account_number']}. You want to see the "
            "statement first and hear the outstanding left after paying."
        ),
        # The paying account is the customer's; the dues after paying show in the payment's result.
        calls=[
            calls.find_card(card),
            base.as_step("dues", calls.card_statement(card)),
            base.as_step("pay", calls.pay_card(card, amount, payer, after=("dues",))),
            base.as_step(
                "dues after",
                calls.card_statement(card, after=("pay",), fields=("total_outstanding",)),
            ),
        ],
        outputs=outputs,
        disclosures=[
            base.Tell(
                "pay", "amount", "amount", base.known(plain(amount), base.argument("pay", "amount"))
            )
        ],
    )


# -- pay_more_than_owed -----------------------------------------------------------------------------

# The concept an agent states when it tells the customer the payment is above the dues.
OUTSTANDING_PHRASES = ("over_outstanding",)


# Credit cards owing at least Rs 1,000: those a customer asks to pay more than owed on.
_OVERPAYABLE = f"{pickers.CREDIT_CARD} AND outstanding >= 100000"


@family(f"{pickers.ACTIVE_CARD} AND {_OVERPAYABLE} ORDER BY 1")
def pay_more_than_owed(ctx: Context, rng: random.Random, customer: sqlite3.Row) -> Draft | None:
    """A card payment above the total outstanding is refused; pay the outstanding instead."""
    card = pickers.pick_card(ctx, rng, customer, _OVERPAYABLE)
    if card is None:
        return None
    owed = card["outstanding"]
    step = 5_000_00 if owed < 1_00_000_00 else 25_000_00
    wanted = (owed // step + 1) * step + rng.choice((0, 0, 1, 2)) * step
    payer = pickers.paying_account(ctx, card, wanted)
    if payer is None:
        return None
    named, said = pickers.card_name(card), phrasing.spoken(wanted, rng)
    text = phrasing.opening_text(
        rng,
        "pay_more_than_owed",
        said=said,
        payer=phrasing.ending(payer),
        **pickers.card_words(card),
    )
    fallback = phrasing.say(
        rng,
        "Then just pay the full outstanding amount instead.",
        "In that case, pay whatever the total outstanding is.",
        "Then pay the whole outstanding, please.",
    )
    return draft(
        customer,
        Instruction(
            text=text,
            explain="A credit card payment can only be up to the total outstanding, which is "
            f"{indian(owed)} on this card, so I cannot take {indian(wanted)}. I can pay the full "
            f"outstanding of {indian(owed)} instead.",
        ),
        facts=[
            pickers.card_fact(card),
            _pay_fact(payer),
            phrasing.knows(fallback, "amount", after=OUTSTANDING_PHRASES),
        ],
        narrative=(
            f"You want to pay {indian(wanted)} into your {named}, more than you owe, to keep an "
            f"advance, from account {payer['account_number']}. If the bank will not take more "
            "than the total outstanding, you accept paying the full outstanding instead, once "
            "told why."
        ),
        calls=[
            calls.find_card(card),
            base.as_step("dues", calls.card_statement(card, fields=("total_outstanding",))),
            base.as_step("pay", calls.pay_card(card, owed, payer, after=("dues",))),
        ],
        outputs=[base.Out("amount paid", "amount", base.result("pay", "paid"))],
        disclosures=[
            base.Tell(
                "pay", "amount", "amount", base.known(plain(owed), base.argument("pay", "amount"))
            )
        ],
        tells=[
            base.reason(
                "more than the total outstanding", "over_outstanding", record=card["card_id"]
            ),
            base.alternative(
                "pay the total outstanding",
                values=(
                    base.told(
                        "total outstanding", "amount", base.result("dues", "total_outstanding")
                    ),
                ),
                record=card["card_id"],
                before="pay",
            ),
        ],
    )
