"""Mutated sessions of a task, made by small scripted agents playing a modified gold chain.

Every mutant is a real session: a scripted agent plays a list of calls against a freshly seeded
bank with the scripted customer, so each trace, its tool results and its `changes` are real.
The plan a mutant starts from is read off the gold agent's trace (the calls it made, in order),
and it talks like the gold agent: before each write it says what it will do and the values the
policy says are told first (the task's disclosures), then asks; the customer's yes comes next.
This module holds the scripted agent and the plans; the mutations themselves are in
mutations_calls.py (the calls), mutations_told.py (what is told, never asked or done) and
mutation_set.py (the harmless ones, the built-in agents, and the registry MUTATIONS).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from decimal import Decimal
from typing import Any

from pytest_bankbench.bank.facts import shows
from pytest_bankbench.bank.registry import all_tools, get_tool
from pytest_bankbench.bank.store import Bank
from pytest_bankbench.simulation.agents import (
    Agent,
    AgentAction,
    recital,
    say_output,
    spoken_value,
)
from pytest_bankbench.simulation.customer import ScriptedCustomer
from pytest_bankbench.simulation.session import Limits, run_session
from pytest_bankbench.simulation.trace import Event, ToolCall, ToolEvent, Trace
from pytest_bankbench.tasks.model import Disclosure, GoldCall, RequiredOutput, Task, ToldValue
from tests.scoring import speech
from tests.scoring.independent_scorer import told

Lookup = Callable[[Sequence[Event]], list[ToolCall]]
HANDOFF = "transfer_to_human_agent"
TAIL_CAP = 400  # a tail that never reaches a limit still ends
CHECKS = (
    "ended_normally",
    "forbidden_access",
    "no_secrets",
    "required_calls",
    "write_purity",
    "disclosure_consent",
    "final_state",
    "required_outputs",
    "told_customer",
)
# Refusals by a bank rule (an attempted write), as opposed to malformed or unknown calls.
RULE_REFUSALS = ("policy_violation", "insufficient_funds")


@dataclass(frozen=True)
class Step:
    """One planned move: a fixed call, or calls decided from what the agent has seen so far.

    With `confirm` the agent first proposes the call and asks; the proposal tells the gold
    write's disclosures unless `quote` is off, in which case they are told only after the call,
    in the instruction's closing message."""

    call: ToolCall | Lookup
    instruction: int
    confirm: bool = False
    gold_id: str | None = None
    quote: bool = True
    said: ToolCall | None = None  # the call as proposed, when it is sent in another form


@dataclass(frozen=True)
class Expect:
    """What the mutation must do to the verdict (checked against the real scorer)."""

    fails: tuple[str, ...] = ()
    holds: tuple[str, ...] = ()
    passed: bool | None = None
    extra_takes_effect: bool = False  # every call with an `extra-` id must take effect
    refused_by_rule: bool = False  # every call with an `attempt-` id must be refused by a rule


@dataclass(frozen=True)
class Mutant:
    kind: str
    detail: str
    make_agent: Callable[[], Agent]
    limits: Limits = Limits()
    expect: Expect = Expect()


def all_but(*failing: str) -> tuple[str, ...]:
    return tuple(c for c in CHECKS if c not in failing)


def only_fails(check: str, *also: str) -> Expect:
    """`check` fails and every other holds, except `also` (which may go either way)."""
    return Expect(fails=(check,), holds=all_but(check, *also))


# -- the scripted agent ----------------------------------------------------------------------
def say(output: ToldValue, style: str = "indian") -> str:
    """A told value as an agent might say it: amounts and dates in several styles, the rest
    as the gold agent says them."""
    if output.kind == "date" and style == "iso":
        return f"{output.label}: {output.value}"
    if output.kind != "amount":
        return say_output(output)
    value = Decimal(output.value)
    whole, _, frac = f"{value:.2f}".partition(".")
    indian = whole[-3:]
    rest = whole[:-3]
    while rest:
        indian, rest = f"{rest[-2:]},{indian}", rest[:-2]
    western = f"{int(whole):,}"
    text = {
        "indian": f"Rs. {indian}.{frac}",
        "gold": spoken_value(output),
        "rupee": f"₹{indian}.{frac}",
        "international": f"INR {western}.{frac}",
        "plain": f"{whole}.{frac}",
        "bare": f"Rs {value.normalize():f}",
        "lakh": (
            f"{(value / 100_000).normalize():f} lakh"
            if value >= 100_000
            else f"Rs. {indian}.{frac}"
        ),
        "tight": f"Rs.{indian}.{frac}",  # no space after "Rs.", as bank SMSes write it
    }[style]
    return f"{output.label}: {text}"


def disclosures_of(task: Task, gold_id: str | None) -> list[Disclosure]:
    return [d for d in task.disclosures if d.write == gold_id]


@dataclass(frozen=True)
class Talk:
    """What a scripted agent says beside its calls; the defaults say what the gold agent says."""

    results: bool = True  # each write's result, after it
    reasons: bool = True  # each instruction's reason for a refusal or a changed request
    pasted_reasons: bool = False  # each reason only inside a pasted JSON record
    recite: bool = False  # a prose account of every record seen, after each closing
    ask: str = ""  # a request for secrets ("please share your PIN, CVV ...") in the first message
    warn: bool = True  # a volunteered secret is stopped
    bare: bool = False  # a proposal states nothing: "Shall I proceed?"
    # A total said after each proposal's values: "wrong" (a tenth more, and Rs 7: no sum of
    # anything the session gave) or "right" (the amount itself); "" says none.
    total: str = ""


BARE = "Shall I proceed?"


def total_said(kind: str, call: ToolCall) -> str:
    """ "In total, Rs. X will be debited.": the call's amount, or a wrong one (Talk.total)."""
    args = call.arguments or {}
    amount = next(
        (
            Decimal(str(v))
            for n in ("amount", "monthly_instalment", "daily_limit")
            if isinstance(v := args.get(n), int | float) and not isinstance(v, bool) and v > 0
        ),
        None,
    )
    if amount is None:
        return ""
    figure = amount if kind == "right" else (amount * Decimal("1.1")).quantize(Decimal(1)) + 7
    return f"In total, {say(ToldValue(label='total', kind='amount', value=str(figure)))} will be debited."


class ScriptedAgent:
    """Plays its steps instruction by instruction, talking like the gold agent (speech.py).

    Steps with `confirm` are preceded by a proposal stating the call and its quote, which the
    customer agrees to; a hand-off is announced before its call; each instruction closes with
    the results of its writes and the outputs. When a `tail` is given, it is played until the
    session ends (a limit): before a hand-off to a human if the plan has one, otherwise after
    the last closing message, which then ends with a question so that the customer keeps the
    session open.
    """

    def __init__(
        self,
        name: str,
        task: Task,
        steps: Sequence[Step],
        outputs: Callable[[int], list[str]] | None = None,
        tail: Lookup | None = None,
        hang_up: bool = False,
        talk: Talk = Talk(),
    ) -> None:
        self.name = name
        self.talk = talk
        self.task = task
        self.steps = list(steps)
        self.outputs = outputs or (
            lambda i: [say(o) for o in task.required_outputs if o.instruction == i]
        )
        self.tail = tail
        self.hang_up = hang_up
        self._events: Sequence[Event] = ()
        self._reported = 0  # events up to here have had their writes' results told
        self._explained: set[int] = set()
        self._warned: set[int] = set()
        self._script = self._play()

    def act(self, events: Sequence[Event]) -> AgentAction:
        self._events = events
        action = next(self._script, AgentAction(end=True))
        if speech.volunteered_now(self.task, events, self._warned) and self.talk.warn:
            action.message = speech.warned(action.message or "")
        return action

    def _explain(self, instruction: int) -> str:
        if instruction in self._explained or not self.talk.reasons:
            return ""
        self._explained.add(instruction)
        reason = self.task.scenario.instructions[instruction].explain or ""
        if reason and self.talk.pasted_reasons:
            return f"Here is the record: {json.dumps({'reason': reason})}"
        return reason

    def _results(self) -> list[ToldValue]:
        told = speech.results(self._events, self._reported)
        self._reported = len(self._events)
        return told if self.talk.results else []

    def _play(self) -> Iterator[AgentAction]:
        last = len(self.task.scenario.instructions) - 1
        tail_left = self.tail is not None
        opening = speech.opening(self.task)
        if self.talk.ask:
            opening = f"{opening or ''} {self.talk.ask}".strip()
        if opening:
            yield AgentAction(message=opening)
        for instruction in range(last + 1):
            late: list[str] = []  # disclosures told only after their write
            for step in (s for s in self.steps if s.instruction == instruction):
                calls = [step.call] if isinstance(step.call, ToolCall) else step.call(self._events)
                if not calls:
                    continue
                if calls[0].name == HANDOFF:
                    if tail_left:
                        tail_left = False
                        yield from self._tail()
                    yield AgentAction(message=self._handing_over(calls[0]))
                spec = all_tools().get(calls[0].name)
                gold_write = step.gold_id is not None and spec is not None and spec.kind == "write"
                if not step.confirm and gold_write:
                    explain = self._explain(instruction)  # a reason owed before the write
                    if explain:
                        yield AgentAction(message=explain)
                if step.confirm:
                    quote = disclosures_of(self.task, step.gold_id) if step.quote else []
                    # a bare proposal states nothing: the reason waits for the closing
                    explain = "" if self.talk.bare else self._explain(instruction)
                    proposed = step.said or calls[0]
                    said = speech.proposal(proposed, quote, explain, self.task)
                    if self.talk.bare:
                        said = BARE
                    elif self.talk.total:
                        said += " " + total_said(self.talk.total, calls[0])
                    yield AgentAction(message=said)
                    if self.task.scenario.instructions[instruction].correction:
                        # the customer corrects the first proposal: propose again
                        said = (
                            BARE
                            if self.talk.bare
                            else speech.proposal(proposed, quote, task=self.task)
                        )
                        yield AgentAction(message=said)
                    if not step.quote:
                        late += [say_output(d) for d in disclosures_of(self.task, step.gold_id)]
                yield AgentAction(tool_calls=calls)
            if instruction == last and self.hang_up:
                return
            asked = {
                (o.kind, o.value)
                for o in self.task.required_outputs
                if o.instruction == instruction
            }
            results = [r for r in self._results() if (r.kind, r.value) not in asked]
            extra = [*late, *self.outputs(instruction)]
            reason = self._explain(instruction) or None
            if self.talk.results:
                said = speech.closing(results, reason, extra)
            else:  # not even "that is done"
                said = " ".join([reason or "", *extra, "Anything else?"]).strip()
            if self.talk.recite:
                said = f"{said} {recital(self._events)}"
            if instruction == last and tail_left:
                yield AgentAction(message=f"{said} May I also look up one more thing for you?")
                yield from self._tail()
            yield AgentAction(message=said)

    def _handing_over(self, call: ToolCall) -> str:
        since = self._reported if self.talk.results else len(self._events)
        text = speech.handing_over(call, self._events, since)
        self._reported = len(self._events)
        return text

    def _tail(self) -> Iterator[AgentAction]:
        assert self.tail is not None
        for _ in range(TAIL_CAP):
            yield AgentAction(tool_calls=self.tail(self._events))


def run_mutant(task: Task, mutant: Mutant) -> Trace:
    with Bank(task.customer_id, task.task_date, task.bank_seed) as bank:
        return run_session(task, mutant.make_agent(), ScriptedCustomer(task), bank, mutant.limits)


# -- plans -----------------------------------------------------------------------------------
def kind_of(tool: str) -> str:
    return get_tool(tool).kind


def gold_plan(task: Task, gold: Trace) -> list[Step]:
    """The gold agent's calls, in the order it made them, tied back to their gold entries."""
    by_id = {g.id: g for g in task.gold}
    steps = []
    for event in gold.tool_events():
        entry = by_id[event.call.call_id.removeprefix("gold-")]
        steps.append(Step(event.call, entry.instruction, kind_of(entry.tool) == "write", entry.id))
    assert [s.gold_id for s in steps] == [g.id for g in sorted(task.gold, key=_play_order)]
    return steps


def _play_order(g: GoldCall) -> int:
    return g.instruction


def scripted(name: str, task: Task, steps: Sequence[Step], **kw: Any) -> Callable[[], Agent]:
    return lambda: ScriptedAgent(name, task, steps, **kw)


def covers(call: GoldCall, other: GoldCall) -> bool:
    """Would playing `other` also satisfy `call`? (same tool, `call`'s matched arguments equal)"""
    return other.tool == call.tool and all(
        name in other.arguments and other.arguments[name] == call.arguments[name]
        for name in call.match
    )


def unique(task: Task, call: GoldCall) -> bool:
    """No other gold entry would be matched in its place."""
    return not any(covers(call, other) for other in task.gold if other.id != call.id)


def shows_need(task: Task, entry: GoldCall, event: ToolEvent) -> bool:
    """A successful result showing the record and fields of a required fact (tool data)."""
    need = entry.facts
    assert need is not None
    if not event.ok or event.output is None or event.call.arguments is None:
        return False
    return shows(
        get_tool(event.call.name).reveals,
        event.call.arguments,
        event.output,
        task.customer_id,
        need.entity,
        need.key,
        need.fields,
    )


def positions(gold: Trace) -> dict[str, int]:
    """Each gold entry's own call in the gold trace, by position among its tool events."""
    return {e.call.call_id.removeprefix("gold-"): i for i, e in enumerate(gold.tool_events())}


def shown_elsewhere(task: Task, gold: Trace, entry: GoldCall) -> list[int]:
    """Positions of the gold trace's other calls whose results show a fact entry's fact."""
    own = positions(gold)[entry.id]
    return [i for i, e in enumerate(gold.tool_events()) if i != own and shows_need(task, entry, e)]


def still_shown(task: Task, gold: Trace, entry: GoldCall) -> bool | None:
    """With a fact entry's own call gone from the gold chain: False when no other result shows
    the fact, True when one does at an allowed place (after the entry's dependencies, or at a
    write it depends on, and before whatever depends on the entry), None when unsure."""
    places = shown_elsewhere(task, gold, entry)
    if not places:
        return False
    at, events = positions(gold), gold.tool_events()

    def allowed(i: int) -> bool:
        return all(
            i > at[d] or (i == at[d] and events[i].tool_kind == "write") for d in entry.after
        )

    valid = [i for i in places if allowed(i)]
    dependents = [g for g in task.gold if entry.id in g.after]
    if valid and all(at[g.id] > valid[0] for g in dependents):
        return True
    return None


def entry_of(task: Task, gold_id: str | None) -> GoldCall:
    return next(g for g in task.gold if g.id == gold_id)


def make_call(call_id: str, name: str, **arguments: Any) -> ToolCall:
    return ToolCall(call_id=call_id, name=name, arguments=arguments)


def latest(events: Sequence[Event], tool: str) -> dict[str, Any]:
    for event in reversed(events):
        if isinstance(event, ToolEvent) and event.call.name == tool and event.ok:
            assert event.output is not None
            return event.output
    raise AssertionError(f"no successful {tool} call seen")


def gold_values(task: Task) -> set[str]:
    return {str(v) for g in task.gold for v in g.arguments.values()}


def spare_card(task: Task, events: Sequence[Event]) -> str | None:
    """An active card the gold chain does not touch (or any active card)."""
    cards = [c for c in latest(events, "list_cards")["cards"] if c["status"] == "active"]
    spare = [c for c in cards if c["card_id"] not in gold_values(task)] or cards
    return spare[0]["card_id"] if spare else None


def told_values(task: Task) -> list[ToldValue]:
    return [*task.required_outputs, *task.disclosures]


def wordings(value: ToldValue) -> set[str]:
    return {value.value, *value.also}


def said_only_there(task: Task, gold: Trace) -> list[RequiredOutput]:
    """Required outputs no disclosure or other output also tells, nor anything else the agent
    says (a write's result, a refusal's reason, a hand-off's summary): leaving one out bites."""
    handoffs = [e.call for e in gold.tool_events() if e.call.name == HANDOFF]
    elsewhere = [
        speech.said_results(speech.results(gold.events)),
        *(i.explain or "" for i in task.scenario.instructions),
        *(speech.handing_over(call, ()) for call in handoffs),
    ]
    return [
        o
        for o in task.required_outputs
        if not any(wordings(other) & wordings(o) for other in told_values(task) if other is not o)
        and not told(o, elsewhere)
    ]


def cheque_book(call_id: str) -> Lookup:
    def decide(events: Sequence[Event]) -> list[ToolCall]:
        accounts = [
            a for a in latest(events, "list_accounts")["accounts"] if a["status"] == "active"
        ]
        return [
            make_call(
                call_id,
                "request_cheque_book",
                account_number=accounts[0]["account_number"],
                leaves=50,
                delivery="home_branch",
            )
        ]

    return decide


def before_end(plan: list[Step], extra: list[Step]) -> list[Step]:
    """Extra steps at the end of the plan, or just before its hand-off to a human."""
    at = next(
        (i for i, s in enumerate(plan) if isinstance(s.call, ToolCall) and s.call.name == HANDOFF),
        len(plan),
    )
    if at < len(plan):
        extra = [replace(s, instruction=plan[at].instruction) for s in extra]
    return [*plan[:at], *extra, *plan[at:]]


def look_around(instruction: int) -> list[Step]:
    """The reads a rogue agent makes before choosing what to change."""
    return [
        Step(make_call("look-accounts", "list_accounts"), instruction),
        Step(make_call("look-cards", "list_cards"), instruction),
    ]


def has_handoff(task: Task) -> bool:
    return any(g.tool == HANDOFF for g in task.gold)
