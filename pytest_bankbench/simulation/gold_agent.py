"""The agent interface and the gold oracle: the tools of the gold chain, asked before each
write, every required value told."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

from pytest_bankbench.records import RECORD_ARGS, holdings, phrase
from pytest_bankbench.simulation.dialogue import already_told, spoken
from pytest_bankbench.simulation.evidence import V, shown_value
from pytest_bankbench.simulation.phrasings import GOLD_PHRASING, PHRASINGS
from pytest_bankbench.simulation.trace import Event, MessageEvent, ToolCall, ToolEvent
from pytest_bankbench.tasks.model import GoldCall, Task, ToldValue, Topic
from pytest_bankbench.tasks.sources import as_kind, same


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
    "beneficiary_id": "payee id",
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
        opening does not already give (issue 17: no asking for what was just said), never the
        customer's identity where the fact answers another (A.1: the customer is already
        authenticated; careless-agent trial: gold asked for "your registered details")."""
        opening = self.task.scenario.first_message
        facts = self.task.scenario.structured_facts()
        missing = [f for f in facts if not f.after and not already_told(f.text, opening)]
        return list(
            dict.fromkeys(
                next((t for t in f.about if t != "identity"), f.about[0]) if f.about else "other"
                for f in missing
            )
        )

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
