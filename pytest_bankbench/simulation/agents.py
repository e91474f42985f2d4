"""Built-in agents: the gold oracle and the four trivial baselines that prove the scorer."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import timedelta
from decimal import Decimal
from typing import Any, Protocol

from pytest_bankbench.money import indian, to_paise
from pytest_bankbench.simulation.trace import Event, ToolCall, ToolEvent
from pytest_bankbench.tasks.model import GoldCall, RequiredOutput, Task


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


def say_output(output: RequiredOutput) -> str:
    """A required value as an assistant would say it (Indian format for amounts)."""
    if (
        output.kind == "amount"
        and "." in output.value
        and len(output.value.split(".")[1]) == 2
        and Decimal(output.value) >= 100
    ):
        return f"{output.label}: {indian(to_paise(output.value))}"
    return f"{output.label}: {output.value}"


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
                args = ", ".join(f"{k}={v}" for k, v in head.arguments.items())
                return AgentAction(
                    message=f"I will now run {head.tool} with {args}. Shall I proceed?"
                )
            batch = [self.queue.pop(0)]
            while self.queue and self._kind[self.queue[0].id] != "write":
                batch.append(self.queue.pop(0))
            return AgentAction(tool_calls=_calls("gold", batch))
        said = [
            say_output(o) for o in self.task.required_outputs if o.instruction == self.instruction
        ]
        self.instruction += 1
        self.queue = [c for c in self.task.gold if c.instruction == self.instruction]
        return AgentAction(message=" ".join(["That is done.", *said]).strip())


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


BUILTIN_AGENTS: dict[
    str, type[GoldAgent | ReplyOnlyAgent | LookupOnlyAgent | ClaimDoneAgent | WriteEverythingAgent]
] = {
    "gold": GoldAgent,
    "reply-only": ReplyOnlyAgent,
    "lookup-only": LookupOnlyAgent,
    "claim-done": ClaimDoneAgent,
    "write-everything": WriteEverythingAgent,
}
TRIVIAL_AGENTS = ("reply-only", "lookup-only", "claim-done", "write-everything")
