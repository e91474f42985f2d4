"""The baselines that prove the scorer: trivial ones, ones that fail a procedure, ones that fail
what must be told or never asked."""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import timedelta
from typing import Any

from pytest_bankbench.simulation.dialogue import (
    describe,
)
from pytest_bankbench.simulation.evidence import V
from pytest_bankbench.simulation.gold_agent import (
    HANDOFF,
    AgentAction,
    GoldAgent,
    _calls,
)
from pytest_bankbench.simulation.trace import Event, ToolCall, ToolEvent
from pytest_bankbench.tasks.model import GoldCall, Task, ToldValue


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
        elif isinstance(value, str) and value.isdigit() and len(value) >= 9:
            # An account by its last four (A.5): the recital fails for reciting, not for this.
            sentences.append(f"The {subject} ends in {value[-4:]}.")
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
