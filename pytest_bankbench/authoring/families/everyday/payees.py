"""Everyday families about new payees: adding one and paying it, within the cooling-period limit."""

from __future__ import annotations

import random
import sqlite3
from typing import NamedTuple

from pytest_bankbench.authoring import base, calls, phrasing, pickers, terms
from pytest_bankbench.authoring.base import Context, Draft, draft, family
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


class _NewPayee(NamedTuple):
    """A payee the customer has not registered yet, and who they are to the customer."""

    name: str
    number: str
    ifsc: str
    nickname: str
    relation: str

    def words(self) -> dict[str, str]:
        """The payee as an opening template names it: {payee} by name, {payee_number} its
        account, {ifsc}, {nickname}, {relation} (the customer's "brother", "landlord"...)."""
        return {
            "payee": self.name,
            "payee_number": self.number,
            "ifsc": self.ifsc,
            "nickname": self.nickname,
            "relation": self.relation,
        }


def _new_payee(ctx: Context, rng: random.Random, cid: str) -> _NewPayee | None:
    """A payee the customer has not registered, drawn with the rng."""
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
    return _NewPayee(name, number, ifsc, nickname, relation)


# What an agent says when it states the cooling-period rule: the concept, or the day's allowance.
COOLING_PHRASES = ("cooling_period", *phrasing.amount_phrases(rules.COOLING_LIMIT))


def _new_payee_draft(
    ctx: Context, rng: random.Random, customer: sqlite3.Row, over_limit: bool
) -> Draft | None:
    cid = customer["customer_id"]
    payee = _new_payee(ctx, rng, cid)
    if payee is None:
        return None
    name, number, ifsc, nickname, relation = payee
    wanted = pickers.amount_within(
        rng, _BIG_AMOUNTS if over_limit else _NEW_PAYEE_AMOUNTS, 0, 5_00_000_00
    )
    assert wanted is not None
    account = pickers.pick_funded(ctx, rng, cid, wanted + 5_000_00)
    if account is None:
        return None
    source = account["account_number"]
    sent = rules.COOLING_LIMIT if over_limit else wanted
    mode = rng.choice(("IMPS", "NEFT"))
    said = phrasing.spoken(wanted, rng)
    ask = phrasing.opening_text(
        rng,
        "new_payee_transfer",
        said=said,
        mode=mode,
        mine=phrasing.my_account(account),
        **payee.words(),
    )
    ask += (
        " Tell me how much was sent and my balance afterwards."
        if over_limit
        else " Then tell me my balance."
    )
    facts = [
        phrasing.knows(f"The payee's name is {name}.", "payee"),
        phrasing.knows(f"Their account number is {number} and the IFSC is {ifsc}.", "payee"),
        phrasing.knows(f"Save them with the nickname '{nickname}'.", "payee"),
        phrasing.knows(f"It's {said}, today.", "amount"),
        pickers.source_fact(account),
        phrasing.knows(f"Use {mode}.", "mode"),
    ]
    explain = None
    story = ""
    tells: list[base.Must] = []
    if over_limit:
        # H.29: why not all today, and the remaining amount offered before it is sent.
        allowance = base.told(
            "today's remaining allowance",
            "amount",
            base.known(plain(rules.COOLING_LIMIT), base.clause("H.29", near="beneficiary above")),
        )
        tells = [
            base.reason("cooling period", "cooling_period"),
            base.alternative(
                "send the remaining allowance today", values=(allowance,), before="transfer"
            ),
        ]
        facts.append(
            phrasing.knows(
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
    chain = [
        base.as_step(
            "payee",
            base.Call(
                "add_beneficiary",
                {"name": name, "account_number": number, "ifsc": ifsc, "nickname": nickname},
                match=("account_number", "ifsc"),
            ),
        ),
        base.as_step(
            "transfer",
            calls.transfer(
                source, base.Ref("payee", "beneficiary_id"), sent, mode, after=("payee",)
            ),
        ),
        base.as_step("balance", calls.balance(source, after=("transfer",))),
    ]
    outputs = [
        base.Out("balance after transfer", "amount", base.record("account", source, "balance"))
    ]
    if over_limit:
        outputs.insert(
            0, base.Out("amount sent today", "amount", base.result("transfer", "amount"))
        )
    return draft(
        customer,
        Instruction(text=ask, explain=explain),
        facts=facts,
        narrative=(
            f"You want to send {indian(wanted)} by {mode} from account {source} to your "
            f"{relation} {name} (account {number}, IFSC {ifsc}), who is not yet a payee; add "
            f"them with the nickname '{nickname}'.{story} Then ask for your balance."
        ),
        calls=chain,
        outputs=outputs,
        disclosures=terms.transfer_terms("transfer", sent, mode),
        tells=tells,
        # A new payee's OTP, offered unprompted (the generator keeps it for some tasks).
        offers=None if over_limit else phrasing.offered_secret("otp", "new_payee_transfer", cid),
    )


@family(pickers.funded_customers(60_000_00))
def new_payee_transfer(ctx: Context, rng: random.Random, customer: sqlite3.Row) -> Draft | None:
    """Add a payee, check limits, send within the cooling allowance, then the balance."""
    return _new_payee_draft(ctx, rng, customer, over_limit=False)


@family(pickers.funded_customers(1_10_000_00))
def cooling_period_limit(ctx: Context, rng: random.Random, customer: sqlite3.Row) -> Draft | None:
    """A new payee gets at most Rs 50,000 today: send that much, the rest is for tomorrow."""
    return _new_payee_draft(ctx, rng, customer, over_limit=True)
