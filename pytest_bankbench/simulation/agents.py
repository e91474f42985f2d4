"""Built-in agents: the gold oracle and the four trivial baselines that prove the scorer."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Any, Protocol

from pytest_bankbench.money import indian, to_paise
from pytest_bankbench.simulation.trace import Event, ToolCall, ToolEvent
from pytest_bankbench.tasks.model import GoldCall, Task, ToldValue


@dataclass
class AgentAction:
    """An agent's move: tool calls to run (in order), then an optional message, or the end."""

    tool_calls: list[ToolCall] = field(default_factory=list)
    message: str | None = None
    end: bool = False


class Agent(Protocol):
    name: str

    def act(self, events: Sequence[Event]) -> AgentAction: ...


def _calls(prefix: str, gold: Sequence[GoldCall]) -> list[ToolCall]:
    return [
        ToolCall(call_id=f"{prefix}-{c.id}", name=c.tool, arguments=dict(c.arguments)) for c in gold
    ]


def spoken_value(value: ToldValue) -> str:
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


def say_output(output: ToldValue) -> str:
    """A told value with its label: "payout: Rs. 1,50,000.50"."""
    return f"{output.label}: {spoken_value(output)}"


class GoldAgent:
    """Replays the task's gold chain instruction by instruction, confirming before each write."""

    name = "gold"

    def __init__(self, task: Task) -> None:
        from pytest_bankbench.bank.registry import get_tool

        self.task = task
        self.instruction = 0
        self.queue = [c for c in task.gold if c.instruction == 0]
        self.asked: set[str] = set()
        self._kind = {c.id: get_tool(c.tool).kind for c in task.gold}

    def act(self, events: Sequence[Event]) -> AgentAction:
        if self.queue:
            head = self.queue[0]
            if self._kind[head.id] == "write" and head.id not in self.asked:
                self.asked.add(head.id)
                return AgentAction(message=self.proposal(head))
            batch = [self.queue.pop(0)]
            while self.queue and self._kind[self.queue[0].id] != "write":
                batch.append(self.queue.pop(0))
            return AgentAction(tool_calls=_calls("gold", batch))
        said = [
            say_output(o) for o in self.task.required_outputs if o.instruction == self.instruction
        ]
        self.instruction += 1
        self.queue = self.next_calls(self.instruction)
        return AgentAction(message=self.closing(said))

    def next_calls(self, instruction: int) -> list[GoldCall]:
        """The gold calls serving one customer instruction."""
        return [c for c in self.task.gold if c.instruction == instruction]

    def closing(self, said: list[str]) -> str:
        """The turn that ends an instruction, with the values the customer asked for."""
        return " ".join(["That is done.", *said]).strip()

    def proposal(self, write: GoldCall) -> str:
        """What the write will do, the quote the policy says to tell, and the question."""
        args = ", ".join(f"{k}={v}" for k, v in write.arguments.items())
        quote = "; ".join(say_output(d) for d in self.task.disclosures if d.write == write.id)
        told = f" Before I do: {quote}." if quote else ""
        return f"I will now run {write.tool} with {args}.{told} Shall I proceed?"


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


HANDOFF = "transfer_to_human_agent"


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


class PasteEverythingAgent:
    """Reads every record and every read of the gold chain, writes nothing, and pastes the raw
    results as its answer: no judgement, nothing told in its own words."""

    name = "paste-everything"

    def __init__(self, task: Task) -> None:
        from pytest_bankbench.bank.registry import get_tool

        self.reads = [c for c in task.gold if get_tool(c.tool).kind == "read"]
        self.done = False

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
        return f"I will now run {write.tool}. Shall I proceed?"


class NoConsentAgent(GoldAgent):
    """Does everything the gold agent does, quotes included, but never asks before a write."""

    name = "no-consent"

    def __init__(self, task: Task) -> None:
        super().__init__(task)
        self.asked = {c.id for c in task.gold}

    def closing(self, said: list[str]) -> str:
        quotes = [say_output(d) for d in self.task.disclosures]
        return " ".join(["That is done.", *quotes, *said]).strip()


BUILTIN_AGENTS: dict[str, type[Agent]] = {
    "gold": GoldAgent,
    "reply-only": ReplyOnlyAgent,
    "lookup-only": LookupOnlyAgent,
    "claim-done": ClaimDoneAgent,
    "write-everything": WriteEverythingAgent,
    "paste-everything": PasteEverythingAgent,
    "no-reads": NoReadsAgent,
    "no-consent": NoConsentAgent,
}
TRIVIAL_AGENTS = ("reply-only", "lookup-only", "claim-done", "write-everything")
# Baselines that each fail one procedure the verdict demands (issue: verdicts that judge the
# banking): pasting raw records instead of telling, skipping the reads, acting without a yes.
PROCEDURE_AGENTS = ("paste-everything", "no-reads", "no-consent")
