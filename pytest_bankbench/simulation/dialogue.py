"""How the gold agent speaks: a bank's published dialogue, in several phrasings.

The gold agent greets, asks for what it needs, tells the quote, asks for consent, acts, reports
the result and explains refusals with their reason. It never shows a tool name or an internal
id: a write is described from its arguments (amounts, modes, the last digits of an account).
A `Phrasing` is one register of that dialogue (its wordings: simulation/phrasings.py); the tests
run the gold agent in each of them.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import Any

from pytest_bankbench.money import indian, to_paise
from pytest_bankbench.simulation.heard import heard
from pytest_bankbench.tasks.model import GoldCall, ToldValue, Topic

# What each write does, said to the customer; {amount}, {mode}, {account}, {channel}... are
# filled from the call's arguments, {record} with the card, FD or loan as records.py names it
# (consent counts only for a proposal that names it). Internal ids are never shown.
ACTIONS: dict[str, str] = {
    "transfer_funds": "send {amount} by {mode} from your account ending {from_account}",
    "add_beneficiary": "add {name} as a new payee (account ending {account_number})",
    "create_fd": "book a fixed deposit of {amount} for {tenure_days} days from your account "
    "ending {from_account}",
    "create_rd": "open a recurring deposit of {monthly_instalment} a month for {tenure_months} "
    "months from your account ending {from_account}",
    "close_fd_premature": "close {record} early and credit the payout to its linked account",
    "make_loan_prepayment": "make a part-prepayment of {amount} on {record} ({option}) from your "
    "account ending {from_account}",
    "foreclose_loan": "foreclose {record} in full from your account ending {from_account}",
    "block_card": "block {record} permanently (reason: {reason})",
    "set_card_channel_limit": "set the {channel} channel of {record} to {state}",
    "pay_credit_card_bill": "pay {amount} towards the bill of {record} from your account ending "
    "{from_account}",
    "stop_cheque": "stop payment of cheque number {cheque_number} on your account ending "
    "{account_number}",
    "request_cheque_book": "order a cheque book of {leaves} leaves for your account ending "
    "{account_number}, delivered to your {delivery}",
    "request_account_statement": "request a statement of your account ending {account_number} "
    "from {from_date} to {to_date} by {delivery}",
}
DISPUTES_TEAM = "our Card Disputes team"
GRIEVANCE_TEAM = "our grievance team"
_MONEY = frozenset({"amount", "monthly_instalment", "daily_limit"})
_LAST4 = frozenset({"from_account", "account_number"})
TOPIC_WORDS: dict[Topic, str] = {
    "account": "which account to use",
    "amount": "the amount",
    "payee": "the payee's details",
    "mode": "the transfer mode",
    "tenure": "the tenure",
    "date": "the date",
    "period": "the period",
    "delivery": "how you would like it delivered",
    "reason": "the reason",
    "card": "which card",
    "deposit": "which deposit",
    "loan": "which loan",
    "cheque": "the cheque number",
    "channel": "which channel",
    "limit": "the limit you want",
    "maturity": "what should happen at maturity",
    "identity": "your registered details",
    "other": "any other details",
}


def _fill(name: str, value: Any, args: dict[str, Any]) -> str:
    if name in _MONEY:
        return indian(to_paise(Decimal(str(value))))
    if name in _LAST4:
        return str(value)[-4:]
    if name in ("from_date", "to_date"):
        day = date.fromisoformat(str(value))
        return f"{day.day} {day:%B %Y}"
    return str(value).replace("_", " ")


# How a record is named when the customer's records are not at hand (a bare description).
_RECORD_DEFAULT = {"card_id": "the card", "deposit_id": "the fixed deposit", "loan_id": "the loan"}


def describe(call: GoldCall, record: str | None = None) -> str:
    """What a write will do, in the customer's terms; `record`: how to name the card, FD or
    loan it acts on (records.phrase)."""
    args = dict(call.arguments)
    values = {k: _fill(k, v, args) for k, v in args.items()}
    values["record"] = record or next(
        (name for arg, name in _RECORD_DEFAULT.items() if arg in args), "it"
    )
    limit = args.get("daily_limit")
    on = "off" if args.get("enabled") is False else "on"
    values["state"] = f"{on} with a daily limit of {values['daily_limit']}" if limit else on
    template = ACTIONS.get(call.tool, "make the change you asked for")
    try:
        return template.format(**values)
    except KeyError:
        return template.split(" {")[0].split(" from your")[0]


def spoken(value: ToldValue) -> str:
    """A value as an assistant says it: Rs. 1,50,000, 27 December 2028, 16 months, 7.25%."""
    if value.kind == "amount":
        return indian(to_paise(value.value))
    if value.kind == "date":
        day = date.fromisoformat(value.value)
        return f"{day.day} {day:%B %Y}"
    if value.kind == "count":
        return f"{value.value} {value.unit or ''}".strip()
    if value.kind == "percent":
        return f"{value.value}%"
    return value.value


def _topics(topics: Sequence[Topic]) -> str:
    words = [TOPIC_WORDS[t] for t in dict.fromkeys(topics)]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def pick(options: Sequence[str], key: str | None) -> str:
    """One of the options, the same for the same key (a task, a turn kind and its count); the
    first without a key, so a caller that gives none hears the register's plainest wording."""
    if key is None:
        return options[0]
    digest = hashlib.blake2b(key.encode("utf-8"), digest_size=8).digest()
    return options[int.from_bytes(digest, "big") % len(options)]


# Words that say nothing about which record or value a fact gives ("It's my ...").
_STOP_WORDS = frozenset(
    """a an and as at be by for from in is it its me my of on or please the then that this to
    use want with rs inr it's i'm i'd i'll i've""".split()  # noqa: SIM905 - a word list
)
_WORD = re.compile(r"[A-Za-z][A-Za-z']+")
_NUMBER = re.compile(r"\d[\d.]*\d|\d")
_MONTH_NAMES = re.compile(
    r"\b(january|february|march|april|may|june|july|august|september|october|november|december)\b"
)


def _names(text: str) -> set[str]:
    """Capitalised words inside a sentence and all-capital words: names, products, modes."""
    found: set[str] = set()
    for sentence in re.split(r"(?<=[.!?])\s+", text):
        for at, match in enumerate(_WORD.finditer(sentence)):
            word = match.group()
            if word.isupper() or (at and word[0].isupper()):
                found.add(word.lower())
    return found - _STOP_WORDS


def already_told(fact: str, opening: str) -> bool:
    """The customer's opening already gives the fact: its numbers (an account by its last four
    digits) and months, else its names (a payee, a card product, a mode), else most of its
    words."""
    heard_fact, heard_opening = heard(fact), heard(opening)
    numbers = _NUMBER.findall(heard_fact)
    if numbers:
        said = set(_NUMBER.findall(heard_opening))
        return all(n in said or (len(n) > 8 and n[-4:] in said) for n in numbers) and all(
            f" {m} " in heard_opening for m in _MONTH_NAMES.findall(heard_fact)
        )
    names = _names(fact)
    if names:
        return all(f" {n} " in heard_opening for n in names)
    words = {w[:4] for w in heard_fact.split() if w not in _STOP_WORDS and len(w) > 2}
    stems = {w[:4] for w in heard_opening.split()}
    return bool(words) and 3 * len(words & stems) >= 2 * len(words)


@dataclass(frozen=True)
class Phrasing:
    """One register of the gold dialogue, with several wordings of each kind of turn.

    `pick` chooses one per task and turn, so the train split's dialogues are not one template
    (issue 17, item 6); every wording must read to the scripted customer as its kind (a question
    as a question, a proposal as a request for consent, a result as done), which the tests prove
    by running every task in every register."""

    name: str
    greetings: tuple[str, ...]
    asks: tuple[str, ...]  # {topics}
    proposes: tuple[str, ...]  # {action} {quote}: what the write will do, and its values
    confirms: tuple[str, ...]  # the request for consent that closes a proposal
    dones: tuple[str, ...]  # {results}: after a write
    answers: tuple[str, ...]  # {results}: an enquiry answered, nothing changed
    refuses: tuple[str, ...]  # {explain} {results}
    value: Callable[[ToldValue], str]
    join: str = " "
    transfer: str = (
        "I'm transferring you to {team} now, with this summary so you need not repeat it: "
        "{summary}."
    )

    @property
    def greeting(self) -> str:
        return self.greetings[0]

    def greet(self, key: str | None = None) -> str:
        return pick(self.greetings, key)

    def asking(self, topics: Sequence[Topic], key: str | None = None) -> str:
        return pick(self.asks, key).format(topics=_topics(topics or ("other",)))

    def results(self, values: Sequence[ToldValue]) -> str:
        return self.join.join(f"{self.label(v)}: {self.value(v)}." for v in values)

    def label(self, value: ToldValue) -> str:
        return value.label[:1].upper() + value.label[1:]

    def proposal(
        self,
        write: GoldCall,
        quote: Sequence[ToldValue],
        explain: str = "",
        key: str | None = None,
        record: str | None = None,
    ) -> str:
        said = self.results(quote)
        action = describe(write, record)
        statement = pick(self.proposes, key).format(action=action, quote=said).strip()
        question = pick(self.confirms, f"{key}/confirm" if key else None)
        text = f"{statement}{self.join}{question}"
        return f"{explain} {text}".strip() if explain else text

    def handoff(self, call: GoldCall) -> str:
        """Who takes over, read from the reason (a dispute: the Card Disputes team; a complaint:
        the grievance team, KB 24), and the summary passed on (I.32, I.34)."""
        reason = str(call.arguments.get("reason", ""))
        if re.search(r"disput|fraud|chargeback", reason, re.I):
            team = DISPUTES_TEAM
        elif re.search(r"complain|grievance", reason, re.I):
            team = GRIEVANCE_TEAM
        else:
            team = "a colleague"
        summary = str(call.arguments.get("summary", "")).rstrip(".")
        return self.transfer.format(team=team, summary=summary)

    def closing(
        self,
        values: Sequence[ToldValue],
        explain: str | None,
        key: str | None = None,
        changed: bool = True,
    ) -> str:
        """The end of a request: the refusal and its reason, the result of a write, or the
        answer to an enquiry."""
        results = self.results(values)
        if explain:
            return pick(self.refuses, key).format(explain=explain, results=results).strip()
        return pick(self.dones if changed else self.answers, key).format(results=results).strip()
