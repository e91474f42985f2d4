"""Everyday families about a transfer's mode and amount: the RTGS minimum, the IMPS maximum, a
corrected amount."""

from __future__ import annotations

import random
import sqlite3
from dataclasses import dataclass

from pytest_bankbench.authoring import base, calls, phrasing, pickers, terms
from pytest_bankbench.authoring.base import Context, Draft, draft, family
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


@dataclass(frozen=True)
class _ModeLimit:
    """The limit of the mode a customer asks for that rules their transfer out (policy H.29):
    the `side` ("minimum", "maximum") of `mode`'s limits, `amount` paise. NEFT carries the
    transfer instead, or `also`, the other mode that covers every amount the family asks for."""

    mode: str
    side: str
    amount: int
    also: str
    near: str  # the words of H.29 the limit follows

    @property
    def beyond(self) -> str:
        """Where the amount asked for falls: "below" a minimum, "above" a maximum."""
        return "below" if self.side == "minimum" else "above"

    @property
    def concept(self) -> str:
        """The concept an agent states when it tells the limit ("below_minimum")."""
        return f"{self.beyond}_{self.side}"


_RTGS_MINIMUM = _ModeLimit(
    "RTGS", "minimum", rules.TRANSFER_LIMITS["RTGS"][0], also="IMPS", near="RTGS transfer below"
)
_IMPS_MAXIMUM = _ModeLimit(
    "IMPS",
    "maximum",
    rules.TRANSFER_LIMITS["IMPS"][1],
    also="RTGS",
    near="limit (NEFT Rs 10,00,000; IMPS",
)


def _neft_instead(
    customer: sqlite3.Row,
    limit: _ModeLimit,
    *,
    ask: str,
    explain: str,
    facts: list[Fact],
    narrative: str,
    payment: tuple[sqlite3.Row, str, int],
) -> Draft:
    """A transfer (payee, account number, amount) that `limit` rules out. The customer asks
    (`ask`, `facts`), the agent tells why (`explain`: the limit is the policy's, section H, so
    no limits read is needed) and offers NEFT or `limit.also`, both before the transfer (H.29);
    once the agent has stated the limit, the customer accepts either, and NEFT carries it."""
    payee, number, amount = payment
    offered = f"NEFT or {limit.also}"
    accepts = phrasing.knows(
        f"Then send it by {offered} instead, whichever you can.",
        "mode",
        after=(limit.concept, *phrasing.amount_phrases(limit.amount)),
    )
    return draft(
        customer,
        Instruction(text=ask, explain=explain, accepts=("NEFT", limit.also)),
        facts=[*facts, accepts],
        narrative=narrative,
        calls=calls.payee_transfer(payee, number, amount, "NEFT", allowed=(limit.also,)),
        disclosures=terms.transfer_terms("transfer", amount, "NEFT", also=(limit.also,)),
        tells=terms.mode_refusal(
            f"{limit.beyond} the {limit.mode} {limit.side}",
            limit.concept,
            base.told(
                f"{limit.mode} {limit.side}",
                "amount",
                base.known(plain(limit.amount), base.clause("H.29", near=limit.near)),
            ),
            offered,
        ),
    )


@family(pickers.payee_customers(60_000_00))
def rtgs_below_minimum(ctx: Context, rng: random.Random, customer: sqlite3.Row) -> Draft | None:
    """RTGS below Rs 2 lakh is refused: send by NEFT as the customer allows."""
    chosen = pickers.payment(ctx, rng, customer["customer_id"], 60_000_00, _SUB_RTGS_AMOUNTS)
    if chosen is None:
        return None
    payee, account, amount = chosen
    number = account["account_number"]
    said, name = phrasing.spoken(amount, rng), payee["name"]
    ask = phrasing.opening_text(
        rng, "rtgs_below_minimum", payee=name, said=said, **phrasing.account_words(account)
    )
    return _neft_instead(
        customer,
        _RTGS_MINIMUM,
        ask=ask,
        explain=f"RTGS is only for amounts of {indian(_RTGS_MINIMUM.amount)} or more, so "
        f"{indian(amount)} is below the minimum and can't go by RTGS. I can send it by "
        "NEFT or IMPS instead.",
        facts=[
            pickers.source_fact(account),
            pickers.payee_fact(payee, said),
        ],
        narrative=f"You want to send {indian(amount)} to your payee {name} from account "
        f"{number} and ask for RTGS. If the assistant explains that RTGS is not possible for "
        "this amount, you accept NEFT or IMPS instead; you do not suggest them yourself.",
        payment=(payee, number, amount),
    )


@family(
    "SELECT DISTINCT b.customer_id FROM beneficiaries b JOIN accounts a USING (customer_id) "
    f"WHERE {pickers.unheld(_IMPS_MAXIMUM.amount + 6_00_000_00)} ORDER BY 1"
)
def imps_above_maximum(ctx: Context, rng: random.Random, customer: sqlite3.Row) -> Draft | None:
    """IMPS above Rs 5 lakh is refused: NEFT carries it once the customer agrees."""
    cid = customer["customer_id"]
    payee = pickers.pick(rng, pickers.registered_payees(ctx, cid))
    # NEFT (up to Rs 10 lakh) and RTGS (Rs 2 lakh to Rs 25 lakh) cover every amount here.
    amount = rng.choice((5_50_000, 6_00_000, 7_00_000, 7_50_000, 8_00_000, 9_00_000)) * 100
    assert amount <= rules.TRANSFER_LIMITS["NEFT"][1] and amount >= rules.TRANSFER_LIMITS["RTGS"][0]
    funded = pickers.active_accounts(ctx, cid, amount + 1_00_000_00, no_hold=True)
    account = pickers.pick(rng, funded)
    if payee is None or account is None:
        return None
    what, who = phrasing.spoken(amount, rng), payee["name"]
    named = phrasing.ending(account)
    first = phrasing.opening_text(rng, "imps_above_maximum", payee=who, said=what, named=named)
    return _neft_instead(
        customer,
        _IMPS_MAXIMUM,
        ask=first,
        explain="IMPS can carry at most Rs 5,00,000 in one transaction, so this amount "
        "cannot go by IMPS. NEFT or RTGS can carry it.",
        facts=[
            phrasing.knows(f"It's {what} to {who}.", "amount", "payee"),
            phrasing.knows(f"Send it from {named}.", "account"),
        ],
        narrative=f"You want to send {indian(amount)} to your payee {who} by IMPS from your "
        f"account ending {phrasing.last4(account)}. IMPS allows at most Rs 5,00,000 per "
        "transaction; once told, you agree to NEFT or RTGS.",
        payment=(payee, account["account_number"], amount),
    )


# -- transfer_correction ------------------------------------------------------------------------

# Amounts (rupees) the customer means; the slip is derived from each (`_slips`).
_RIGHT_AMOUNTS: tuple[int, ...] = (3_000, 5_000, 8_000, 10_000, 12_000, 15_000, 20_000, 25_000)


_RIGHT_AMOUNTS += (30_000, 40_000, 45_000, 50_000, 60_000, 75_000, 80_000)


# Why the chatty customer owes the payee ({payee}), told in the opening.
_OWED = (
    "So I owe {payee} for the catering at my daughter's birthday party, and I've kept them "
    "waiting long enough.",
    "{payee} paid my share of our Goa trip and keeps reminding me about it.",
    "My cousin's tuition fees are due and {payee} is collecting them for the family.",
)


# How the customer corrects the slip ({wrong}) to the amount meant ({right}), as said.
_CORRECTIONS = (
    "Sorry, I meant {right}, not {wrong}.",
    "Oh, sorry - I typed it wrong. It should be {right}, not {wrong}.",
    "One moment, the amount is wrong: please make it {right} instead of {wrong}.",
)


def _slips(right: int) -> list[int]:
    """Amounts (rupees) a customer might type by mistake for `right`: a zero too many or too
    few, a neighbouring round figure."""
    out = [right * 10, right + 10_000, right - 10_000, right + 5_000, right - 5_000]
    if right % 10 == 0:
        out.append(right // 10)
    return sorted({a for a in out if 1_000 <= a <= 2_00_000 and a != right})


@family(
    "SELECT DISTINCT b.customer_id FROM beneficiaries b JOIN accounts a USING (customer_id) "
    f"WHERE {pickers.unheld(2_10_000_00)} ORDER BY 1"
)
def transfer_correction(ctx: Context, rng: random.Random, customer: sqlite3.Row) -> Draft | None:
    """The customer corrects the amount when asked to confirm: propose again, send the new one."""
    cid = customer["customer_id"]
    payees = pickers.registered_payees(ctx, cid)
    if not payees:
        return None
    right = rng.choice(_RIGHT_AMOUNTS)
    wrong = rng.choice(_slips(right))
    account = pickers.pick_funded(ctx, rng, cid, (max(right, wrong) + 5_000) * 100)
    if account is None:
        return None
    payee = rng.choice(payees)
    mode = rng.choice(("IMPS", "NEFT"))
    amount, said_wrong = right * 100, phrasing.spoken(wrong * 100, rng)
    said_right = phrasing.spoken(amount, rng)
    name = payee["name"]
    why = rng.choice(_OWED).format(payee=name)
    text = phrasing.opening_text(
        rng,
        "transfer_correction",
        why=why,
        **phrasing.payment_words(payee, said_wrong, mode, account),
    )
    correction = rng.choice(_CORRECTIONS).format(right=said_right, wrong=said_wrong)
    return draft(
        customer,
        Instruction(text=text, correction=correction),
        facts=[
            pickers.source_fact(account),
            phrasing.knows(f"The payee is {name}, already on my payee list.", "payee"),
            phrasing.knows(f"Use {mode}.", "mode"),
        ],
        narrative=(
            f"You want to pay your registered payee {name} by {mode} from account "
            f"{account['account_number']}. You first say {indian(wrong * 100)} by mistake; when "
            f"the assistant asks you to confirm, you correct it to {indian(amount)}, and you "
            "agree once the corrected transfer is proposed."
        ),
        calls=calls.payee_transfer(payee, account["account_number"], amount, mode),
        disclosures=terms.transfer_terms("transfer", amount, mode),
    )
