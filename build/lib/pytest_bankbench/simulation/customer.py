"""The scripted customer: deterministic, no model; robust rather than clever."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Protocol

from pytest_bankbench.tasks.model import Task

# Phrases that ask the customer something even without a question mark.
_ASKS = re.compile(
    r"\?|\b(please (confirm|share|provide|let me know|tell me)|let me know|could you|can you|"
    r"would you|do you|kindly (confirm|share|provide))\b",
    re.IGNORECASE,
)
_CONFIRMS = re.compile(
    r"\b(confirm|proceed|go ahead|go-ahead|shall i|should i|do you want|would you like|okay to|"
    r"ok to|may i|can i|is (that|this) (ok|okay|fine|correct|right|alright)|do i have your|"
    r"yes or no|agree|reply yes|say yes)\b",
    re.IGNORECASE,
)
YES = "Yes, please go ahead."
NO_PROGRESS_LIMIT = 6


@dataclass(frozen=True)
class Say:
    """The customer's next message; `agrees` when it says yes to what the agent proposed."""

    text: str
    agrees: bool | None = None


@dataclass(frozen=True)
class Stop:
    """The customer ends the conversation (typed; never a magic string)."""

    reason: str


CustomerTurn = Say | Stop


class Customer(Protocol):
    """What the session loop needs of any simulator."""

    name: str

    def open(self) -> str: ...

    def respond(self, agent_text: str) -> CustomerTurn: ...


def asks_question(text: str) -> bool:
    return bool(_ASKS.search(text))


def asks_confirmation(text: str) -> bool:
    return bool(_CONFIRMS.search(text))


class ScriptedCustomer:
    """Reveals facts when asked, confirms or declines as scripted, follows numbered instructions."""

    name = "scripted"

    def __init__(self, task: Task) -> None:
        self.scenario = task.scenario
        self.current = 0
        self.facts_given = False
        self.idle_replies = 0

    def open(self) -> str:
        return self.scenario.first_message

    def respond(self, agent_text: str) -> CustomerTurn:
        # A request for consent is a question however it is punctuated ("Please reply YES").
        if not asks_question(agent_text) and not asks_confirmation(agent_text):
            self.idle_replies = 0
            self.current += 1
            if self.current >= len(self.scenario.instructions):
                return Stop("all instructions done")
            return Say(self.scenario.instructions[self.current].text)
        self.idle_replies += 1
        if self.idle_replies > NO_PROGRESS_LIMIT:
            return Stop("no progress")
        parts: list[str] = []
        if not self.facts_given and self.scenario.facts:
            parts.extend(self.scenario.facts)
            self.facts_given = True
        agrees = False
        if asks_confirmation(agent_text) or not parts:
            decline = self.scenario.instructions[self.current].decline
            parts.append(decline if decline is not None else YES)
            agrees = decline is None
        return Say(" ".join(parts), agrees=agrees)
