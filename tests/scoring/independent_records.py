"""The independent scorer's reading of which card, FD or loan a proposal names (the rule of
issue 16 item 4), written from the README's forms, sharing no code with pytest_bankbench.records.

A sentence (or a whole message) names a record by one of these forms, and names no other of the
customer's records of that kind by any of them:
- its id ("FD001219");
- its last four digits after "ending", a mask or "no." (a card's number, a deposit's or a loan's
  id: "card ending 2546", "XXXX 2546", "the FD ending 1219");
- a deposit's amount, its opening or maturity date, or both, when no other deposit has what was
  said; a loan's "<type> loan", a card's product word or "credit card" / "debit card", when no
  other record of the kind has it; "card", "FD", "deposit" or "loan" when it is the only one.
The customer's records are read from the seeded bank.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from functools import cache

from pytest_bankbench.bank.store import Bank
from tests.scoring import independent_scorer as readers

KIND_OF_ARG = {"card_id": "card", "deposit_id": "deposit", "loan_id": "loan"}
_GENERIC = {
    "card": r"\bcards?\b",
    "deposit": r"\b(?:fds?|fixed deposits?|rds?|deposits?)\b",
    "loan": r"\bloans?\b",
}


_PROPOSING = re.compile(
    r"\b(?:i will|i'll|i can|shall i|should i|may i|can i|want me to|like me to|go ahead)\b",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Record:
    kind: str
    key: str
    tail: str  # the last four digits people name it by
    amount: Decimal | None = None
    days: tuple[date, ...] = ()
    words: tuple[str, ...] = ()  # patterns of its type or product


@cache
def customer_records(customer_id: str, day: date, seed: int) -> tuple[Record, ...]:
    with Bank(customer_id, day, seed) as bank:
        found: list[Record] = []
        for row in bank.all("SELECT * FROM cards WHERE customer_id = ?", customer_id):
            product = [
                w for w in str(row["product"]).lower().split() if w not in ("debit", "credit")
            ]
            words = tuple(rf"\b{w}\b(?! bank)" for w in product)
            words += (rf"\b{row['card_kind']} cards?\b",)
            found.append(Record("card", row["card_id"], str(row["last4"]), words=words))
        for row in bank.all("SELECT * FROM deposits WHERE customer_id = ?", customer_id):
            paise = row["principal"] or row["instalment"]
            days = tuple(
                date.fromisoformat(d) for d in (row["start_date"], row["maturity_date"]) if d
            )
            words = (r"\btax[- ]?saver\b",) if row["deposit_type"] == "tax_saver_fd" else ()
            found.append(
                Record(
                    "deposit",
                    row["deposit_id"],
                    row["deposit_id"][-4:],
                    Decimal(paise) / 100 if paise else None,
                    days,
                    words,
                )
            )
        for row in bank.all("SELECT * FROM loans WHERE customer_id = ?", customer_id):
            words = (rf"\b{row['loan_type']} loans?\b",)
            found.append(Record("loan", row["loan_id"], row["loan_id"][-4:], words=words))
    return tuple(found)


def _by_digits(record: Record, text: str) -> bool:
    cue = r"(?:ending|ends|end|no\.?|number|fd|rd|loan|card|[x*•]{2,})"
    digits = re.sub(r"\D", "", record.key) if record.kind != "card" else record.tail
    tails = {record.tail, digits}
    return any(
        re.search(rf"{cue}\s*(?:in|with|:|-)?[\sx*•-]*{re.escape(t)}(?!\d)", text) for t in tails
    )


def _forms(record: Record, others: Sequence[Record], text: str) -> bool:
    """The text names `record` by one of the forms."""
    if record.key.lower() in text or _by_digits(record, text):
        return True
    said_days = {d for _, _, d in readers.dates(text)}
    amount = record.amount is not None and record.amount in readers.figures(text)
    days = set(record.days) & said_days
    if amount or days:
        alike = [
            o for o in others if (not amount or o.amount == record.amount) and (days <= set(o.days))
        ]
        if not alike:
            return True
    for word in record.words:
        if re.search(word, text) and not any(word in o.words for o in others):
            return True
    return not others and re.search(_GENERIC[record.kind], text) is not None


def _named(text: str, same: Sequence[Record]) -> list[str]:
    """The records of `same` the text names by a form, when it names one alone."""
    low = text.lower()
    found = [r.key for r in same if _forms(r, [o for o in same if o is not r], low)]
    return found if len(found) == 1 else []


def names_record(
    key: str,
    kind: str,
    proposal: Sequence[str],
    records: Sequence[Record],
    states: Callable[[str], bool] = lambda text: False,
) -> bool:
    """The proposal names the record and no other: in the sentences that propose the action
    (`states` it, and "I will", "shall I", ...), when they name any of its kind; else in some
    message or sentence."""
    same = [r for r in records if r.kind == kind]
    if not any(r.key.upper() == key.upper() for r in same):
        return False
    parts = [p for m in proposal for p in re.split(r"(?<=[.!?])\s+(?=[A-Z])", m)]
    stating = {
        n.upper() for p in parts if _PROPOSING.search(p) and states(p) for n in _named(p, same)
    }
    if stating:
        return stating == {key.upper()}
    return any(n.upper() == key.upper() for p in [*proposal, *parts] for n in _named(p, same))
