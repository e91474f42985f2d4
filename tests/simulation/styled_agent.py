"""A careful agent in words nobody here expected (issue 16: valid behaviour must pass).

`StyledAgent` makes the gold agent's decisions (the same tool calls, in the same order, the same
questions, quotes, proposals, results, refusals and hand-offs) but rewrites every message the
customer sees in one of several styles real models write in (tests/simulation/real_turns*.txt):

- `table`: markdown headings, bold, numbered steps, a quote and a result as a table, "₹",
  "April 1, 2026", "XXXX1234";
- `terse`: one line each, "Rs 1.5 lakh" where the amount is exact, "01 Apr 2026", "****1234";
- `apologetic`: long, sorry, "INR 150,000.00" in Western grouping, "1st April 2026",
  "ending in 1234", the reason in its own sentence after the refusal;
- `desi`: Indian bank English, "₹1,50,000/-" and "INR", "01/04/2026", "A/c no. XXXXXX1234",
  the alternative offered as a question.

Each style also says the rule of a refusal in other words than the task's own `explain`
(`REASONS`): the phrasings real assistants use for a lien, a lock-in, a dormant account... A
style that the scorer or the customer misreads is either their defect or a wording that does not
say what the policy requires; the tests and the audit script tell which.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from pytest_bankbench.simulation.agents import AgentAction, GoldAgent
from pytest_bankbench.simulation.dialogue import pick
from pytest_bankbench.simulation.trace import Event
from pytest_bankbench.tasks.model import GoldCall, Task, ToldValue, Topic
from tests.simulation.styled_reasons import SMALL, amount, day, masked, reworded

STYLES = ("table", "terse", "apologetic", "desi")


def value(style: str, told: ToldValue) -> str:
    """A told value in the style's forms."""
    if told.kind == "amount":
        return amount(style, told.value)
    if told.kind == "date":
        return day(style, told.value)
    if told.kind == "digits":
        return masked(style, told.value)
    if told.kind == "percent":
        return {"table": f"{told.value}% p.a.", "desi": f"{told.value}% per annum"}.get(
            style, f"{told.value}%"
        )
    if told.kind == "count":
        number = int(told.value)
        word = SMALL[number] if style == "apologetic" and number <= 10 else str(number)
        unit = told.unit or ""
        if style == "apologetic":
            unit = unit.replace("working days", "business days")
        return f"{word} {unit}".strip()
    return WORDS.get(told.value, {}).get(style, told.value)


# A term or status in the style's words, as real assistants put it.
WORDS: dict[str, dict[str, str]] = {
    "permanent": {
        "table": "irreversible",
        "terse": "can't be undone",
        "apologetic": "this cannot be reversed",
        "desi": "cannot be reactivated later",
    },
    "police report": {"terse": "FIR copy", "apologetic": "police complaint", "desi": "FIR"},
    "closed": {"terse": "resolved", "apologetic": "resolved and closed"},
    "in progress": {"desi": "under process", "apologetic": "being worked on"},
}


# What each write does, in the style's words ({amount}, {account}, ... from the arguments).
_ACTIONS: dict[str, dict[str, str]] = {
    "transfer_funds": {
        "table": "Transfer {amount} via **{mode}** from {from_account}",
        "terse": "send {amount} by {mode} from {from_account}",
        "apologetic": "transfer {amount} using {mode} from your account {from_account}",
        "desi": "do a {mode} transfer of {amount} from your {from_account}",
    },
    "add_beneficiary": {
        "table": "Add **{name}** (account {account_number}) as a payee",
        "terse": "register {name} ({account_number}) as a new payee",
        "apologetic": "add {name}, account {account_number}, to your list of beneficiaries",
        "desi": "register {name} as a new beneficiary with {account_number}",
    },
    "create_fd": {
        "table": "Open a fixed deposit of {amount} for {tenure_days} days, funded from "
        "{from_account}",
        "terse": "open an FD of {amount}, {tenure_days} days, from {from_account}",
        "apologetic": "open a new fixed deposit of {amount} for {tenure_days} days, debiting "
        "your account {from_account}",
        "desi": "book an FD of {amount} for {tenure_days} days by debiting your {from_account}",
    },
    "create_rd": {
        "table": "Open a recurring deposit of {monthly_instalment}/month for {tenure_months} "
        "months from {from_account}",
        "terse": "open an RD, {monthly_instalment} monthly for {tenure_months} months, from "
        "{from_account}",
        "apologetic": "set up a recurring deposit with a monthly instalment of "
        "{monthly_instalment} for {tenure_months} months from your account {from_account}",
        "desi": "open an RD of {monthly_instalment} per month for {tenure_months} months from "
        "your {from_account}",
    },
    "close_fd_premature": {
        "table": "Prematurely close the FD and credit the proceeds to the linked account",
        "terse": "break the FD early; payout to the linked account",
        "apologetic": "close your fixed deposit before maturity and credit the proceeds to its "
        "linked account",
        "desi": "do premature closure of the FD and credit the maturity proceeds to the linked "
        "account",
    },
    "make_loan_prepayment": {
        "table": "Part-prepay {amount} on the loan (**{option}**) from {from_account}",
        "terse": "prepay {amount} on the loan ({option}) from {from_account}",
        "apologetic": "make a part-prepayment of {amount} towards your loan ({option}) from your "
        "account {from_account}",
        "desi": "do part-prepayment of {amount} on your loan ({option}) from your {from_account}",
    },
    "foreclose_loan": {
        "table": "Foreclose the loan in full, paid from {from_account}",
        "terse": "foreclose the loan from {from_account}",
        "apologetic": "foreclose your loan completely, with the amount debited from your account "
        "{from_account}",
        "desi": "do foreclosure of the loan by debiting your {from_account}",
    },
    "block_card": {
        "table": "Block the card **permanently** (reason: {reason})",
        "terse": "block the card ({reason})",
        "apologetic": "block the card, with the reason recorded as {reason}",
        "desi": "hotlist the card (reason: {reason})",
    },
    "set_card_channel_limit": {
        "table": "Turn the card's **{channel}** usage {state}",
        "terse": "switch {channel} {state}",
        "apologetic": "set your card's {channel} usage {state}",
        "desi": "make the {channel} channel of the card {state}",
    },
    "pay_credit_card_bill": {
        "table": "Pay {amount} towards the credit card bill from {from_account}",
        "terse": "pay {amount} to the card bill from {from_account}",
        "apologetic": "make a payment of {amount} towards your credit card bill from your "
        "account {from_account}",
        "desi": "pay {amount} towards your credit card dues from your {from_account}",
    },
    "stop_cheque": {
        "table": "Stop payment of cheque no. **{cheque_number}** on {account_number}",
        "terse": "stop payment on cheque {cheque_number}, {account_number}",
        "apologetic": "place a stop payment on cheque number {cheque_number} from your account "
        "{account_number}",
        "desi": "mark stop payment on cheque no. {cheque_number} of your {account_number}",
    },
    "request_cheque_book": {
        "table": "Order a **{leaves}-leaf** cheque book for {account_number}, delivered to your "
        "{delivery}",
        "terse": "order a {leaves}-leaf cheque book for {account_number} to your {delivery}",
        "apologetic": "request a new cheque book with {leaves} leaves for your account "
        "{account_number}, to be delivered to your {delivery}",
        "desi": "issue a cheque book of {leaves} leaves for your {account_number}, to be "
        "delivered at your {delivery}",
    },
    "request_account_statement": {
        "table": "Request a statement of {account_number} for {from_date} to {to_date}, sent by "
        "**{delivery}**",
        "terse": "request a statement for {account_number}, {from_date} to {to_date}, by "
        "{delivery}",
        "apologetic": "request an account statement of your account {account_number} covering "
        "{from_date} to {to_date}, delivered by {delivery}",
        "desi": "generate the statement of your {account_number} from {from_date} to {to_date} "
        "and send it by {delivery}",
    },
}


def action(style: str, write: GoldCall) -> str:
    """What the write will do, in the style's words, from its arguments."""
    args = dict(write.arguments)
    filled: dict[str, str] = {}
    for name, raw in args.items():
        if name in ("amount", "monthly_instalment", "daily_limit"):
            filled[name] = amount(style, str(raw))
        elif name in ("from_account", "account_number") and len(str(raw)) >= 8:
            filled[name] = masked(style, str(raw))
        elif name in ("from_date", "to_date"):
            filled[name] = day(style, str(raw))
        else:
            filled[name] = str(raw).replace("_", " ")
    on = "off" if args.get("enabled") is False else "on"
    limit = filled.get("daily_limit")
    filled["state"] = f"{on}, with a daily limit of {limit}" if limit else on
    template = _ACTIONS.get(write.tool, {}).get(style, "make the change you asked for")
    try:
        return template.format(**filled)
    except KeyError:
        return template.split(" {")[0]


_TOPICS: dict[str, dict[Topic, str]] = {
    "table": {
        "account": "Account (last 4 digits)",
        "amount": "Amount",
        "mode": "Mode (NEFT/IMPS/RTGS)",
        "tenure": "Tenure",
        "date": "Date",
        "period": "Period",
        "deposit": "Which FD",
        "loan": "Which loan",
        "card": "Which card",
        "cheque": "Cheque number",
        "payee": "Payee details",
        "channel": "Channel",
        "limit": "New limit",
        "reason": "Reason",
        "delivery": "Delivery",
    },
    "desi": {
        "account": "the account no. (last 4 digits)",
        "amount": "the amount",
        "mode": "the mode of transfer",
        "deposit": "which FD",
        "cheque": "the cheque no.",
    },
}


def topics(style: str, wanted: Sequence[Topic]) -> list[str]:
    from pytest_bankbench.simulation.dialogue import TOPIC_WORDS

    own = _TOPICS.get(style, {})
    return [own.get(t, TOPIC_WORDS[t]) for t in dict.fromkeys(wanted or ("other",))]


# A reported value's label in the style's words where the tool's name for it would be odd to a
# customer ("cooling period until" is when the full amount can go).
_LABELS = {"cooling period until": "full amount can be sent from"}


def _label(told: ToldValue) -> str:
    label = _LABELS.get(told.label, told.label)
    return label[:1].upper() + label[1:]


class StyledSay:
    """A `Phrasing`'s interface (greet, asking, proposal, results, handoff, closing) in a style."""

    def __init__(self, style: str) -> None:
        if style not in STYLES:
            raise ValueError(f"unknown style {style!r}: one of {STYLES}")
        self.style = style

    @property
    def greeting(self) -> str:
        return self.greet()

    def greet(self, key: str | None = None) -> str:
        return pick(
            {
                "table": ("**Hello!** I'm the Suvarna Bank assistant.", "Hi there 👋"),
                "terse": ("Hi.", "Hello."),
                "apologetic": (
                    "Hello, and thank you so much for reaching out - I'm sorry for any trouble "
                    "this has caused.",
                    "Thank you for contacting Suvarna Bank, and I apologise for any inconvenience.",
                ),
                "desi": ("Namaste! Greetings from Suvarna Bank.", "Good day sir/madam!"),
            }[self.style],
            key,
        )

    def asking(self, wanted: Sequence[Topic], key: str | None = None) -> str:
        words = topics(self.style, wanted)
        if self.style == "table":
            steps = "\n".join(f"{n}. **{w}**" for n, w in enumerate(words, start=1))
            return f"I can help with that. Please share:\n{steps}"
        listed = words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]
        if self.style == "terse":
            return f"Sure - {listed}?"
        if self.style == "apologetic":
            return (
                "I'd be more than happy to help. I'm sorry to trouble you, but could you "
                f"please let me know {listed}?"
            )
        return f"Kindly provide {listed} so that I can assist you further."

    def results(self, values: Sequence[ToldValue]) -> str:
        if not values:
            return ""
        if self.style == "table" and all(v.kind == "amount" for v in values):
            # The currency in the header, the figures bare: "| Payout | 1,18,985.13 |".
            rows = "\n".join(
                f"| {_label(v)} | {amount(self.style, v.value).removeprefix('₹')} |" for v in values
            )
            return f"| Item | Amount (₹) |\n|---|---:|\n{rows}"
        if self.style == "table":
            rows = "\n".join(f"| {_label(v)} | {value(self.style, v)} |" for v in values)
            return f"| Detail | Value |\n|---|---|\n{rows}"
        if self.style == "terse":
            return "; ".join(f"{_label(v).lower()} {value(self.style, v)}" for v in values) + "."
        if self.style == "apologetic":
            return " ".join(f"The {_label(v).lower()} is {value(self.style, v)}." for v in values)
        return "\n".join(f"- {_label(v)}: {value(self.style, v)}" for v in values)

    def proposal(
        self,
        write: GoldCall,
        quote: Sequence[ToldValue],
        explain: str = "",
        key: str | None = None,
    ) -> str:
        what = action(self.style, write)
        said = self.results(quote)
        reason = reworded(self.style, explain, ask=False) if explain else ""
        ask = pick(CONFIRMS[self.style], f"{key}/confirm" if key else None)
        if self.style == "table":
            body = f"### Before I proceed\n**Action:** {what}\n\n{said}\n\n{ask}"
        elif self.style == "terse":
            body = f"I'll {what}. {said} {ask}".replace("  ", " ")
        elif self.style == "apologetic":
            body = (
                f"Thank you so much for your patience. Just to be sure: you want me to {what}? "
                f"{said} {ask}"
            )
        else:
            body = f"As requested, I will {what}.\n{said}\n{ask}"
        return f"{reason}\n\n{body}".strip() if reason else body

    def handoff(self, call: GoldCall) -> str:
        reason = str(call.arguments.get("reason", ""))
        summary = str(call.arguments.get("summary", "")).rstrip(".")
        if re.search(r"disput|fraud|chargeback", reason, re.I):
            team = "Card Disputes team" if self.style != "desi" else "Disputes team"
        elif re.search(r"complain|grievance", reason, re.I):
            team = "Grievance Redressal team" if self.style == "desi" else "grievance team"
        else:
            team = "a colleague"
        if self.style == "table":
            return f"I'm connecting you with our **{team}**.\n\n**Summary shared:** {summary}."
        if self.style == "terse":
            return f"Handing you to our {team}. Summary: {summary}."
        if self.style == "apologetic":
            return (
                f"I'm so sorry you've had to deal with this. I'm now connecting you with our "
                f"{team}, and I've passed on a summary so you won't need to repeat yourself: "
                f"{summary}."
            )
        return f"I am escalating this to our {team} now. Brief: {summary}."

    def closing(
        self,
        values: Sequence[ToldValue],
        explain: str | None,
        key: str | None = None,
        changed: bool = True,
    ) -> str:
        said = self.results(values)
        if explain:
            reason = reworded(self.style, explain, ask=self.style in ("desi", "table"))
            head = {
                "table": "### ❌ Unable to process\n",
                "terse": "Can't do that. ",
                "apologetic": "I'm truly sorry, but I'm unable to do that. ",
                "desi": "Sorry sir/madam, this request cannot be processed. ",
            }[self.style]
            return f"{head}{reason} {said}".strip()
        if changed:
            head = {
                "table": "### ✅ Done\n",
                "terse": "Done. ",
                "apologetic": "Thank you for waiting - I'm happy to say it went through. ",
                "desi": "Your request has been processed successfully.\n",
            }[self.style]
        else:
            head = {
                "table": "Here's what I found:\n\n",
                "terse": "",
                "apologetic": "Thank you for your patience. Here is what I found: ",
                "desi": "Please find the details below:\n",
            }[self.style]
        return f"{head}{said}".strip()


# Requests for consent as real models close a proposal (tests/simulation/real_turns*.txt).
CONFIRMS: dict[str, tuple[str, ...]] = {
    "table": (
        "Shall I go ahead?",
        'Please reply **"yes"** to confirm.',
        "Would you like to proceed with this? (yes/no)",
    ),
    "terse": ("Confirm?", "Yes to proceed?", "OK?"),
    "apologetic": (
        "Please confirm if you'd like me to proceed.",
        'Would you like to proceed? Please confirm by saying "yes".',
        "Is that correct?",
    ),
    "desi": (
        "Kindly confirm so that I can proceed.",
        "Kindly reply YES to confirm.",
        "Shall I proceed?",
    ),
}

WARNINGS = {
    "table": "⚠️ **Please don't share your OTP or PIN** - not even with me. I don't need it.",
    "terse": "Don't share OTPs or PINs with anyone, including me.",
    "apologetic": (
        "I'm sorry, but please never share your OTP, PIN or CVV with anyone - Suvarna Bank will "
        "never ask for it."
    ),
    "desi": "Kindly do not share your OTP/PIN with anyone, the bank never asks for it.",
}


class StyledAgent(GoldAgent):
    """The gold agent's decisions, every message in the style's words.

    With `paths`, it also takes the other paths the policy allows: the tool's default where
    the customer named no number (an allowed value that is the schema's default is left out),
    the other transfer mode where the policy offers both, and one clarifying question of its own
    before the first write that names an account ("it's your account ending 1234?")."""

    def __init__(self, task: Task, style: str, paths: bool = False) -> None:
        super().__init__(task)
        self.say = StyledSay(style)  # type: ignore[assignment]
        self.style = style
        self.paths = paths
        self.name = f"styled-{style}{'-paths' if paths else ''}"
        self.queue = [self._path(c) for c in self.queue]
        self.checked = False

    def _path(self, call: GoldCall) -> GoldCall:
        """The call on the other allowed path: a default left out, another allowed value."""
        if not self.paths or not call.allowed:
            return call
        from pytest_bankbench.bank.registry import get_tool

        defaults = get_tool(call.tool).defaults
        args = dict(call.arguments)
        for name, values in call.allowed.items():
            if name in defaults and defaults[name] in values:
                args.pop(name, None)  # the tool's own default is among the allowed
            elif values:
                args[name] = values[0]
        return call.model_copy(update={"arguments": args})

    def next_calls(self, instruction: int) -> list[GoldCall]:
        return [self._path(c) for c in super().next_calls(instruction)]

    def quote(self, write: GoldCall) -> list[ToldValue]:
        """The quote, with the agent's own choice where it took another allowed value."""
        gold = next(c for c in self.task.gold if c.id == write.id)
        swapped = {
            str(gold.arguments[n]): str(v)
            for n, v in write.arguments.items()
            if n in gold.allowed and v != gold.arguments.get(n)
        }
        return [
            v.model_copy(update={"value": swapped[v.value]}) if v.value in swapped else v
            for v in super().quote(write)
        ]

    def _act(self, events: Sequence[Event]) -> AgentAction:
        head = self.queue[0] if self.queue else None
        if self.paths and not self.checked and head is not None and head.id not in self.asked:
            account = next(
                (
                    str(head.arguments[n])
                    for n in ("from_account", "account_number")
                    if len(str(head.arguments.get(n, ""))) >= 8
                ),
                None,
            )
            if account is not None and self._kind[head.id] == "write" and self.greeted:
                self.checked = True
                return AgentAction(
                    message=f"Quick check before I go on: is it your account "
                    f"{masked(self.style, account)} you'd like me to use?"
                )
        return super()._act(events)

    def _warning(self, events: Sequence[Event]) -> str:
        return WARNINGS[self.style] if super()._warning(events) else ""


def style_of(seed: int) -> str:
    """One style per seed."""
    return STYLES[seed % len(STYLES)]
