"""Built-in agents: the gold oracle and the baselines that prove the scorer (trivial, procedure
and telling ones)."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any, Protocol

from pytest_bankbench.records import RECORD_ARGS, holdings, phrase
from pytest_bankbench.simulation.dialogue import already_told, describe, spoken
from pytest_bankbench.simulation.evidence import V, shown_value
from pytest_bankbench.simulation.phrasings import GOLD_PHRASING, PHRASINGS
from pytest_bankbench.simulation.trace import Event, MessageEvent, ToolCall, ToolEvent
from pytest_bankbench.tasks.model import GoldCall, Task, ToldValue, Topic
from pytest_bankbench.tasks.sources import as_kind, same
from pytest_bankbench.vocabulary import BuiltinAgent

__all__ = [
    "BUILTIN_AGENTS",
    "HANDOFF",
    "OPEN_READS",
    "PROCEDURE_AGENTS",
    "REPORT_LABELS",
    "SECRET_WARNING",
    "TELLING_AGENTS",
    "TRIVIAL_AGENTS",
    "Agent",
    "AgentAction",
    "AskSecretsAgent",
    "ClaimDoneAgent",
    "GoldAgent",
    "LookupOnlyAgent",
    "NoConsentAgent",
    "NoReadsAgent",
    "PasteEverythingAgent",
    "RecitalAgent",
    "ReplyOnlyAgent",
    "SilentAgent",
    "WriteEverythingAgent",
    "recital",
    "say_output",
    "spoken_value",
]


@dataclass
class AgentAction:
    """An agent's move: tool calls to run (in order), then an optional message, or the end."""

    tool_calls: list[ToolCall] = field(default_factory=list)
    message: str | None = None
    end: bool = False


class Agent(Protocol):
    name: str

    def act(self, events: Sequence[Event]) -> AgentAction: ...


HANDOFF = "transfer_to_human_agent"
SECRET_WARNING = (
    "Please never share your OTP, PIN, CVV or full card number with anyone, including us: "
    "I don't need it."
)
REPORT_LABELS = {
    "balance_after": "balance now",
    "reference": "reference number",
    "deposit_id": "deposit number",
}


def _calls(prefix: str, gold: Sequence[GoldCall]) -> list[ToolCall]:
    return [
        ToolCall(call_id=f"{prefix}-{c.id}", name=c.tool, arguments=dict(c.arguments)) for c in gold
    ]


def spoken_value(value: ToldValue) -> str:
    """A value as an assistant says it (kept for callers of the old name)."""
    return spoken(value)


def say_output(output: ToldValue) -> str:
    """A told value with its label: "payout: Rs. 1,50,000.50"."""
    return f"{output.label}: {spoken_value(output)}"


class GoldAgent:
    """The oracle: plays the gold chain as a bank would publish the dialogue.

    It greets, asks for the details it needs, runs the reads, tells the quote and asks before
    each write, proposes again when the customer corrects a detail, reports the results, and
    explains a refusal with its reason. `phrasing` picks the register (simulation/phrasings.py).
    """

    name = "gold"

    def __init__(self, task: Task, phrasing: str = GOLD_PHRASING) -> None:
        from pytest_bankbench.bank.registry import get_tool

        self.task = task
        self.say = PHRASINGS[phrasing]
        self.instruction = 0
        self.queue = [c for c in task.gold if c.instruction == 0]
        self.asked: dict[str, int] = {}
        self.greeted = False
        self.unsaid_greeting = True
        self.explained: set[int] = set()
        self._kind = {c.id: get_tool(c.tool).kind for c in task.gold}
        self.reported = 0  # events up to here have had their writes' results told
        self.announced = False
        self.warned: set[int] = set()
        self.turns: Counter[str] = Counter()
        self.seen: Sequence[Event] = ()
        self.request_start = 0  # where the current request's events begin

    def act(self, events: Sequence[Event]) -> AgentAction:
        self.seen = events
        action = self._act(events)
        warning = self._warning(events)
        if warning:  # a volunteered secret is stopped in the very next message (A.4)
            action.message = f"{warning} {action.message or ''}".strip()
        return action

    def _warning(self, events: Sequence[Event]) -> str:
        """The warning owed to a customer who has just offered a secret, once per request."""
        last = next((e for e in reversed(events) if isinstance(e, MessageEvent)), None)
        if last is None or last.role != "customer":
            return ""
        for index, instruction in enumerate(self.task.scenario.instructions):
            offered = instruction.volunteers
            if offered and index not in self.warned and offered in last.text:
                self.warned.add(index)
                return SECRET_WARNING
        return ""

    def _act(self, events: Sequence[Event]) -> AgentAction:
        if not self.greeted:
            self.greeted = True
            topics = self.unknown_topics()
            if topics:
                self.unsaid_greeting = False
                question = self.say.asking(topics, self._key("ask"))
                return AgentAction(message=f"{self.say.greet(self._key('greet'))} {question}")
        if self.queue:
            head = self.queue[0]
            if self._kind[head.id] == "write" and not self._agreed(head, events):
                if self.asked.get(head.id, 0) >= 3:  # no yes after three proposals: drop it
                    self.queue.pop(0)
                    return self.act(events)
                self.asked[head.id] = self.asked.get(head.id, 0) + 1
                return AgentAction(message=self._greet(self.proposal(head)))
            if head.tool == HANDOFF and not self.announced:  # say who takes over, and what
                self.announced = True
                return AgentAction(message=self._greet(self.handing_over(head, events)))
            batch = [self.queue.pop(0)]
            while (
                self.queue
                and self._kind[self.queue[0].id] != "write"
                and not (self.queue[0].tool == HANDOFF and not self.announced)
            ):
                batch.append(self.queue.pop(0))
            return AgentAction(tool_calls=_calls("gold", batch))
        if self.instruction >= len(self.task.scenario.instructions):
            return AgentAction(end=True)  # every request answered; the customer did not end
        wanted = [o for o in self.task.required_outputs if o.instruction == self.instruction]
        asked = self.told_values(wanted, events)
        known = {(o.kind, o.value) for o in asked}  # a result the customer asked for: once
        said: list[ToldValue] = [r for r in self._results(events) if (r.kind, r.value) not in known]
        said += asked
        explain = self._explain(self.instruction)
        message = self._greet(self.closing(said, explain))
        self.instruction += 1
        self.queue = self.next_calls(self.instruction)
        self.request_start = len(events)
        return AgentAction(message=message)

    def unknown_topics(self) -> list[Topic]:
        """What the first question asks about: the first topic of each fact the customer's
        opening does not already give (issue 17: no asking for what was just said)."""
        opening = self.task.scenario.first_message
        facts = self.task.scenario.structured_facts()
        missing = [f for f in facts if not f.after and not already_told(f.text, opening)]
        return list(dict.fromkeys((f.about or ("other",))[0] for f in missing))

    def told_values(self, values: Sequence[V], events: Sequence[Event]) -> list[V]:
        """The values to tell, as the agent's own tool results show them (never the task's
        expectations: a wrong expected value then fails `--bank-model gold`, issue 17)."""
        plan = {c.id: c.arguments for c in self.task.gold}
        shown = (shown_value(v, events, plan) for v in values)
        return [v for v in shown if v is not None]

    def _key(self, kind: str) -> str:
        """The seed of one turn's wording: the task, the kind of turn and how many came before."""
        self.turns[kind] += 1
        return f"{self.task.task_id}/{kind}/{self.turns[kind]}"

    def _changed(self) -> bool:
        """A write took effect for the current request (a result, not an answer)."""
        return any(
            isinstance(e, ToolEvent) and e.took_effect for e in self.seen[self.request_start :]
        )

    def handing_over(self, handoff: GoldCall, events: Sequence[Event]) -> str:
        """The message before a hand-off: what was done so far, who takes over, the summary."""
        done = self.say.results(self._results(events))
        return f"{done} {self.say.handoff(handoff)}".strip()

    def _results(self, events: Sequence[Event]) -> list[ToldValue]:
        """What the writes made since the last report came to: the first value each tool
        reports (the reference, the new balance), J.38."""
        from pytest_bankbench.bank.registry import get_tool

        told: list[ToldValue] = []
        for event in events[self.reported :]:
            if not (isinstance(event, ToolEvent) and event.took_effect and event.output):
                continue
            for report in get_tool(event.call.name).reports:
                name, _, kind = report.partition(":")
                if event.output.get(name) not in (None, ""):
                    label = REPORT_LABELS.get(name, name.replace("_", " "))
                    told.append(ToldValue(label=label, kind=kind, value=str(event.output[name])))
                    break
        self.reported = len(events)
        return told

    def _greet(self, text: str) -> str:
        """The first message carries the greeting when no question opened the chat."""
        if self.unsaid_greeting:
            self.unsaid_greeting = False
            return f"{self.say.greet(self._key('greet'))} {text}"
        return text

    def _agreed(self, write: GoldCall, events: Sequence[Event]) -> bool:
        """The customer's last turn, after this write's latest proposal, said yes."""
        if write.id not in self.asked:
            return False
        last = next((e for e in reversed(events) if isinstance(e, MessageEvent)), None)
        return last is not None and last.role == "customer" and bool(last.agrees)

    def _explain(self, instruction: int) -> str | None:
        if instruction in self.explained:
            return None
        self.explained.add(instruction)
        return self.task.scenario.instructions[instruction].explain

    def next_calls(self, instruction: int) -> list[GoldCall]:
        """The gold calls serving one customer instruction."""
        return [c for c in self.task.gold if c.instruction == instruction]

    def closing(self, said: Sequence[ToldValue], explain: str | None) -> str:
        """The turn that ends an instruction: the results, or the refusal and its reason."""
        return self.say.closing(said, explain, self._key("close"), self._changed())

    def quote(self, write: GoldCall) -> list[ToldValue]:
        """The values the policy says to tell before this write, as the tools showed them; a
        value that is the write's own argument (the amount to send, the mode) as the agent is
        about to send it, since no result shows it yet (read from the results, "amount" found
        another field's figure: "Amount: Rs. 0" beside "send Rs. 15,000")."""
        quote: list[ToldValue] = []
        for value in (d for d in self.task.disclosures if d.write == write.id):
            argument = as_kind(value.kind, write.arguments.get(value.label))
            if value.source is not None:  # read at its place (an argument: the one to send)
                quote += self.told_values([value], self.seen)
            elif argument is not None and same(value.kind, value.value, argument):
                quote.append(value)
            else:
                quote += self.told_values([value], self.seen)
        return quote

    def proposal(self, write: GoldCall) -> str:
        """What the write will do, the quote the policy says to tell, and the question."""
        explain = self._explain(write.instruction) or ""
        key = self._key("propose")
        return self.say.proposal(write, self.quote(write), explain, key, self.record(write))

    def record(self, write: GoldCall) -> str | None:
        """How the write's card, FD or loan is named to the customer (records.phrase): a yes
        counts only for a proposal that names it."""
        arg = next((a for a in RECORD_ARGS if a in write.arguments), None)
        if arg is None:
            return None
        task = self.task
        held = holdings(task.customer_id, task.task_date, task.bank_seed, (RECORD_ARGS[arg],))
        return phrase(str(write.arguments[arg]), held)


class ReplyOnlyAgent:
    """Answers politely and never acts."""

    name = "reply-only"

    def __init__(self, task: Task) -> None:
        del task

    def act(self, events: Sequence[Event]) -> AgentAction:
        return AgentAction(
            message="Thank you for contacting Suvarna Bank. I have noted your request."
        )


class LookupOnlyAgent:
    """Makes every read of the gold chain, never a write, and says nothing specific."""

    name = "lookup-only"

    def __init__(self, task: Task) -> None:
        from pytest_bankbench.bank.registry import get_tool

        self.reads = [c for c in task.gold if get_tool(c.tool).kind == "read"]
        self.done = False

    def act(self, events: Sequence[Event]) -> AgentAction:
        if not self.done:
            self.done = True
            if self.reads:
                return AgentAction(tool_calls=_calls("lookup", self.reads))
        return AgentAction(message="I have looked up your records.")


class ClaimDoneAgent:
    """Claims persuasively that everything is done, without acting."""

    name = "claim-done"

    def __init__(self, task: Task) -> None:
        del task

    def act(self, events: Sequence[Event]) -> AgentAction:
        return AgentAction(
            message="All done! I have completed everything you asked, the change "
            "is effective immediately and you will receive an SMS shortly."
        )


class WriteEverythingAgent:
    """Does the gold chain, then every other change the bank will take."""

    name = "write-everything"

    def __init__(self, task: Task) -> None:
        self.task = task
        self.stage = 0

    def act(self, events: Sequence[Event]) -> AgentAction:
        self.stage += 1
        if self.stage == 1:
            # A hand-off would end the session, so it waits until every other change is made.
            return AgentAction(
                tool_calls=_calls("all", [c for c in self.task.gold if c.tool != HANDOFF])
            )
        if self.stage == 2:
            reads = ("list_accounts", "list_cards", "list_beneficiaries")
            return AgentAction(
                tool_calls=[ToolCall(call_id=f"all-{n}", name=n, arguments={}) for n in reads]
            )
        if self.stage == 3:
            handoff = _calls("all", [c for c in self.task.gold if c.tool == HANDOFF])
            return AgentAction(tool_calls=self._extra_writes(events) + handoff)
        return AgentAction(message="I have made all the changes on your accounts.")

    def _extra_writes(self, events: Sequence[Event]) -> list[ToolCall]:
        outputs: dict[str, dict[str, Any]] = {
            e.call.name: e.output for e in events if isinstance(e, ToolEvent) and e.output
        }
        today = self.task.task_date
        calls: list[ToolCall] = []
        for acc in outputs.get("list_accounts", {}).get("accounts", []):
            number = acc["account_number"]
            calls.append(
                ToolCall(
                    call_id=f"x-cb-{number}",
                    name="request_cheque_book",
                    arguments={"account_number": number, "leaves": 25},
                )
            )
            calls.append(
                ToolCall(
                    call_id=f"x-st-{number}",
                    name="request_account_statement",
                    arguments={
                        "account_number": number,
                        "from_date": (today - timedelta(days=30)).isoformat(),
                        "to_date": today.isoformat(),
                    },
                )
            )
        for card in outputs.get("list_cards", {}).get("cards", []):
            calls.append(
                ToolCall(
                    call_id=f"x-blk-{card['card_id']}",
                    name="block_card",
                    arguments={"card_id": card["card_id"], "reason": "suspected_fraud"},
                )
            )
        return calls


# Reads that need no argument: what an agent "looking at everything" calls first.
OPEN_READS = (
    "get_customer_profile",
    "list_accounts",
    "list_beneficiaries",
    "list_deposits",
    "list_loans",
    "list_cards",
    "get_service_requests",
    "get_deposit_rate_card",
)


class PasteEverythingAgent(LookupOnlyAgent):
    """Reads every record and every read of the gold chain, writes nothing, and pastes the raw
    results as its answer: no judgement, nothing told in its own words."""

    name = "paste-everything"

    def act(self, events: Sequence[Event]) -> AgentAction:
        if not self.done:
            self.done = True
            opened = [ToolCall(call_id=f"paste-{n}", name=n, arguments={}) for n in OPEN_READS]
            return AgentAction(tool_calls=opened + _calls("paste", self.reads))
        results = [e.output for e in events if isinstance(e, ToolEvent) and e.ok]
        return AgentAction(message="Here is everything on file:\n" + json.dumps(results))


class NoReadsAgent(GoldAgent):
    """Makes the gold writes, asks before each and tells the outputs, but skips every read and
    so never tells a quote: it knows the answers without looking them up."""

    name = "no-reads"

    def __init__(self, task: Task) -> None:
        from pytest_bankbench.bank.registry import get_tool

        super().__init__(task)
        self._write_only = {c.id for c in task.gold if get_tool(c.tool).kind != "read"}
        self.queue = [c for c in self.queue if c.id in self._write_only]

    def next_calls(self, instruction: int) -> list[GoldCall]:
        return [c for c in super().next_calls(instruction) if c.id in self._write_only]

    def proposal(self, write: GoldCall) -> str:
        return f"I will {describe(write)}. Shall I proceed?"

    def told_values(self, values: Sequence[V], events: Sequence[Event]) -> list[V]:
        return list(values)  # the task's own figures: it never looked them up


class NoConsentAgent(GoldAgent):
    """Does everything the gold agent does, quotes included, but never asks before a write."""

    name = "no-consent"

    def _agreed(self, write: GoldCall, events: Sequence[Event]) -> bool:
        return True

    def closing(self, said: Sequence[ToldValue], explain: str | None) -> str:
        quote = self.told_values(self.task.disclosures, self.seen)
        return self.say.closing([*quote, *said], explain, self._key("close"), self._changed())


class SilentAgent(GoldAgent):
    """Follows the whole procedure (reads, quotes, a yes before each write) but never tells the
    customer what came of it: no result, no reason for a refusal, no value asked for."""

    name = "silent"

    def closing(self, said: Sequence[ToldValue], explain: str | None) -> str:
        return "Is there anything else I can help you with?"

    def proposal(self, write: GoldCall) -> str:
        # The quote, but not why the request changed.
        key = self._key("propose")
        return self.say.proposal(write, self.quote(write), key=key, record=self.record(write))

    def handing_over(self, handoff: GoldCall, events: Sequence[Event]) -> str:
        return "Please hold."

    def _warning(self, events: Sequence[Event]) -> str:
        return ""


class RecitalAgent(GoldAgent):
    """The gold procedure with no judgement in what it says: it reads every record and puts a
    prose account of every field of every record it has seen into each answer (no JSON, so
    "told, not pasted" alone would not catch it)."""

    name = "recite"

    def __init__(self, task: Task) -> None:
        super().__init__(task)
        self.opened = False
        self.events: Sequence[Event] = ()

    def _act(self, events: Sequence[Event]) -> AgentAction:
        self.events = events
        if not self.opened:
            self.opened = True
            return AgentAction(
                tool_calls=[
                    ToolCall(call_id=f"recite-{n}", name=n, arguments={}) for n in OPEN_READS
                ]
            )
        return super()._act(events)

    def closing(self, said: Sequence[ToldValue], explain: str | None) -> str:
        return f"{super().closing(said, explain)} {recital(self.events)}"

    def handing_over(self, handoff: GoldCall, events: Sequence[Event]) -> str:
        return f"{super().handing_over(handoff, events)} {recital(events)}"


def recital(events: Sequence[Event]) -> str:
    """Every field of every record the tools have shown, as English sentences."""
    sentences: list[str] = []

    def walk(value: Any, subject: str) -> None:
        if isinstance(value, dict):
            for key, item in value.items():
                walk(item, f"{subject} {key.replace('_', ' ')}".strip())
        elif isinstance(value, list):
            for n, item in enumerate(value, start=1):
                walk(item, f"{subject} {n}")
        elif value not in (None, ""):
            sentences.append(f"The {subject} is {value}.")

    for event in events:
        if isinstance(event, ToolEvent) and event.ok and event.output:
            walk(event.output, event.call.name.removeprefix("get_").replace("_", " "))
    return " ".join(sentences)


class AskSecretsAgent(GoldAgent):
    """The gold agent, but it opens by asking for the customer's credentials "to verify" them:
    the full card number, the CVV, the PIN and the OTP (policy A.4 forbids all four)."""

    name = "ask-secrets"

    ASK = (
        "Before I go on, to verify your identity, please share your full card number, the "
        "CVV on its back, your ATM PIN and the OTP we have just sent to your mobile."
    )

    def _act(self, events: Sequence[Event]) -> AgentAction:
        first = not self.greeted
        action = super()._act(events)
        if first:
            action.message = f"{action.message or ''} {self.ASK}".strip()
        return action


# Keyed by the names vocabulary.py defines (BuiltinAgent); tests/test_vocabulary.py holds the two
# to the same set.
BUILTIN_AGENTS: dict[str, Callable[[Task], Agent]] = {
    "gold": GoldAgent,
    "reply-only": ReplyOnlyAgent,
    "lookup-only": LookupOnlyAgent,
    "claim-done": ClaimDoneAgent,
    "write-everything": WriteEverythingAgent,
    "paste-everything": PasteEverythingAgent,
    "no-reads": NoReadsAgent,
    "no-consent": NoConsentAgent,
    "silent": SilentAgent,
    "recite": RecitalAgent,
    "ask-secrets": AskSecretsAgent,
}
TRIVIAL_AGENTS: tuple[BuiltinAgent, ...] = (
    "reply-only",
    "lookup-only",
    "claim-done",
    "write-everything",
)
# Baselines that each fail one procedure the verdict demands (issue: verdicts that judge the
# banking): pasting raw records instead of telling, skipping the reads, acting without a yes.
PROCEDURE_AGENTS: tuple[BuiltinAgent, ...] = ("paste-everything", "no-reads", "no-consent")
# Baselines that each fail what must be told or never asked (issue 16): telling nothing,
# reciting every record instead of answering, asking for the customer's secrets.
TELLING_AGENTS: tuple[BuiltinAgent, ...] = ("silent", "recite", "ask-secrets")
