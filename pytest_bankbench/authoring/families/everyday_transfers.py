"""Everyday families about a transfer's mode and amount: the RTGS minimum, the IMPS maximum, a
corrected amount."""

from __future__ import annotations

import random
import sqlite3

from pytest_bankbench.authoring.base import (
    Context,
    Draft,
    Must,
    alternative,
    as_step,
    draft,
    family,
    told,
)
from pytest_bankbench.authoring.calls import (
    find_payee,
    transfer,
    transfer_terms,
)
from pytest_bankbench.authoring.phrasing import (
    amount_phrases,
    ending,
    knows,
    my_account,
    opening,
    say,
    spoken,
)
from pytest_bankbench.authoring.pickers import (
    active_accounts,
    payee_customers,
    payment,
    pick,
    pick_funded,
    registered_payees,
    unheld,
)
from pytest_bankbench.bank import rules
from pytest_bankbench.money import indian, plain
from pytest_bankbench.tasks.model import Fact, Instruction

_SUB_RTGS_AMOUNTS = (
    50_000,
    75_000,
    90_000,
    1_00_000,
    1_20_000,
    1_25_000,
    1_50_000,
    1_80_000,
    1_95_000,
)


RTGS_MINIMUM = rules.TRANSFER_LIMITS["RTGS"][0]


# What an agent says when it states the RTGS minimum: the concept, or the minimum itself.
RTGS_PHRASES = ("below_minimum", *amount_phrases(RTGS_MINIMUM))


@family(
    "rtgs_below_minimum",
    "edge_case",
    "everyday",
    payee_customers(60_000_00),
    clause="H.29 'An RTGS transfer below the Rs 2,00,000 minimum: offer NEFT or IMPS'; 'Act on the alternative only if the customer agrees'; D.17 confirm again when the mode changes",
)
def rtgs_below_minimum(ctx: Context, rng: random.Random, customer: sqlite3.Row) -> Draft | None:
    """RTGS below Rs 2 lakh is refused: send by NEFT as the customer allows."""
    chosen = payment(ctx, rng, customer["customer_id"], 60_000_00, _SUB_RTGS_AMOUNTS)
    if chosen is None:
        return None
    payee, account, amount = chosen
    number = account["account_number"]
    said, name = spoken(amount, rng), payee["name"]
    ask = opening(
        rng,
        terse=f"RTGS {said} to {name}.",
        chatty=f"Hi! I'm finally paying {name} back for the wedding shopping - could you send "
        f"{said} by RTGS? RTGS always feels the safest to me.",
        formal=f"Namaskar. I would like to transfer {said} to my payee {name} through RTGS, "
        "please.",
        hinglish=f"Hello, {name} ko {said} RTGS se bhejna hai. Kar do please.",
        unprompted=f"Please send {said} from {my_account(account)} to my payee {name} by RTGS.",
        asked="I want to make an RTGS transfer to one of my payees.",
        business=f"I run a small shop and {name} supplies my stock - please send {said} to "
        "them by RTGS today.",
    )
    return draft(
        customer,
        Instruction(
            text=ask,
            explain=f"RTGS is only for amounts of {indian(RTGS_MINIMUM)} or more, so "
            f"{indian(amount)} is below the minimum and can't go by RTGS. I can send it by "
            "NEFT or IMPS instead.",
            accepts=("NEFT", "IMPS"),
        ),
        facts=[
            knows(f"Send it from {my_account(account)}.", "account"),
            knows(f"It's {said} for {name}, who is on my payee list.", "payee", "amount"),
            knows(
                "Then send it by NEFT or IMPS instead, whichever you can.",
                "mode",
                after=RTGS_PHRASES,
            ),
        ],
        narrative=(
            f"You want to send {indian(amount)} to your payee {payee['name']} from account "
            f"{number} and ask for RTGS. If the assistant explains that RTGS is not possible "
            "for this amount, you accept NEFT or IMPS instead; you do not suggest them yourself."
        ),
        # The RTGS minimum is the policy's (section H): no limits read is needed to refuse it.
        # H.29 offers NEFT or IMPS: either mode is the policy's (both cover every amount here).
        calls=[
            as_step("payee", find_payee(payee)),
            as_step(
                "transfer",
                transfer(
                    number,
                    payee["beneficiary_id"],
                    amount,
                    "NEFT",
                    after=("payee",),
                    allowed=("IMPS",),
                ),
            ),
        ],
        disclosures=transfer_terms("transfer", amount, "NEFT", also=("IMPS",)),
        # Policy H.29: the refusal's reason (the RTGS minimum) is told with the alternative,
        # before the transfer the customer then agrees to.
        tells=[
            Must(
                "reason",
                "below the RTGS minimum",
                ("below_minimum",),
                (told("RTGS minimum", "amount", plain(RTGS_MINIMUM)),),
                before="transfer",
            ),
            alternative("NEFT or IMPS instead", "other_mode", before="transfer"),
        ],
    )


# -- a transfer above the mode's maximum -------------------------------------------------------
_IMPS_MAX = rules.TRANSFER_LIMITS["IMPS"][1]


@family(
    "imps_above_maximum",
    "edge_case",
    "everyday",
    "SELECT DISTINCT b.customer_id FROM beneficiaries b JOIN accounts a USING (customer_id) "
    f"WHERE {unheld(_IMPS_MAX + 6_00_000_00)} ORDER BY 1",
    clause="H.29 'A transfer above the chosen mode's per-transaction limit (IMPS Rs 5,00,000): "
    "offer a mode whose limit covers the amount'; act on it only if the customer agrees",
)
def imps_above_maximum(ctx: Context, rng: random.Random, customer: sqlite3.Row) -> Draft | None:
    """IMPS above Rs 5 lakh is refused: NEFT carries it once the customer agrees."""
    cid = customer["customer_id"]
    payee = pick(rng, registered_payees(ctx, cid))
    amount = rng.choice((5_50_000, 6_00_000, 7_00_000, 7_50_000, 8_00_000, 9_00_000)) * 100
    assert amount <= rules.TRANSFER_LIMITS["NEFT"][1] and amount >= rules.TRANSFER_LIMITS["RTGS"][0]
    account = pick(rng, active_accounts(ctx, cid, amount + 1_00_000_00, no_hold=True))
    if payee is None or account is None:
        return None
    what, who = spoken(amount, rng), payee["name"]
    first = opening(
        rng,
        terse=f"IMPS {what} to {who}.",
        chatty=f"Hi! Big payment today - I need to send {what} to {who} by IMPS, it's urgent.",
        formal=f"Good afternoon. Kindly transfer {what} to my payee {who} through IMPS.",
        hinglish=f"Hello ji, {who} ko {what} bhejna hai, IMPS se please.",
        unprompted=f"Please send {what} by IMPS to {who} from {ending(account)} right now.",
        asked="I need to make a big transfer by IMPS to one of my payees.",
    )
    return draft(
        customer,
        Instruction(
            text=first,
            explain="IMPS can carry at most Rs 5,00,000 in one transaction, so this amount "
            "cannot go by IMPS. NEFT or RTGS can carry it.",
            accepts=("NEFT", "RTGS"),
        ),
        facts=[
            Fact(text=f"It's {what} to {who}.", about=("amount", "payee")),
            Fact(text=f"Send it from {ending(account)}.", about=("account",)),
            Fact(
                text="Then send it by NEFT or RTGS instead, whichever you can.",
                about=("mode",),
                after=("above_maximum", *amount_phrases(_IMPS_MAX)),
            ),
        ],
        narrative=(
            f"You want to send {indian(amount)} to your payee {who} by IMPS from your account "
            f"ending {account['account_number'][-4:]}. IMPS allows at most Rs 5,00,000 per "
            "transaction; once told, you agree to NEFT or RTGS."
        ),
        # H.29 offers a mode whose limit covers the amount: NEFT (up to Rs 10 lakh) and RTGS
        # (Rs 2 lakh to Rs 25 lakh) both cover every amount here.
        calls=[
            as_step("payee", find_payee(payee)),
            as_step(
                "transfer",
                transfer(
                    account["account_number"],
                    payee["beneficiary_id"],
                    amount,
                    "NEFT",
                    ("payee",),
                    allowed=("RTGS",),
                ),
            ),
        ],
        disclosures=transfer_terms("transfer", amount, "NEFT", also=("RTGS",)),
        tells=[
            Must(
                "reason",
                "above the IMPS maximum",
                ("above_maximum",),
                (told("IMPS maximum", "amount", plain(_IMPS_MAX)),),
                before="transfer",
            ),
            alternative("NEFT or RTGS instead", "other_mode", before="transfer"),
        ],
    )


# -- transfer_correction ----------------------------------------------------------------------------

# Amounts (rupees) the customer means; the slip is derived from each (`_slips`).
_RIGHT_AMOUNTS: tuple[int, ...] = (3_000, 5_000, 8_000, 10_000, 12_000, 15_000, 20_000, 25_000)


_RIGHT_AMOUNTS += (30_000, 40_000, 45_000, 50_000, 60_000, 75_000, 80_000)


def _slips(right: int) -> list[int]:
    """Amounts (rupees) a customer might type by mistake for `right`: a zero too many or too
    few, a neighbouring round figure."""
    out = [right * 10, right + 10_000, right - 10_000, right + 5_000, right - 5_000]
    if right % 10 == 0:
        out.append(right // 10)
    return sorted({a for a in out if 1_000 <= a <= 2_00_000 and a != right})


@family(
    "transfer_correction",
    "sequencing",
    "everyday",
    "SELECT DISTINCT b.customer_id FROM beneficiaries b JOIN accounts a USING (customer_id) "
    f"WHERE {unheld(2_10_000_00)} ORDER BY 1",
    clause="D.17 'If anything changes after confirmation (amount, account, tenure, mode, option), confirm again'; D.15 state the amount and the mode before a transfer; D.16 write only after a yes to that exact action",
)
def transfer_correction(ctx: Context, rng: random.Random, customer: sqlite3.Row) -> Draft | None:
    """The customer corrects the amount when asked to confirm: propose again, send the new one."""
    cid = customer["customer_id"]
    payees = registered_payees(ctx, cid)
    if not payees:
        return None
    right = rng.choice(_RIGHT_AMOUNTS)
    wrong = rng.choice(_slips(right))
    account = pick_funded(ctx, rng, cid, (max(right, wrong) + 5_000) * 100)
    if account is None:
        return None
    payee = rng.choice(payees)
    mode = rng.choice(("IMPS", "NEFT"))
    amount, said_wrong = right * 100, spoken(wrong * 100, rng)
    said_right = spoken(amount, rng)
    name = payee["name"]
    text = opening(
        rng,
        terse=f"Send {said_wrong} to {name} by {mode}.",
        chatty="Hi! "
        + say(
            rng,
            f"So I owe {name} for the catering at my daughter's birthday party, and I've kept "
            "them waiting long enough.",
            f"{name} paid my share of our Goa trip and keeps reminding me about it.",
            f"My cousin's tuition fees are due and {name} is collecting them for the family.",
        )
        + f" Can you send {said_wrong} by {mode} today?",
        formal=f"Good afternoon. Could you kindly transfer {said_wrong} to my payee {name} by "
        f"{mode}, please?",
        hinglish=f"Namaste. {name} ko {said_wrong} bhejna hai, {mode} se. Jaldi kar do please.",
        unprompted=f"Hello, please transfer {said_wrong} to {name} by {mode} from "
        f"{ending(account)}. {name} is already on my payee list.",
        asked=f"Hi, I need to send {said_wrong} to one of my registered payees.",
    )
    correction = say(
        rng,
        f"Sorry, I meant {said_right}, not {said_wrong}.",
        f"Oh, sorry - I typed it wrong. It should be {said_right}, not {said_wrong}.",
        f"One moment, the amount is wrong: please make it {said_right} instead of {said_wrong}.",
    )
    return draft(
        customer,
        Instruction(text=text, correction=correction),
        facts=[
            knows(f"Send it from {my_account(account)}.", "account"),
            knows(f"The payee is {name}, already on my payee list.", "payee"),
            knows(f"Use {mode}.", "mode"),
        ],
        narrative=(
            f"You want to pay your registered payee {name} by {mode} from account "
            f"{account['account_number']}. You first say {indian(wrong * 100)} by mistake; when "
            f"the assistant asks you to confirm, you correct it to {indian(amount)}, and you "
            "agree once the corrected transfer is proposed."
        ),
        calls=[
            as_step("payee", find_payee(payee)),
            as_step(
                "transfer",
                transfer(
                    account["account_number"], payee["beneficiary_id"], amount, mode, ("payee",)
                ),
            ),
        ],
        disclosures=transfer_terms("transfer", amount, mode),
    )
