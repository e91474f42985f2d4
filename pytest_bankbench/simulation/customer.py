"""The scripted customer: deterministic, no model; it reads each agent turn as dialogue acts.

Each turn is read by simulation/acts.py. A question gets the facts it is about; a request for
consent gets the task's scripted answer (yes, the scripted refusal, or the one-time correction);
an offer the script does not contain is declined; progress ("let me check") is waited for; a
completion or "anything else?" brings the next request, or the end when none is left; a
refusal is accepted and followed by what the script has for that case. A turn it cannot read
gets a neutral prompt to go on, never an ending. Facts that depend on the agent's reasoning
are released only once the agent has stated the constraint, and the customer never says an
internal record id its own request does not name.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Protocol

from pytest_bankbench.concepts import says, vocabulary
from pytest_bankbench.periods import period_days
from pytest_bankbench.records import (
    RECORD_ARGS,
    RECORD_KINDS,
    Holding,
    RecordKind,
    holdings,
    named_in,
    names_another,
    own_records,
)
from pytest_bankbench.simulation.acts import Reading, actions_of, read
from pytest_bankbench.simulation.acts_rules import INTERNAL_ID, TOOL_ACTIONS
from pytest_bankbench.simulation.heard import heard, named, was_said
from pytest_bankbench.tasks.model import Fact, Instruction, Scenario, Task, Topic

YES = "Yes, please go ahead."
NO_PROGRESS_LIMIT = 6
# What the customer says beside its script. None opens with "ok" or "sure": read as text (an
# LLM customer's turn is), those would count as a yes.
NO_THANKS = "No, thank you, I don't need that."
PLEASE_DO = "Yes, please."  # to an offer to look something up: not a yes to a change
NOTHING_MORE = "I've told you all I know about that. As I said: {request}"
GO_ON = "Thanks. Please go on."
WAITING = "Thanks, I'll wait."
HOLDING = "Thank you, I'll wait to be connected."
UNDERSTOOD = "I see, thank you for explaining."
NOT_WHAT_I_ASKED = "No, that's not what I asked for."
# Stop reasons.
ALL_DONE = "all instructions done"
NO_PROGRESS = "no progress"
HANDED_OVER = "the agent handed over"

_IDS = re.compile(INTERNAL_ID, re.IGNORECASE)
# "If you can't, tell me why ..." in a request: what the customer asks once it is refused.
_FALLBACK_ASK = re.compile(r"\bif [^,.?]+,\s*(?:then\s+|just\s+)*([^.?]+[.?]?)", re.IGNORECASE)
# "If you can't, tell me why." asks for nothing more once the refusal gave its reason.
_WHY_ONLY = re.compile(r"^(tell me |let me know |explain )?why\W*$", re.IGNORECASE)
_REASON = re.compile(
    r"\b(because|since|as|due to|given that|per (the|our)|under (the|our))\b|[:—–]"
    r"|\b(policy|rules?|lien|lock-?in|dormant|frozen|insufficient|limit|maximum|minimum)\b",
    re.IGNORECASE,
)


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


def _with(text: str, volunteered: str | None) -> str:
    return f"{text} {volunteered}" if volunteered else text


def opening(scenario: Scenario) -> str:
    """The scripted customer's first message (with a secret its script offers unprompted)."""
    return _with(scenario.first_message, scenario.instructions[0].volunteers)


# Proposals whose amount and term are the customer's choice (a transfer, a payment, a new
# deposit), where naming another one is a different instruction.
_CHOSEN_AMOUNT = frozenset({"transfer", "pay", "prepay", "deposit_open", "payee"})


@lru_cache(maxsize=256)
def _acted_on(actions: frozenset[str]) -> tuple[RecordKind, ...]:
    """The kinds of record (card, FD, loan) the writes of these actions act on."""
    from pytest_bankbench.bank.registry import get_tool

    kinds = {
        RECORD_ARGS[arg]
        for tool, named_actions in TOOL_ACTIONS.items()
        if actions & set(named_actions)
        for arg in get_tool(tool).arguments.model_fields
        if arg in RECORD_ARGS
    }
    return tuple(k for k in RECORD_KINDS if k in kinds)


def _changes_per_instruction(task: Task) -> list[tuple[str, ...]]:
    """The tools of the changes and hand-offs each request needs (to hear each reported)."""
    from pytest_bankbench.bank.registry import get_tool

    needs: list[list[str]] = [[] for _ in task.scenario.instructions]
    for call in task.gold:
        if get_tool(call.tool).kind in ("write", "human"):
            needs[call.instruction].append(call.tool)
    return [tuple(n) for n in needs]


def _is_write(tool: str) -> bool:
    from pytest_bankbench.bank.registry import get_tool

    return get_tool(tool).kind == "write"


class ScriptedCustomer:
    """Reads each agent turn as dialogue acts and answers from the task's script."""

    name = "scripted"

    def __init__(self, task: Task) -> None:
        scenario = task.scenario
        self.scenario = scenario
        self.instructions: tuple[Instruction, ...] = scenario.instructions
        own = " ".join([scenario.first_message, *(i.text for i in self.instructions)])
        self.allowed_ids = frozenset(i.upper() for i in _IDS.findall(own))
        self.facts = [f for f in scenario.structured_facts() if self.speakable(f.text)]
        self.released: set[int] = set()
        script = [own, *(f.text for f in self.facts)]
        script += [k for i in self.instructions for k in i.accepts]
        # The cards, FDs and loans it means (read when a proposal acts on one): a proposal
        # naming only another is not its own.
        self.task = task
        self.script = script
        self._own: tuple[tuple[Holding, ...], frozenset[str]] | None = None
        # The changes the customer asked for: a proposal of anything else is an offer.
        gold = {a for call in task.gold for a in TOOL_ACTIONS.get(call.tool, ())}
        self.scope = (actions_of(" ".join(script)) | gold) - {"look"}
        # The changes each request needs a yes for: until then a report is not the end of it.
        # A request of several changes ends when each has been reported (or after one "please
        # go on" to a report that names none of the rest): "the payee is added" is not the
        # transfer the customer agreed to as well.
        self.needs = _changes_per_instruction(task)
        self.writes = [sum(_is_write(t) for t in tools) for tools in self.needs]
        self.reported: set[str] = set()
        self.nudged = False
        self.current = 0
        self.yes = 0
        self.consents = 0
        self.followed_up = False
        self.idle = 0
        self.handoffs = 0
        self.transcript = " "
        self.agent_turns: list[str] = []
        self.volunteering = ""  # said after the guard: a secret the customer offers on purpose
        self.volunteered = ""  # what the last turn volunteered (the LLM customer keeps it too)
        self.last_proposal = ""
        self.agreed: list[str] = []
        self.reading: Reading = read("")

    def own_records(self) -> tuple[tuple[Holding, ...], frozenset[str]]:
        """The customer's cards, FDs and loans, and those it means (its task's and its words')."""
        if self._own is None:
            task = self.task
            held = holdings(task.customer_id, task.task_date, task.bank_seed)
            keys = [str(v) for g in task.gold for a, v in g.arguments.items() if a in RECORD_ARGS]
            self._own = (held, own_records(keys, self.script, held))
        return self._own

    # -- what the customer may say ---------------------------------------------------------------
    def speakable(self, text: str) -> bool:
        """No internal id its own request does not name, and nothing the scenario keeps back."""
        ids = {i.upper() for i in _IDS.findall(text)}
        return ids <= self.allowed_ids and not any(w in text for w in self.scenario.withheld)

    def guard(self, text: str) -> str:
        """The text without any sentence that is not speakable."""
        kept = [s for s in re.split(r"(?<=[.!?])\s+", text.strip()) if self.speakable(s)]
        return " ".join(kept) or GO_ON

    def ready(self, fact: Fact) -> bool:
        """The fact's constraint, if any, has been stated by the agent: an `after` entry that
        names a concept of the shared vocabulary (concepts.py) is stated when an agent turn says
        it, un-negated, in any words ("pledged as collateral" states `lien`); any other entry
        is a phrase the agent must have said."""
        known = vocabulary()
        return not fact.after or any(
            any(says(p, turn) for turn in self.agent_turns)
            if p in known
            else was_said(p, self.transcript)
            for p in fact.after
        )

    def ready_facts(self) -> list[str]:
        """Every fact the customer may tell now (released or not)."""
        return [f.text for f in self.facts if self.ready(f)]

    @property
    def request(self) -> Instruction:
        return self.instructions[min(self.current, len(self.instructions) - 1)]

    # -- the turn ----------------------------------------------------------------------------------
    def open(self) -> str:
        return opening(self.scenario)

    def respond(self, agent_text: str) -> CustomerTurn:
        self.transcript += heard(agent_text)
        self.agent_turns.append(agent_text)
        self.reading = read(agent_text)
        turn = self._answer(self.reading, agent_text)
        if not isinstance(turn, Say):
            return turn
        # A volunteered secret is the scenario's point (policy A.4), so the guard keeps it.
        self.volunteered, self.volunteering = self.volunteering, ""
        return Say(_with(self.guard(turn.text), self.volunteered), turn.agrees)

    def _answer(self, reading: Reading, text: str) -> CustomerTurn:
        if reading.proposes:
            return self._consent(reading, text)
        if reading.has("ask"):
            facts = self._release(reading.topics)
            if reading.has("refuse"):
                facts += self._fallbacks()
            if facts:
                return self._progress(" ".join(facts))
            return self._idle(NOTHING_MORE.format(request=self.request.text))
        if reading.has("handoff"):
            self.handoffs += 1
            return Stop(HANDED_OVER) if self.handoffs > 1 else self._idle(HOLDING)
        if reading.has("refuse"):
            return self._refused(reading)
        if reading.has("wait"):
            return self._idle(WAITING)
        if reading.has("more"):
            return self._next()
        if reading.has("done") and self._agreed_enough():
            if self._all_reported(text) or self.nudged:
                return self._next()
            self.nudged = True  # "Seema has been added" when the transfer is still to come
            return self._idle(GO_ON)
        if reading.has("invite"):
            return self._idle(self.request.text)
        return self._idle(GO_ON)

    def _takes_the_banks_figure(self) -> bool:
        """A fallback about the amount that names none ("Then pay the whole outstanding"), now
        that its rule was stated: the amount the agent then proposes is the bank's figure (third
        independent careful agent: "pay the whole outstanding, Rs 5,259?" was corrected)."""
        return any(
            f.after and "amount" in f.about and self.ready(f) and not named(f.text)["amount"]
            for f in self.facts
        )

    def _all_reported(self, text: str) -> bool:
        """Every change and hand-off of a request of several has now been reported: a report
        names one of each one's actions ("added as a payee", "sent by NEFT", "blocked")."""
        needs = self.needs[min(self.current, len(self.needs) - 1)]
        said = actions_of(text)
        self.reported.update(t for t in needs if said & set(TOOL_ACTIONS.get(t, ())))
        return len(needs) < 2 or set(needs) <= self.reported

    def _agreed_enough(self) -> bool:
        """A report ends a request once the customer has said yes to each change it needs; before
        that, "the payout would be Rs. 1,20,000" is a quote, not the end."""
        return self.yes >= self.writes[min(self.current, len(self.writes) - 1)]

    def _consent(self, reading: Reading, text: str) -> CustomerTurn:
        facts = self._release(reading.topics) if reading.has("ask") else []
        if reading.has("refuse"):
            facts += self._fallbacks()
        request = self.request
        changes = reading.actions - {"look"}
        lowered = text.lower()
        if any(word.lower() in lowered for word in request.accepts):
            # An alternative the customer takes ("the whole outstanding"): its amount is the
            # bank's figure, so only the account and the mode are held to the script.
            return self._agree(facts, text, amounts=False)
        if reading.actions and not changes:
            return self._reply([*facts, PLEASE_DO], False, text)
        asked_for = bool(changes & self.scope) if changes else reading.has("confirm")
        if not asked_for:
            if reading.has("refuse") and not facts and self.current + 1 < len(self.instructions):
                # "I can't close it; shall I connect you to a colleague?": the request is over,
                # and the customer still has its next one (issue 16).
                return self._next(NO_THANKS)
            return self._reply([*facts, NO_THANKS], False, text)
        self.consents += 1
        if self.consents == 1 and request.correction:
            return self._reply([*facts, request.correction], False, text)
        if request.decline:
            return self._reply([*facts, request.decline], False, text)
        return self._agree(facts, text)

    def _agree(self, facts: list[str], text: str, amounts: bool = True) -> CustomerTurn:
        wrong = self._unscripted(text, amounts)
        if wrong:  # never a yes to another account, mode, amount or term than its own
            return self._reply([*facts, NOT_WHAT_I_ASKED, *wrong], False, text)
        self.yes += 1
        self.agreed.append(text)  # what it said yes to stays acceptable when proposed again
        return self._reply([*facts, YES], True, text)

    def _unscripted(self, proposal: str, amounts: bool = True) -> list[str]:
        """Where a proposal names an account, card, FD or loan, mode, amount, day count or
        statement period the script does not (its requests, the facts it may tell now, what it
        accepts, what it agreed to): the
        script's texts that name the customer's own, to restate. Empty when it names the
        script's or none."""
        changes = self.reading.actions - {"look"}
        # A closure pays out to the deposit's linked account ("credited to ****0639"): the
        # bank's record, not the customer's choice, so only another mode is held against it.
        kinds = ["mode"] if changes == {"deposit_close"} else ["account", "mode"]
        chosen = changes & _CHOSEN_AMOUNT
        if changes & {"foreclose", "cheque_stop"}:
            # "foreclose the loan, paid from ****2424", "stop payment of cheque 507010 (fee Rs
            # 100)": the sum is the bank's, not a payment of the customer's choosing.
            chosen -= {"pay"}
        if amounts and chosen and not self._takes_the_banks_figure():
            kinds += ["amount", "days"]  # a payout or a quote is the bank's figure
        said = named(proposal)
        texts = [*(i.text for i in self.instructions), *self.ready_facts(), *self.agreed]
        texts += [k for i in self.instructions for k in i.accepts]
        texts += [i.correction for i in self.instructions if i.correction]
        own = [named(t) for t in texts]
        wrong: list[str] = []
        acted_on = _acted_on(changes)
        held, means = self.own_records() if acted_on else ((), frozenset())
        other = names_another(proposal, held, means, acted_on) if acted_on else None
        if other is not None:  # "your FD ending 1217" when it means the one of Rs. 31,000
            wrong += [t for t in texts if named_in([t], held, other) & means][:1]
            wrong += [] if wrong else [self.request.text]
        if "statement" in changes:  # a statement's period is every date it names (issue 16)
            day = self.task.task_date
            asked, periods = period_days(proposal, day), [period_days(t, day) for t in texts]
            if asked and any(periods) and not asked <= set().union(*periods):
                wrong += [t for t, days in zip(texts, periods, strict=True) if days][:1]
        for kind in kinds:
            mine = set().union(*(values[kind] for values in own))
            if said[kind] and mine and not said[kind] & mine:
                wrong += [t for t, values in zip(texts, own, strict=True) if values[kind]][:1]
        return list(dict.fromkeys(wrong)) or ([self.request.text] if wrong else [])

    def _reply(self, parts: list[str], agrees: bool, proposal: str) -> CustomerTurn:
        """An answer to a proposal; the same proposal again is no progress."""
        repeated = heard(proposal) == self.last_proposal
        self.last_proposal = heard(proposal)
        if repeated:
            return self._idle(" ".join(parts), agrees)
        return self._progress(" ".join(parts), agrees)

    def _refused(self, reading: Reading) -> CustomerTurn:
        facts = self._fallbacks()
        if facts:
            return self._progress(" ".join([UNDERSTOOD, *facts]))
        ask = _FALLBACK_ASK.search(self.request.text)
        if ask and _WHY_ONLY.match(ask.group(1).strip()) and self._reasoned(reading):
            ask = None  # it has said why: the customer goes on to its next request
        if ask and not self.followed_up and not reading.has("done"):
            self.followed_up = True
            rest = ask.group(1).strip()
            return self._progress(f"{UNDERSTOOD} Then {rest[:1].lower()}{rest[1:]}")
        return self._next(UNDERSTOOD)

    @staticmethod
    def _reasoned(reading: Reading) -> bool:
        """The refusal comes with its reason ("I can't: it is under lien"), not bare."""
        said = [s for s in reading.sentences if s.acts or len(s.text) > 20]
        return len(said) > 1 or any(_REASON.search(s.text) for s in said)

    def _next(self, prefix: str = "") -> CustomerTurn:
        self.current += 1
        self.yes = self.consents = self.idle = 0
        self.followed_up = self.nudged = False
        self.reported = set()
        if self.current >= len(self.instructions):
            return Stop(ALL_DONE)
        self.volunteering = self.request.volunteers or ""
        return Say(f"{prefix} {self.request.text}".strip(), agrees=False)

    def _progress(self, text: str, agrees: bool = False) -> CustomerTurn:
        self.idle = 0
        return Say(text, agrees=agrees)

    def _idle(self, text: str, agrees: bool = False) -> CustomerTurn:
        self.idle += 1
        if self.idle > NO_PROGRESS_LIMIT:
            return Stop(NO_PROGRESS)
        return Say(text, agrees=agrees)

    # -- facts -------------------------------------------------------------------------------------
    def _take(self, chosen: list[int]) -> list[str]:
        self.released.update(chosen)
        return [self.facts[i].text for i in chosen]

    def _release(self, topics: frozenset[Topic]) -> list[str]:
        """The unreleased facts a question may have: those about its topics, and every fact
        about anything (a plain fact), once their constraints are stated."""
        ready = [i for i, f in enumerate(self.facts) if i not in self.released and self.ready(f)]
        return self._take(
            [i for i in ready if not self.facts[i].about or set(self.facts[i].about) & topics]
        )

    def _fallbacks(self) -> list[str]:
        """After a refusal: the facts its stated constraint releases, and the customer's own
        "if you can't, ..." facts not yet told."""
        return self._take(
            [
                i
                for i, f in enumerate(self.facts)
                if i not in self.released
                and self.ready(f)
                and (f.after or f.text.lower().startswith("if "))
            ]
        )
