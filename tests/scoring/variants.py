"""Metamorphic variants of the gold behaviour: what a careful agent may choose, and corruptions.

A variant agent plays a plan built from the task (not from a recorded trace), talking as the
gold agent does (tests/scoring/speech.py): it asks for what it needs, states each write's
action and quote before asking, announces a hand-off, reports each write's result and explains
a refusal. A variant makes one policy-valid change: another read tool showing the same facts,
the value taken from a write's own result, extra harmless reads, another order the `after`
constraints allow, defaults left out or spelled out, values in other written forms, another
confirmation phrasing or a recap question ("Just to be sure: you want me to ...?"), a reason
said in other phrases of its concept, a result told by another reported value in another
sentence, another value the policy allows (GoldCall.allowed), a closing "anything else?". A
corruption breaks one rule: a skipped quote, a write before consent, the quote told after the
yes, an extra write, an attempted forbidden write, a wrong record, a pasted or hedged answer, a
result or a reason left unsaid, a recital of every record, a secret asked for or let pass, a
bare "Shall I proceed?", one yes for two writes, a read of another customer's account.
Every plan is generated from the task and a seed, so a new family is covered without new tests.
"""

from __future__ import annotations

import json
import random
import re
import tomllib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import date, timedelta
from decimal import Decimal
from typing import Any

from pytest_bankbench.bank.facts import ARG_PREFIX, fact_fields, shows
from pytest_bankbench.bank.registry import all_tools, get_tool
from pytest_bankbench.bank.store import Bank
from pytest_bankbench.money import indian, to_paise
from pytest_bankbench.paths import data_dir
from pytest_bankbench.simulation.agents import (
    OPEN_READS,
    REPORT_LABELS,
    AgentAction,
    AskSecretsAgent,
    recital,
)
from pytest_bankbench.simulation.chat import policy_text
from pytest_bankbench.simulation.dialogue import describe as describe_call
from pytest_bankbench.simulation.trace import Event, ToolCall, ToolEvent
from pytest_bankbench.tasks.model import GoldCall, Task, ToldValue
from tests.scoring import independent_scorer as mine
from tests.scoring import independent_telling as telling
from tests.scoring import speech

Dynamic = Callable[[Sequence[Event]], list[ToolCall]]
HANDOFF = "transfer_to_human_agent"


@dataclass(frozen=True)
class Speech:
    """A message written from what the session has shown: `say(events, since)` tells the
    results of the writes made after position `since` (the previous such message)."""

    say: Callable[[Sequence[Event], int], str]


@dataclass
class Plan:
    """Moves in order: tool calls (fixed or decided from what was seen), or a message."""

    moves: list[list[ToolCall] | Dynamic | str | Speech] = field(default_factory=list)
    warn: bool = True  # a secret the customer volunteers is stopped in the next message


class PlanAgent:
    """Plays a plan move by move, then ends."""

    name = "variant"

    def __init__(self, plan: Plan, task: Task | None = None) -> None:
        self.moves = list(plan.moves)
        self.task = task
        self.warn = plan.warn
        self.since = 0
        self.warned: set[int] = set()

    def act(self, events: Sequence[Event]) -> AgentAction:
        action = self._next(events)
        offered = self.task is not None and speech.volunteered_now(self.task, events, self.warned)
        if offered and self.warn:
            action.message = speech.warned(action.message or "")
        return action

    def _next(self, events: Sequence[Event]) -> AgentAction:
        if not self.moves:
            return AgentAction(end=True)
        move = self.moves.pop(0)
        if isinstance(move, str):
            return AgentAction(message=move)
        if isinstance(move, Speech):
            text, self.since = move.say(events, self.since), len(events)
            return AgentAction(message=text)
        calls = move if isinstance(move, list) else move(events)
        return AgentAction(tool_calls=calls) if calls else self._next(events)


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
    'Please confirm explicitly with "yes" to proceed.',
    "Please confirm if all the above details are correct.",
)
ANYTHING_ELSE = "Is there anything else I can help you with?"


RECAPS = (
    "Just to be sure: you want me to {action}?",
    "To confirm, you'd like me to {action}?",
    "So that we're clear, shall I {action}?",
    "Please confirm: I will {action}.",
)
# A write's result in other words: its reported value with another sentence around it.
RESULT_FORMS = (
    "{label}: {value}.",
    "All done - your {label} is {value}.",
    "It went through; the {label} is {value}.",
    "Your request is complete ({label} {value}).",
)
BARE = "Shall I proceed?"


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
    confirm: str = "Shall I go ahead?"
    recap: str | None = None  # the proposal as a question restating the action
    synonyms: int | None = None  # each reason said with other phrases of its concept
    result_form: int = 0  # which reported value tells a write's result, and in what sentence
    alternative: bool = False  # another value the policy allows (GoldCall.allowed)
    anything_else: bool = False
    # corruptions
    skip_quote: bool = False
    no_consent: bool = False
    quote_after_yes: bool = False
    extra_write: bool = False
    forbidden: bool = False
    wrong_record: bool = False
    other_record: bool = False  # a write proposed on another of the customer's cards, FDs, loans
    pasted: bool = False
    hedged: bool = False
    no_results: bool = False  # no write's result told
    no_reasons: bool = False  # no refusal's reason told
    recite: bool = False  # every answer followed by a prose account of every record
    ask_secret: bool = False  # the opening asks for the PIN, CVV, OTP and card number
    no_warning: bool = False  # a volunteered secret let pass
    bare: bool = False  # each proposal a bare "Shall I proceed?"
    reuse_yes: bool = False  # the second write of an instruction made on the first's yes
    peek: bool = False  # a first look at another customer's account
    wrong_rule: bool = False  # each figure of the policy in a refusal's rule told otherwise


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


def _quote(task: Task, write: GoldCall, style: Style, chosen: dict[str, Any]) -> str:
    """The values the policy says are told before the write; the agent's choice where it took
    another allowed value."""
    said = []
    for d in task.disclosures:
        if d.write != write.id:
            continue
        swapped = next((str(chosen[n]) for n in chosen if str(write.arguments[n]) == d.value), None)
        said.append(
            sentence(d.model_copy(update={"value": swapped}) if swapped else d, style.value_style)
        )
    return " ".join(said)


def _proposal(call: ToolCall, quote: str, explain: str, style: Style, task: Task) -> str:
    """What the write will do, its quote, and the question (or a recap that asks)."""
    if style.bare:
        return BARE
    action = describe_call(speech.as_gold(call), speech.record(task, call))
    if style.recap is not None:
        return " ".join(p for p in (explain, style.recap.format(action=action), quote) if p)
    told = f"Here is what I will do: {action}."
    return " ".join(p for p in (explain, told, quote, style.confirm) if p)


def _results(events: Sequence[Event], since: int, pick: int) -> list[ToldValue]:
    """Each write's result since `since`: the `pick`-th value its tool reports."""
    tools = all_tools()
    told = []
    for event in events[since:]:
        if not (isinstance(event, ToolEvent) and event.took_effect and event.output):
            continue
        spec = tools.get(event.call.name)
        shown = [
            (name, kind, str(event.output[name]))
            for name, _, kind in (r.partition(":") for r in (spec.reports if spec else ()))
            if event.output.get(name) not in (None, "")
        ]
        if shown:
            name, kind, value = shown[pick % len(shown)]
            label = REPORT_LABELS.get(name, name.replace("_", " "))
            told.append(ToldValue(label=label, kind=kind, value=value))
    return told


def _told_results(values: Sequence[ToldValue], style: Style) -> str:
    form = RESULT_FORMS[style.result_form % len(RESULT_FORMS)]
    return " ".join(form.format(label=v.label, value=render(v, style.value_style)) for v in values)


def _closing(
    task: Task, instruction: int, style: Style, explain: str
) -> Callable[[Sequence[Event], int], str]:
    outputs = [o for o in task.required_outputs if o.instruction == instruction]

    def say(events: Sequence[Event], since: int) -> str:
        asked = {(o.kind, o.value) for o in outputs}
        results = [
            r
            for r in _results(events, since, style.result_form)
            if (r.kind, r.value) not in asked and not style.no_results
        ]
        if style.pasted and outputs:
            raw = {o.label.replace(" ", "_"): o.value for o in outputs}
            said = "Here are the details:\n" + json.dumps(raw)
        else:
            said = " ".join(
                f"It is {o.value} or {o.rivals[0]}, I am not certain."
                if style.hedged and o.kind == "choice" and o.rivals
                else sentence(o, style.value_style)
                for o in outputs
            )
        if explain:
            opening = f"I'm sorry, I can't do that. {explain}"
        else:
            opening = "" if style.no_results else "That is done."
        text = " ".join(p for p in (opening, _told_results(results, style), said) if p)
        if style.recite:
            text = f"{text} {recital(events)}"
        return text or "Is there anything else?"

    return say


def _handing_over(call: ToolCall, style: Style) -> Callable[[Sequence[Event], int], str]:
    def say(events: Sequence[Event], since: int) -> str:
        done = (
            ""
            if style.no_results
            else _told_results(_results(events, since, style.result_form), style)
        )
        text = f"{done} {speech.SAY.handoff(speech.as_gold(call))}".strip()
        return f"{text} {recital(events)}" if style.recite else text

    return say


_PLAIN = {"#": "5", "*": "your"}


def _phrasings(name: str) -> list[str]:
    """A concept's phrases as one might say them: a number for `#`, a word for `*`."""
    table = tomllib.loads((data_dir() / "concepts.toml").read_text(encoding="utf-8"))[name]
    return [
        " ".join(_PLAIN.get(w, w.rstrip("*")) for w in phrase.split())
        for phrase in table["phrases"]
    ]


def reworded(task: Task, text: str, seed: int) -> str:
    """The text with each reason said in other phrases of its concept ("pledged as security"
    for "under lien"), where the concept still reads in the new words."""
    rng = random.Random(f"{task.task_id}:{seed}:synonyms")
    # a synonym must not bring in a rival of a categorical answer ("pending" for "expired")
    rivals = {w.lower() for o in task.required_outputs for r in o.rivals for w in r.split()}
    for tell in task.tells:
        if tell.kind != "reason":
            continue
        for name in tell.concepts:
            pattern = telling.concept(name)
            for m in reversed(list(pattern.finditer(text))):
                if telling.taken_back(text, m.start()):
                    continue
                # A phrasing with a figure ("only after 5 EMIs") states a rule's figure, which is
                # the policy's for this product, not the concept's (scoring/rule_figures.py).
                others = [
                    p
                    for p in _phrasings(name)
                    if p.lower() != m.group(0).lower()
                    and not set(p.lower().split()) & rivals
                    and not any(c.isdigit() for c in p)
                ]
                if not others:
                    continue
                new = text[: m.start()] + rng.choice(others) + text[m.end() :]
                if telling.says(name, new):
                    text = new
    return text


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


def _someone_elses_account(task: Task) -> str:
    with Bank(task.customer_id, task.task_date, task.bank_seed) as bank:
        row = bank.one(
            "SELECT account_number FROM accounts WHERE customer_id != ? ORDER BY account_number",
            task.customer_id,
        )
    assert row is not None
    return str(row["account_number"])


def _chosen(call: GoldCall, style: Style) -> dict[str, Any]:
    """The other allowed value of each argument that has one, when the style takes it."""
    if not style.alternative:
        return {}
    return {name: values[0] for name, values in call.allowed.items() if values}


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
    out = Plan(warn=not style.no_warning)
    opening = speech.opening(task)
    if style.ask_secret:
        opening = f"{opening or ''} {AskSecretsAgent.ASK}".strip()
    if opening:
        out.moves.append(opening)
    if style.peek:
        peek = {"account_number": _someone_elses_account(task)}
        out.moves.append([ToolCall(call_id="x-peek", name="get_account_balance", arguments=peek)])
    if style.recite:
        out.moves.append([ToolCall(call_id=f"x-all-{n}", name=n, arguments={}) for n in OPEN_READS])
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
        reason = task.scenario.instructions[instruction].explain or ""
        if style.synonyms is not None:
            reason = reworded(task, reason, style.synonyms)
        if style.no_reasons or style.bare:
            reason = ""  # a bare proposal states nothing, and the reason is never said
        if style.wrong_rule:
            reason = wrong_rule_figures(reason)
        proposed = 0
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
            made = _gold_call(call)
            picked = _chosen(call, style)
            if picked:
                made = made.model_copy(update={"arguments": {**call.arguments, **picked}})
            if call.tool == HANDOFF:
                out.moves.append(Speech(_handing_over(made, style)))
                out.moves.append([made])
                continue
            reused = style.reuse_yes and proposed == 1
            if not style.no_consent and not reused:
                quote = "" if style.quote_after_yes else _quote(task, call, style, picked)
                named = (speech.another_record(task, made) if style.other_record else None) or made
                out.moves.append(_proposal(named, quote, reason, style, task))
                reason = ""
                if task.scenario.instructions[call.instruction].correction:
                    # the customer corrects the first proposal; a careful agent proposes again
                    out.moves.append(_proposal(made, quote, "", style, task))
                if style.quote_after_yes:
                    late += [sentence(d, 0) for d in task.disclosures if d.write == call.id]
                proposed += 1
            elif reason and not reused:
                out.moves.append(reason)  # the reason, though the write is not asked for
                reason = ""
            if style.wrong_record and not wrong_done:
                wrong = _wrong_record(task, call)
                if wrong is not None:
                    wrong_done = True
                    out.moves.append([wrong])
                    continue
            out.moves.append([_with_defaults(made, style.defaults)])
        if instruction == 0 and style.forbidden:
            attempt = _forbidden_for(task)
            if attempt is not None:
                out.moves.append([attempt])
        last = instruction == instructions - 1
        closing = _closing(task, instruction, style, reason)

        def said(
            events: Sequence[Event],
            since: int,
            closing: Callable[[Sequence[Event], int], str] = closing,
            late: list[str] = late,
            last: bool = last,
        ) -> str:
            text = " ".join([*late, closing(events, since)])
            return f"{text} {ANYTHING_ELSE}" if last and style.anything_else else text

        out.moves.append(Speech(said))
    return out


def other_record_applies(task: Task) -> bool:
    return any(
        _kind(g) == "write" and speech.another_record(task, _gold_call(g)) is not None
        for g in task.gold
    )


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


def told_only_at_the_end(task: Task) -> bool:
    """A required output that no disclosure before a write already tells, nor a reason or a
    hand-off's summary."""
    disclosed = {(d.kind, d.value) for d in task.disclosures}
    elsewhere = [i.explain or "" for i in task.scenario.instructions]
    elsewhere += [str(g.arguments.get("summary", "")) for g in task.gold if g.tool == HANDOFF]
    return any(
        (o.kind, o.value) not in disclosed and not mine.told(o, elsewhere)
        for o in task.required_outputs
    )


def quote_late_applies(task: Task) -> bool:
    """A write with a disclosure its own action statement does not already tell."""
    for write in task.gold:
        stated = describe_call(write)
        if any(d.write == write.id and not mine.told(d, [stated]) for d in task.disclosures):
            return True
    return False


# -- a rule told with another figure than the policy's ------------------------------------------
_POLICY_AMOUNT = re.compile(r"Rs\.? ?(\d[\d,]*)")
_POLICY_COUNT = re.compile(r"\b(\d+) (EMIs|months|years|days)\b")
_RULE_WORDS: tuple[str, ...] = (
    "at most",
    "at least",
    "maximum",
    "minimum",
    "up to",
    "lock-in",
    "until",
    "or more",
)
_RULE_WORDS += ("can't be closed", "fixed tenure", "can only be")


def _policy_figures() -> tuple[set[str], set[tuple[str, str]]]:
    text = policy_text()
    amounts = {m.replace(",", "") for m in _POLICY_AMOUNT.findall(text)}
    return amounts, set(_POLICY_COUNT.findall(text))


def wrong_rule_figures(reason: str) -> str:
    """The reason with each figure of the policy in a sentence that states a rule changed: an
    amount three times over and Rs 1,234 (no figure a session gives), a count 7 more ("at most
    Rs. 1,51,234" for Rs. 50,000, "until 19 EMIs", "a lock-in of 12 years"); other figures (the
    customer's, the record's) kept."""
    amounts, counts = _policy_figures()

    def amount(m: re.Match[str]) -> str:
        plain = m.group(1).replace(",", "")
        if plain not in amounts:
            return m.group(0)
        return indian(to_paise(str(int(plain) * 3 + 1234))).removesuffix(".00")

    def count(m: re.Match[str]) -> str:
        if (m.group(1), m.group(2)) not in counts:
            return m.group(0)
        return f"{int(m.group(1)) + 7} {m.group(2)}"

    out = []
    for sentence in re.split(r"(?<=[.!?])\s+(?=[A-Z])", reason):
        if any(w in sentence.lower() for w in _RULE_WORDS):
            sentence = _POLICY_COUNT.sub(count, _POLICY_AMOUNT.sub(amount, sentence))
        out.append(sentence)
    return " ".join(out)
