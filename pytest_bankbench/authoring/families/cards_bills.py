"""Card families about a credit card's bill: paying it, and paying more than is owed."""

from __future__ import annotations

import random
import sqlite3

from pytest_bankbench.authoring.base import (
    Context,
    Draft,
    Out,
    Tell,
    alternative,
    as_step,
    const,
    draft,
    family,
    reason,
    result,
    told,
)
from pytest_bankbench.authoring.calls import (
    card_statement,
    find_card,
    pay_card,
)
from pytest_bankbench.authoring.phrasing import ending, knows, my_account, opening, say, spoken
from pytest_bankbench.authoring.pickers import (
    ACTIVE_CARD,
    CREDIT_CARD,
    active_cards,
    card_fact,
    card_name,
    paying_account,
    pick,
    pick_payer,
)
from pytest_bankbench.money import indian, plain
from pytest_bankbench.tasks.model import Fact, Instruction

_CREDIT_DUE = f"{CREDIT_CARD} AND outstanding >= 10000"


_ACTIVE_CREDIT = f"{ACTIVE_CARD} AND {_CREDIT_DUE}"


def _pay_fact(payer: sqlite3.Row) -> Fact:
    return knows(f"Pay it from {my_account(payer)}.", "account")


@family(
    "credit_card_bill_payment",
    "sequencing",
    "cards",
    _ACTIVE_CREDIT,
    clause="K.42 'Credit card payment: any amount from Rs 100 up to the total outstanding, from the customer's own active account'; D.15; J.36 tell what is left",
)
def credit_card_bill_payment(
    ctx: Context, rng: random.Random, customer: sqlite3.Row
) -> Draft | None:
    """Statement first, then the payment, then the statement again for what is left."""
    card = pick(rng, active_cards(ctx, customer["customer_id"], _CREDIT_DUE))
    if card is None:
        return None
    full = rng.random() < 0.4
    if full:
        amount = card["outstanding"]
        what = say(rng, "the full outstanding", "the whole bill", "the total outstanding amount")
    else:
        steps = [
            r * 100
            for r in (1_000, 2_000, 2_500, 5_000, 7_500, 10_000, 15_000, 20_000, 25_000, 50_000)
            if r * 100 < card["outstanding"]
        ]
        if not steps:
            return None
        amount = rng.choice(steps)
        what = spoken(amount, rng)
    payer = pick_payer(ctx, rng, card, amount)
    if payer is None:
        return None
    named = card_name(card)
    then = " Show me the statement first, and afterwards tell me what is still outstanding."
    ask = opening(
        rng,
        terse=f"Pay {what} on my {named}. Statement first; outstanding after.",
        chatty=f"Hi! Salary's in, so it's card-bill day - I'd like to pay {what} on my {named}."
        f"{then}",
        formal=f"Good day. I wish to make a payment of {what} towards my {named}.{then}",
        hinglish=f"Hello, mere {named} ka bill bharna hai - {what}. Pehle statement dikhao, "
        "aur payment ke baad kitna baaki hai woh batao.",
        unprompted=f"Please pay {what} on my {named} from {my_account(payer)}.{then}",
        asked=f"I want to pay my credit card bill.{then}",
        late=f"I don't want a late fee again - please pay {what} towards my {named} bill.{then}",
    )
    outputs = [Out("remaining outstanding", "amount", result("dues after", "total_outstanding"))]
    if full:
        outputs.insert(0, Out("amount paid", "amount", result("pay", "paid")))
    return draft(
        customer,
        ask,
        facts=[_pay_fact(payer), card_fact(card), knows(f"I want to pay {what}.", "amount")],
        narrative=(
            f"You want to pay {'the full outstanding' if full else indian(amount)} on your "
            f"{named} from account {payer['account_number']}. You want to see the "
            "statement first and hear the outstanding left after paying."
        ),
        # The paying account is the customer's; the dues after paying show in the payment's result.
        calls=[
            find_card(card),
            as_step("dues", card_statement(card)),
            as_step("pay", pay_card(card, amount, payer, after=("dues",))),
            as_step(
                "dues after", card_statement(card, after=("pay",), fields=("total_outstanding",))
            ),
        ],
        outputs=outputs,
        disclosures=[Tell("pay", "amount", "amount", const(plain(amount)))],
    )


# -- pay_more_than_owed -----------------------------------------------------------------------------

# The concept an agent states when it tells the customer the payment is above the dues.
OUTSTANDING_PHRASES = ("over_outstanding",)


@family(
    "pay_more_than_owed",
    "edge_case",
    "cards",
    "SELECT DISTINCT customer_id FROM cards WHERE status = 'active' AND card_kind = 'credit' "
    "AND outstanding >= 100000 ORDER BY 1",
    clause="K.42 'Credit card payment: any amount from Rs 100 up to the total outstanding, from the customer's own active account'; H.29 explain the rule and act on the alternative only if the customer agrees; D.15 state the amount before paying",
)
def pay_more_than_owed(ctx: Context, rng: random.Random, customer: sqlite3.Row) -> Draft | None:
    """A card payment above the total outstanding is refused; pay the outstanding instead."""
    card = pick(
        rng,
        active_cards(
            ctx, customer["customer_id"], "card_kind = 'credit' AND outstanding >= 100000"
        ),
    )
    if card is None:
        return None
    owed = card["outstanding"]
    step = 5_000_00 if owed < 1_00_000_00 else 25_000_00
    wanted = (owed // step + 1) * step + rng.choice((0, 0, 1, 2)) * step
    payer = paying_account(ctx, card, wanted)
    if payer is None:
        return None
    named, said = card_name(card), spoken(wanted, rng)
    text = opening(
        rng,
        terse=f"Pay {said} on my {named}.",
        chatty=f"Hi! I've got a lot of shopping coming up for my sister's wedding, so I'd like "
        f"to pay {said} into my {named} now - more than the bill, so there's some extra room.",
        formal=f"Good afternoon. Could you kindly make a payment of {said} towards my {named}? "
        "I'd like to keep some credit in advance.",
        hinglish=f"Namaste, mere {named} pe {said} daal do please - advance mein rakhna hai, "
        "next month bahut shopping hai.",
        unprompted=f"Hello, please pay {said} to my {named} from {ending(payer)}. I know the "
        "bill is smaller; I want the extra as an advance.",
        asked=f"Hi, I want to pay {said} towards my credit card.",
    )
    fallback = say(
        rng,
        "Then just pay the full outstanding amount instead.",
        "In that case, pay whatever the total outstanding is.",
        "Then pay the whole outstanding, please.",
    )
    return draft(
        customer,
        Instruction(
            text=text + " Tell me how much was paid once it's done.",
            explain="A credit card payment can only be up to the total outstanding, which is "
            f"{indian(owed)} on this card, so I cannot take {indian(wanted)}. I can pay the full "
            f"outstanding of {indian(owed)} instead.",
        ),
        facts=[
            knows(f"It's my {named}.", "card"),
            knows(f"Pay it from {my_account(payer)}.", "account"),
            knows(fallback, "amount", after=OUTSTANDING_PHRASES),
        ],
        narrative=(
            f"You want to pay {indian(wanted)} into your {named}, more than you owe, to keep an "
            f"advance, from account {payer['account_number']}. If the bank will not take more "
            "than the total outstanding, you accept paying the full outstanding instead, once "
            "told why."
        ),
        calls=[
            find_card(card),
            as_step("dues", card_statement(card, fields=("total_outstanding",))),
            as_step("pay", pay_card(card, owed, payer, after=("dues",))),
        ],
        outputs=[Out("amount paid", "amount", result("pay", "paid"))],
        disclosures=[Tell("pay", "amount", "amount", const(plain(owed)))],
        tells=[
            reason("more than the total outstanding", "over_outstanding", record=card["card_id"]),
            alternative(
                "pay the total outstanding",
                values=(told("total outstanding", "amount", plain(owed)),),
                record=card["card_id"],
                before="pay",
            ),
        ],
    )
