"""Mutations of the calls: a read or write left out, added, changed, reordered, run into a
limit, an output left out, a write made without asking or quoted late, a write the bank refuses,
defaults left out, a fact read elsewhere, a pasted answer (tests/scoring/mutations.py plays
them)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import replace
from datetime import date, timedelta
from decimal import Decimal
from typing import Any

from pytest_bankbench.bank.facts import fact_fields
from pytest_bankbench.bank.registry import all_tools, get_tool
from pytest_bankbench.simulation.agents import (
    spoken_value,
)
from pytest_bankbench.simulation.session import Limits
from pytest_bankbench.simulation.trace import Event, ToolCall, Trace
from pytest_bankbench.tasks.model import GoldCall, Task, ToldValue
from tests.scoring import speech
from tests.scoring.independent_scorer import told
from tests.scoring.mutations import (
    Expect,
    Lookup,
    Mutant,
    Step,
    all_but,
    before_end,
    cheque_book,
    covers,
    disclosures_of,
    entry_of,
    gold_plan,
    has_handoff,
    kind_of,
    latest,
    look_around,
    make_call,
    only_fails,
    positions,
    said_only_there,
    say,
    scripted,
    shown_elsewhere,
    shows_need,
    spare_card,
    still_shown,
    unique,
    wordings,
)


# -- mutations -------------------------------------------------------------------------------
def drop_call(task: Task, gold: Trace, kind: str, salt: int = 0) -> Mutant | None:
    """The gold chain with one read (or one write) left out. A required fact another result
    shows at an allowed place is not missed (a write's result included)."""
    plan = gold_plan(task, gold)
    candidates = [s for s in plan if kind_of(entry_of(task, s.gold_id).tool) == kind]
    if not candidates:
        return None
    dropped = candidates[salt % len(candidates)]
    entry = entry_of(task, dropped.gold_id)
    if entry.facts is None:
        expect = Expect(fails=("required_calls",)) if unique(task, entry) else Expect()
        shown = ""
    else:
        still = still_shown(task, gold, entry)
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


def _block_spare_card(task: Task, call_id: str) -> Lookup:
    def decide(events: Sequence[Event]) -> list[ToolCall]:
        card = spare_card(task, events)
        if card is None:
            return cheque_book(call_id)(events)
        return [make_call(call_id, "block_card", card_id=card, reason="damaged")]

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
    repeatable = [s for s in plan if s.gold_id and entry_of(task, s.gold_id).tool in REPEATABLE]
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
        steps = before_end(
            plan, [*look_around(last), Step(_block_spare_card(task, "extra-block"), last)]
        )
        detail = "blocked a card at the end"
    else:
        steps = [
            Step(make_call("look-accounts", "list_accounts"), 0),
            Step(cheque_book("extra-cheque-book"), 0),
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
        card = spare_card(task, events)
        if card is None:
            return []
        chosen["card"] = card
        return [make_call("look-card", "get_card_details", card_id=card)]

    def change(events: Sequence[Event]) -> list[ToolCall]:
        if "card" not in chosen:  # no active card: an unrequested write without an undo
            return cheque_book("extra-cheque-book")(events)
        atm = latest(events, "get_card_details")["controls"]["atm"]
        chosen["enabled"], chosen["limit"] = atm["enabled"], atm["daily_limit"]
        new = 1000 if Decimal(atm["daily_limit"]) != 1000 else 2000
        return [
            make_call(
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
            make_call(
                "extra-undo",
                "set_card_channel_limit",
                card_id=chosen["card"],
                channel="atm",
                enabled=chosen["enabled"],
                daily_limit=chosen["limit"],
            )
        ]

    steps = before_end(
        plan, [*look_around(last), Step(details, last), Step(change, last), Step(undo, last)]
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
    candidates = [s for s in plan if s.gold_id and entry_of(task, s.gold_id).match]
    if not candidates:
        return None
    step = candidates[salt % len(candidates)]
    entry = entry_of(task, step.gold_id)
    assert entry.facts is None, "a required fact matches no arguments"
    name = entry.match[salt % len(entry.match)]
    assert isinstance(step.call, ToolCall) and step.call.arguments is not None
    wrong = perturb(step.call.arguments[name])
    for _ in range(100):  # past every value the policy allows as well (a count of 4 to 50)
        if wrong not in entry.values(name):
            break
        wrong = perturb(wrong)
    args = {**step.call.arguments, name: wrong}
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
        return covers(entry, entry_of(task, step.gold_id))
    event = gold.tool_events()[positions(gold)[str(step.gold_id)]]
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
    first = next(i for i, s in enumerate(rest) if _serves(task, gold, entry_of(task, dep), s))
    steps = [*rest[:first], replace(moved, instruction=rest[first].instruction), *rest[first:]]
    # A required fact may be shown by another result at an allowed place.
    bites = unique(task, late) if late.facts is None else not shown_elsewhere(task, gold, late)
    return Mutant(
        "break_order",
        f"{late.id} {late.tool} played before {dep} {entry_of(task, dep).tool}",
        scripted("break-order", task, steps),
        expect=Expect(fails=("required_calls",) if bites else ()),
    )


def exceed_steps(task: Task, gold: Trace, salt: int = 0) -> Mutant:
    """The gold chain, then endless reads until the step limit."""
    reads = ("get_customer_profile", "list_accounts", "get_service_requests")
    read = reads[salt % len(reads)]
    limits = Limits(max_steps=(200, 60, 40)[salt % 3])
    # With a hand-off, the loop runs before it: the hand-off call is never made.
    # With a hand-off, the tail runs before it: the hand-off is never made nor announced.
    held = (
        all_but("ended_normally", "required_calls", "told_customer")
        if has_handoff(task)
        else all_but("ended_normally")
    )
    return Mutant(
        "max_steps",
        f"endless {read}, limit {limits.max_steps}",
        scripted(
            "loop", task, gold_plan(task, gold), tail=lambda events: [make_call("loop", read)]
        ),
        limits=limits,
        expect=Expect(fails=("ended_normally",), holds=held),
    )


def exceed_errors(task: Task, gold: Trace, salt: int = 0) -> Mutant:
    """The gold chain, then failing calls until the error limit (a rejected write, among others,
    refused as malformed or unknown: no attempt a bank rule stopped)."""
    failing = (
        make_call("err", "block_card", card_id="CRD999999", reason="lost"),
        make_call("err", "get_balance", account_number="1"),
        ToolCall(
            call_id="err",
            name="get_account_balance",
            arguments=None,
            raw_arguments='{"account_number": ',
        ),
        make_call(
            "err",
            "transfer_funds",
            from_account="50100000000000",
            beneficiary_id="BEN000000",
            amount=10,
            mode="NEFT",
        ),
    )[salt % 4]
    # With a hand-off, the tail runs before it: the hand-off is never made nor announced.
    held = (
        all_but("ended_normally", "required_calls", "told_customer")
        if has_handoff(task)
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
    candidates = said_only_there(task, gold)
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
        expect=only_fails("required_outputs", "told_customer"),
    )


# -- consent, attempts, defaults, facts, pasted records -------------------------------------
def write_without_asking(task: Task, gold: Trace, salt: int = 0) -> Mutant | None:
    """The first gold write made without proposing it: the customer never said yes before it."""
    del salt
    plan = gold_plan(task, gold)
    first = next((s for s in plan if s.confirm), None)
    if first is None:
        return None
    entry = entry_of(task, first.gold_id)
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
            for w in wordings(o)
        }
        earlier |= {
            w
            for s in plan[:n]
            if s.confirm
            for d in disclosures_of(task, s.gold_id)
            for w in wordings(d)
        }
        assert isinstance(step.call, ToolCall)
        stated = speech.proposal(step.call, [])  # the action itself may state a value
        if any(
            not wordings(d) & earlier and not told(d, [stated])
            for d in disclosures_of(task, step.gold_id)
        ):
            candidates.append(step)
    if not candidates:
        return None
    late = candidates[salt % len(candidates)]
    entry = entry_of(task, late.gold_id)
    return Mutant(
        "told_after_yes",
        f"{entry.id} {entry.tool}: disclosures told after the write",
        scripted("told-late", task, [replace(s, quote=False) if s is late else s for s in plan]),
        expect=only_fails("disclosure_consent"),
    )


def _forbidden_write(call_id: str, variant: int) -> Lookup:
    """A write a bank rule refuses: an ATM limit far above any card's maximum, a deposit
    larger than the account's available balance, or an FD tenure of 0 or 40,000 days (the
    policy allows 7 to 3650; the tool refuses those numbers as invalid arguments)."""

    def decide(events: Sequence[Event]) -> list[ToolCall]:
        cards = latest(events, "list_cards")["cards"]
        if cards and variant == 0:
            return [
                make_call(
                    call_id,
                    "set_card_channel_limit",
                    card_id=cards[0]["card_id"],
                    channel="atm",
                    enabled=True,
                    daily_limit=99_999_999,
                )
            ]
        accounts = latest(events, "list_accounts")["accounts"]
        account = next((a for a in accounts if a["status"] == "active"), accounts[0])
        amount = Decimal(str(account["available_balance"])) + 10_000
        tenure = {2: 0, 3: 40_000}.get(variant)
        if tenure is not None:
            amount = Decimal(10_000)
        return [
            make_call(
                call_id,
                "create_fd",
                from_account=account["account_number"],
                amount=float(amount),
                tenure_days=400 if tenure is None else tenure,
            )
        ]

    return decide


def attempt_forbidden_write(task: Task, gold: Trace, salt: int = 0) -> Mutant:
    """The gold chain plus a write the bank refuses by rule: an attempt, so unrequested."""
    plan = gold_plan(task, gold)
    last = len(task.scenario.instructions) - 1
    variant = salt % 4
    steps = before_end(
        plan, [*look_around(last), Step(_forbidden_write("attempt-write", variant), last)]
    )
    return Mutant(
        "attempted_write",
        (
            "ATM limit above the card maximum",
            "deposit above the balance",
            "FD tenure of 0 days",
            "FD tenure of 40,000 days",
        )[variant],
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
        entry = entry_of(task, step.gold_id)
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
    shorter = replace(step, call=step.call.model_copy(update={"arguments": args}), said=step.call)
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
            calls.append(make_call(call_id, name))
        elif len(required) == 1 and required[0] in keys:
            calls.append(make_call(call_id, name, **{required[0]: need.key}))
    return calls


def fact_from_another_tool(task: Task, gold: Trace, salt: int = 0) -> Mutant | None:
    """A required fact read through another tool whose result shows it: a pass."""
    plan = gold_plan(task, gold)
    options = [
        (step, other)
        for step in plan
        if (entry := entry_of(task, step.gold_id)).facts is not None
        for other in _other_tool_calls(entry, f"other-{entry.id}")
    ]
    if not options:
        return None
    step, other = options[salt % len(options)]
    return Mutant(
        "fact_elsewhere",
        f"{step.gold_id} {entry_of(task, step.gold_id).tool} read with {other.name}",
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
    candidates = said_only_there(task, gold)
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
        expect=only_fails("required_outputs", "told_customer"),
    )
