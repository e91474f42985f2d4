"""Mutated sessions of a task, made by small scripted agents playing a modified gold chain.

Every mutant is a real session: a scripted agent plays a list of calls against a freshly seeded
bank with the scripted customer, so each trace, its tool results and its `changes` are real.
The plan a mutant starts from is read off the gold agent's trace (the calls it made, in order),
and it talks like the gold agent: before each write it says what it will do and the values the
policy says are told first (the task's disclosures), then asks; the customer's yes comes next.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from datetime import date, timedelta
from decimal import Decimal
from typing import Any

from pytest_bankbench.bank.facts import fact_fields, shows
from pytest_bankbench.bank.registry import all_tools, get_tool
from pytest_bankbench.bank.store import Bank
from pytest_bankbench.simulation.agents import (
    BUILTIN_AGENTS,
    Agent,
    AgentAction,
    say_output,
    spoken_value,
)
from pytest_bankbench.simulation.customer import ScriptedCustomer
from pytest_bankbench.simulation.session import Limits, run_session
from pytest_bankbench.simulation.trace import Event, ToolCall, ToolEvent, Trace
from pytest_bankbench.tasks.model import Disclosure, GoldCall, RequiredOutput, Task, ToldValue

Lookup = Callable[[Sequence[Event]], list[ToolCall]]
HANDOFF = "transfer_to_human_agent"
TAIL_CAP = 400  # a tail that never reaches a limit still ends
CHECKS = (
    "ended_normally",
    "required_calls",
    "write_purity",
    "disclosure_consent",
    "final_state",
    "required_outputs",
)
# Refusals by a bank rule (an attempted write), as opposed to malformed or unknown calls.
RULE_REFUSALS = ("policy_violation", "insufficient_funds", "not_authorized")


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


def only_fails(check: str) -> Expect:
    return Expect(fails=(check,), holds=all_but(check))


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


def proposal(task: Task, step: Step, tool: str) -> str:
    """The gold agent's question before a write (without the argument list): what it will do,
    the values the policy says to tell first, and the question."""
    quote = "; ".join(say_output(d) for d in disclosures_of(task, step.gold_id))
    told = f" Before I do: {quote}." if quote and step.quote else ""
    return f"I will now run {tool}.{told} Shall I proceed?"


class ScriptedAgent:
    """Plays its steps instruction by instruction, like the gold agent, then closes each one.

    Steps with `confirm` are preceded by a proposal the customer agrees to. When a `tail` is
    given, it is played until the session ends (a limit): before a hand-off to a human if the
    plan has one, otherwise after the last closing message, which then ends with a question so
    that the customer keeps the session open.
    """

    def __init__(
        self,
        name: str,
        task: Task,
        steps: Sequence[Step],
        outputs: Callable[[int], list[str]] | None = None,
        tail: Lookup | None = None,
        hang_up: bool = False,
    ) -> None:
        self.name = name
        self.task = task
        self.steps = list(steps)
        self.outputs = outputs or (
            lambda i: [say(o) for o in task.required_outputs if o.instruction == i]
        )
        self.tail = tail
        self.hang_up = hang_up
        self._events: Sequence[Event] = ()
        self._script = self._play()

    def act(self, events: Sequence[Event]) -> AgentAction:
        self._events = events
        return next(self._script, AgentAction(end=True))

    def _play(self) -> Iterator[AgentAction]:
        last = len(self.task.scenario.instructions) - 1
        tail_left = self.tail is not None
        for instruction in range(last + 1):
            late: list[str] = []  # disclosures told only after their write
            for step in (s for s in self.steps if s.instruction == instruction):
                calls = [step.call] if isinstance(step.call, ToolCall) else step.call(self._events)
                if not calls:
                    continue
                if tail_left and calls[0].name == HANDOFF:
                    tail_left = False
                    yield from self._tail()
                if step.confirm:
                    yield AgentAction(message=proposal(self.task, step, calls[0].name))
                    if self.task.scenario.instructions[instruction].correction:
                        # the customer corrects the first proposal: propose again
                        yield AgentAction(message=proposal(self.task, step, calls[0].name))
                    if not step.quote:
                        late += [say_output(d) for d in disclosures_of(self.task, step.gold_id)]
                yield AgentAction(tool_calls=calls)
            if instruction == last and self.hang_up:
                return
            said = " ".join(["That is done.", *late, *self.outputs(instruction)])
            if instruction == last and tail_left:
                yield AgentAction(message=f"{said} Let me check one more thing for you.")
                yield from self._tail()
            yield AgentAction(message=said)

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


def _positions(gold: Trace) -> dict[str, int]:
    """Each gold entry's own call in the gold trace, by position among its tool events."""
    return {e.call.call_id.removeprefix("gold-"): i for i, e in enumerate(gold.tool_events())}


def _shown_elsewhere(task: Task, gold: Trace, entry: GoldCall) -> list[int]:
    """Positions of the gold trace's other calls whose results show a fact entry's fact."""
    own = _positions(gold)[entry.id]
    return [i for i, e in enumerate(gold.tool_events()) if i != own and shows_need(task, entry, e)]


def _still_shown(task: Task, gold: Trace, entry: GoldCall) -> bool | None:
    """With a fact entry's own call gone from the gold chain: False when no other result shows
    the fact, True when one does at an allowed place (after the entry's dependencies, or at a
    write it depends on, and before whatever depends on the entry), None when unsure."""
    places = _shown_elsewhere(task, gold, entry)
    if not places:
        return False
    at, events = _positions(gold), gold.tool_events()

    def allowed(i: int) -> bool:
        return all(
            i > at[d] or (i == at[d] and events[i].tool_kind == "write") for d in entry.after
        )

    valid = [i for i in places if allowed(i)]
    dependents = [g for g in task.gold if entry.id in g.after]
    if valid and all(at[g.id] > valid[0] for g in dependents):
        return True
    return None


def _entry(task: Task, gold_id: str | None) -> GoldCall:
    return next(g for g in task.gold if g.id == gold_id)


def _call(call_id: str, name: str, **arguments: Any) -> ToolCall:
    return ToolCall(call_id=call_id, name=name, arguments=arguments)


def _latest(events: Sequence[Event], tool: str) -> dict[str, Any]:
    for event in reversed(events):
        if isinstance(event, ToolEvent) and event.call.name == tool and event.ok:
            assert event.output is not None
            return event.output
    raise AssertionError(f"no successful {tool} call seen")


def _gold_values(task: Task) -> set[str]:
    return {str(v) for g in task.gold for v in g.arguments.values()}


def _spare_card(task: Task, events: Sequence[Event]) -> str | None:
    """An active card the gold chain does not touch (or any active card)."""
    cards = [c for c in _latest(events, "list_cards")["cards"] if c["status"] == "active"]
    spare = [c for c in cards if c["card_id"] not in _gold_values(task)] or cards
    return spare[0]["card_id"] if spare else None


def _told_values(task: Task) -> list[ToldValue]:
    return [*task.required_outputs, *task.disclosures]


def _wordings(value: ToldValue) -> set[str]:
    return {value.value, *value.also}


def _said_only_there(task: Task) -> list[RequiredOutput]:
    """Required outputs no disclosure or other output also tells (leaving one out bites)."""
    return [
        o
        for o in task.required_outputs
        if not any(
            _wordings(other) & _wordings(o) for other in _told_values(task) if other is not o
        )
    ]


# -- mutations -------------------------------------------------------------------------------
def drop_call(task: Task, gold: Trace, kind: str, salt: int = 0) -> Mutant | None:
    """The gold chain with one read (or one write) left out. A required fact another result
    shows at an allowed place is not missed (a write's result included)."""
    plan = gold_plan(task, gold)
    candidates = [s for s in plan if kind_of(_entry(task, s.gold_id).tool) == kind]
    if not candidates:
        return None
    dropped = candidates[salt % len(candidates)]
    entry = _entry(task, dropped.gold_id)
    if entry.facts is None:
        expect = Expect(fails=("required_calls",)) if unique(task, entry) else Expect()
        shown = ""
    else:
        still = _still_shown(task, gold, entry)
        expect = {
            False: Expect(fails=("required_calls",)),
            True: Expect(passed=True),
            None: Expect(),
        }[still]
        shown = {False: "", True: " (shown by another result)", None: " (maybe shown)"}[still]
    return Mutant(
        f"drop_{kind}",
        f"dropped {entry.id} {entry.tool}{shown}",
        scripted(f"drop-{kind}", task, [s for s in plan if s is not dropped]),
        expect=expect,
    )


def _cheque_book(call_id: str) -> Lookup:
    def decide(events: Sequence[Event]) -> list[ToolCall]:
        accounts = [
            a for a in _latest(events, "list_accounts")["accounts"] if a["status"] == "active"
        ]
        return [
            _call(
                call_id,
                "request_cheque_book",
                account_number=accounts[0]["account_number"],
                leaves=50,
                delivery="home_branch",
            )
        ]

    return decide


def _before_end(plan: list[Step], extra: list[Step]) -> list[Step]:
    """Extra steps at the end of the plan, or just before its hand-off to a human."""
    at = next(
        (i for i, s in enumerate(plan) if isinstance(s.call, ToolCall) and s.call.name == HANDOFF),
        len(plan),
    )
    if at < len(plan):
        extra = [replace(s, instruction=plan[at].instruction) for s in extra]
    return [*plan[:at], *extra, *plan[at:]]


def _look_around(instruction: int) -> list[Step]:
    """The reads a rogue agent makes before choosing what to change."""
    return [
        Step(_call("look-accounts", "list_accounts"), instruction),
        Step(_call("look-cards", "list_cards"), instruction),
    ]


def _block_spare_card(task: Task, call_id: str) -> Lookup:
    def decide(events: Sequence[Event]) -> list[ToolCall]:
        card = _spare_card(task, events)
        if card is None:
            return _cheque_book(call_id)(events)
        return [_call(call_id, "block_card", card_id=card, reason="damaged")]

    return decide


# Writes the bank takes twice (the others fail the second time: funds, closed records).
REPEATABLE = (
    "set_card_channel_limit",
    "create_rd",
    "request_cheque_book",
    "request_account_statement",
)


def extra_write(task: Task, gold: Trace, salt: int = 0) -> Mutant:
    """The gold chain plus one unrequested write that takes effect."""
    plan = gold_plan(task, gold)
    last = len(task.scenario.instructions) - 1
    variant = ("cheque_book", "block_card", "repeat")[salt % 3]
    repeatable = [s for s in plan if s.gold_id and _entry(task, s.gold_id).tool in REPEATABLE]
    if variant == "repeat" and repeatable:
        original = repeatable[salt % len(repeatable)]
        assert isinstance(original.call, ToolCall)
        again = Step(
            original.call.model_copy(update={"call_id": "extra-repeat"}), original.instruction
        )
        at = plan.index(original) + 1
        steps = [*plan[:at], again, *plan[at:]]
        detail = f"repeated {original.gold_id} {original.call.name}"
    elif variant == "block_card":
        steps = _before_end(
            plan, [*_look_around(last), Step(_block_spare_card(task, "extra-block"), last)]
        )
        detail = "blocked a card at the end"
    else:
        steps = [
            Step(_call("look-accounts", "list_accounts"), 0),
            Step(_cheque_book("extra-cheque-book"), 0),
            *plan,
        ]
        detail = "requested a cheque book first"
    return Mutant(
        "extra_write",
        detail,
        scripted("extra-write", task, steps),
        expect=Expect(fails=("write_purity",), extra_takes_effect=True),
    )


def extra_write_undone(task: Task, gold: Trace, salt: int = 0) -> Mutant:
    """The gold chain plus an unrequested card-limit change that is then set back."""
    del salt
    plan = gold_plan(task, gold)
    last = len(task.scenario.instructions) - 1
    chosen: dict[str, Any] = {}

    def details(events: Sequence[Event]) -> list[ToolCall]:
        card = _spare_card(task, events)
        if card is None:
            return []
        chosen["card"] = card
        return [_call("look-card", "get_card_details", card_id=card)]

    def change(events: Sequence[Event]) -> list[ToolCall]:
        if "card" not in chosen:  # no active card: an unrequested write without an undo
            return _cheque_book("extra-cheque-book")(events)
        atm = _latest(events, "get_card_details")["controls"]["atm"]
        chosen["enabled"], chosen["limit"] = atm["enabled"], atm["daily_limit"]
        new = 1000 if Decimal(atm["daily_limit"]) != 1000 else 2000
        return [
            _call(
                "extra-limit",
                "set_card_channel_limit",
                card_id=chosen["card"],
                channel="atm",
                enabled=atm["enabled"],
                daily_limit=new,
            )
        ]

    def undo(events: Sequence[Event]) -> list[ToolCall]:
        if "limit" not in chosen:
            return []
        return [
            _call(
                "extra-undo",
                "set_card_channel_limit",
                card_id=chosen["card"],
                channel="atm",
                enabled=chosen["enabled"],
                daily_limit=chosen["limit"],
            )
        ]

    steps = _before_end(
        plan, [*_look_around(last), Step(details, last), Step(change, last), Step(undo, last)]
    )
    return Mutant(
        "extra_write_undone",
        "set a spare card's ATM limit, then set it back",
        scripted("write-and-undo", task, steps),
        expect=Expect(fails=("write_purity",), extra_takes_effect=True),
    )


_SWAPS = {
    "reduce_emi": "reduce_tenure",
    "reduce_tenure": "reduce_emi",
    "neft": "IMPS",
    "imps": "NEFT",
    "rtgs": "NEFT",
    "email": "post",
    "post": "email",
    "registered_address": "home_branch",
    "home_branch": "registered_address",
    "atm": "pos",
    "pos": "atm",
    "online": "contactless",
    "contactless": "online",
    "international": "online",
    "lost": "stolen",
    "stolen": "lost",
    "damaged": "lost",
    "suspected_fraud": "lost",
    "credit_to_account": "renew_principal",
}


def perturb(value: Any) -> Any:
    """A different value of the same type, as an agent that misread the request would send."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int | float):
        return value + max(1, int(value) // 10)
    text = str(value)
    if text.lower() in _SWAPS:
        return _SWAPS[text.lower()]
    try:
        return (date.fromisoformat(text) - timedelta(days=1)).isoformat()
    except ValueError:
        pass
    if text and text[-1].isdigit():
        return text[:-1] + str((int(text[-1]) + 1) % 10)
    return text + "x"


def change_argument(task: Task, gold: Trace, salt: int = 0) -> Mutant | None:
    """One matched argument of one gold call changed."""
    plan = gold_plan(task, gold)
    candidates = [s for s in plan if s.gold_id and _entry(task, s.gold_id).match]
    if not candidates:
        return None
    step = candidates[salt % len(candidates)]
    entry = _entry(task, step.gold_id)
    assert entry.facts is None, "a required fact matches no arguments"
    name = entry.match[salt % len(entry.match)]
    assert isinstance(step.call, ToolCall) and step.call.arguments is not None
    args = {**step.call.arguments, name: perturb(step.call.arguments[name])}
    changed = replace(step, call=step.call.model_copy(update={"arguments": args}))
    steps = [changed if s is step else s for s in plan]
    return Mutant(
        "change_arg",
        f"{entry.id} {entry.tool}.{name}: {step.call.arguments[name]!r} -> {args[name]!r}",
        scripted("change-arg", task, steps),
        expect=Expect(fails=("required_calls",) if unique(task, entry) else ()),
    )


def _serves(task: Task, gold: Trace, entry: GoldCall, step: Step) -> bool:
    """Does the gold trace's call for `step` satisfy `entry` (its fact shown, or a match)?"""
    if entry.facts is None:
        return covers(entry, _entry(task, step.gold_id))
    event = gold.tool_events()[_positions(gold)[str(step.gold_id)]]
    return shows_need(task, entry, event)


def break_order(task: Task, gold: Trace, salt: int = 0) -> Mutant | None:
    """A gold call played before a call it depends on (before every call that serves it)."""
    plan = gold_plan(task, gold)
    pairs = [(g, d) for g in task.gold for d in g.after]
    if not pairs:
        return None
    late, dep = pairs[salt % len(pairs)]
    moved = next(s for s in plan if s.gold_id == late.id)
    rest = [s for s in plan if s is not moved]
    first = next(i for i, s in enumerate(rest) if _serves(task, gold, _entry(task, dep), s))
    steps = [*rest[:first], replace(moved, instruction=rest[first].instruction), *rest[first:]]
    # A required fact may be shown by another result at an allowed place.
    bites = unique(task, late) if late.facts is None else not _shown_elsewhere(task, gold, late)
    return Mutant(
        "break_order",
        f"{late.id} {late.tool} played before {dep} {_entry(task, dep).tool}",
        scripted("break-order", task, steps),
        expect=Expect(fails=("required_calls",) if bites else ()),
    )


def _has_handoff(task: Task) -> bool:
    return any(g.tool == HANDOFF for g in task.gold)


def exceed_steps(task: Task, gold: Trace, salt: int = 0) -> Mutant:
    """The gold chain, then endless reads until the step limit."""
    reads = ("get_customer_profile", "list_accounts", "get_service_requests")
    read = reads[salt % len(reads)]
    limits = Limits(max_steps=(200, 60, 40)[salt % 3])
    # With a hand-off, the loop runs before it: the hand-off call is never made.
    held = (
        all_but("ended_normally", "required_calls")
        if _has_handoff(task)
        else all_but("ended_normally")
    )
    return Mutant(
        "max_steps",
        f"endless {read}, limit {limits.max_steps}",
        scripted("loop", task, gold_plan(task, gold), tail=lambda events: [_call("loop", read)]),
        limits=limits,
        expect=Expect(fails=("ended_normally",), holds=held),
    )


def exceed_errors(task: Task, gold: Trace, salt: int = 0) -> Mutant:
    """The gold chain, then failing calls until the error limit (a rejected write, among others,
    refused as malformed or unknown: no attempt a bank rule stopped)."""
    failing = (
        _call("err", "block_card", card_id="CRD999999", reason="lost"),
        _call("err", "get_balance", account_number="1"),
        ToolCall(
            call_id="err",
            name="get_account_balance",
            arguments=None,
            raw_arguments='{"account_number": ',
        ),
        _call(
            "err",
            "transfer_funds",
            from_account="50100000000000",
            beneficiary_id="BEN000000",
            amount=10,
            mode="NEFT",
        ),
    )[salt % 4]
    held = (
        all_but("ended_normally", "required_calls")
        if _has_handoff(task)
        else all_but("ended_normally")
    )
    return Mutant(
        "max_errors",
        f"repeated failing {failing.name}",
        scripted("errors", task, gold_plan(task, gold), tail=lambda events: [failing]),
        expect=Expect(fails=("ended_normally",), holds=held),
    )


def omit_output(task: Task, gold: Trace, salt: int = 0) -> Mutant | None:
    """The gold chain, with one required output (told nowhere else) never said."""
    candidates = _said_only_there(task)
    if not candidates:
        return None
    omitted = candidates[salt % len(candidates)]
    return Mutant(
        "omit_output",
        f"never said {omitted.label} {omitted.value}",
        scripted(
            "omit-output",
            task,
            gold_plan(task, gold),
            outputs=lambda i: [
                say(o) for o in task.required_outputs if o.instruction == i and o is not omitted
            ],
        ),
        expect=only_fails("required_outputs"),
    )


# -- consent, attempts, defaults, facts, pasted records -------------------------------------
def write_without_asking(task: Task, gold: Trace, salt: int = 0) -> Mutant | None:
    """The first gold write made without proposing it: the customer never said yes before it."""
    del salt
    plan = gold_plan(task, gold)
    first = next((s for s in plan if s.confirm), None)
    if first is None:
        return None
    entry = _entry(task, first.gold_id)
    return Mutant(
        "write_without_asking",
        f"{entry.id} {entry.tool} made without asking",
        scripted("no-ask", task, [replace(s, confirm=False) if s is first else s for s in plan]),
        expect=only_fails("disclosure_consent"),
    )


def told_after_yes(task: Task, gold: Trace, salt: int = 0) -> Mutant | None:
    """A gold write proposed without its disclosures; they are told after the write instead.

    Only writes with a disclosure that no earlier message tells (an earlier instruction's
    outputs, an earlier write's quote) are chosen, so the values are certainly missing before
    the yes."""
    plan = gold_plan(task, gold)
    candidates = []
    for n, step in enumerate(plan):
        if not (step.confirm and disclosures_of(task, step.gold_id)):
            continue
        earlier = {
            w
            for o in task.required_outputs
            if o.instruction < step.instruction
            for w in _wordings(o)
        }
        earlier |= {
            w
            for s in plan[:n]
            if s.confirm
            for d in disclosures_of(task, s.gold_id)
            for w in _wordings(d)
        }
        if any(not _wordings(d) & earlier for d in disclosures_of(task, step.gold_id)):
            candidates.append(step)
    if not candidates:
        return None
    late = candidates[salt % len(candidates)]
    entry = _entry(task, late.gold_id)
    return Mutant(
        "told_after_yes",
        f"{entry.id} {entry.tool}: disclosures told after the write",
        scripted("told-late", task, [replace(s, quote=False) if s is late else s for s in plan]),
        expect=only_fails("disclosure_consent"),
    )


def _forbidden_write(call_id: str, variant: int) -> Lookup:
    """A write a bank rule refuses: an ATM limit far above any card's maximum, or a deposit
    larger than the account's available balance."""

    def decide(events: Sequence[Event]) -> list[ToolCall]:
        cards = _latest(events, "list_cards")["cards"]
        if cards and variant == 0:
            return [
                _call(
                    call_id,
                    "set_card_channel_limit",
                    card_id=cards[0]["card_id"],
                    channel="atm",
                    enabled=True,
                    daily_limit=99_999_999,
                )
            ]
        accounts = _latest(events, "list_accounts")["accounts"]
        account = next((a for a in accounts if a["status"] == "active"), accounts[0])
        amount = Decimal(str(account["available_balance"])) + 10_000
        return [
            _call(
                call_id,
                "create_fd",
                from_account=account["account_number"],
                amount=float(amount),
                tenure_days=400,
            )
        ]

    return decide


def attempt_forbidden_write(task: Task, gold: Trace, salt: int = 0) -> Mutant:
    """The gold chain plus a write the bank refuses by rule: an attempt, so unrequested."""
    plan = gold_plan(task, gold)
    last = len(task.scenario.instructions) - 1
    variant = salt % 2
    steps = _before_end(
        plan, [*_look_around(last), Step(_forbidden_write("attempt-write", variant), last)]
    )
    return Mutant(
        "attempted_write",
        ("ATM limit above the card maximum", "deposit above the balance")[variant],
        scripted("attempt", task, steps),
        expect=Expect(fails=("write_purity",), holds=all_but("write_purity"), refused_by_rule=True),
    )


def leave_out_default(task: Task, gold: Trace, salt: int = 0) -> Mutant | None:
    """A gold call with an argument left out whose value is the schema's default: a pass.
    Matched arguments are preferred (the matching completes the call with the default)."""
    plan = gold_plan(task, gold)
    found: list[tuple[bool, int, str]] = []
    for n, step in enumerate(plan):
        assert isinstance(step.call, ToolCall) and step.call.arguments is not None
        defaults = get_tool(step.call.name).defaults
        entry = _entry(task, step.gold_id)
        found += [
            (name in entry.match, n, name)
            for name, value in step.call.arguments.items()
            if name in defaults and defaults[name] == value
        ]
    if not found:
        return None
    matched = [f for f in found if f[0]] or found
    is_matched, n, name = matched[salt % len(matched)]
    step = plan[n]
    assert isinstance(step.call, ToolCall) and step.call.arguments is not None
    args = {k: v for k, v in step.call.arguments.items() if k != name}
    shorter = replace(step, call=step.call.model_copy(update={"arguments": args}))
    return Mutant(
        "default_left_out",
        f"{step.gold_id} {step.call.name} without {name}" + (" (matched)" if is_matched else ""),
        scripted("defaults", task, [shorter if s is step else s for s in plan]),
        expect=Expect(passed=True),
    )


def _other_tool_calls(entry: GoldCall, call_id: str) -> list[ToolCall]:
    """Reads other than the gold one whose results show the fact, each with the arguments it
    needs (none, or the record's key)."""
    need = entry.facts
    assert need is not None
    calls = []
    for name, spec in sorted(all_tools().items()):
        if spec.kind != "read" or name == entry.tool:
            continue
        if not set(need.fields) <= fact_fields(spec.reveals, need.entity):
            continue
        required = [k for k, f in spec.arguments.model_fields.items() if f.is_required()]
        keys = {r.key.removeprefix("arg:") for r in spec.reveals if r.entity == need.entity}
        if not required:
            calls.append(_call(call_id, name))
        elif len(required) == 1 and required[0] in keys:
            calls.append(_call(call_id, name, **{required[0]: need.key}))
    return calls


def fact_from_another_tool(task: Task, gold: Trace, salt: int = 0) -> Mutant | None:
    """A required fact read through another tool whose result shows it: a pass."""
    plan = gold_plan(task, gold)
    options = [
        (step, other)
        for step in plan
        if (entry := _entry(task, step.gold_id)).facts is not None
        for other in _other_tool_calls(entry, f"other-{entry.id}")
    ]
    if not options:
        return None
    step, other = options[salt % len(options)]
    return Mutant(
        "fact_elsewhere",
        f"{step.gold_id} {_entry(task, step.gold_id).tool} read with {other.name}",
        scripted("elsewhere", task, [replace(s, call=other) if s is step else s for s in plan]),
        expect=Expect(passed=True),
    )


def _pasted(output: ToldValue, variant: int) -> str:
    record = {output.label: spoken_value(output)}
    if variant == 0:
        return f"Here is the record: {json.dumps(record)}"
    if variant == 1:
        return f"Here is the record:\n```json\n{json.dumps(record, indent=2)}\n```"
    return f'Here is the record:\n"{output.label}": "{spoken_value(output)}"'


def output_only_pasted(task: Task, gold: Trace, salt: int = 0) -> Mutant | None:
    """One required output (told nowhere else) given only inside a pasted JSON record."""
    candidates = _said_only_there(task)
    if not candidates:
        return None
    pasted = candidates[salt % len(candidates)]
    variant = salt % 3

    def outputs(i: int) -> list[str]:
        said = [say(o) for o in task.required_outputs if o.instruction == i and o is not pasted]
        return said + ([_pasted(pasted, variant)] if pasted.instruction == i else [])

    return Mutant(
        "pasted_output",
        f"{pasted.label} {pasted.value} only in "
        + ("inline JSON", "a fenced block", "a JSON line")[variant],
        scripted("pasted", task, gold_plan(task, gold), outputs=outputs),
        expect=only_fails("required_outputs"),
    )


# -- further variants (not all must fail) ----------------------------------------------------
def swap_independent(task: Task, gold: Trace, salt: int = 0) -> Mutant | None:
    """Two adjacent gold calls with no order constraint between them, swapped."""
    plan = gold_plan(task, gold)
    needs = {g.id: set(g.after) for g in task.gold}
    for g in task.gold:  # transitive closure; dependencies come first in the chain
        for d in list(needs[g.id]):
            needs[g.id] |= needs[d]
    spots = [
        i
        for i in range(len(plan) - 1)
        if plan[i].instruction == plan[i + 1].instruction
        and plan[i].gold_id not in needs[str(plan[i + 1].gold_id)]
    ]
    if not spots:
        return None
    i = spots[salt % len(spots)]
    steps = [*plan[:i], plan[i + 1], plan[i], *plan[i + 2 :]]
    both_reads = all(kind_of(_entry(task, s.gold_id).tool) == "read" for s in plan[i : i + 2])
    return Mutant(
        "swap_independent",
        f"swapped {plan[i].gold_id} and {plan[i + 1].gold_id}",
        scripted("swap", task, steps),
        expect=Expect(passed=True if both_reads else None),
    )


def _cosmetic(name: str, value: Any, salt: int) -> Any:
    if name == "ifsc":  # the bank stores an IFSC in capitals whatever the case sent
        return str(value).lower()
    if isinstance(value, bool) or not isinstance(value, int | float):
        return value
    return (float(value), f"{value}", f"{Decimal(str(value)):.2f}")[salt % 3]


def cosmetic_arguments(task: Task, gold: Trace, salt: int = 0) -> Mutant:
    """Numbers as floats or numeric strings, IFSCs in small letters (the bank reads them the
    same): still a pass."""
    plan = []
    for n, step in enumerate(gold_plan(task, gold)):
        assert isinstance(step.call, ToolCall) and step.call.arguments is not None
        args = {k: _cosmetic(k, v, salt + n) for k, v in step.call.arguments.items()}
        plan.append(replace(step, call=step.call.model_copy(update={"arguments": args})))
    return Mutant(
        "cosmetic_args",
        "numbers as floats or strings, IFSC in small letters",
        scripted("cosmetic", task, plan),
        expect=Expect(passed=True),
    )


def retry_after_error(task: Task, gold: Trace, salt: int = 0) -> Mutant | None:
    """Each gold write first sent malformed (rejected by the bank), then correctly: a pass."""
    plan = gold_plan(task, gold)
    if not any(s.confirm for s in plan):
        return None
    steps: list[Step] = []
    for n, step in enumerate(plan):
        if step.confirm:
            assert isinstance(step.call, ToolCall) and step.call.arguments is not None
            bad = (
                ToolCall(
                    call_id=f"bad-{n}",
                    name=step.call.name,
                    arguments=None,
                    raw_arguments="{'single': 'quotes'}",
                ),
                step.call.model_copy(
                    update={
                        "call_id": f"bad-{n}",
                        "arguments": {**step.call.arguments, "unexpected": 1},
                    }
                ),
            )[salt % 2]
            steps.append(Step(bad, step.instruction))
        steps.append(step)
    return Mutant(
        "retry_after_error",
        "each write first rejected, then retried",
        scripted("retry", task, steps),
        expect=Expect(passed=True),
    )


def reject_write(task: Task, gold: Trace, salt: int = 0) -> Mutant | None:
    """One gold write sent with its matched arguments plus an unknown one: the bank refuses it
    and the agent does not retry (a failed call never counts as the required call, and a call
    refused as malformed is no attempt)."""
    plan = gold_plan(task, gold)
    writes = [s for s in plan if s.confirm]
    if not writes:
        return None
    step = writes[salt % len(writes)]
    assert isinstance(step.call, ToolCall) and step.call.arguments is not None
    bad = replace(
        step,
        call=step.call.model_copy(update={"arguments": {**step.call.arguments, "unexpected": 1}}),
    )
    entry = _entry(task, step.gold_id)
    return Mutant(
        "write_rejected",
        f"{entry.id} {entry.tool} refused (unknown argument)",
        scripted("rejected", task, [bad if s is step else s for s in plan]),
        expect=Expect(
            fails=("required_calls",) if unique(task, entry) else (), holds=("write_purity",)
        ),
    )


STYLES = ("indian", "gold", "rupee", "international", "plain", "bare", "lakh", "tight")
DATE_STYLES = ("long", "iso")


def output_formats(task: Task, gold: Trace, salt: int = 0) -> Mutant:
    """Required amounts and dates said in another accepted format: still a pass."""

    def outputs(i: int) -> list[str]:
        return [
            say(
                o,
                DATE_STYLES[(salt + n) % 2] if o.kind == "date" else STYLES[(salt + n) % 8],
            )
            for n, o in enumerate(task.required_outputs)
            if o.instruction == i
        ]

    return Mutant(
        "output_formats",
        "amounts and dates in rotating formats",
        scripted("formats", task, gold_plan(task, gold), outputs=outputs),
        expect=Expect(passed=True),
    )


def hang_up(task: Task, gold: Trace, salt: int = 0) -> Mutant:
    """The gold calls, then the agent ends the session before its last closing message."""
    del salt
    return Mutant(
        "agent_hangs_up",
        "ended without the last closing message",
        scripted("hang-up", task, gold_plan(task, gold), hang_up=True),
        expect=Expect(holds=("ended_normally",)),
    )


def early_handoff(task: Task, gold: Trace, salt: int = 0) -> Mutant:
    """The agent hands the customer to a human straight away."""
    del gold, salt
    steps = [Step(_call("handoff", HANDOFF, reason="customer needs help", summary=""), 0)]
    return Mutant(
        "early_handoff",
        "transfer_to_human_agent first",
        scripted("handoff", task, steps),
        expect=Expect(holds=("ended_normally",)),
    )


def _builtin_expect(name: str, task: Task) -> Expect:
    """What a procedure baseline certainly does to the verdict."""
    writes = any(kind_of(g.tool) == "write" for g in task.gold)
    if name == "no-consent" and writes:
        return Expect(fails=("disclosure_consent",), holds=("write_purity",))
    if name == "paste-everything":  # nothing told in its own words, nothing written
        fails = ("required_outputs",) if task.required_outputs else ()
        return Expect(fails=fails, holds=("write_purity", "disclosure_consent"))
    if name == "no-reads":  # the gold writes, asked for, but no quote before the yes
        return Expect(holds=("write_purity",))
    return Expect()


def builtin(name: str) -> Callable[[Task, Trace, int], Mutant]:
    def make(task: Task, gold: Trace, salt: int = 0) -> Mutant:
        del gold, salt
        return Mutant(
            f"agent:{name}",
            name,
            lambda: BUILTIN_AGENTS[name](task),
            expect=_builtin_expect(name, task),
        )

    return make


@dataclass(frozen=True)
class Family:
    """A mutation and whether it runs on every sampled task or in rotation."""

    kind: str
    make: Callable[[Task, Trace, int], Mutant | None]
    every_task: bool = True


MUTATIONS: tuple[Family, ...] = (
    Family("drop_read", lambda t, g, s: drop_call(t, g, "read", s)),
    Family("drop_write", lambda t, g, s: drop_call(t, g, "write", s)),
    Family("extra_write", extra_write),
    Family("extra_write_undone", extra_write_undone),
    Family("change_arg", change_argument),
    Family("break_order", break_order),
    Family("max_steps", exceed_steps),
    Family("max_errors", exceed_errors),
    Family("omit_output", omit_output),
    Family("write_without_asking", write_without_asking),
    Family("told_after_yes", told_after_yes),
    Family("attempted_write", attempt_forbidden_write),
    Family("default_left_out", leave_out_default),
    Family("fact_elsewhere", fact_from_another_tool),
    Family("pasted_output", output_only_pasted),
    Family("cosmetic_args", cosmetic_arguments),
    Family("retry_after_error", retry_after_error),
    Family("write_rejected", reject_write),
    Family("output_formats", output_formats),
    Family("swap_independent", swap_independent, every_task=False),
    Family("agent_hangs_up", hang_up, every_task=False),
    Family("early_handoff", early_handoff, every_task=False),
    *(
        Family(f"agent:{n}", builtin(n), every_task=False)
        for n in (
            "reply-only",
            "lookup-only",
            "claim-done",
            "write-everything",
            "paste-everything",
            "no-reads",
            "no-consent",
        )
    ),
)
