"""The LLM customer: the task's natural-language scenario, with a typed end of conversation."""

from __future__ import annotations

from pytest_bankbench.models.llm import InfraError, ModelClient, ModelFailure
from pytest_bankbench.simulation.customer import CustomerTurn, Say, Stop
from pytest_bankbench.simulation.session import CustomerError, InfraFailure
from pytest_bankbench.tasks.model import Task

# The model's text protocol; the harness turns it into the typed Stop event.
STOP_TOKEN = "###STOP###"

PROMPT = """You are a customer of Suvarna Bank chatting with the bank's virtual assistant.
Stay in character; write short, natural messages as this customer would.

Who you are: {persona}

Your situation and goal:
{narrative}

Things you know and may tell the assistant when it asks: {facts}
Things you must never tell: {withheld}

Rules:
- Ask for one thing at a time, in the order given. Start with: {first}
- Answer the assistant's questions truthfully from what you know; do not invent account numbers.
- Say yes only to what your goal needs; decline anything else.
- When everything you wanted is done (or the assistant has clearly refused it, or handed you to
  a human), reply with exactly {stop} and nothing else.
"""


class LiteLLMCustomer:
    """Plays the scenario through a chat model at temperature 0."""

    def __init__(self, client: ModelClient, task: Task) -> None:
        self.client = client
        self.name = f"llm:{client.settings.model}"
        scenario = task.scenario
        self.system = PROMPT.format(
            persona=scenario.persona,
            narrative=scenario.narrative,
            facts=" ".join(scenario.facts) or "(nothing beyond the above)",
            withheld=" ".join(scenario.withheld) or "(nothing in particular)",
            first=scenario.first_message,
            stop=STOP_TOKEN,
        )
        self.first = scenario.first_message
        self.history: list[dict[str, str]] = []

    def open(self) -> str:
        self.history.append({"role": "assistant", "content": self.first})
        return self.first

    def respond(self, agent_text: str) -> CustomerTurn:
        self.history.append({"role": "user", "content": agent_text})
        try:
            response = self.client.complete(
                [{"role": "system", "content": self.system}, *self.history]
            )
        except InfraError as exc:
            raise InfraFailure(f"customer model unavailable: {exc}") from None
        except ModelFailure as exc:  # the customer model's own failure: the simulator's error
            raise CustomerError(f"customer model failed: {exc}") from None
        text = ((response.get("choices") or [{}])[0].get("message") or {}).get("content") or ""
        text = text.strip()
        if STOP_TOKEN in text or not text:
            return Stop("the customer model ended the conversation")
        self.history.append({"role": "assistant", "content": text})
        return Say(text)
