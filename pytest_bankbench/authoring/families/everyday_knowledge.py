"""Everyday family whose answer only the knowledge base has (fees, limits, timelines across the
bank)."""

from __future__ import annotations

import random
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date

from pytest_bankbench.authoring.base import (
    Call,
    Context,
    Draft,
    Out,
    const,
    draft,
    family,
)
from pytest_bankbench.authoring.calls import (
    card_statement,
    find_card,
    profile,
)
from pytest_bankbench.authoring.phrasing import knows, opening, say
from pytest_bankbench.authoring.pickers import active_cards, card_name, pick
from pytest_bankbench.bank import rules
from pytest_bankbench.money import plain
from pytest_bankbench.tasks.model import Fact, Instruction


def _lower_first(text: str) -> str:
    """The sentence to follow a lead-in: its first letter lowered ("I" and acronyms kept)."""
    word = text.split(" ", 1)[0]
    if word == "I" or word.startswith("I'") or word[:2].isupper():
        return text
    return text[:1].lower() + text[1:]


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
    return Out(label, "count", const(str(value)), unit=unit)


def _amount(label: str, rupees: int) -> Out:
    return Out(label, "amount", const(plain(rupees * 100)))


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
            Out("form", "text", const("15H" if senior else "15G")),
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
        outputs=[Out("TDS rate", "percent", const("10" if with_pan else "20"))],
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
                const("24x7"),
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
            Out("way without a branch", "text", const("video KYC"), also=("video-KYC",)),
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
            Out("form", "text", const("DA-3"), also=("DA 3", "DA3")),
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
        outputs=[Out("loan amount limit", "percent", const("90"))],
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
        Instruction(text=text, decline="No, thanks - I only wanted the information."),
        narrative=question.narrative,
        calls=[
            Call("search_knowledge_base", {"query": question.query}, match=()),
            *question.calls,
        ],
        facts=question.facts,
        outputs=question.outputs,
    )
