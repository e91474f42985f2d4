"""Everyday families about new payees: adding one and paying it, within the cooling-period limit."""

from __future__ import annotations

import random
import sqlite3

from pytest_bankbench.authoring.base import (
    Call,
    Context,
    Draft,
    Must,
    Out,
    Ref,
    alternative,
    as_step,
    draft,
    family,
    reason,
    record,
    result,
    told,
)
from pytest_bankbench.authoring.calls import balance, transfer, transfer_terms
from pytest_bankbench.authoring.phrasing import (
    amount_phrases,
    knows,
    my_account,
    offered_secret,
    opening,
    spoken,
)
from pytest_bankbench.authoring.pickers import amount_within, funded_customers, pick_funded
from pytest_bankbench.bank import rules
from pytest_bankbench.money import indian, plain
from pytest_bankbench.tasks.model import Instruction

_NEW_PAYEE_AMOUNTS = (5_000, 8_000, 10_000, 15_000, 20_000, 25_000, 30_000, 40_000, 45_000, 50_000)


_BIG_AMOUNTS = (1_00_000, 1_20_000, 1_50_000, 1_75_000, 2_00_000, 2_50_000, 3_00_000)


_MEN = (
    "Rohit",
    "Sunil",
    "Ganesh",
    "Irfan",
    "Kunal",
    "Lalit",
    "Mukesh",
    "Nitin",
    "Omkar",
    "Paresh",
    "Rakesh",
    "Sachin",
    "Tushar",
    "Umesh",
    "Vivek",
)


_WOMEN = (
    "Aarti",
    "Bindu",
    "Chitra",
    "Hema",
    "Ishita",
    "Kajal",
    "Leela",
    "Madhuri",
    "Nandita",
    "Pallavi",
    "Rashmi",
    "Seema",
    "Trupti",
    "Vidya",
    "Yogita",
)


_LAST = (
    "Acharya",
    "Bhandari",
    "Chopra",
    "Dixit",
    "Gokhale",
    "Hegde",
    "Jadhav",
    "Kale",
    "Lal",
    "Mathur",
    "Nagpal",
    "Oberoi",
    "Pai",
    "Rane",
    "Sawant",
    "Thakur",
    "Upadhyay",
    "Vaidya",
    "Wagh",
    "Zaveri",
)


_BANKS = ("HDFC0", "ICIC0", "SBIN0", "UTIB0", "KKBK0", "PUNB0", "BARB0", "CNRB0", "YESB0", "SUVB0")


_ANYONE = ("cousin", "friend", "landlord", "tailor", "contractor")


_RELATIONS = {
    True: ("brother", "son", "uncle", *_ANYONE),
    False: ("sister", "daughter", "aunt", *_ANYONE),
}


def _new_payee(ctx: Context, rng: random.Random, cid: str) -> tuple[str, str, str, str, str] | None:
    """A payee the customer has not registered: name, account, IFSC, nickname, relation."""
    man = rng.random() < 0.5
    name = f"{rng.choice(_MEN if man else _WOMEN)} {rng.choice(_LAST)}"
    digits = rng.randint(9, 18)
    number = str(rng.randint(10 ** (digits - 1), 10**digits - 1))
    ifsc = f"{rng.choice(_BANKS)}{rng.randint(0, 999999):06d}"
    relation = rng.choice(_RELATIONS[man])
    nickname = (
        relation if relation in ("landlord", "tailor", "contractor") else name.split()[0].lower()
    )
    clash = ctx.all(
        "SELECT 1 FROM beneficiaries WHERE customer_id = ? AND (name = ? OR "
        "account_number = ? OR nickname = ?)",
        cid,
        name,
        number,
        nickname,
    )
    if clash:
        return None
    return name, number, ifsc, nickname, relation


# What an agent says when it states the cooling-period rule: the concept, or the day's allowance.
COOLING_PHRASES = ("cooling_period", *amount_phrases(rules.COOLING_LIMIT))


def _new_payee_draft(
    ctx: Context, rng: random.Random, customer: sqlite3.Row, over_limit: bool
) -> Draft | None:
    cid = customer["customer_id"]
    payee = _new_payee(ctx, rng, cid)
    if payee is None:
        return None
    name, number, ifsc, nickname, relation = payee
    wanted = amount_within(rng, _BIG_AMOUNTS if over_limit else _NEW_PAYEE_AMOUNTS, 0, 5_00_000_00)
    assert wanted is not None
    account = pick_funded(ctx, rng, cid, wanted + 5_000_00)
    if account is None:
        return None
    source = account["account_number"]
    sent = rules.COOLING_LIMIT if over_limit else wanted
    mode = rng.choice(("IMPS", "NEFT"))
    said = spoken(wanted, rng)
    ask = opening(
        rng,
        terse=f"New payee: my {relation}. Add them and send {said} by {mode} today.",
        chatty=f"So my {relation} needs {said} today and, of course, they're not on my payee "
        f"list yet! Can you add them as a new payee and send it by {mode}?",
        formal=f"Good afternoon. I wish to register my {relation} as a new payee and transfer "
        f"{said} to them by {mode} today.",
        hinglish=f"Namaste. Mere {relation} ko aaj {said} bhejne hain, {mode} se. Payee list "
        "mein abhi add nahi kiya hai - please add karke bhej do.",
        unprompted=f"Please add my {relation} {name} as a new payee (account {number}, IFSC "
        f"{ifsc}, nickname '{nickname}') and send them {said} by {mode} today from "
        f"{my_account(account)}.",
        asked=f"I need to send money to my {relation} today. They're not on my payee list yet, "
        "so please add them as a new payee first.",
        story=f"My {relation} just called - they need {said} today for a hospital deposit. "
        f"Please register them as a payee and send it by {mode}.",
    )
    ask += (
        " Tell me how much was sent and my balance afterwards."
        if over_limit
        else " Then tell me my balance."
    )
    facts = [
        knows(f"The payee's name is {name}.", "payee"),
        knows(f"Their account number is {number} and the IFSC is {ifsc}.", "payee"),
        knows(f"Save them with the nickname '{nickname}'.", "payee"),
        knows(f"It's {said}, today.", "amount"),
        knows(f"Send it from {my_account(account)}.", "account"),
        knows(f"Use {mode}.", "mode"),
    ]
    explain = None
    story = ""
    tells: list[Must] = []
    if over_limit:
        # H.29: why not all today, and the remaining amount offered before it is sent.
        allowance = told("today's remaining allowance", "amount", plain(rules.COOLING_LIMIT))
        tells = [
            reason("cooling period", "cooling_period"),
            alternative(
                "send the remaining allowance today", values=(allowance,), before="transfer"
            ),
        ]
        facts.append(
            knows(
                f"Then send {indian(rules.COOLING_LIMIT)} today and I'll send the rest tomorrow.",
                "amount",
                after=COOLING_PHRASES,
            )
        )
        explain = (
            f"I can't send the full {indian(wanted)} today: a payee added today can receive at "
            f"most {indian(rules.COOLING_LIMIT)} on the day they are added (the cooling period). "
            f"I can send {indian(rules.COOLING_LIMIT)} now and the rest from tomorrow."
        )
        story = (
            " If the assistant explains that a new payee cannot receive the full amount today, "
            f"you accept sending {indian(rules.COOLING_LIMIT)} now and the rest tomorrow; you "
            "do not suggest a smaller amount yourself."
        )
    # The payee list shows the payee is new; the cooling-period allowance is the policy's
    # (section H) and add_beneficiary's result repeats it, so no limits read is needed.
    calls = [
        as_step(
            "payee",
            Call(
                "add_beneficiary",
                {"name": name, "account_number": number, "ifsc": ifsc, "nickname": nickname},
                match=("account_number", "ifsc"),
            ),
        ),
        as_step(
            "transfer",
            transfer(source, Ref("payee", "beneficiary_id"), sent, mode, after=("payee",)),
        ),
        as_step("balance", balance(source, after=("transfer",))),
    ]
    outputs = [Out("balance after transfer", "amount", record("account", source, "balance"))]
    if over_limit:
        outputs.insert(0, Out("amount sent today", "amount", result("transfer", "amount")))
    return draft(
        customer,
        Instruction(text=ask, explain=explain),
        facts=facts,
        narrative=(
            f"You want to send {indian(wanted)} by {mode} from account {source} to your "
            f"{relation} {name} (account {number}, IFSC {ifsc}), who is not yet a payee; add "
            f"them with the nickname '{nickname}'.{story} Then ask for your balance."
        ),
        calls=calls,
        outputs=outputs,
        disclosures=transfer_terms("transfer", sent, mode),
        tells=tells,
        # A new payee's OTP, offered unprompted (the generator keeps it for some tasks).
        offers=None if over_limit else offered_secret("otp", "new_payee_transfer", cid),
    )


@family(
    "new_payee_transfer",
    "sequencing",
    "everyday",
    funded_customers(60_000_00),
    clause="H.29 'A transfer to someone who is not a registered beneficiary: offer to add the beneficiary first'; KB 09 cooling period Rs 50,000 on the day added; D.15-16",
)
def new_payee_transfer(ctx: Context, rng: random.Random, customer: sqlite3.Row) -> Draft | None:
    """Add a payee, check limits, send within the cooling allowance, then the balance."""
    return _new_payee_draft(ctx, rng, customer, over_limit=False)


@family(
    "cooling_period_limit",
    "edge_case",
    "everyday",
    funded_customers(1_10_000_00),
    clause="H.29 'Transfers to a beneficiary added today that would take that day's total to the beneficiary above Rs 50,000 (cooling period): offer to send up to the remaining amount today and the rest from the next day'; H.30 no splitting",
)
def cooling_period_limit(ctx: Context, rng: random.Random, customer: sqlite3.Row) -> Draft | None:
    """A new payee gets at most Rs 50,000 today: send that much, the rest is for tomorrow."""
    return _new_payee_draft(ctx, rng, customer, over_limit=True)
