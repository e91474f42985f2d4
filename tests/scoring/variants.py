"""Metamorphic variants of the gold behaviour: what a careful agent may choose, and corruptions.

A variant agent plays a plan built from the task (not from a recorded trace): the gold chain
with one policy-valid change (another read tool showing the same facts, the value taken from a
write's own result, extra harmless reads, another order the `after` constraints allow, defaults
left out or spelled out, values in other written forms, another confirmation phrasing, a closing
"anything else?"), or one corruption (a skipped quote, a write before consent, the quote told
after the yes, an extra write, an attempted forbidden write, a wrong record, a pasted answer).
Every plan is generated from the task and a seed, so a new family is covered without new tests.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import date, timedelta
from decimal import Decimal
from typing import Any

from pytest_bankbench.bank.facts import ARG_PREFIX, fact_fields, shows
from pytest_bankbench.bank.registry import all_tools, get_tool
from pytest_bankbench.bank.store import Bank
from pytest_bankbench.money import indian, to_paise
from pytest_bankbench.simulation.agents import AgentAction
from pytest_bankbench.simulation.trace import Event, ToolCall, ToolEvent
from pytest_bankbench.tasks.model import GoldCall, Task, ToldValue

Dynamic = Callable[[Sequence[Event]], list[ToolCall]]


@dataclass
class Plan:
    """Moves in order: tool calls (fixed or decided from what was seen), or a message."""

    moves: list[list[ToolCall] | Dynamic | str] = field(default_factory=list)


class PlanAgent:
    """Plays a plan move by move, then ends."""

    name = "variant"

    def __init__(self, plan: Plan) -> None:
        self.moves = list(plan.moves)

    def act(self, events: Sequence[Event]) -> AgentAction:
        if not self.moves:
            return AgentAction(end=True)
        move = self.moves.pop(0)
        if isinstance(move, str):
            return AgentAction(message=move)
        calls = move if isinstance(move, list) else move(events)
        return AgentAction(tool_calls=calls) if calls else self.act(events)


# -- how values are said ---------------------------------------------------------------------
_NUMBER_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")


def render(value: ToldValue, style: int) -> str:
    """A told value in one of several forms people write (style picks the form)."""
    if value.kind == "amount":
        rupees = Decimal(value.value)
        digits = indian(to_paise(rupees)).removeprefix("Rs. ")
        forms = (
            f"Rs. {digits}",
            f"₹{digits}",
            f"INR {rupees:,.2f}",
            f"Rs {rupees:.2f}/-",
            f"₹ {digits}",
        )
        return forms[style % len(forms)]
    if value.kind == "date":
        day = date.fromisoformat(value.value)
        forms = (
            f"{day.day} {day:%B %Y}",
            f"{day.day} {day:%b %Y}",
            f"{day:%d/%m/%Y}",
            f"{day:%B} {day.day}, {day.year}",
            day.isoformat(),
        )
        return forms[style % len(forms)]
    if value.kind == "count":
        number = int(value.value)
        word = _NUMBER_WORDS[number] if number < 10 and style % 2 else str(number)
        return f"{word} {value.unit}"
    if value.kind == "percent":
        return (f"{value.value}%", f"{value.value} per cent", f"{value.value}% p.a.")[style % 3]
    return value.value


def sentence(value: ToldValue, style: int) -> str:
    return f"The {value.label} is {render(value, style)}."


CONFIRMATIONS = (
    "Shall I proceed?",
    "Would you like me to go ahead?",
    "Do you want me to proceed with this?",
    "Please confirm if I should go ahead.",
    "Please reply YES to confirm.",
    "Can I go ahead with this?",
    "Is that okay with you?",
    "Should I go ahead and do this for you?",
    "Do I have your go-ahead?",
    "Kindly confirm and I will process it.",
)
ANYTHING_ELSE = "Is there anything else I can help you with?"


# -- the variant knobs -------------------------------------------------------------------------
@dataclass(frozen=True)
class Style:
    """One way of playing the gold behaviour; defaults reproduce the gold agent's choices."""

    alt_tools: bool = False
    from_writes: bool = False
    extra_reads: bool = False
    reorder: bool = False
    defaults: str = "keep"  # keep | omit | spell
    value_style: int = 0
    confirm: str = "Shall I proceed?"
    anything_else: bool = False
    # corruptions
    skip_quote: bool = False
    no_consent: bool = False
    quote_after_yes: bool = False
    extra_write: bool = False
    forbidden: bool = False
    wrong_record: bool = False
    pasted: bool = False
    hedged: bool = False


def _kind(call: GoldCall) -> str:
    return get_tool(call.tool).kind


def _alt_call(call: GoldCall, rng: random.Random) -> ToolCall | None:
    """Another read tool whose result shows the same fact, with the arguments it needs."""
    need = call.facts
    if need is None:
        return None
    options: list[ToolCall] = []
    for name, spec in sorted(all_tools().items()):
        if spec.kind != "read" or name == call.tool:
            continue
        if not set(need.fields) <= fact_fields(spec.reveals, need.entity):
            continue
        required = [n for n, f in spec.arguments.model_fields.items() if f.is_required()]
        reveal = next(r for r in spec.reveals if r.entity == need.entity)
        if not required:
            options.append(ToolCall(call_id=f"alt-{call.id}", name=name, arguments={}))
        elif len(required) == 1 and required[0] in (
            reveal.key,
            reveal.key.removeprefix(ARG_PREFIX),
        ):
            args = {required[0]: need.key}
            options.append(ToolCall(call_id=f"alt-{call.id}", name=name, arguments=args))
    return rng.choice(options) if options else None


def _shown_by_write(call: GoldCall, gold: dict[str, GoldCall]) -> bool:
    """A fact read after a write whose own result shows the fact for the same record."""
    need = call.facts
    if need is None:
        return False
    for dep in call.after:
        write = gold[dep]
        spec = get_tool(write.tool)
        if spec.kind != "write" or not set(need.fields) <= fact_fields(spec.reveals, need.entity):
            continue
        keys = [str(v).upper() for v in write.arguments.values()]
        if need.key.upper() in keys:
            return True
    return False


def _unless_shown(task: Task, call: GoldCall) -> Dynamic:
    """A careful agent whose other tool did not show the fact (a refused quote) looks again."""

    def calls(events: Sequence[Event]) -> list[ToolCall]:
        need = call.facts
        last = next(e for e in reversed(events) if isinstance(e, ToolEvent))
        spec = all_tools()[last.call.name]
        if (
            need is not None
            and last.ok
            and last.output is not None
            and shows(
                spec.reveals,
                last.call.arguments or {},
                last.output,
                task.customer_id,
                need.entity,
                need.key,
                need.fields,
            )
        ):
            return []
        return [_gold_call(call)]

    return calls


def _with_defaults(call: ToolCall, mode: str) -> ToolCall:
    spec = all_tools().get(call.name)
    if spec is None or call.arguments is None or mode == "keep":
        return call
    defaults = spec.defaults
    if mode == "omit":
        args = {k: v for k, v in call.arguments.items() if k not in defaults or defaults[k] != v}
    else:
        args = {**defaults, **call.arguments}
        args = {k: (v.value if hasattr(v, "value") else v) for k, v in args.items()}
    return call.model_copy(update={"arguments": args})


def _order(calls: list[GoldCall], rng: random.Random | None) -> list[GoldCall]:
    """The calls in chain order, or in a random order that respects their `after` lists."""
    if rng is None:
        return calls
    left, placed, out = list(calls), {c.id for c in calls}, []
    done: set[str] = set()
    while left:
        ready = [c for c in left if all(d in done or d not in placed for d in c.after)]
        pick = rng.choice(ready)
        left.remove(pick)
        out.append(pick)
        done.add(pick.id)
    return out


# -- building a plan ---------------------------------------------------------------------------
def _gold_call(call: GoldCall) -> ToolCall:
    return ToolCall(call_id=f"v-{call.id}", name=call.tool, arguments=dict(call.arguments))


def _proposal(task: Task, write: GoldCall, style: Style, tell: bool) -> str:
    quote = " ".join(
        sentence(d, style.value_style) for d in task.disclosures if d.write == write.id
    )
    told = f" Before I do it: {quote}" if quote and tell else ""
    return f"I can take care of that for you now.{told} {style.confirm}".strip()


def _closing(task: Task, instruction: int, style: Style) -> str:
    outputs = [o for o in task.required_outputs if o.instruction == instruction]
    if style.pasted and outputs:
        raw = {o.label.replace(" ", "_"): o.value for o in outputs}
        return "Here are the details:\n" + json.dumps(raw)
    said = " ".join(
        f"It is {o.value} or {o.rivals[0]}, I am not certain."
        if style.hedged and o.kind == "choice" and o.rivals
        else sentence(o, style.value_style)
        for o in outputs
    )
    return f"All set. {said}".strip()


def _extra_write(task: Task) -> Dynamic:
    """A statement request nobody asked for, on the customer's first account."""

    def calls(events: Sequence[Event]) -> list[ToolCall]:
        accounts = [
            a
            for e in events
            if isinstance(e, ToolEvent) and e.ok and e.call.name == "list_accounts" and e.output
            for a in e.output["accounts"]
        ]
        if not accounts:
            return [ToolCall(call_id="x-list", name="list_accounts", arguments={})]
        start = task.task_date - timedelta(days=60)
        args = {
            "account_number": accounts[0]["account_number"],
            "from_date": start.isoformat(),
            "to_date": task.task_date.isoformat(),
            "delivery": "email",
        }
        return [ToolCall(call_id="x-statement", name="request_account_statement", arguments=args)]

    return calls


def _forbidden_for(task: Task) -> ToolCall | None:
    """The closure or foreclosure the customer asked for and the policy refuses."""
    facts = {g.facts.entity: g.facts.key for g in task.gold if g.facts}
    if "deposit" in facts and not any(_kind(g) == "write" for g in task.gold):
        return ToolCall(
            call_id="x-close",
            name="close_fd_premature",
            arguments={"deposit_id": facts["deposit"]},
        )
    if "loan" in facts and not any(_kind(g) == "write" for g in task.gold):
        accounts = [g.facts.key for g in task.gold if g.facts and g.facts.entity == "account"]
        payer = accounts[0] if accounts else None
        if payer is None:
            return None
        return ToolCall(
            call_id="x-foreclose",
            name="foreclose_loan",
            arguments={"loan_id": facts["loan"], "from_account": payer},
        )
    return None


_LISTS = {"deposit_id": "list_deposits", "loan_id": "list_loans", "card_id": "list_cards"}


def _wrong_record(task: Task, write: GoldCall) -> ToolCall | None:
    """The write made on another of the customer's records of the same kind."""
    arg = next((a for a in write.match if a in _LISTS), None)
    if arg is None:
        return None
    with Bank(task.customer_id, task.task_date, task.bank_seed) as bank:
        listed = get_tool(_LISTS[arg]).invoke(bank, {})
    items = next(v for v in listed.values() if isinstance(v, list))
    others = sorted(str(i[arg]) for i in items if str(i[arg]) != str(write.arguments[arg]))
    if not others:
        return None
    args = {**write.arguments, arg: others[0]}
    return ToolCall(call_id=f"x-wrong-{write.id}", name=write.tool, arguments=args)


def plan(task: Task, style: Style, seed: int = 0) -> Plan:
    """The moves of a variant (or corruption) of the gold behaviour on one task."""
    rng = random.Random(f"{task.task_id}:{seed}")
    gold = {g.id: g for g in task.gold}
    strict_quotes = {
        d
        for g in task.gold
        if _kind(g) == "write"
        for d in g.after
        if gold[d].facts is None and _kind(gold[d]) == "read"
    }
    skipped = min(strict_quotes) if style.skip_quote and strict_quotes else None
    wrong_done = False
    out = Plan()
    if style.extra_reads:
        out.moves.append(
            [
                ToolCall(call_id="x-r1", name="list_accounts", arguments={}),
                ToolCall(call_id="x-r2", name="get_customer_profile", arguments={}),
                ToolCall(
                    call_id="x-r3", name="search_knowledge_base", arguments={"query": "charges"}
                ),
            ]
        )
    if style.extra_write:  # first: a hand-off at the end would end the session before it
        out.moves += [_extra_write(task), _extra_write(task)]
    instructions = len(task.scenario.instructions)
    for instruction in range(instructions):
        late: list[str] = []  # quotes told only after the write (a corruption)
        calls = [g for g in task.gold if g.instruction == instruction]
        for call in _order(calls, rng if style.reorder else None):
            if call.id == skipped:
                continue
            if _kind(call) == "read":
                if style.from_writes and _shown_by_write(call, gold):
                    continue
                alt = _alt_call(call, rng) if style.alt_tools else None
                chosen = alt or _gold_call(call)
                out.moves.append([_with_defaults(chosen, style.defaults)])
                if alt is not None:
                    out.moves.append(_unless_shown(task, call))
                continue
            if _kind(call) == "write" and not style.no_consent:
                out.moves.append(_proposal(task, call, style, tell=not style.quote_after_yes))
                if task.scenario.instructions[call.instruction].correction:
                    # the customer corrects the first proposal; a careful agent proposes again
                    out.moves.append(_proposal(task, call, style, tell=not style.quote_after_yes))
                if style.quote_after_yes:
                    late += [sentence(d, 0) for d in task.disclosures if d.write == call.id]
            if style.wrong_record and not wrong_done and _kind(call) == "write":
                wrong = _wrong_record(task, call)
                if wrong is not None:
                    wrong_done = True
                    out.moves.append([wrong])
                    continue
            out.moves.append([_with_defaults(_gold_call(call), style.defaults)])
        if instruction == 0 and style.forbidden:
            attempt = _forbidden_for(task)
            if attempt is not None:
                out.moves.append([attempt])
        closing = " ".join([*late, _closing(task, instruction, style)])
        last = instruction == instructions - 1
        out.moves.append(f"{closing} {ANYTHING_ELSE}" if last and style.anything_else else closing)
    return out


def forbidden_applies(task: Task) -> bool:
    return _forbidden_for(task) is not None


def wrong_record_applies(task: Task) -> bool:
    writes = [g for g in task.gold if _kind(g) == "write"]
    return bool(writes) and _wrong_record(task, writes[0]) is not None


def skip_quote_applies(task: Task) -> bool:
    gold = {g.id: g for g in task.gold}
    return any(
        gold[d].facts is None and _kind(gold[d]) == "read"
        for g in task.gold
        if _kind(g) == "write"
        for d in g.after
    )


def describe(args: dict[str, Any]) -> str:
    return ", ".join(f"{k}={v}" for k, v in args.items())


def told_only_at_the_end(task: Task) -> bool:
    """A required output that no disclosure before a write already tells."""
    disclosed = {(d.kind, d.value) for d in task.disclosures}
    return any((o.kind, o.value) not in disclosed for o in task.required_outputs)
