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
say what the policy requires; the tests and the audit (`python -m tests.simulation.styled_agent`:
every task in every style, on both paths) tell which.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from pytest_bankbench.simulation.agents import AgentAction, GoldAgent
from pytest_bankbench.simulation.dialogue import pick
from pytest_bankbench.simulation.trace import Event
from pytest_bankbench.tasks.model import GoldCall, Task, ToldValue, Topic
from tests.simulation.styled_actions import action
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
        record: str | None = None,
    ) -> str:
        what = action(self.style, write)
        if record:  # the card, FD or loan named as the gold agent names it (records.phrase)
            named = re.sub(
                r"\b(?:the|your)\s+(?:fixed deposit|FD|card|loan)\b(?!'s)", record, what, count=1
            )
            what = named if named != what else f"{what} ({record})"
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


if __name__ == "__main__":  # the audit: every task in every style, on both paths
    from collections import Counter

    from pytest_bankbench.runner import run_task
    from pytest_bankbench.tasks.loader import shipped_tasks

    for paths in (False, True):
        for style in STYLES:
            failed = Counter(
                f"{t.family} {v.failure_type}"
                for t in shipped_tasks()
                if not (v := run_task(t, StyledAgent(t, style, paths)).verdict).passed
            )
            total = len(shipped_tasks())
            print(f"{style}{' +paths' if paths else ''}: {total - failed.total()}/{total}", failed)
