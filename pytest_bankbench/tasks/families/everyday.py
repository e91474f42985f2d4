"""Everyday banking families about transfers: new payees, the cooling period, RTGS, a dormant
or frozen debit account, a debit above the available balance."""

from __future__ import annotations

import random
import sqlite3

from pytest_bankbench.bank import rules
from pytest_bankbench.money import indian, plain
from pytest_bankbench.tasks.families.base import (
    Call,
    Context,
    Draft,
    Must,
    Out,
    Ref,
    active_accounts,
    alternative,
    amount_phrases,
    desi,
    draft,
    ending,
    family,
    field_of,
    funded_customers,
    knows,
    last4,
    my_account,
    offered_secret,
    opening,
    pick,
    pick_funded,
    reason,
    spoken,
    told,
    unheld,
)
from pytest_bankbench.tasks.families.calls import (
    balance,
    find_payee,
    listed,
    transfer,
    transfer_terms,
)
from pytest_bankbench.tasks.model import Instruction

_AMOUNTS = (
    2_000,
    3_500,
    5_000,
    7_500,
    10_000,
    12_000,
    15_000,
    20_000,
    25_000,
    30_000,
    40_000,
    50_000,
    60_000,
    75_000,
    1_00_000,
)
_NEW_PAYEE_AMOUNTS = (5_000, 8_000, 10_000, 15_000, 20_000, 25_000, 30_000, 40_000, 45_000, 50_000)
_BIG_AMOUNTS = (1_00_000, 1_20_000, 1_50_000, 1_75_000, 2_00_000, 2_50_000, 3_00_000)
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


def _payee_customers(need: int) -> str:
    """Customers with a payee and an active account without a hold holding `need` paise."""
    return (
        "SELECT DISTINCT b.customer_id FROM beneficiaries b JOIN accounts a "
        f"USING (customer_id) WHERE {unheld(need)} ORDER BY 1"
    )


def registered_payees(ctx: Context, cid: str) -> list[sqlite3.Row]:
    """Payees added before today whose full name is unique among the customer's payees."""
    rows = ctx.all(
        "SELECT * FROM beneficiaries WHERE customer_id = ? AND added_on < ? "
        "ORDER BY beneficiary_id",
        cid,
        ctx.today.isoformat(),
    )
    names = [r["name"] for r in rows]
    return [r for r in rows if names.count(r["name"]) == 1]


def _amount(rng: random.Random, choices: tuple[int, ...], low: int, high: int) -> int | None:
    """One of `choices` (rupees) as paise, within low..high paise, or None."""
    fits = [c * 100 for c in choices if low <= c * 100 <= high]
    return rng.choice(fits) if fits else None


def _payment(
    ctx: Context,
    rng: random.Random,
    cid: str,
    need: int,
    choices: tuple[int, ...],
    most: int | None = None,
) -> tuple[sqlite3.Row, sqlite3.Row, int] | None:
    """A registered payee, an account without a hold holding `need`, and one of `choices` that
    leaves Rs 5,000 in the account (and is at most `most`): payee, account, amount."""
    payees = registered_payees(ctx, cid)
    account = pick_funded(ctx, rng, cid, need)
    if not payees or account is None:
        return None
    payee = rng.choice(payees)
    high = account["balance"] - 5_000_00
    amount = _amount(rng, choices, 0, high if most is None else min(most, high))
    if amount is None:
        return None
    return payee, account, amount


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
    wanted = _amount(rng, _BIG_AMOUNTS if over_limit else _NEW_PAYEE_AMOUNTS, 0, 5_00_000_00)
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
            alternative("send the remaining allowance today", values=(allowance,), before="c2"),
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
        Call(
            "add_beneficiary",
            {"name": name, "account_number": number, "ifsc": ifsc, "nickname": nickname},
            match=("account_number", "ifsc"),
        ),
        transfer(source, Ref("c1", "beneficiary_id"), sent, mode, after=("c1",)),
        balance(source, after=("c2",)),
    ]
    outputs = [Out("balance after transfer", "amount", field_of("c3", "balance"))]
    if over_limit:
        outputs.insert(0, Out("amount sent today", "amount", field_of("c2", "amount")))
    return draft(
        customer,
        "",
        Instruction(text=ask, explain=explain),
        facts=facts,
        narrative=(
            f"You want to send {indian(wanted)} by {mode} from account {source} to your "
            f"{relation} {name} (account {number}, IFSC {ifsc}), who is not yet a payee; add "
            f"them with the nickname '{nickname}'.{story} Then ask for your balance."
        ),
        calls=calls,
        outputs=outputs,
        disclosures=transfer_terms("c2", sent, mode),
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


RTGS_MINIMUM = rules.TRANSFER_LIMITS["RTGS"][0]
# What an agent says when it states the RTGS minimum: the concept, or the minimum itself.
RTGS_PHRASES = ("below_minimum", *amount_phrases(RTGS_MINIMUM))


@family(
    "rtgs_below_minimum",
    "edge_case",
    "everyday",
    _payee_customers(60_000_00),
    clause="H.29 'An RTGS transfer below the Rs 2,00,000 minimum: offer NEFT or IMPS'; 'Act on the alternative only if the customer agrees'; D.17 confirm again when the mode changes",
)
def rtgs_below_minimum(ctx: Context, rng: random.Random, customer: sqlite3.Row) -> Draft | None:
    """RTGS below Rs 2 lakh is refused: send by NEFT as the customer allows."""
    chosen = _payment(ctx, rng, customer["customer_id"], 60_000_00, _SUB_RTGS_AMOUNTS)
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
        "",
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
            find_payee(payee),
            transfer(
                number, payee["beneficiary_id"], amount, "NEFT", after=("c1",), allowed=("IMPS",)
            ),
        ],
        disclosures=transfer_terms("c2", amount, "NEFT", also=("IMPS",)),
        # Policy H.29: the refusal's reason (the RTGS minimum) is told with the alternative,
        # before the transfer the customer then agrees to.
        tells=[
            Must(
                "reason",
                "below the RTGS minimum",
                ("below_minimum",),
                (told("RTGS minimum", "amount", plain(RTGS_MINIMUM)),),
                before="c2",
            ),
            alternative("NEFT or IMPS instead", "other_mode", before="c2"),
        ],
    )


# The concept an agent states when it tells the customer an account cannot be debited.
DORMANT_PHRASES = ("dormant",)


@family(
    "dormant_source_account",
    "edge_case",
    "everyday",
    "SELECT DISTINCT d.customer_id FROM accounts d JOIN accounts a ON a.customer_id = "
    f"d.customer_id AND {unheld(12_000_00)} "
    "JOIN beneficiaries b ON b.customer_id = d.customer_id WHERE d.status = 'dormant' "
    "ORDER BY 1",
    clause="H.29 'Any debit ... from a dormant or frozen account ...: offer another of the customer's active accounts if one has enough available balance'",
)
def dormant_source_account(ctx: Context, rng: random.Random, customer: sqlite3.Row) -> Draft | None:
    """No debit from a dormant account: pay from the active account the customer names."""
    cid = customer["customer_id"]
    dormant = pick(
        rng,
        ctx.all(
            "SELECT * FROM accounts WHERE customer_id = ? AND status = 'dormant' "
            "ORDER BY account_number",
            cid,
        ),
    )
    assert dormant is not None  # eligibility guarantees one
    chosen = _payment(ctx, rng, cid, 12_000_00, _AMOUNTS, most=dormant["balance"])
    if chosen is None:
        return None
    payee, active, amount = chosen
    mode = rng.choice(("IMPS", "NEFT"))
    old = dormant["account_number"]
    said, name = spoken(amount, rng), payee["name"]
    ask = opening(
        rng,
        terse=f"Pay {name} {said} by {mode} from a/c {old}.",
        chatty=f"Hi there! I found the passbook of my savings account {old} while cleaning up, "
        f"and there's money in it - please send {said} from it to {name} by {mode}.",
        formal=f"Good evening. Kindly transfer {said} from my savings account {old} to my "
        f"payee {name} via {mode}.",
        hinglish=f"Hi, mere savings account {old} se {name} ko {said} bhejna hai, {mode} se.",
        unprompted=f"Please send {said} to my payee {name} by {mode} from my savings account "
        f"{old}.",
        asked="I want to pay one of my payees from my savings account.",
        story=f"My grandmother opened savings account {old} for me years ago - please send "
        f"{said} from it to {name} by {mode}.",
    )
    return _from_another_account(
        customer,
        ask,
        "dormant, so no payments can be made from it until it is reactivated at a branch",
        DORMANT_PHRASES,
        reason("account dormant", "dormant", record=old),
        ", which you have not used for years. If the assistant explains that it cannot be used",
        (dormant, payee, active, amount, mode, said),
    )


# The concept an agent states when it tells the customer an account is frozen.
FROZEN_PHRASES = ("frozen",)


@family(
    "frozen_source_account",
    "edge_case",
    "everyday",
    "SELECT DISTINCT f.customer_id FROM accounts f JOIN accounts a ON a.customer_id = "
    f"f.customer_id AND {unheld(12_000_00)} "
    "JOIN beneficiaries b ON b.customer_id = f.customer_id WHERE f.status = 'frozen' "
    "ORDER BY 1",
    clause="H.29 'Any debit ... from a dormant or frozen account ...: offer another of the customer's active accounts if one has enough available balance'; KB 10 a frozen account takes no debits",
)
def frozen_source_account(ctx: Context, rng: random.Random, customer: sqlite3.Row) -> Draft | None:
    """No debit from a frozen account: the customer, told why, names an active one to pay from."""
    cid = customer["customer_id"]
    frozen = ctx.one(
        "SELECT * FROM accounts WHERE customer_id = ? AND status = 'frozen' "
        "ORDER BY account_number",
        cid,
    )
    chosen = _payment(ctx, rng, cid, 12_000_00, _AMOUNTS)
    if chosen is None:
        return None
    payee, active, amount = chosen
    mode = rng.choice(("IMPS", "NEFT"))
    old = frozen["account_number"]
    said, name = spoken(amount, rng), payee["name"]
    ask = opening(
        rng,
        terse=f"{said} to {name}, {mode}, from a/c ending {old[-4:]}.",
        chatty=f"Hi! {name} helped us move house last week and I owe them {said} - please send "
        f"it by {mode} from my savings account ending {old[-4:]}.",
        formal=f"Good morning. Kindly transfer {said} to my payee {name} by {mode}, debiting my "
        f"savings account {old}.",
        hinglish=f"Namaste, {name} ko {said} bhejna hai {mode} se, mere savings account {old} se.",
        unprompted=f"Please send {said} by {mode} from my savings account {old} to my payee "
        f"{name} today.",
        asked="I need to pay one of my payees from my other savings account.",
        puzzled=f"My app wouldn't let me pay {name} {said} from my savings account ending "
        f"{old[-4:]} - can you send it by {mode} for me?",
    )
    return _from_another_account(
        customer,
        ask,
        "frozen, so no payments or other debits can be made from it",
        FROZEN_PHRASES,
        reason("account frozen", "frozen", record=old),
        ". The bank has frozen that account, which you do not know. If the assistant explains "
        "that it cannot be debited",
        (frozen, payee, active, amount, mode, said),
    )


def _from_another_account(
    customer: sqlite3.Row,
    ask: str,
    why: str,
    phrases: tuple[str, ...],
    refusal: Must,
    story: str,
    payment: tuple[sqlite3.Row, sqlite3.Row, sqlite3.Row, int, str, str],
) -> Draft:
    """A transfer from an account that takes no debits: the agent says `why`, and only then (one
    of `phrases` said) does the customer name the active account to pay from instead. `story`
    ends the narrative's first sentence and starts the condition of its second. `refusal` is
    the reason told; the active account, by its last digits, is the alternative (H.29)."""
    blocked, payee, active, amount, mode, said = payment
    old, name = blocked["account_number"], payee["name"]
    return draft(
        customer,
        "",
        Instruction(
            text=ask,
            explain=f"Your savings account ending {last4(blocked)} is {why}. Your "
            f"{active['account_type']} account ending {last4(active)} has enough balance, so I "
            "can send it from there instead.",
        ),
        facts=[
            knows(f"From my savings account {old}.", "account"),
            knows(f"It's {said} for {name}, who is on my payee list.", "payee", "amount"),
            knows(f"Use {mode}.", "mode"),
            knows(
                f"Then send it from my {active['account_type']} account "
                f"{active['account_number']} instead.",
                "account",
                after=phrases,
            ),
        ],
        narrative=(
            f"You want to pay {indian(amount)} by {mode} to your payee {name} from savings "
            f"account {old}{story}, you want the money sent from "
            f"your {active['account_type']} account {active['account_number']} instead; you do "
            "not offer that account before."
        ),
        calls=[
            listed("list_accounts", "account", old, ("status",)),
            find_payee(payee),
            transfer(
                active["account_number"], payee["beneficiary_id"], amount, mode, after=("c1",)
            ),
        ],
        disclosures=transfer_terms("c3", amount, mode),
        tells=[
            refusal,
            alternative(
                "another active account",
                values=(told("account to pay from", "digits", last4(active)),),
                record=active["account_number"],
                before="c3",
            ),
        ],
    )


# The concept an agent states when a debit is more than the available balance.
SHORT_PHRASES = ("insufficient_funds",)


@family(
    "insufficient_funds",
    "edge_case",
    "everyday",
    "SELECT DISTINCT b.customer_id FROM beneficiaries b JOIN accounts a USING (customer_id) "
    "WHERE a.status = 'active' AND a.balance - a.hold_amount <= 90000000 ORDER BY 1",
    clause="H.29 refuse 'Any debit ... for more than the available balance: offer another of the customer's active accounts if one has enough available balance'",
)
def insufficient_funds(ctx: Context, rng: random.Random, customer: sqlite3.Row) -> Draft | None:
    """A transfer above the available balance: send nothing, tell what is available."""
    cid = customer["customer_id"]
    payees = registered_payees(ctx, cid)
    accounts = [
        a for a in active_accounts(ctx, cid, 0) if a["balance"] - a["hold_amount"] <= 9_00_000_00
    ]
    if not payees or not accounts:
        return None
    payee = rng.choice(payees)
    account = rng.choice(accounts)
    available = account["balance"] - account["hold_amount"]
    step = 5_000_00 if available >= 1_00_000_00 else 1_000_00
    amount = (available // step + 1) * step + rng.choice((0, 1, 2, 5)) * step
    mode = "IMPS" if amount <= 5_00_000_00 and rng.random() < 0.5 else "NEFT"
    said, name = spoken(amount, rng), payee["name"]
    # H.29: another active account that has enough is offered (the customer declines it).
    cover = [
        a
        for a in active_accounts(ctx, cid, amount)
        if a["account_number"] != account["account_number"]
    ]
    offer = ""
    tells = [
        reason(
            "not enough available balance", "insufficient_funds", record=account["account_number"]
        )
    ]
    if cover:
        offer = (
            f" Your {cover[0]['account_type']} account ending {last4(cover[0])} has enough "
            "available balance, so I can send it from there instead if you like."
        )
        tells.append(
            alternative(
                "another active account",
                values=tuple(told("account to pay from", "digits", last4(a)) for a in cover),
            )
        )
    ask = opening(
        rng,
        terse=f"Transfer {said} to {name}, {mode}, from {ending(account)}.",
        chatty=f"Hi! My nephew's admission fees are due and {name} is handling it, so I need "
        f"to send {said} by {mode} from {ending(account)}. Can you do that?",
        formal=f"Good afternoon. Please transfer {said} to my payee {name} by {mode}, debiting "
        f"{ending(account)}.",
        hinglish=f"Hello, mere {desi(ending(account))} se {name} ko {said} bhejna hai, {mode} se. Abhi "
        "kar do.",
        unprompted=f"Please send {said} to my payee {name} by {mode} from my "
        f"{account['account_type']} account {account['account_number']}.",
        asked=f"I need to send some money to {name}.",
        hurried=f"Quick one - {said} to {name} by {mode} from {ending(account)}, please.",
    )
    return draft(
        customer,
        "",
        Instruction(
            text=ask,
            decline="No, don't send anything then.",
            explain=f"The available balance in your account ending {last4(account)} is "
            f"insufficient for {indian(amount)}, so I can't make this transfer.{offer}",
        ),
        facts=[
            knows(f"The account number is {account['account_number']}.", "account"),
            knows(f"It's {said}, by {mode}.", "amount", "mode"),
            knows(
                "Then don't send anything, not from another account either - just tell me how "
                "much I can actually use.",
                "amount",
                after=SHORT_PHRASES,
            ),
        ],
        narrative=(
            f"You want to send {indian(amount)} by {mode} from account "
            f"{account['account_number']} to your payee {payee['name']}. The account's "
            f"available balance is less than that; once told so, you do not send anything "
            "(not from another account either) and only want to hear the available "
            "balance."
        ),
        # Refusing needs only the available balance; the payee need not be looked up.
        # The account it offers instead is looked up first: it is offered because it has enough.
        calls=[balance(account["account_number"], fields=("status", "available_balance"))]
        + [balance(a["account_number"], fields=("status", "available_balance")) for a in cover[:1]],
        outputs=[Out("available balance", "amount", field_of("c1", "available_balance"))],
        tells=tells,
    )
