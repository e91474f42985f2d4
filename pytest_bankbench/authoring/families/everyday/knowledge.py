"""Everyday family whose answer only the knowledge base has (fees, limits, timelines across the
bank)."""

from __future__ import annotations

import random
import sqlite3
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict

from pytest_bankbench.authoring import base, calls, phrasing, pickers
from pytest_bankbench.authoring.base import Call, Context, Draft, Out, draft, family
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


def _amount(label: str, rupees: int, doc_id: str, near: str | None = None) -> Out:
    """An amount in rupees that the article `doc_id` states, after `near`."""
    return Out(label, "amount", base.known(plain(rupees * 100), base.article(doc_id, near)))


_TDS = "07-tds-and-form-15g-15h"


def _q_tds_threshold(ctx: Context, rng: random.Random, customer: sqlite3.Row) -> _Question:
    senior = (
        rules.age_on(date.fromisoformat(customer["date_of_birth"]), ctx.today) >= rules.SENIOR_AGE
    )
    return _Question(
        ask="Above how much FD interest in a year does the bank deduct TDS for someone like me? "
        "And which form would I submit to stop it if my income is below the taxable limit?",
        query="TDS threshold interest Form 15G 15H",
        calls=[calls.profile(customer["customer_id"], ("senior_citizen",))],
        outputs=[
            _amount(
                "TDS threshold",
                50_000 if senior else 40_000,
                _TDS,
                "Senior citizen (60 years or more) |" if senior else "below 60 years |",
            ),
            Out(
                "form",
                "text",
                base.known(
                    "15H" if senior else "15G",
                    base.article(
                        _TDS, "Resident senior citizens" if senior else "Resident individuals"
                    ),
                ),
            ),
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
        calls=[calls.profile(customer["customer_id"], ("pan_on_file",))],
        outputs=[
            Out(
                "TDS rate",
                "percent",
                base.known(
                    "10" if with_pan else "20",
                    base.article(_TDS, "TDS rate with PAN" if with_pan else "deducted at"),
                ),
            )
        ],
        context="I'm trying to plan my taxes for the year.",
        narrative="You want the TDS rate that applies to your FD interest; it depends on "
        "whether the bank has your PAN, which you are not sure about.",
    )


def _q_cheque_book(ctx: Context, rng: random.Random, customer: sqlite3.Row) -> _Question:
    leaves = rng.choice(rules.CHEQUE_LEAVES)
    return _Question(
        ask="I've already had my free cheque book this financial year. What would another "
        f"cheque book of {leaves} leaves cost?",
        query="cheque book charges per leaf",
        outputs=[
            _amount(
                "cheque book charge",
                2 * leaves,
                "20-cheque-books-and-stop-payment",
                {25: "per leaf (", 50: "25 leaves, ", 100: "50 leaves, "}[leaves],
            )
        ],
        context="I'm not ordering it yet, I only want the price.",
        narrative=f"You want the price of a second cheque book of {leaves} leaves this "
        "financial year. You do not want to order one now.",
    )


def _card_of(
    ctx: Context, rng: random.Random, customer: sqlite3.Row, kind: str
) -> sqlite3.Row | None:
    """One of the customer's active cards of `kind` (credit, debit), drawn with the rng."""
    cards = pickers.active_cards(ctx, customer["customer_id"], f"card_kind = '{kind}'")
    return pickers.pick(rng, cards)


def _late_fee(outstanding: int) -> int | None:
    """KB 14: Rs 500 up to Rs 10,000, Rs 750 from Rs 10,001 to Rs 50,000, Rs 1,000 above."""
    if outstanding <= 10_000_00:
        return 500
    if 10_001_00 <= outstanding <= 50_000_00:
        return 750
    return 1_000 if outstanding > 50_000_00 else None  # None: between the slabs


def _q_late_fee(ctx: Context, rng: random.Random, customer: sqlite3.Row) -> _Question | None:
    card = _card_of(ctx, rng, customer, "credit")
    if card is None:
        return None
    fee = _late_fee(card["outstanding"])
    if fee is None:
        return None
    named = pickers.card_name(card)
    return _Question(
        ask=f"If I miss the minimum due on my {named}, what late payment fee would be charged "
        "on what I owe now?",
        vague="If I miss the minimum due on my credit card, what late payment fee would be "
        "charged on what I owe now?",
        query="credit card late payment fee",
        calls=[calls.card_statement(card, fields=("total_outstanding",))],
        outputs=[
            _amount(
                "late payment fee",
                fee,
                "14-credit-cards",
                {500: "by the due date:", 750: "up to Rs 10,000),", 1_000: "Rs 50,000),"}[fee],
            )
        ],
        facts=[phrasing.knows(f"It's my {named}.", "card")],
        context="Money is a bit tight this month.",
        narrative=f"You want to know the late payment fee on your {named} for its current "
        "outstanding if you missed the minimum due. You do not want to pay anything now.",
    )


def _q_debit_fee(ctx: Context, rng: random.Random, customer: sqlite3.Row) -> _Question | None:
    card = _card_of(ctx, rng, customer, "debit")
    if card is None:
        return None
    fee = 150 if card["product"] == "RuPay Classic Debit" else 500
    return _Question(
        ask=f"What is the annual fee on my debit card ending {card['last4']}?",
        vague="What is the annual fee on my debit card?",
        query="debit card annual fee",
        calls=[calls.find_card(card)],
        outputs=[
            _amount(
                "annual fee",
                fee,
                "23-fees-and-charges",
                "Visa Platinum Debit (information only) |" if fee == 150 else "| Rs 150 /",
            )
        ],
        facts=[phrasing.knows(f"It's the debit card ending {card['last4']}.", "card")],
        context="I'm deciding whether to keep it.",
        narrative=f"You want the annual fee of your debit card ending {card['last4']}; you do "
        "not remember which type of card it is.",
    )


class _KbOutput(BaseModel):
    """One value a fixed question asks, as knowledge_questions.toml writes it."""

    model_config = ConfigDict(extra="forbid")
    label: str
    kind: Literal["amount", "count", "text", "percent"]
    rupees: int | None = None  # an amount
    value: str | None = None  # a count, a text or a percent
    unit: str | None = None
    also: tuple[str, ...] = ()
    article: str  # the article that states it
    near: str | None = None  # the words it follows there, where the article has several

    def out(self) -> Out:
        if self.kind == "amount":
            assert self.rupees is not None, f"{self.label}: an amount gives rupees"
            return _amount(self.label, self.rupees, self.article, self.near)
        assert self.value is not None, f"{self.label}: a {self.kind} gives a value"
        source = base.known(self.value, base.article(self.article, self.near))
        return Out(self.label, self.kind, source, unit=self.unit, also=self.also)


class _KbQuestion(BaseModel):
    """A question whose answer depends on no record, as knowledge_questions.toml writes it."""

    model_config = ConfigDict(extra="forbid")
    ask: str
    query: str
    context: str
    narrative: str
    outputs: list[_KbOutput]

    def question(self) -> _Question:
        outputs = [output.out() for output in self.outputs]
        return _Question(self.ask, self.query, outputs, self.narrative, context=self.context)


def _fixed_questions() -> dict[str, _KbQuestion]:
    """The questions of knowledge_questions.toml beside this module, by name."""
    text = (Path(__file__).parent / "knowledge_questions.toml").read_text(encoding="utf-8")
    return {name: _KbQuestion.model_validate(row) for name, row in tomllib.loads(text).items()}


QuestionMaker = Callable[[Context, random.Random, sqlite3.Row], "_Question | None"]

_FIXED = _fixed_questions()
_MAKERS: dict[str, QuestionMaker] = {
    "tds_threshold": _q_tds_threshold,
    "tds_rate": _q_tds_rate,
    "cheque_book": _q_cheque_book,
    "late_fee": _q_late_fee,
    "debit_fee": _q_debit_fee,
}
# The order the family's rng shuffles: a name is a question of the table or a maker above.
_ORDER = (
    "replacement",
    "tds_threshold",
    "tds_rate",
    "neft",
    "rekyc",
    "nominee",
    "cheque_book",
    "late_fee",
    "debit_fee",
    "dormant",
    "dispute",
    "loan_against_fd",
    "statement_post",
    "grievance",
    "atm_abroad",
    "zero_liability",
)
assert set(_ORDER) == set(_FIXED) | set(_MAKERS), "a question missing from the order, or unknown"


def _ask(name: str, ctx: Context, rng: random.Random, customer: sqlite3.Row) -> _Question | None:
    """The question `name` for this customer (None: the customer has no record it needs)."""
    fixed = _FIXED.get(name)
    return fixed.question() if fixed is not None else _MAKERS[name](ctx, rng, customer)


@family("SELECT customer_id FROM customers ORDER BY 1")
def kb_answer(ctx: Context, rng: random.Random, customer: sqlite3.Row) -> Draft | None:
    """A question only the knowledge base answers (with the record fact it depends on)."""
    order = list(_ORDER)
    rng.shuffle(order)
    question = next(q for q in (_ask(name, ctx, rng, customer) for name in order) if q is not None)
    ask = question.ask
    # The chatty register's aside, drawn in every task (its draw keeps the tasks as generated).
    aside = phrasing.say(
        rng,
        "I was chatting with my cousin about this and now we're both confused.",
        "My father keeps asking me this and I never know the answer.",
        "Quick one - I've been meaning to ask for ages.",
    )
    text = phrasing.opening_text(
        rng,
        "kb_answer",
        ask=ask,
        aside=aside,
        lowered=_lower_first(ask),
        context=question.context,
        vague=_lower_first(question.vague or ask),
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
