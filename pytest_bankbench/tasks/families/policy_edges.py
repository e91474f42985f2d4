"""Policy edges: answers only the knowledge base has, corrections at the confirmation, an
ambiguous deposit, a changed tenure that needs a fresh quote, a card payment above the dues and a
statement period above 12 months.

Every family opens in one of the shared registers (base.opening), drawn with its rng: terse,
chatty, formal, Hinglish-flavoured English, details given unprompted, and details given only when
asked (then they are facts with topics). Each register greets, or does not, as it would.
"""

from __future__ import annotations

import random
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date

from pytest_bankbench.bank import rules
from pytest_bankbench.money import indian, plain
from pytest_bankbench.tasks.families.base import (
    Call,
    Context,
    Draft,
    Out,
    Results,
    Tell,
    active_accounts,
    alternative,
    clarify,
    draft,
    ending,
    family,
    field_of,
    knows,
    last4,
    long_date,
    my_account,
    opening,
    paying_account,
    pick,
    pick_funded,
    reason,
    say,
    spoken,
    told,
    unheld,
)
from pytest_bankbench.tasks.families.calls import (
    booking_quote,
    card_statement,
    closure,
    closure_quote,
    closure_terms,
    create_fd,
    fd_maturity,
    find_card,
    find_payee,
    listed,
    pay_card,
    profile,
    statement,
    transfer,
    transfer_terms,
)
from pytest_bankbench.tasks.families.cards import active_cards, card_name
from pytest_bankbench.tasks.families.deposits import find_fd
from pytest_bankbench.tasks.families.everyday import registered_payees
from pytest_bankbench.tasks.model import Fact, Instruction, Topic


def _lower_first(text: str) -> str:
    """The sentence to follow a lead-in: its first letter lowered ("I" and acronyms kept)."""
    word = text.split(" ", 1)[0]
    if word == "I" or word.startswith("I'") or word[:2].isupper():
        return text
    return text[:1].lower() + text[1:]


def _const(value: str) -> Callable[[Results], str]:
    return lambda _r: value


# -- kb_answer ------------------------------------------------------------------------------------


@dataclass
class _Question:
    """One knowledge-base question: what is asked, the query that finds it and the answer."""

    ask: str  # the question as the customer asks it (record details included)
    query: str  # what the gold agent searches for
    outputs: list[Out]
    narrative: str
    vague: str = ""  # the question without the record details, when those are facts
    context: str = ""  # an aside the customer adds unprompted
    calls: list[Call] = field(default_factory=list)  # record facts the answer depends on
    facts: list[Fact] = field(default_factory=list)  # the record details, when asked


def _count(label: str, value: int, unit: str) -> Out:
    return Out(label, "count", _const(str(value)), unit=unit)


def _amount(label: str, rupees: int) -> Out:
    return Out(label, "amount", _const(plain(rupees * 100)))


def _q_replacement(ctx: Context, rng: random.Random, customer: sqlite3.Row) -> _Question:
    return _Question(
        ask="If my debit card is ever lost and I get it blocked, what does the replacement card "
        "cost and how many days does it take to reach me?",
        query="replacement card fee lost card delivery",
        outputs=[_amount("replacement card fee", 200), _count("delivery time", 7, "days")],
        context="I travel a lot, so I just want to be prepared. My card is fine right now.",
        narrative="You want to know the replacement card fee and how long a replacement takes "
        "to arrive after a lost card is blocked. Your card is not lost; nothing is to be done.",
    )


def _q_tds_threshold(ctx: Context, rng: random.Random, customer: sqlite3.Row) -> _Question:
    senior = (
        rules.age_on(date.fromisoformat(customer["date_of_birth"]), ctx.today) >= rules.SENIOR_AGE
    )
    return _Question(
        ask="Above how much FD interest in a year does the bank deduct TDS for someone like me? "
        "And which form would I submit to stop it if my income is below the taxable limit?",
        query="TDS threshold interest Form 15G 15H",
        calls=[profile(customer["customer_id"], ("senior_citizen",))],
        outputs=[
            _amount("TDS threshold", 50_000 if senior else 40_000),
            Out("form", "text", _const("15H" if senior else "15G")),
        ],
        context="My FDs are all with your bank.",
        narrative="You want the yearly FD interest above which TDS is deducted for you (it "
        "depends on your age, which the bank has on record) and which of Form 15G or 15H "
        "applies to you. You do not say your age unless asked.",
    )


def _q_tds_rate(ctx: Context, rng: random.Random, customer: sqlite3.Row) -> _Question:
    with_pan = bool(customer["pan_on_file"])
    return _Question(
        ask="Once my FD interest crosses the TDS limit, at what rate will TDS be deducted from it?",
        query="TDS rate PAN deposit interest",
        calls=[profile(customer["customer_id"], ("pan_on_file",))],
        outputs=[Out("TDS rate", "percent", _const("10" if with_pan else "20"))],
        context="I'm trying to plan my taxes for the year.",
        narrative="You want the TDS rate that applies to your FD interest; it depends on "
        "whether the bank has your PAN, which you are not sure about.",
    )


def _q_neft(ctx: Context, rng: random.Random, customer: sqlite3.Row) -> _Question:
    return _Question(
        ask="Does NEFT work at night and on Sundays, and roughly within how many hours does the "
        "money reach the other bank?",
        query="NEFT timings settlement hours",
        outputs=[
            Out(
                "NEFT availability",
                "text",
                _const("24x7"),
                also=("24/7", "24 x 7", "round the clock", "all days of the week"),
            ),
            _count("NEFT settlement time", 2, "hours"),
        ],
        context="I may have to pay my landlord late on a Sunday.",
        narrative="You want to know whether NEFT works at night and on Sundays and how long "
        "it takes to reach the payee. You do not want to send anything now.",
    )


def _q_rekyc(ctx: Context, rng: random.Random, customer: sqlite3.Row) -> _Question:
    return _Question(
        ask="When my KYC falls due, can I do re-KYC without visiting a branch, and how many "
        "working days does the bank take to update it?",
        query="re-KYC video KYC branch update",
        outputs=[
            Out("way without a branch", "text", _const("video KYC"), also=("video-KYC",)),
            _count("update time", 2, "days"),
        ],
        context="I work long hours and can't easily get to a branch.",
        narrative="You want to know whether re-KYC can be done without a branch visit and how "
        "long the update takes.",
    )


def _q_nominee(ctx: Context, rng: random.Random, customer: sqlite3.Row) -> _Question:
    return _Question(
        ask="How do I change the nominee on my account - which form is needed, and how many "
        "working days does it take to be recorded?",
        query="change nominee form",
        outputs=[
            Out("form", "text", _const("DA-3"), also=("DA 3", "DA3")),
            _count("time to record", 2, "days"),
        ],
        context="My mother was my nominee and I'd like it to be my wife now.",
        narrative="You want to know how to change the nominee on your account: the form and "
        "how long it takes to be recorded.",
    )


def _q_cheque_book(ctx: Context, rng: random.Random, customer: sqlite3.Row) -> _Question:
    leaves = rng.choice(rules.CHEQUE_LEAVES)
    return _Question(
        ask="I've already had my free cheque book this financial year. What would another "
        f"cheque book of {leaves} leaves cost?",
        query="cheque book charges per leaf",
        outputs=[_amount("cheque book charge", 2 * leaves)],
        context="I'm not ordering it yet, I only want the price.",
        narrative=f"You want the price of a second cheque book of {leaves} leaves this "
        "financial year. You do not want to order one now.",
    )


def _late_fee(outstanding: int) -> int | None:
    """KB 14: Rs 500 up to Rs 10,000, Rs 750 from Rs 10,001 to Rs 50,000, Rs 1,000 above."""
    if outstanding <= 10_000_00:
        return 500
    if 10_001_00 <= outstanding <= 50_000_00:
        return 750
    return 1_000 if outstanding > 50_000_00 else None  # None: between the slabs


def _q_late_fee(ctx: Context, rng: random.Random, customer: sqlite3.Row) -> _Question | None:
    card = pick(rng, active_cards(ctx, customer["customer_id"], "card_kind = 'credit'"))
    if card is None:
        return None
    fee = _late_fee(card["outstanding"])
    if fee is None:
        return None
    named = card_name(card)
    return _Question(
        ask=f"If I miss the minimum due on my {named}, what late payment fee would be charged "
        "on what I owe now?",
        vague="If I miss the minimum due on my credit card, what late payment fee would be "
        "charged on what I owe now?",
        query="credit card late payment fee",
        calls=[card_statement(card, fields=("total_outstanding",))],
        outputs=[_amount("late payment fee", fee)],
        facts=[knows(f"It's my {named}.", "card")],
        context="Money is a bit tight this month.",
        narrative=f"You want to know the late payment fee on your {named} for its current "
        "outstanding if you missed the minimum due. You do not want to pay anything now.",
    )


def _q_debit_fee(ctx: Context, rng: random.Random, customer: sqlite3.Row) -> _Question | None:
    card = pick(rng, active_cards(ctx, customer["customer_id"], "card_kind = 'debit'"))
    if card is None:
        return None
    fee = 150 if card["product"] == "RuPay Classic Debit" else 500
    return _Question(
        ask=f"What is the annual fee on my debit card ending {card['last4']}?",
        vague="What is the annual fee on my debit card?",
        query="debit card annual fee",
        calls=[find_card(card)],
        outputs=[_amount("annual fee", fee)],
        facts=[knows(f"It's the debit card ending {card['last4']}.", "card")],
        context="I'm deciding whether to keep it.",
        narrative=f"You want the annual fee of your debit card ending {card['last4']}; you do "
        "not remember which type of card it is.",
    )


def _q_dormant(ctx: Context, rng: random.Random, customer: sqlite3.Row) -> _Question:
    return _Question(
        ask="How long can a savings account go without any transactions before it becomes dormant?",
        query="dormant account no transactions",
        outputs=[_count("period without transactions", 2, "years")],
        context="I hardly use one of my accounts.",
        narrative="You want to know after how long without transactions an account becomes "
        "dormant.",
    )


def _q_dispute(ctx: Context, rng: random.Random, customer: sqlite3.Row) -> _Question:
    return _Question(
        ask="If I ever dispute a card transaction, within how many days should the dispute be "
        "resolved?",
        query="card dispute resolution timeline days",
        outputs=[_count("resolution time", 90, "days")],
        context="A friend of mine has been waiting for weeks on one, so I'm curious.",
        narrative="You want to know the time within which a card dispute is resolved. You "
        "have no dispute yourself and do not want to be transferred.",
    )


def _q_loan_against_fd(ctx: Context, rng: random.Random, customer: sqlite3.Row) -> _Question:
    return _Question(
        ask="Instead of breaking an FD, how much can I borrow against it - up to what "
        "percentage of the deposit?",
        query="loan against fixed deposit percentage",
        outputs=[Out("loan amount limit", "percent", _const("90"))],
        context="I need some money for a few months but don't want to lose my FD interest.",
        narrative="You want to know up to what percentage of an FD can be borrowed against it. "
        "You do not want to close or change anything.",
    )


def _q_statement_post(ctx: Context, rng: random.Random, customer: sqlite3.Row) -> _Question:
    return _Question(
        ask="If I ask for an account statement by post, within how many working days does it "
        "arrive?",
        query="account statement post delivery days",
        outputs=[_count("delivery time", 7, "days")],
        context="I don't need one yet, I'm only checking.",
        narrative="You want to know how long a posted statement takes to arrive. You do not "
        "want a statement now.",
    )


def _q_grievance(ctx: Context, rng: random.Random, customer: sqlite3.Row) -> _Question:
    return _Question(
        ask="If I raise a complaint with the bank, within how many days must it be resolved "
        "before I can go to the RBI Ombudsman?",
        query="complaint resolution days ombudsman",
        outputs=[_count("resolution time", 30, "days")],
        context="I'm not complaining about anything now, I just want to know the process.",
        narrative="You want to know how many days the bank has to resolve a complaint before "
        "the RBI Ombudsman can be approached. You have no complaint and do not want a human.",
    )


def _q_atm_abroad(ctx: Context, rng: random.Random, customer: sqlite3.Row) -> _Question:
    return _Question(
        ask="What's the charge for each ATM cash withdrawal abroad with a Suvarna debit card?",
        query="international ATM withdrawal abroad charge debit card",
        outputs=[_amount("ATM withdrawal charge abroad", 150)],
        context="We're planning a holiday in Singapore later this year.",
        narrative="You want the charge per ATM withdrawal abroad with a debit card. You do "
        "not want any card setting changed now.",
    )


def _q_zero_liability(ctx: Context, rng: random.Random, customer: sqlite3.Row) -> _Question:
    return _Question(
        ask="Within how many working days must I report an unauthorised card transaction to "
        "have zero liability?",
        query="unauthorised transaction zero liability report",
        outputs=[_count("reporting window", 3, "days")],
        context="Nothing has happened to my card, I read about this in the newspaper.",
        narrative="You want to know how soon an unauthorised card transaction must be reported "
        "for zero liability. Nothing has happened to your cards.",
    )


QuestionMaker = Callable[[Context, random.Random, sqlite3.Row], "_Question | None"]
_QUESTIONS: tuple[QuestionMaker, ...] = (
    _q_replacement,
    _q_tds_threshold,
    _q_tds_rate,
    _q_neft,
    _q_rekyc,
    _q_nominee,
    _q_cheque_book,
    _q_late_fee,
    _q_debit_fee,
    _q_dormant,
    _q_dispute,
    _q_loan_against_fd,
    _q_statement_post,
    _q_grievance,
    _q_atm_abroad,
    _q_zero_liability,
)


@family(
    "kb_answer",
    "rare_tool",
    "everyday",
    "SELECT customer_id FROM customers ORDER BY 1",
    clause="J.35 'Use search_knowledge_base for rules, fees, timelines and procedures you are not sure about. Do not invent rates, fees or rules'; J.36 tell the value asked (from the customer's own record where the rule depends on it)",
)
def kb_answer(ctx: Context, rng: random.Random, customer: sqlite3.Row) -> Draft | None:
    """A question only the knowledge base answers (with the record fact it depends on)."""
    order = list(_QUESTIONS)
    rng.shuffle(order)
    question = next(q for q in (make(ctx, rng, customer) for make in order) if q is not None)
    ask = question.ask
    text = opening(
        rng,
        terse=ask,
        chatty="Hi! "
        + say(
            rng,
            "I was chatting with my cousin about this and now we're both confused.",
            "My father keeps asking me this and I never know the answer.",
            "Quick one - I've been meaning to ask for ages.",
        )
        + " "
        + ask,
        formal=f"Good morning. Could you please help me with a question? {ask} Thank you.",
        hinglish=f"Namaste, ek doubt tha - {_lower_first(ask)} Thoda bata do please.",
        unprompted=f"Hello, {_lower_first(ask)} {question.context}",
        asked=f"Hi, {_lower_first(question.vague or ask)}",
    )
    return draft(
        customer,
        "",
        Instruction(text=text, decline="No, thanks - I only wanted the information."),
        narrative=question.narrative,
        calls=[
            Call("search_knowledge_base", {"query": question.query}, match=()),
            *question.calls,
        ],
        facts=question.facts,
        outputs=question.outputs,
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
        "",
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
            find_payee(payee),
            transfer(account["account_number"], payee["beneficiary_id"], amount, mode, ("c1",)),
        ],
        disclosures=transfer_terms("c2", amount, mode),
    )


# -- ambiguous_fd_clarify ---------------------------------------------------------------------------

_FD = "deposit_type = 'fd' AND status = 'active' AND lien_loan_id IS NULL"


def closable_fds(ctx: Context, cid: str) -> list[sqlite3.Row]:
    """The customer's regular FDs that can be closed early today, in list_deposits order."""
    today = ctx.today.isoformat()
    return ctx.all(
        f"SELECT * FROM deposits WHERE customer_id = ? AND {_FD} AND start_date <= ? "
        "AND maturity_date > ? ORDER BY start_date, deposit_id",
        cid,
        today,
        today,
    )


def _month(day: str) -> str:
    return f"{date.fromisoformat(day):%B %Y}"


# How a customer describes an FD by one attribute: (key of a row, the phrase).
FD_DESCRIPTIONS: dict[str, tuple[Callable[[sqlite3.Row], str], Callable[[sqlite3.Row], str]]] = {
    "principal": (lambda fd: str(fd["principal"]), lambda fd: f"FD of {indian(fd['principal'])}"),
    "start": (
        lambda fd: fd["start_date"][:7],
        lambda fd: f"FD I opened in {_month(fd['start_date'])}",
    ),
    "maturity": (
        lambda fd: fd["maturity_date"][:7],
        lambda fd: f"FD maturing in {_month(fd['maturity_date'])}",
    ),
}
# What an agent's question about the deposit touches, by the detail that tells it apart.
_CLARIFY_TOPICS: dict[str, tuple[Topic, ...]] = {
    "principal": ("amount", "date"),
    "start": ("date",),
    "maturity": ("date", "maturity"),
}
FD_CLARIFIERS: dict[str, Callable[[sqlite3.Row], str]] = {
    "principal": lambda fd: f"It's the one of {indian(fd['principal'])}.",
    "start": lambda fd: f"It's the one I opened in {_month(fd['start_date'])}.",
    "maturity": lambda fd: f"It's the one that matures in {_month(fd['maturity_date'])}.",
}


@family(
    "ambiguous_fd_clarify",
    "edge_case",
    "deposits",
    f"SELECT customer_id FROM deposits WHERE {_FD} GROUP BY customer_id HAVING "
    "COUNT(*) > COUNT(DISTINCT principal) OR COUNT(*) > COUNT(DISTINCT substr(start_date, 1, 7)) "
    "OR COUNT(*) > COUNT(DISTINCT substr(maturity_date, 1, 7)) ORDER BY 1",
    clause="C.12 'If the details match more than one item, or none, ask. Never guess.'; E.20 closure quote, share penalty, interest, payout and the account credited before closing",
)
def ambiguous_fd_clarify(ctx: Context, rng: random.Random, customer: sqlite3.Row) -> Draft | None:
    """Two FDs fit the description: ask which, then quote and close only that one."""
    fds = closable_fds(ctx, customer["customer_id"])
    options = []
    for name, (key, _phrase) in FD_DESCRIPTIONS.items():
        for fd in fds:
            group = [f for f in fds if key(f) == key(fd)]
            if len(group) < 2:
                continue
            clarifiers = [
                other
                for other, (okey, _p) in FD_DESCRIPTIONS.items()
                if other != name and sum(1 for f in fds if okey(f) == okey(fd)) == 1
            ]
            if clarifiers:
                options.append((name, fd, clarifiers))
    if not options:
        return None
    described, fd, clarifiers = rng.choice(options)
    clarifier = rng.choice(clarifiers)
    what = FD_DESCRIPTIONS[described][1](fd)
    key = FD_DESCRIPTIONS[described][0]
    twin = next(f for f in fds if key(f) == key(fd) and f["deposit_id"] != fd["deposit_id"])
    text = opening(
        rng,
        terse=f"Close my {what}. Payout?",
        chatty="Hello! "
        + say(
            rng,
            "My son's college fees are due and I'm short,",
            "We're renovating the kitchen and the contractor wants an advance,",
        )
        + f" so I've decided to break my {what}. Can you do that for me? How much will I get?",
        formal=f"Good morning. Could you please close my {what} before maturity? Kindly tell me "
        "the payout first.",
        hinglish=f"Namaste, woh {what} hai na - please close kar do, paison ki zarurat hai. "
        "Kitna milega?",
        unprompted=f"Hi, please close my {what} early and credit the money to the linked "
        "account. Tell me the penalty and the payout before you do it.",
        asked=f"Hello, I want to close my {what}. How much will I get?",
    )
    return draft(
        customer,
        "",
        text,
        facts=[knows(FD_CLARIFIERS[clarifier](fd), "deposit", *_CLARIFY_TOPICS[clarifier])],
        narrative=(
            f"You want to close one FD early: you call it your {what}, but more than one of "
            f"your FDs fits that. The one you mean is the one of {indian(fd['principal'])} "
            f"opened on {fd['start_date']} and maturing on {fd['maturity_date']}; you say so "
            "when asked which. You agree after hearing the penalty and the payout."
        ),
        calls=[find_fd(fd), closure_quote(fd), closure(fd, after=("c2",))],
        outputs=[Out("payout", "amount", field_of("c3", "payout"))],
        disclosures=closure_terms("c2", "c3"),
        # C.12: more than one FD fits, so the agent asks which before quoting any (the other
        # that fits is a record the question is about).
        tells=[clarify("which FD", before="c2", record=twin["deposit_id"])],
    )


# -- fd_quote_redo_after_change ------------------------------------------------------------------

FD_TENURES = (
    (91, "91 days"),
    (180, "180 days"),
    (365, "1 year"),
    (400, "400 days"),
    (730, "2 years"),
    (1095, "3 years"),
    (1825, "5 years"),
)
_FD_AMOUNTS = (25_000, 50_000, 75_000, 1_00_000, 1_50_000, 2_00_000, 3_00_000)


def _slab(days: int) -> int:
    return next(i for i, (low, high, _r) in enumerate(rules.FD_SLABS) if low <= days <= high)


@family(
    "fd_quote_redo_after_change",
    "sequencing",
    "deposits",
    "SELECT c.customer_id FROM customers c JOIN accounts a USING (customer_id) "
    f"WHERE c.kyc_status = 'full' AND {unheld(3_10_000_00)} GROUP BY c.customer_id ORDER BY 1",
    clause="E.23 quotes are for today: 'if ... anything has changed, quote again'; D.17 'If anything changes after confirmation (amount, account, tenure, mode, option), confirm again'; E.19 rate card and maturity projection, share the rate and the maturity amount, then ask for confirmation",
)
def fd_quote_redo_after_change(
    ctx: Context, rng: random.Random, customer: sqlite3.Row
) -> Draft | None:
    """The tenure changes at the confirmation: project the new tenure, quote it, then book."""
    amount = rng.choice(_FD_AMOUNTS) * 100
    account = pick_funded(ctx, rng, customer["customer_id"], amount + 10_000_00)
    if account is None:
        return None
    first, first_text = rng.choice(FD_TENURES)
    second, second_text = rng.choice([t for t in FD_TENURES if _slab(t[0]) != _slab(first)])
    said = spoken(amount, rng)
    quote = "Tell me the rate and the maturity amount before booking."
    text = opening(
        rng,
        terse=f"FD of {said} for {first_text}. Rate and maturity amount first.",
        chatty=f"Hi! I finally have some savings sitting idle, so I'd like to put {said} in a "
        f"fixed deposit for {first_text}. {quote}",
        formal=f"Good morning. Could you please open a fixed deposit of {said} for "
        f"{first_text}? Kindly share the interest rate and the maturity amount before booking it.",
        hinglish=f"Namaste, mujhe {said} ka FD karna hai, {first_text} ke liye. Rate aur "
        "maturity amount pehle bata dena, phir book karna.",
        unprompted=f"Hello, please book an FD of {said} for {first_text} from {ending(account)}, "
        f"with the maturity amount credited back to that account. {quote}",
        asked=f"Hi, I'd like to open a fixed deposit. {quote}",
    )
    correction = say(
        rng,
        f"Actually, make it {second_text} instead.",
        f"Hmm, on second thought, make the tenure {second_text} instead of {first_text}.",
        f"Wait - change the tenure to {second_text}, please, not {first_text}.",
    )
    return draft(
        customer,
        "",
        Instruction(text=text, correction=correction),
        facts=[
            knows(f"{indian(amount)} for {first_text}.", "amount", "tenure"),
            knows(f"Fund it from {my_account(account)}.", "account"),
            knows("At maturity, credit the money to my account.", "maturity"),
        ],
        narrative=(
            f"You want an FD of {indian(amount)} from account {account['account_number']}, "
            f"maturity proceeds credited to the account. You first ask for {first} days; when "
            f"the assistant asks you to confirm, you change the tenure to {second} days. You "
            "agree once you have heard the rate and maturity amount for the new tenure."
        ),
        calls=[
            Call("get_deposit_rate_card"),
            fd_maturity(amount, first),
            fd_maturity(amount, second),
            create_fd(account["account_number"], amount, second, after=("c1", "c3")),
        ],
        outputs=[Out("maturity amount", "amount", field_of("c3", "maturity_amount"))],
        disclosures=booking_quote("c3", "c4"),
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
        "",
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
            card_statement(card, fields=("total_outstanding",)),
            pay_card(card, owed, payer, after=("c2",)),
        ],
        outputs=[Out("amount paid", "amount", field_of("c3", "paid"))],
        disclosures=[Tell("c3", "amount", "amount", _const(plain(owed)))],
        tells=[
            reason("more than the total outstanding", "over_outstanding", record=card["card_id"]),
            alternative(
                "pay the total outstanding",
                values=(told("total outstanding", "amount", plain(owed)),),
                record=card["card_id"],
                before="c3",
            ),
        ],
    )


# -- statement_over_twelve_months ------------------------------------------------------------------

# The concept an agent states when it tells the longest statement period.
TWELVE_MONTHS = ("period_too_long",)


def _fallbacks(start: date, today: date) -> list[tuple[date, date, str]]:
    """Periods of up to 12 months inside start..today the customer may settle for."""
    latest = rules.add_months(today, -12)
    out = [
        (
            latest,
            today,
            f"Then just send the latest 12 months, from {long_date(latest)} to {long_date(today)}.",
        )
    ]
    fy_end = date(today.year if today.month > 3 else today.year - 1, 3, 31)
    fy_start = date(fy_end.year - 1, 4, 1)
    if start <= fy_start:
        out.append(
            (
                fy_start,
                fy_end,
                f"Then make it the last financial year, {long_date(fy_start)} to "
                f"{long_date(fy_end)}.",
            )
        )
    year = today.year - 1
    if start <= date(year, 1, 1):
        out.append(
            (
                date(year, 1, 1),
                date(year, 12, 31),
                f"Then make it calendar year {year}: 1 January {year} to 31 December {year}.",
            )
        )
    return out


@family(
    "statement_over_twelve_months",
    "rare_tool",
    "everyday",
    "SELECT DISTINCT customer_id FROM accounts WHERE status = 'active' ORDER BY 1",
    clause="K.44 'Statement requests: any period of up to 12 months within the last 5 years, ending no later than today, by email (registered email) or post (registered address)'; H.29 explain the rule, act on the alternative only if the customer agrees",
)
def statement_over_twelve_months(
    ctx: Context, rng: random.Random, customer: sqlite3.Row
) -> Draft | None:
    """A statement over more than 12 months is refused; request the period the customer settles for."""
    account = pick(rng, active_accounts(ctx, customer["customer_id"]))
    if account is None:
        return None
    today = ctx.today
    start = rules.add_months(today, -rng.choice((15, 18, 20, 24, 30, 36))).replace(day=1)
    delivery = rng.choice(("email", "post"))
    by = "by email" if delivery == "email" else "by post"
    begin, end, fallback = rng.choice(_fallbacks(start, today))
    period = f"from {long_date(start)} to today"
    text = opening(
        rng,
        terse=f"Statement of {ending(account)} {period}, {by}.",
        chatty=f"Hi! I'm applying for a home loan and the bank there wants all my statements, "
        f"so please send me a statement of {ending(account)} {period}, {by}.",
        formal=f"Good morning. Could you please arrange a statement of {ending(account)} for the "
        f"period {period} ({long_date(today)}), sent {by}?",
        hinglish=f"Namaste, mujhe apne {account['account_type']} account ending {last4(account)} "
        f"ka statement chahiye {period}, {by} bhej do please.",
        unprompted=f"Hello, please request a statement of {ending(account)} {period}, {by} to "
        "my registered details. I need it for a visa application.",
        asked=f"Hi, I need an account statement {period}.",
    )
    return draft(
        customer,
        "",
        Instruction(
            text=text,
            explain="I'm afraid I cannot request that period: a single statement can cover at "
            "most 12 months.",
        ),
        facts=[
            knows(f"It's for {my_account(account)}.", "account"),
            knows(f"Send it {by}.", "delivery"),
            knows(fallback, "period", "date", after=TWELVE_MONTHS),
        ],
        narrative=(
            f"You want a statement of account {account['account_number']} from "
            f"{start.isoformat()} to today, delivered {by}. Once told a statement can cover at "
            f"most 12 months, you settle for {begin.isoformat()} to {end.isoformat()}."
        ),
        # The account is looked up (its state), not its type: any result showing it will do.
        calls=[
            listed("list_accounts", "account", account["account_number"], ("status",)),
            statement(account["account_number"], begin, end, delivery, after=("c1",)),
        ],
        tells=[reason("longest statement period", "period_too_long")],
    )
