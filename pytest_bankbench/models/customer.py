"""The LLM customer: the scripted customer's script, rules and stop signals, in a model's words.

It keeps a scripted customer beside it as its tracker. Every agent turn goes to the tracker
first: the tracker decides when the conversation ends (all requests done, no progress, a
hand-off), which facts the constraints the agent has stated release, and what the script says
to a proposal; the model is told all of that and words the reply. So an LLM customer ends,
declines and corrects where the scripted one does, and differs only in wording and in how well
it copes with turns the scripted reading gets wrong.
"""

from __future__ import annotations

import re

from pytest_bankbench.models.agent import reply_of
from pytest_bankbench.models.errors import InfraError, ModelFailure
from pytest_bankbench.models.llm import ModelClient
from pytest_bankbench.scoring.consent import reads_as_agreement
from pytest_bankbench.simulation.acts_text import split
from pytest_bankbench.simulation.customer import CustomerTurn, Say, ScriptedCustomer, Stop
from pytest_bankbench.simulation.session import CustomerError
from pytest_bankbench.simulation.trace import Usage
from pytest_bankbench.tasks.model import Instruction, Task

# The model's text protocol; the harness turns it into the typed Stop event.
STOP_TOKEN = "###STOP###"
MODEL_ENDED = "the customer model ended the conversation"
_NO = re.compile(r"\W*(no|nope|don'?t|do not|not|never|nahi|wait|hold on)\b", re.IGNORECASE)

PROMPT = """You are a customer of Suvarna Bank chatting with the bank's virtual assistant.
Stay in character; write short, natural messages (one to three sentences) as this customer would.

Who you are: {persona}

Your situation and goal:
{narrative}

Your requests, in order. Make one at a time; bring the next only when the assistant has finished
the current one (or asks whether there is anything else):
{requests}
You are on request {current} now.

What you know and may tell the assistant, only when it asks about it:
{facts}
Never tell: {withheld}. Never say an internal record id (such as FD000123 or CRD000045);
describe your accounts, cards, deposits and loans as a person would.

Rules:
- Answer only what the assistant asks; do not invent account numbers or other details.
- Say yes only to what your requests need. Decline politely anything else it offers{accepts}.
- Agree only to exactly the action, the account, card, deposit or loan, the amount, the
  transfer mode, the term and the statement period you want. If the assistant proposes another
  account (another number or ending), another of your cards, deposits or loans than the one you
  mean, another amount, mode (NEFT, IMPS, RTGS), number of days or statement period (other
  dates), do not agree: correct it with yours.
- If the assistant refuses with a reason, accept it, and then say what you would like instead
  if the things you know say so. A refusal of one request does not end the chat: then bring
  your next request, if you have one.
- If the assistant says it is still working ("let me check"), just wait.
- When all your requests are done, or the assistant hands you over to a human, reply with
  exactly {stop} and nothing else.

A scripted customer with your script would now say: "{scripted}"
Say that in your own words, unless it plainly misreads the assistant's last message."""


def _says_yes(text: str) -> bool:
    """A yes in some sentence ("Oh, then send it by NEFT. Yes, go ahead.") and no sentence that
    opens with a no."""
    sentences = split(text)
    return any(reads_as_agreement(s) for s in sentences) and not any(
        _NO.match(s) for s in sentences
    )


def _request(number: int, request: Instruction) -> str:
    """One numbered request and what the script says to a request for consent to it."""
    line = f"{number}. {request.text}"
    if request.correction:
        line += f' (When first asked to confirm, say instead: "{request.correction}".)'
    if request.decline:
        line += f' (When asked to confirm, say: "{request.decline}".)'
    if request.volunteers:
        line += f' (When you make this request, also say: "{request.volunteers}".)'
    return line


class LiteLLMCustomer:
    """Plays the scenario through a chat model at temperature 0, on the scripted customer's
    script (see the module docstring)."""

    def __init__(self, client: ModelClient, task: Task) -> None:
        self.client = client
        self.name = f"llm:{client.settings.model}"
        self.scenario = task.scenario
        self.script = ScriptedCustomer(task)
        self.history: list[dict[str, str]] = []

    @property
    def usage(self) -> Usage:
        """The customer model's tokens, cost and latency (kept apart from the agent's)."""
        return self.client.usage

    def start_clock(self) -> None:
        """The session starts: its deadline counts from now."""
        self.client.start_clock()

    def system(self, scripted: str) -> str:
        """The prompt for the next turn: the script, the facts released so far, the stop token."""
        scenario = self.scenario
        accepts = sorted({k for i in scenario.instructions for k in i.accepts})
        return PROMPT.format(
            persona=scenario.persona,
            narrative=scenario.narrative,
            requests="\n".join(_request(n, r) for n, r in enumerate(scenario.instructions, 1)),
            current=min(self.script.current, len(scenario.instructions) - 1) + 1,
            facts="\n".join(f"- {f}" for f in self.script.ready_facts()) or "(nothing more)",
            withheld=" ".join(scenario.withheld) or "(nothing in particular)",
            accepts=f" (you do accept offers to: {', '.join(accepts)})" if accepts else "",
            stop=STOP_TOKEN,
            scripted=scripted,
        )

    def open(self) -> str:
        first = self.script.open()
        self.history.append({"role": "assistant", "content": first})
        return first

    def respond(self, agent_text: str) -> CustomerTurn:
        planned = self.script.respond(agent_text)
        self.history.append({"role": "user", "content": agent_text})
        if isinstance(planned, Stop):  # the same stop signals as the scripted customer
            return planned
        try:
            response = self.client.complete(
                [{"role": "system", "content": self.system(planned.text)}, *self.history]
            )
        except InfraError as exc:
            raise InfraError(f"customer model unavailable: {exc}") from None
        except ModelFailure as exc:  # the customer model's own failure: the simulator's error
            raise CustomerError(f"customer model failed: {exc}") from None
        text = ((response.get("choices") or [{}])[0].get("message") or {}).get("content") or ""
        text = reply_of(text)  # the customer model's reasoning is not said, as the agent's is not
        if STOP_TOKEN in text:
            return Stop(MODEL_ENDED)
        if not text:  # no stop token: no decision to end, a reply the simulator failed to give
            raise CustomerError("customer model failed: an empty reply (no text, no stop token)")
        text = self.script.guard(text)
        offered = self.script.volunteered  # the scenario's secret, word for word (policy A.4)
        if offered and offered not in text:
            text = f"{text} {offered}"
        self.history.append({"role": "assistant", "content": text})
        return Say(text, agrees=self._agrees(text))

    def _agrees(self, text: str) -> bool | None:
        """A yes only where the agent proposed something (the scripted customer's rule); where
        the tracker could not read the turn at all, the scorer reads the text itself."""
        reading = self.script.reading
        if reading.proposes:
            looks_only = bool(reading.actions) and reading.actions <= {"look"}
            return _says_yes(text) and not looks_only
        if not reading.acts - {"greet"}:
            return None
        return False
