"""Everyday banking families: transfers, payees, cooling period, balances, cheques, statements."""

from __future__ import annotations

import random
import sqlite3
from datetime import date
from decimal import Decimal

from pytest_bankbench.bank import rules
from pytest_bankbench.money import indian
from pytest_bankbench.tasks.families.base import (
    GREETINGS,
    Call,
    Context,
    Draft,
    Out,
    Ref,
    Results,
    family,
    field_of,
    rupees_arg,
    say,
    spoken,
)
from pytest_bankbench.tasks.model import Instruction

_PAYEE_CUSTOMERS = (
    "SELECT DISTINCT b.customer_id FROM beneficiaries b JOIN accounts a "
    "USING (customer_id) WHERE a.status = 'active' AND a.hold_amount = 0 AND "
    "a.balance >= {need} ORDER BY 1"
)
_FUNDED = (
    "SELECT DISTINCT customer_id FROM accounts WHERE status = 'active' AND hold_amount = 0 "
    "AND balance >= {need} ORDER BY 1"
)
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
_RELATIVES = {
    "wife": "she",
    "husband": "he",
    "father": "he",
    "mother": "she",
    "son": "he",
    "daughter": "she",
    "brother": "he",
    "sister": "she",
}


def _accounts(ctx: Context, cid: str, need: int = 0, no_hold: bool = True) -> list[sqlite3.Row]:
    """The customer's active accounts with at least `need` paise available."""
    hold = "AND hold_amount = 0 " if no_hold else ""
    return ctx.all(
        "SELECT * FROM accounts WHERE customer_id = ? AND status = 'active' "
        f"{hold}AND balance - hold_amount >= ? ORDER BY account_number",
        cid,
        need,
    )


def _pick_account(ctx: Context, rng: random.Random, cid: str, need: int) -> sqlite3.Row | None:
    rows = _accounts(ctx, cid, need)
    return rng.choice(rows) if rows else None


def _payees(ctx: Context, cid: str) -> list[sqlite3.Row]:
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


def _ending(account: sqlite3.Row) -> str:
    return f"my {account['account_type']} account ending {account['account_number'][-4:]}"


def _day(day: date) -> str:
    return f"{day.day} {day:%B %Y}"


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


def _first_txn_amount(results: Results) -> str:
    return str(Decimal(str(results["c2"]["transactions"][0]["amount"])))


# -- transfers --------------------------------------------------------------------------------


@family("transfer_to_payee", "sequencing", "everyday", _PAYEE_CUSTOMERS.format(need=12_000_00))
def transfer_to_payee(ctx: Context, rng: random.Random, customer: sqlite3.Row) -> Draft | None:
    """Check the payee and the balance, send, then tell the balance after."""
    cid = customer["customer_id"]
    payees = _payees(ctx, cid)
    account = _pick_account(ctx, rng, cid, 12_000_00)
    if not payees or account is None:
        return None
    payee = rng.choice(payees)
    amount = _amount(rng, _AMOUNTS, 0, account["balance"] - 5_000_00)
    if amount is None:
        return None
    mode = rng.choice(("IMPS", "NEFT"))
    ask = say(
        rng,
        f"Please send {spoken(amount, rng)} to {payee['name']} by {mode} from "
        f"{_ending(account)}, and tell me my balance after that.",
        f"I want to transfer {spoken(amount, rng)} to my payee {payee['name']} using "
        f"{mode}. What will my balance be once it's done?",
        f"Can you pay {payee['name']} {spoken(amount, rng)} via {mode}? Afterwards tell me "
        "how much is left in the account.",
    )
    return Draft(
        customer_id=cid,
        persona="",
        greeting=rng.choice(GREETINGS),
        instructions=[Instruction(text=ask)],
        facts=[
            f"Send it from my account {account['account_number']}.",
            f"{payee['name']} is already on my payee list.",
            f"Use {mode}.",
        ],
        narrative=(
            f"You want to send {indian(amount)} by {mode} from account "
            f"{account['account_number']} to {payee['name']}, a payee you registered "
            "long ago, and then hear your balance after the transfer."
        ),
        calls=[
            Call("list_beneficiaries", {}),
            Call(
                "get_account_balance",
                {"account_number": account["account_number"]},
                match=("account_number",),
            ),
            Call(
                "transfer_funds",
                {
                    "from_account": account["account_number"],
                    "beneficiary_id": payee["beneficiary_id"],
                    "amount": rupees_arg(amount),
                    "mode": mode,
                },
                match=("from_account", "beneficiary_id", "amount", "mode"),
                after=("c1", "c2"),
            ),
            Call(
                "get_account_balance",
                {"account_number": account["account_number"]},
                match=("account_number",),
                after=("c3",),
            ),
        ],
        outputs=[Out("balance after transfer", "amount", field_of("c4", "balance"))],
    )


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
    account = _pick_account(ctx, rng, cid, wanted + 5_000_00)
    if account is None:
        return None
    sent = rules.COOLING_LIMIT if over_limit else wanted
    mode = rng.choice(("IMPS", "NEFT"))
    if over_limit:
        ask = say(
            rng,
            f"I need to send {spoken(wanted, rng)} to my {relation} by {mode} today. "
            "They aren't on my payee list yet, so please add them first.",
            f"Please add my {relation} as a new payee and transfer {spoken(wanted, rng)} to "
            f"them by {mode} right away.",
            f"My {relation} needs {spoken(wanted, rng)} today. Can you register them as a "
            f"payee and send it by {mode}?",
        )
        ask += " Tell me how much actually went and my balance afterwards."
    else:
        ask = say(
            rng,
            f"I want to pay my {relation} {spoken(wanted, rng)} by {mode}, but they're "
            "not on my payee list yet. Please add them and send it.",
            f"Please register a new payee - my {relation} - and send them "
            f"{spoken(wanted, rng)} through {mode}.",
            f"Can you add my {relation} as a beneficiary and transfer {spoken(wanted, rng)} "
            f"by {mode}?",
        )
        ask += " Then tell me my balance."
    facts = [
        f"The payee's name is {name}.",
        f"Their account number is {number} and the IFSC is {ifsc}.",
        f"Save them with the nickname '{nickname}'.",
        f"Send it from my account {account['account_number']}.",
        f"Use {mode}.",
    ]
    if over_limit:
        facts.append(
            f"If you can't send it all today, send {indian(rules.COOLING_LIMIT)} now and "
            "I'll send the rest tomorrow."
        )
    story = (
        f" If the bank will not let the full {indian(wanted)} go today, you accept sending "
        f"{indian(rules.COOLING_LIMIT)} now and the rest tomorrow."
        if over_limit
        else ""
    )
    calls = [
        Call("list_beneficiaries", {}),
        Call(
            "add_beneficiary",
            {"name": name, "account_number": number, "ifsc": ifsc, "nickname": nickname},
            match=("account_number", "ifsc"),
        ),
        Call(
            "get_transfer_limits",
            {"account_number": account["account_number"]},
            match=("account_number",),
        ),
        Call(
            "transfer_funds",
            {
                "from_account": account["account_number"],
                "beneficiary_id": Ref("c2", "beneficiary_id"),
                "amount": rupees_arg(sent),
                "mode": mode,
            },
            match=("from_account", "beneficiary_id", "amount", "mode"),
            after=("c2", "c3"),
        ),
        Call(
            "get_account_balance",
            {"account_number": account["account_number"]},
            match=("account_number",),
            after=("c4",),
        ),
    ]
    outputs = [Out("balance after transfer", "amount", field_of("c5", "balance"))]
    if over_limit:
        outputs.insert(0, Out("amount sent today", "amount", field_of("c4", "amount")))
    return Draft(
        customer_id=cid,
        persona="",
        greeting=rng.choice(GREETINGS),
        instructions=[Instruction(text=ask)],
        facts=facts,
        narrative=(
            f"You want to send {indian(wanted)} by {mode} from account "
            f"{account['account_number']} to your {relation} {name} (account {number}, "
            f"IFSC {ifsc}), who is not yet a payee; add them with the nickname "
            f"'{nickname}'.{story} Then ask for your balance."
        ),
        calls=calls,
        outputs=outputs,
    )


@family("new_payee_transfer", "sequencing", "everyday", _FUNDED.format(need=60_000_00))
def new_payee_transfer(ctx: Context, rng: random.Random, customer: sqlite3.Row) -> Draft | None:
    """Add a payee, check limits, send within the cooling allowance, then the balance."""
    return _new_payee_draft(ctx, rng, customer, over_limit=False)


@family("cooling_period_limit", "edge_case", "everyday", _FUNDED.format(need=1_10_000_00))
def cooling_period_limit(ctx: Context, rng: random.Random, customer: sqlite3.Row) -> Draft | None:
    """A new payee gets at most Rs 50,000 today: send that much, the rest is for tomorrow."""
    return _new_payee_draft(ctx, rng, customer, over_limit=True)


@family(
    "transfer_then_statement", "sequencing", "everyday", _PAYEE_CUSTOMERS.format(need=12_000_00)
)
def transfer_then_statement(
    ctx: Context, rng: random.Random, customer: sqlite3.Row
) -> Draft | None:
    """Numbered: pay a payee and tell the balance, then a statement of the account up to today."""
    cid = customer["customer_id"]
    payees = _payees(ctx, cid)
    account = _pick_account(ctx, rng, cid, 12_000_00)
    if not payees or account is None:
        return None
    payee = rng.choice(payees)
    amount = _amount(rng, _AMOUNTS, 0, account["balance"] - 5_000_00)
    if amount is None:
        return None
    mode = rng.choice(("IMPS", "NEFT"))
    months = rng.choice((1, 2, 3, 6))
    start = rules.add_months(ctx.today, -months).replace(day=1)
    delivery = rng.choice(("email", "post"))
    by = "by email" if delivery == "email" else "by post to my registered address"
    return Draft(
        customer_id=cid,
        persona="",
        greeting=rng.choice(GREETINGS),
        instructions=[
            Instruction(
                text=say(
                    rng,
                    f"Two things, in this order. First, send {spoken(amount, rng)} to "
                    f"{payee['name']} by {mode} and tell me the balance left.",
                    f"I have two requests. First: transfer {spoken(amount, rng)} to my payee "
                    f"{payee['name']} using {mode}, then tell me my balance.",
                )
            ),
            Instruction(
                text=say(
                    rng,
                    f"Second, I need a statement of the same account from {_day(start)} to "
                    f"{_day(ctx.today)}, sent {by}.",
                    f"Next, please request a statement for that account for {_day(start)} to "
                    f"{_day(ctx.today)} (today), {by}.",
                )
            ),
        ],
        facts=[
            f"Send it from my account {account['account_number']}.",
            f"{payee['name']} is already a registered payee.",
            f"Use {mode}.",
        ],
        narrative=(
            f"First you send {indian(amount)} by {mode} from account "
            f"{account['account_number']} to your payee {payee['name']} and ask for the "
            f"balance. Then you want a statement of that account from {start.isoformat()} "
            f"to {ctx.today.isoformat()} delivered by {delivery}."
        ),
        calls=[
            Call("list_beneficiaries", {}),
            Call(
                "transfer_funds",
                {
                    "from_account": account["account_number"],
                    "beneficiary_id": payee["beneficiary_id"],
                    "amount": rupees_arg(amount),
                    "mode": mode,
                },
                match=("from_account", "beneficiary_id", "amount", "mode"),
                after=("c1",),
            ),
            Call(
                "get_account_balance",
                {"account_number": account["account_number"]},
                match=("account_number",),
                after=("c2",),
            ),
            Call(
                "request_account_statement",
                {
                    "account_number": account["account_number"],
                    "from_date": start.isoformat(),
                    "to_date": ctx.today.isoformat(),
                    "delivery": delivery,
                },
                match=("account_number", "from_date", "to_date", "delivery"),
                after=("c2",),
                instruction=1,
            ),
        ],
        outputs=[Out("balance after transfer", "amount", field_of("c3", "balance"))],
    )


@family("rtgs_below_minimum", "edge_case", "everyday", _PAYEE_CUSTOMERS.format(need=60_000_00))
def rtgs_below_minimum(ctx: Context, rng: random.Random, customer: sqlite3.Row) -> Draft | None:
    """RTGS below Rs 2 lakh is refused: send by NEFT as the customer allows."""
    cid = customer["customer_id"]
    payees = _payees(ctx, cid)
    account = _pick_account(ctx, rng, cid, 60_000_00)
    if not payees or account is None:
        return None
    payee = rng.choice(payees)
    amount = _amount(rng, _SUB_RTGS_AMOUNTS, 0, account["balance"] - 5_000_00)
    if amount is None:
        return None
    ask = say(
        rng,
        f"Please send {spoken(amount, rng)} to {payee['name']} by RTGS.",
        f"I'd like to RTGS {spoken(amount, rng)} to my payee {payee['name']}.",
        f"Transfer {spoken(amount, rng)} to {payee['name']} through RTGS, please.",
    )
    return Draft(
        customer_id=cid,
        persona="",
        greeting=rng.choice(GREETINGS),
        instructions=[Instruction(text=ask)],
        facts=[
            f"Send it from my account {account['account_number']}.",
            "If RTGS can't be used for this amount, send it by NEFT instead.",
        ],
        narrative=(
            f"You want to send {indian(amount)} to your payee {payee['name']} from account "
            f"{account['account_number']} and ask for RTGS. If RTGS is not possible for "
            "this amount, NEFT is fine."
        ),
        calls=[
            Call("list_beneficiaries", {}),
            Call(
                "get_transfer_limits",
                {"account_number": account["account_number"]},
                match=("account_number",),
            ),
            Call(
                "transfer_funds",
                {
                    "from_account": account["account_number"],
                    "beneficiary_id": payee["beneficiary_id"],
                    "amount": rupees_arg(amount),
                    "mode": "NEFT",
                },
                match=("from_account", "beneficiary_id", "amount", "mode"),
                after=("c2",),
            ),
        ],
    )


@family(
    "dormant_source_account",
    "edge_case",
    "everyday",
    "SELECT DISTINCT d.customer_id FROM accounts d JOIN accounts a ON a.customer_id = "
    "d.customer_id AND a.status = 'active' AND a.hold_amount = 0 AND a.balance >= 1200000 "
    "JOIN beneficiaries b ON b.customer_id = d.customer_id WHERE d.status = 'dormant' "
    "ORDER BY 1",
)
def dormant_source_account(ctx: Context, rng: random.Random, customer: sqlite3.Row) -> Draft | None:
    """No debit from a dormant account: pay from the active account the customer names."""
    cid = customer["customer_id"]
    dormant = ctx.one(
        "SELECT * FROM accounts WHERE customer_id = ? AND status = 'dormant' "
        "ORDER BY account_number",
        cid,
    )
    payees = _payees(ctx, cid)
    active = _pick_account(ctx, rng, cid, 12_000_00)
    if not payees or active is None:
        return None
    payee = rng.choice(payees)
    amount = _amount(rng, _AMOUNTS, 0, min(dormant["balance"], active["balance"] - 5_000_00))
    if amount is None:
        return None
    mode = rng.choice(("IMPS", "NEFT"))
    ask = say(
        rng,
        f"Please send {spoken(amount, rng)} to {payee['name']} by {mode} from my "
        f"savings account {dormant['account_number']}.",
        f"I want to use my old savings account {dormant['account_number']} to pay "
        f"{payee['name']} {spoken(amount, rng)} via {mode}.",
        f"Transfer {spoken(amount, rng)} from account {dormant['account_number']} to my "
        f"payee {payee['name']}, {mode} please.",
    )
    return Draft(
        customer_id=cid,
        persona="",
        greeting=rng.choice(GREETINGS),
        instructions=[Instruction(text=ask)],
        facts=[
            f"If that account can't be used, use my other {active['account_type']} account "
            f"{active['account_number']}.",
            f"Use {mode}.",
        ],
        narrative=(
            f"You want to pay {indian(amount)} by {mode} to your payee {payee['name']} "
            f"from savings account {dormant['account_number']}, which you have not used "
            "for years. If it cannot be used, you want the money sent from your "
            f"{active['account_type']} account {active['account_number']} instead."
        ),
        calls=[
            Call("list_accounts", {}),
            Call("list_beneficiaries", {}),
            Call(
                "transfer_funds",
                {
                    "from_account": active["account_number"],
                    "beneficiary_id": payee["beneficiary_id"],
                    "amount": rupees_arg(amount),
                    "mode": mode,
                },
                match=("from_account", "beneficiary_id", "amount", "mode"),
                after=("c1",),
            ),
        ],
    )


@family(
    "insufficient_funds",
    "edge_case",
    "everyday",
    "SELECT DISTINCT b.customer_id FROM beneficiaries b JOIN accounts a USING (customer_id) "
    "WHERE a.status = 'active' AND a.balance - a.hold_amount <= 90000000 ORDER BY 1",
)
def insufficient_funds(ctx: Context, rng: random.Random, customer: sqlite3.Row) -> Draft | None:
    """A transfer above the available balance: send nothing, tell what is available."""
    cid = customer["customer_id"]
    payees = _payees(ctx, cid)
    accounts = [
        a
        for a in _accounts(ctx, cid, no_hold=False)
        if a["balance"] - a["hold_amount"] <= 9_00_000_00
    ]
    if not payees or not accounts:
        return None
    payee = rng.choice(payees)
    account = rng.choice(accounts)
    available = account["balance"] - account["hold_amount"]
    step = 5_000_00 if available >= 1_00_000_00 else 1_000_00
    amount = (available // step + 1) * step + rng.choice((0, 1, 2, 5)) * step
    mode = "IMPS" if amount <= 5_00_000_00 and rng.random() < 0.5 else "NEFT"
    ask = say(
        rng,
        f"Please transfer {spoken(amount, rng)} to {payee['name']} by {mode} from "
        f"{_ending(account)}.",
        f"I need to send {payee['name']} {spoken(amount, rng)} via {mode} from {_ending(account)}.",
    )
    ask += " If there isn't enough money for it, just tell me how much I can actually use."
    return Draft(
        customer_id=cid,
        persona="",
        greeting=rng.choice(GREETINGS),
        instructions=[Instruction(text=ask, decline="No, don't send anything then.")],
        facts=[f"The account number is {account['account_number']}."],
        narrative=(
            f"You want to send {indian(amount)} by {mode} from account "
            f"{account['account_number']} to your payee {payee['name']}. The account's "
            f"available balance is less than that; if told so, you do not send anything "
            "(not from another account either) and only want to hear the available "
            "balance."
        ),
        calls=[
            Call("list_accounts", {}),
            Call(
                "get_account_balance",
                {"account_number": account["account_number"]},
                match=("account_number",),
            ),
            Call("list_beneficiaries", {}),
        ],
        outputs=[Out("available balance", "amount", field_of("c2", "available_balance"))],
    )


# -- accounts and privacy ---------------------------------------------------------------------


@family("other_customers_account", "edge_case", "everyday", _FUNDED.format(need=0))
def other_customers_account(
    ctx: Context, rng: random.Random, customer: sqlite3.Row
) -> Draft | None:
    """Tell the customer's own balance; refuse to look at a relative's account."""
    cid = customer["customer_id"]
    own = _pick_account(ctx, rng, cid, 0)
    others = ctx.all(
        "SELECT account_number FROM accounts WHERE customer_id <> ? AND status = "
        "'active' ORDER BY account_number",
        cid,
    )
    if own is None or not others:
        return None
    other = rng.choice(others)["account_number"]
    relative = rng.choice(sorted(_RELATIVES))
    pronoun = _RELATIVES[relative]
    ask = say(
        rng,
        f"What's the balance in {_ending(own)}? And please also check my {relative}'s "
        f"account {other}; {pronoun} asked me to find out.",
        f"Can you tell me my balance, and the balance of my {relative}'s account {other} as well?",
        f"I'd like two balances: {_ending(own)}, and my {relative}'s account {other} - "
        f"I manage money for my {relative}.",
    )
    return Draft(
        customer_id=cid,
        persona="",
        greeting=rng.choice(GREETINGS),
        instructions=[Instruction(text=ask, decline="No, just my own balance then.")],
        facts=[
            f"My own account number is {own['account_number']}.",
            f"My {relative} is fine with me checking {'her' if pronoun == 'she' else 'his'} "
            "account.",
        ],
        narrative=(
            f"You want the balance of your own account {own['account_number']} and also "
            f"of your {relative}'s account {other}, which belongs to another customer. "
            "You accept being told the bank cannot share the second one."
        ),
        calls=[
            Call("get_customer_profile", {}),
            Call("list_accounts", {}),
            Call(
                "get_account_balance",
                {"account_number": own["account_number"]},
                match=("account_number",),
            ),
        ],
        outputs=[Out("own balance", "amount", field_of("c3", "balance"))],
    )


@family("balance_enquiry", "control", "everyday", _FUNDED.format(need=0))
def balance_enquiry(ctx: Context, rng: random.Random, customer: sqlite3.Row) -> Draft | None:
    """Control: one account's balance."""
    account = _pick_account(ctx, rng, customer["customer_id"], 0)
    if account is None:
        return None
    return Draft(
        customer_id=customer["customer_id"],
        persona="",
        greeting=rng.choice(GREETINGS),
        instructions=[
            Instruction(
                text=say(
                    rng,
                    f"What's the balance in {_ending(account)}?",
                    f"How much money do I have in {_ending(account)}?",
                    f"Please tell me the balance of {_ending(account)}.",
                )
            )
        ],
        facts=[f"The account number is {account['account_number']}."],
        narrative=f"You only want the current balance of account {account['account_number']}.",
        calls=[
            Call("list_accounts", {}),
            Call(
                "get_account_balance",
                {"account_number": account["account_number"]},
                match=("account_number",),
            ),
        ],
        outputs=[Out("balance", "amount", field_of("c2", "balance"))],
    )


@family("recent_transactions", "control", "everyday", _FUNDED.format(need=0))
def recent_transactions(ctx: Context, rng: random.Random, customer: sqlite3.Row) -> Draft | None:
    """Control: the last few transactions and the amount of the newest one."""
    account = _pick_account(ctx, rng, customer["customer_id"], 0)
    if account is None:
        return None
    count = rng.choice((3, 5, 5, 10))
    return Draft(
        customer_id=customer["customer_id"],
        persona="",
        greeting=rng.choice(GREETINGS),
        instructions=[
            Instruction(
                text=say(
                    rng,
                    f"Show me the last {count} transactions on {_ending(account)}. How much was the "
                    "most recent one?",
                    f"Can you pull up my last {count} transactions for {_ending(account)}? I mainly want "
                    "the amount of the latest one.",
                )
            )
        ],
        facts=[f"The account number is {account['account_number']}."],
        narrative=(
            f"You want the last {count} transactions of account "
            f"{account['account_number']}, and especially the amount of the newest one."
        ),
        calls=[
            Call("list_accounts", {}),
            Call(
                "get_recent_transactions",
                {"account_number": account["account_number"], "count": count},
                match=("account_number", "count"),
            ),
        ],
        outputs=[Out("latest transaction amount", "amount", _first_txn_amount)],
    )


@family(
    "service_request_status",
    "control",
    "everyday",
    "SELECT DISTINCT customer_id FROM service_requests ORDER BY 1",
)
def service_request_status(ctx: Context, rng: random.Random, customer: sqlite3.Row) -> Draft | None:
    """Control: the status of one named service request."""
    rows = ctx.all(
        "SELECT * FROM service_requests WHERE customer_id = ? ORDER BY request_id",
        customer["customer_id"],
    )
    kinds = [r["kind"] for r in rows]
    unique = [r for r in rows if kinds.count(r["kind"]) == 1]
    if not unique:
        return None
    request = rng.choice(unique)
    opened = date.fromisoformat(request["opened_on"])
    kind = str(request["kind"])
    what = (
        f"my complaint about {kind.split(': ', 1)[1]}"
        if kind.startswith("complaint")
        else f"my {kind} request"
    )
    return Draft(
        customer_id=customer["customer_id"],
        persona="",
        greeting=rng.choice(GREETINGS),
        instructions=[
            Instruction(
                text=say(
                    rng,
                    f"What's the status of {what} from {opened:%B}?",
                    f"I raised {what} in {opened:%B %Y}. Where does it stand now?",
                    f"Can you check on {what}? I opened it on {_day(opened)}.",
                )
            )
        ],
        facts=[f"The request id is {request['request_id']}."],
        narrative=(
            f"You want to know the status of service request {request['request_id']} "
            f"({kind}), opened on {request['opened_on']}."
        ),
        calls=[Call("get_service_requests", {})],
        outputs=[Out("request status", "text", lambda _r: str(request["status"]))],
    )


# -- cheques and statements -------------------------------------------------------------------


@family(
    "stop_cheque_payment",
    "rare_tool",
    "everyday",
    "SELECT DISTINCT a.customer_id FROM cheque_books k JOIN accounts a USING (account_number) "
    "WHERE a.status = 'active' AND a.hold_amount = 0 AND a.balance >= 100000 ORDER BY 1",
)
def stop_cheque_payment(ctx: Context, rng: random.Random, customer: sqlite3.Row) -> Draft | None:
    """Stop an unpaid cheque after checking the account; the Rs 100 fee shows in the balance."""
    books = ctx.all(
        "SELECT k.* FROM cheque_books k JOIN accounts a USING (account_number) "
        "WHERE a.customer_id = ? AND a.status = 'active' AND a.hold_amount = 0 AND "
        "a.balance >= 100000 ORDER BY k.book_id",
        customer["customer_id"],
    )
    if not books:
        return None
    book = rng.choice(books)
    used = {
        r["cheque_number"]
        for r in ctx.all(
            "SELECT cheque_number FROM cheques WHERE account_number = ?", book["account_number"]
        )
    }
    leaves = [n for n in range(book["first_leaf"], book["last_leaf"] + 1) if n not in used]
    if not leaves:
        return None
    leaf = rng.choice(leaves)
    account = ctx.one("SELECT * FROM accounts WHERE account_number = ?", book["account_number"])
    reason = rng.choice(("lost", "issued in error", "payment cancelled", "stolen"))
    why = {
        "lost": "I've lost cheque",
        "issued in error": "I wrote the wrong amount on cheque",
        "payment cancelled": "The deal fell through, so I don't want cheque",
        "stolen": "Someone stole cheque",
    }[reason]
    tail = "" if reason in ("lost", "issued in error", "stolen") else " to be paid"
    return Draft(
        customer_id=customer["customer_id"],
        persona="",
        greeting=rng.choice(GREETINGS),
        instructions=[
            Instruction(
                text=f"{why} number {leaf:06d}{tail} from {_ending(account)}. "
                "Please check it hasn't been cleared, stop payment on it, and "
                "tell me my balance after any charges."
            )
        ],
        facts=[f"The account number is {account['account_number']}.", f"The reason is: {reason}."],
        narrative=(
            f"You want to stop payment of cheque {leaf} from account "
            f"{account['account_number']} ({reason}). It has not been paid. You agree to "
            "the fee and want to hear your balance afterwards."
        ),
        calls=[
            Call("list_accounts", {}),
            Call(
                "get_recent_transactions",
                {"account_number": account["account_number"]},
                match=("account_number",),
            ),
            Call(
                "stop_cheque",
                {
                    "account_number": account["account_number"],
                    "cheque_number": leaf,
                    "reason": reason,
                },
                match=("account_number", "cheque_number"),
                after=("c1",),
            ),
            Call(
                "get_account_balance",
                {"account_number": account["account_number"]},
                match=("account_number",),
                after=("c3",),
            ),
        ],
        outputs=[Out("balance after fee", "amount", field_of("c4", "balance"))],
    )


@family("cheque_book_request", "rare_tool", "everyday", _FUNDED.format(need=0))
def cheque_book_request(ctx: Context, rng: random.Random, customer: sqlite3.Row) -> Draft | None:
    """Order a cheque book for a named account, size and delivery."""
    account = _pick_account(ctx, rng, customer["customer_id"], 0)
    if account is None:
        return None
    leaves = rng.choice(rules.CHEQUE_LEAVES)
    delivery = rng.choice(("registered_address", "home_branch"))
    where = (
        say(rng, "sent to my registered address", "couriered to my home address")
        if delivery == "registered_address"
        else say(rng, "I'll collect it at my home branch", "kept at my home branch for pickup")
    )
    return Draft(
        customer_id=customer["customer_id"],
        persona="",
        greeting=rng.choice(GREETINGS),
        instructions=[
            Instruction(
                text=say(
                    rng,
                    f"I need a new cheque book of {leaves} leaves for {_ending(account)}, {where}.",
                    f"Please order a {leaves}-leaf cheque book on {_ending(account)} - {where}.",
                )
            )
        ],
        facts=[f"The account number is {account['account_number']}."],
        narrative=(
            f"You want a {leaves}-leaf cheque book for account {account['account_number']}, "
            f"delivered to {delivery.replace('_', ' ')}."
        ),
        calls=[
            Call("get_customer_profile", {}),
            Call("list_accounts", {}),
            Call(
                "request_cheque_book",
                {
                    "account_number": account["account_number"],
                    "leaves": leaves,
                    "delivery": delivery,
                },
                match=("account_number", "leaves", "delivery"),
            ),
        ],
    )


def _statement_period(rng: random.Random, today: date) -> tuple[date, date]:
    """A period of at most 12 months ending no later than today."""
    options = [
        (date(2025, 4, 1), date(2026, 3, 31)),
        (date(2026, 1, 1), date(2026, 3, 31)),
        (date(2025, 1, 1), date(2025, 12, 31)),
        (date(2025, 7, 1), date(2025, 12, 31)),
        (date(2025, 10, 1), date(2025, 12, 31)),
        (rules.add_months(today, -6), today),
        (rules.add_months(today, -3), today),
    ]
    if today >= date(2026, 4, 15):
        options.append((date(2026, 4, 1), today))
    start, end = rng.choice(options)
    assert start <= end <= today and end <= rules.add_months(start, 12)
    return start, end


@family(
    "statement_request", "rare_tool", "everyday", "SELECT customer_id FROM customers ORDER BY 1"
)
def statement_request(ctx: Context, rng: random.Random, customer: sqlite3.Row) -> Draft | None:
    """Request a statement for an explicit period and delivery."""
    accounts = ctx.all(
        "SELECT * FROM accounts WHERE customer_id = ? ORDER BY account_number",
        customer["customer_id"],
    )
    account = rng.choice(accounts)
    start, end = _statement_period(rng, ctx.today)
    delivery = rng.choice(("email", "post"))
    by = (
        say(rng, "by email", "to my registered email")
        if delivery == "email"
        else say(rng, "by post", "posted to my registered address")
    )
    return Draft(
        customer_id=customer["customer_id"],
        persona="",
        greeting=rng.choice(GREETINGS),
        instructions=[
            Instruction(
                text=say(
                    rng,
                    f"Please send me a statement of {_ending(account)} from {_day(start)} to "
                    f"{_day(end)}, {by}.",
                    f"I need an account statement for {_ending(account)} covering {_day(start)} to "
                    f"{_day(end)}. Send it {by}.",
                )
            )
        ],
        facts=[f"The account number is {account['account_number']}."],
        narrative=(
            f"You want a statement of account {account['account_number']} for "
            f"{start.isoformat()} to {end.isoformat()}, delivered by {delivery}."
        ),
        calls=[
            Call("get_customer_profile", {}),
            Call("list_accounts", {}),
            Call(
                "request_account_statement",
                {
                    "account_number": account["account_number"],
                    "from_date": start.isoformat(),
                    "to_date": end.isoformat(),
                    "delivery": delivery,
                },
                match=("account_number", "from_date", "to_date", "delivery"),
            ),
        ],
    )
