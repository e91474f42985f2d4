"""Mutated sessions of a task, made by small scripted agents playing a modified gold chain.

Every mutant is a real session: a scripted agent plays a list of calls against a freshly seeded
bank with the scripted customer, so each trace, its tool results and its `changes` are real.
The plan a mutant starts from is read off the gold agent's trace (the calls it made, in order).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from datetime import date, timedelta
from decimal import Decimal
from typing import Any

from pytest_bankbench.bank.registry import get_tool
from pytest_bankbench.bank.store import Bank
from pytest_bankbench.simulation.agents import BUILTIN_AGENTS, Agent, AgentAction
from pytest_bankbench.simulation.customer import ScriptedCustomer
from pytest_bankbench.simulation.session import Limits, run_session
from pytest_bankbench.simulation.trace import Event, ToolCall, ToolEvent, Trace
from pytest_bankbench.tasks.model import GoldCall, RequiredOutput, Task

Lookup = Callable[[Sequence[Event]], list[ToolCall]]
HANDOFF = "transfer_to_human_agent"
TAIL_CAP = 400  # a tail that never reaches a limit still ends


@dataclass(frozen=True)
class Step:
    """One planned move: a fixed call, or calls decided from what the agent has seen so far."""

    call: ToolCall | Lookup
    instruction: int
    confirm: bool = False
    gold_id: str | None = None


@dataclass(frozen=True)
class Expect:
    """What the mutation must do to the verdict (checked against the real scorer)."""

    fails: tuple[str, ...] = ()
    holds: tuple[str, ...] = ()
    passed: bool | None = None
    extra_takes_effect: bool = False  # every call with an `extra-` id must take effect


@dataclass(frozen=True)
class Mutant:
    kind: str
    detail: str
    make_agent: Callable[[], Agent]
    limits: Limits = Limits()
    expect: Expect = Expect()


# -- the scripted agent ----------------------------------------------------------------------
def say(output: RequiredOutput, style: str = "indian") -> str:
    """A required value as an agent might say it."""
    if output.kind != "amount":
        return f"{output.label}: {output.value}"
    value = Decimal(output.value)
    whole, _, frac = f"{value:.2f}".partition(".")
    indian = whole[-3:]
    rest = whole[:-3]
    while rest:
        indian, rest = f"{rest[-2:]},{indian}", rest[:-2]
    western = f"{int(whole):,}"
    text = {
        "indian": f"Rs. {indian}.{frac}",
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


class ScriptedAgent:
    """Plays its steps instruction by instruction, like the gold agent, then closes each one.

    Steps with `confirm` are preceded by a question to the customer. When a `tail` is given,
    it is played until the session ends (a limit): before a hand-off to a human if the plan has
    one, otherwise after the last closing message, which then ends with a question so that the
    customer keeps the session open.
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
            for step in (s for s in self.steps if s.instruction == instruction):
                calls = [step.call] if isinstance(step.call, ToolCall) else step.call(self._events)
                if not calls:
                    continue
                if tail_left and calls[0].name == HANDOFF:
                    tail_left = False
                    yield from self._tail()
                if step.confirm:
                    yield AgentAction(
                        message=f"May I go ahead with {calls[0].name} now? Please confirm."
                    )
                yield AgentAction(tool_calls=calls)
            if instruction == last and self.hang_up:
                return
            said = " ".join(["That is done.", *self.outputs(instruction)])
            if instruction == last and tail_left:
                yield AgentAction(message=f"{said} Is there anything else I can check for you?")
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


# -- mutations -------------------------------------------------------------------------------
def drop_call(task: Task, gold: Trace, kind: str, salt: int = 0) -> Mutant | None:
    """The gold chain with one read (or one write) left out."""
    plan = gold_plan(task, gold)
    candidates = [s for s in plan if kind_of(_entry(task, s.gold_id).tool) == kind]
    if not candidates:
        return None
    dropped = candidates[salt % len(candidates)]
    entry = _entry(task, dropped.gold_id)
    bites = unique(task, entry)
    return Mutant(
        f"drop_{kind}",
        f"dropped {entry.id} {entry.tool}",
        scripted(f"drop-{kind}", task, [s for s in plan if s is not dropped]),
        expect=Expect(fails=("required_calls",) if bites else ()),
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
    "make_loan_prepayment",
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


def break_order(task: Task, gold: Trace, salt: int = 0) -> Mutant | None:
    """A gold call played before a call it depends on (and before every copy of that call)."""
    plan = gold_plan(task, gold)
    pairs = [(g, d) for g in task.gold for d in g.after]
    if not pairs:
        return None
    late, dep = pairs[salt % len(pairs)]
    moved = next(s for s in plan if s.gold_id == late.id)
    rest = [s for s in plan if s is not moved]
    first = next(
        i for i, s in enumerate(rest) if covers(_entry(task, dep), _entry(task, s.gold_id))
    )
    steps = [*rest[:first], replace(moved, instruction=rest[first].instruction), *rest[first:]]
    return Mutant(
        "break_order",
        f"{late.id} {late.tool} played before {dep} {_entry(task, dep).tool}",
        scripted("break-order", task, steps),
        expect=Expect(fails=("required_calls",) if unique(task, late) else ()),
    )


def _all_but(*failing: str) -> tuple[str, ...]:
    checks = ("ended_normally", "required_calls", "write_purity", "final_state", "required_outputs")
    return tuple(c for c in checks if c not in failing)


def _has_handoff(task: Task) -> bool:
    return any(g.tool == HANDOFF for g in task.gold)


def exceed_steps(task: Task, gold: Trace, salt: int = 0) -> Mutant:
    """The gold chain, then endless reads until the step limit."""
    reads = ("get_customer_profile", "list_accounts", "get_service_requests")
    read = reads[salt % len(reads)]
    limits = Limits(max_steps=(200, 60, 40)[salt % 3])
    # With a hand-off, the loop runs before it: the hand-off call is never made.
    held = (
        _all_but("ended_normally", "required_calls")
        if _has_handoff(task)
        else _all_but("ended_normally")
    )
    return Mutant(
        "max_steps",
        f"endless {read}, limit {limits.max_steps}",
        scripted("loop", task, gold_plan(task, gold), tail=lambda events: [_call("loop", read)]),
        limits=limits,
        expect=Expect(fails=("ended_normally",), holds=held),
    )


def exceed_errors(task: Task, gold: Trace, salt: int = 0) -> Mutant:
    """The gold chain, then failing calls until the error limit (a rejected write, among others)."""
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
        _all_but("ended_normally", "required_calls")
        if _has_handoff(task)
        else _all_but("ended_normally")
    )
    return Mutant(
        "max_errors",
        f"repeated failing {failing.name}",
        scripted("errors", task, gold_plan(task, gold), tail=lambda events: [failing]),
        expect=Expect(fails=("ended_normally",), holds=held),
    )


def omit_output(task: Task, gold: Trace, salt: int = 0) -> Mutant | None:
    """The gold chain, with one required output never said."""
    if not task.required_outputs:
        return None
    omitted = task.required_outputs[salt % len(task.required_outputs)]
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
        expect=Expect(fails=("required_outputs",), holds=_all_but("required_outputs")),
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
    and the agent does not retry (a failed call never counts as the required call)."""
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


STYLES = ("indian", "rupee", "international", "plain", "bare", "lakh", "tight")


def output_formats(task: Task, gold: Trace, salt: int = 0) -> Mutant:
    """Required amounts said in another accepted format: still a pass."""

    def outputs(i: int) -> list[str]:
        return [
            say(o, STYLES[(salt + n) % len(STYLES)])
            for n, o in enumerate(task.required_outputs)
            if o.instruction == i
        ]

    return Mutant(
        "output_formats",
        "amounts in rotating formats",
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


def builtin(name: str) -> Callable[[Task, Trace, int], Mutant]:
    def make(task: Task, gold: Trace, salt: int = 0) -> Mutant:
        del gold, salt
        return Mutant(f"agent:{name}", name, lambda: BUILTIN_AGENTS[name](task))

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
    Family("cosmetic_args", cosmetic_arguments),
    Family("retry_after_error", retry_after_error),
    Family("write_rejected", reject_write),
    Family("output_formats", output_formats),
    Family("swap_independent", swap_independent, every_task=False),
    Family("agent_hangs_up", hang_up, every_task=False),
    Family("early_handoff", early_handoff, every_task=False),
    *(
        Family(f"agent:{n}", builtin(n), every_task=False)
        for n in ("reply-only", "lookup-only", "claim-done", "write-everything")
    ),
)
