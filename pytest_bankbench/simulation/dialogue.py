"""How the gold agent speaks: a bank's published dialogue, in several phrasings.

The gold agent greets, asks for what it needs, tells the quote, asks for consent, acts, reports
the result and explains refusals with their reason. It never shows a tool name or an internal
id: a write is described from its arguments (amounts, modes, the last digits of an account).
A `Phrasing` is one register of that dialogue; the tests run the gold agent in each of them.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import Any

from pytest_bankbench.money import indian, to_paise
from pytest_bankbench.tasks.model import GoldCall, ToldValue, Topic

# What each write does, said to the customer; {amount}, {mode}, {account}, {channel}... are
# filled from the call's arguments. Internal ids (deposit, loan, card ids) are never shown.
ACTIONS: dict[str, str] = {
    "transfer_funds": "send {amount} by {mode} from your account ending {from_account}",
    "add_beneficiary": "add {name} as a new payee (account ending {account_number})",
    "create_fd": "book a fixed deposit of {amount} for {tenure_days} days from your account "
    "ending {from_account}",
    "create_rd": "open a recurring deposit of {monthly_instalment} a month for {tenure_months} "
    "months from your account ending {from_account}",
    "close_fd_premature": "close the fixed deposit early and credit the payout to its linked "
    "account",
    "make_loan_prepayment": "make a part-prepayment of {amount} on the loan ({option}) from your "
    "account ending {from_account}",
    "foreclose_loan": "foreclose the loan in full from your account ending {from_account}",
    "block_card": "block the card permanently (reason: {reason})",
    "set_card_channel_limit": "set the card's {channel} channel to {state}",
    "pay_credit_card_bill": "pay {amount} towards the credit card bill from your account ending "
    "{from_account}",
    "stop_cheque": "stop payment of cheque number {cheque_number} on your account ending "
    "{account_number}",
    "request_cheque_book": "order a cheque book of {leaves} leaves for your account ending "
    "{account_number}, delivered to your {delivery}",
    "request_account_statement": "request a statement of your account ending {account_number} "
    "from {from_date} to {to_date} by {delivery}",
}
DISPUTES_TEAM = "our Card Disputes team"
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


def describe(call: GoldCall) -> str:
    """What a write will do, in the customer's terms."""
    args = dict(call.arguments)
    values = {k: _fill(k, v, args) for k, v in args.items()}
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


@dataclass(frozen=True)
class Phrasing:
    """One register of the gold dialogue."""

    name: str
    greeting: str
    ask: str  # {topics}
    propose: str  # {action} {quote}
    done: str  # {results}
    refuse: str  # {explain} {results}
    value: Callable[[ToldValue], str]
    join: str = " "
    transfer: str = (
        "I'm transferring you to {team} now, with this summary so you need not repeat it: "
        "{summary}."
    )

    def asking(self, topics: Sequence[Topic]) -> str:
        return self.ask.format(topics=_topics(topics or ("other",)))

    def results(self, values: Sequence[ToldValue]) -> str:
        return self.join.join(f"{self.label(v)}: {self.value(v)}." for v in values)

    def label(self, value: ToldValue) -> str:
        return value.label[:1].upper() + value.label[1:]

    def proposal(self, write: GoldCall, quote: Sequence[ToldValue], explain: str = "") -> str:
        said = self.results(quote)
        text = self.propose.format(action=describe(write), quote=said)
        return f"{explain} {text}".strip() if explain else text

    def handoff(self, call: GoldCall) -> str:
        """Who takes over, and the summary passed on (I.32, I.34)."""
        reason = str(call.arguments.get("reason", ""))
        team = (
            DISPUTES_TEAM if re.search(r"disput|fraud|chargeback", reason, re.I) else "a colleague"
        )
        summary = str(call.arguments.get("summary", "")).rstrip(".")
        return self.transfer.format(team=team, summary=summary)

    def closing(self, values: Sequence[ToldValue], explain: str | None) -> str:
        results = self.results(values)
        if explain:
            return self.refuse.format(explain=explain, results=results).strip()
        return self.done.format(results=results).strip()


def _indian_value(value: ToldValue) -> str:
    return spoken(value)


def _intl_value(value: ToldValue) -> str:
    if value.kind == "amount":
        return f"INR {Decimal(value.value):,.2f}"
    if value.kind == "date":
        day = date.fromisoformat(value.value)
        return f"{day:%d %b %Y}"
    return spoken(value)


def _rupee_value(value: ToldValue) -> str:
    if value.kind == "amount":
        return "₹" + indian(to_paise(value.value)).removeprefix("Rs. ")
    if value.kind == "date":
        return date.fromisoformat(value.value).strftime("%d/%m/%Y")
    return spoken(value)


PHRASINGS: dict[str, Phrasing] = {
    "bank": Phrasing(
        name="bank",
        greeting="Hello, and thank you for contacting Suvarna Bank.",
        ask="To help you, could you please tell me {topics}?",
        propose="Here is what I will do: {action}. {quote} Shall I go ahead?",
        done="That is done. {results}",
        refuse="I'm sorry, I can't do that. {explain} {results}",
        value=_indian_value,
    ),
    "terse": Phrasing(
        name="terse",
        greeting="Hi.",
        ask="Need {topics}?",
        propose="I'll {action}. {quote} OK to proceed?",
        done="Done. {results}",
        refuse="Can't do that: {explain} {results}",
        value=_rupee_value,
    ),
    "verbose": Phrasing(
        name="verbose",
        greeting="Good day! I'm the Suvarna Bank virtual assistant and I'm happy to help.",
        ask="Before I look into this, I'll need a couple of details from you - could you "
        "share {topics}, please?",
        propose="Thank you for your patience. I have everything I need. To be fully "
        "transparent, I will {action}. {quote} Would you like me to go ahead with this?",
        done="Great news - everything went through successfully. Here is a summary: {results} "
        "I hope this helps.",
        refuse="I understand how important this is, but unfortunately I'm not able to do that. "
        "{explain} {results}",
        value=_intl_value,
    ),
    "markdown": Phrasing(
        name="markdown",
        greeting="**Welcome to Suvarna Bank!**",
        ask="To proceed I need:\n- {topics}\n\nCould you share these?",
        propose="### Please confirm\n- **Action:** {action}\n{quote}\n\nReply **YES** to confirm.",
        done="### Completed ✅\n{results}",
        refuse="### Not possible\n{explain}\n{results}",
        value=_indian_value,
        join="\n",
    ),
    "polite": Phrasing(
        name="polite",
        greeting="Namaste! Thank you for banking with us.",
        ask="May I kindly know {topics}?",
        propose="Kindly note, I will {action}. {quote} May I go ahead, please?",
        done="Your request has been processed successfully. {results} Thank you for your patience.",
        refuse="We regret that this request cannot be processed. {explain} {results}",
        value=_indian_value,
    ),
}
GOLD_PHRASING = "bank"
