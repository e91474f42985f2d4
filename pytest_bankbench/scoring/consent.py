"""Disclosure and consent before a write: the action and its values proposed, a clear yes to
that proposal, then the write (policy D.14-18).

Every call in the trace that matches a gold write must come after a customer turn that agrees,
and that yes counts only for what the proposal it answers stated. The proposal is every agent
message since the previous yes or the previous write (a quote and its question may come
together or apart), but for questions that only ask for details. It must state the action
(what: "close", "send", "block", ... read with the customer's vocabulary of actions), the
account it debits or names (its last four digits), the card, FD or loan it acts on (in any way
records.py recognises: "your card ending 2546", "the FD of Rs. 31,000 opened on 25 January
2026", "your home loan" when it is the only one), the amount, the mode and a card's channel
(in any words: "usage abroad") where the call has them, and every value the policy lists for
the write
(`Disclosure`: the quote). A bare "Shall I proceed?" states nothing, so its yes covers nothing;
a yes covers a second write only when the same proposal stated both.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from datetime import date
from decimal import Decimal
from functools import lru_cache

from pytest_bankbench.concepts import mentions, vocabulary

# `told` names the disclosures' reader here: the values' reader over messages is said_any.
from pytest_bankbench.periods import named_periods, period_days
from pytest_bankbench.records import (
    RECORD_ARGS,
    Holding,
    RecordKind,
    holdings,
    named_in,
    sentences,
)
from pytest_bankbench.scoring.dates_told import task_day
from pytest_bankbench.scoring.outputs import OutputKind, shown
from pytest_bankbench.scoring.outputs import told as said_any
from pytest_bankbench.scoring.proposed_figures import stray_figures
from pytest_bankbench.scoring.view import Call, Message, SessionView
from pytest_bankbench.simulation.acts_rules import ACTION_RULES, TOOL_ACTIONS
from pytest_bankbench.simulation.trace import MessageEvent, ToolEvent
from pytest_bankbench.tasks.model import Disclosure, GoldCall, Task

# The arguments a proposal must state when the call has them (D.15): amounts, the mode, and the
# account named (by its last four digits or in full).
AMOUNT_ARGS = ("amount", "monthly_instalment", "daily_limit")
MODE_ARGS = ("mode",)
# A statement's period (from_date, to_date): a proposal states it in any words that name its
# days (periods.py: "1 January to 31 March 2026", "Jan-Mar 2026", "the last 3 months").
DATE_ARGS = ("from_date", "to_date")
ACCOUNT_ARGS = ("from_account", "account_number", "to_account")

# How a customer who was not recorded as agreeing or not (an LLM customer) reads: a turn that
# opens with a yes and carries no no. A scripted customer records its own reading instead.
_YES = re.compile(
    r"^\W*(yes|yeah|yep|yup|sure|ok|okay|haan|ha|ji|han|correct|confirm(ed)?|i confirm|"
    r"i agree|agreed|go ahead|please (go ahead|proceed|do it|do that)|proceed|do it|"
    r"that'?s (fine|ok|okay|right)|sounds good|fine|alright|all right)\b",
    re.IGNORECASE,
)
# A no aimed at the proposal; "stop" and "not" are left out: "Yes, please stop the cheque".
_NO = re.compile(
    r"\b(no|don'?t|do not|not now|never mind|cancel( it| that)?|wait|hold on|decline|nahi)\b",
    re.IGNORECASE,
)


def reads_as_agreement(text: str) -> bool:
    """A customer turn that says yes, plainly, and nothing that takes it back."""
    return bool(_YES.search(text)) and not _NO.search(text)


def agrees(event: MessageEvent) -> bool:
    """The customer's turn agrees: its own recorded reading, else the text's."""
    if event.role != "customer":
        return False
    return event.agrees if event.agrees is not None else reads_as_agreement(event.text)


Told = Callable[[Disclosure, Sequence[str]], bool]
Matches = Callable[[GoldCall, Call], bool]


def consent_failures(
    task: Task, view: SessionView, writes: Sequence[str], told: Told, matches: Matches
) -> list[str]:
    """Evidence lines for each gold write (by id) made without a yes to a proposal that stated
    it: its action, record, amount and mode, and the values the policy lists for it."""
    by_write: dict[str, list[Disclosure]] = {w: [] for w in writes}
    for disclosure in task.disclosures:
        by_write.setdefault(disclosure.write, []).append(disclosure)
    if not by_write:
        return []
    gold = {g.id: g for g in task.gold}
    problems: list[str] = []
    yeses: list[Message] | None = None  # the customer's agreeing turns, read when first needed
    held: tuple[Holding, ...] = ()
    for call in view.successful:
        for write_id, values in by_write.items():
            if matches(gold[write_id], call):
                if yeses is None:
                    yeses = [m for m in view.messages if agrees(m.event)]
                held = _held(task, call, held)
                problems.extend(_check_one(write_id, call, values, view, told, yeses, held))
                break
    return problems


def unagreed_writes(
    task: Task, view: SessionView, writes: Sequence[ToolEvent], told: Told
) -> list[str]:
    """Evidence for each write that took effect though no gold write asked for it (`writes`,
    write purity's) and that no yes covers: a write nobody agreed to fails consent as well."""
    if not writes:
        return []
    wanted = {id(w) for w in writes}
    yeses = [m for m in view.messages if agrees(m.event)]
    problems: list[str] = []
    held: tuple[Holding, ...] = ()
    for call in view.effective:
        if id(call.event) in wanted:
            held = _held(task, call, held)
            problems.extend(_check_one("unrequested", call, [], view, told, yeses, held))
    return problems


def _held(task: Task, call: Call, held: tuple[Holding, ...]) -> tuple[Holding, ...]:
    """The customer's records of the kinds the call's arguments name (`held`, when it has
    them all already)."""
    arguments = call.event.call.arguments or {}
    kinds = tuple(sorted({RECORD_ARGS[a] for a in arguments if a in RECORD_ARGS}))
    if kinds and not {h.kind for h in held} >= set(kinds):
        return holdings(task.customer_id, task.task_date, task.bank_seed, kinds)
    return held


def proposal_window(
    view: SessionView, position: int, yeses: Sequence[Message] | None = None
) -> tuple[Message | None, list[Message]]:
    """The last yes before `position` and the agent messages of the proposal it answers: those
    since the yes before it or the write before it, whichever is later (`yeses`: the session's
    agreeing turns, when already read)."""
    if yeses is None:
        yeses = [m for m in view.messages if agrees(m.event)]
    earlier = [m for m in yeses if m.position < position]
    if not earlier:
        return None, []
    yes = earlier[-1]
    start = earlier[-2].position if len(earlier) > 1 else -1
    start = max(
        start,
        max((c.position for c in view.effective if c.position < yes.position), default=-1),
    )
    said_ = [
        m for m in view.agent if start < m.position < yes.position and not _only_asks(m.lowered)
    ]
    return yes, said_


@lru_cache(maxsize=1024)  # as the readers of scoring/outputs.py: stock sentences recur
def _only_asks(lowered: str) -> bool:
    """A question for details ("which channel, and the limit you want?") proposes nothing: the
    action it names is the customer's request, not a statement of what the agent will do. Read
    with two patterns, not the customer's whole reader: scoring reads every proposal (in lower
    case)."""
    return bool(_ASKS_DETAIL.search(lowered)) and not _PROPOSES.search(lowered)


# A question for a detail, and the words of a request for consent (acts_rules.py has the full
# reader; these are its gist, enough to tell "which card?" from "shall I block it?").
# Each opens by looking ahead for the first letters of its words: the engine then leaves most
# positions after one test.
_ASKS_DETAIL = re.compile(
    r"(?=[whpkcm])"
    r"(?:\b(which|what|how much|how many|how long|when|where|whose|who)\b[^?:\n]*\?"
    r"|\b(please|kindly|could you|can you|may i)\b[^.?!]*\b(tell|share|provide|give|let me know|"
    r"confirm (the|your|which))\b)"
)
# "I can't switch it on for the card ending 7559" proposes nothing; "I could switch it on for
# the card ending 0427 instead" does (independent careful agent, issue 16). A recap that says
# what "this will" do and asks whether it is right ("Please confirm the details above.", "Is
# that correct?", "Please let me know if this is correct.") proposes it (false-fail hunt: 212 of
# 299 tasks with a write failed with those recaps); "Could you confirm your account number?"
# still only asks.
_PROPOSES = re.compile(
    r"(?=[scmwdgporhialt])"
    r"(?:\b(shall|should|may|can) (i|we)\b|\b(would|do) you (like|want) (me|us)\b|\bwant me to\b"
    r"|\bgo ahead\b|\bproceed\b|\bok(ay)? to\b|\breply\b[^.?!]{0,20}\byes\b|\bhere is what i will\b"
    r"|\bi will\b|\bi'll\b|\bi can\b(?!'t|’t| not)|\bi could\b(?!n't|n’t| not)|\bthis will\b"
    r"|\bconfirm\b[^.?!]{0,40}\b(correct|right|accurate|above|below|summary|following)\b"
    r"|\bconfirm (the|these) details\b(?! of)"
    r"|\b(is|are) (that|this|these|everything|all|the above|the details)\b[^.?!]{0,25}"
    r"\b(correct|right|accurate|ok|okay|fine)\b"
    r"|\blet me know if\b[^.?!]{0,30}\b(correct|right|accurate|ok|okay|fine)\b)"
)


def unstated(
    call: ToolEvent, proposal: Sequence[Message], held: Sequence[Holding] = ()
) -> list[str]:
    """What of the call the proposal did not state: the action, the account, the card, FD or
    loan (`held`: the customer's records), amount, mode."""

    texts = [m.text for m in proposal]

    def stated(kind: OutputKind, value: str) -> bool:
        return said_any(kind, value, texts)

    missing: list[str] = []
    actions = TOOL_ACTIONS.get(call.call.name, ())
    if actions and not any(_names(a, m.lowered) for a in actions for m in proposal):
        missing.append(f"the action ({call.call.name.replace('_', ' ')})")
    args = call.call.arguments or {}
    for name, amount in _amounts(call):
        if not stated("amount", str(amount)):
            missing.append(f"the {name.replace('_', ' ')} ({shown('amount', str(amount))})")
    for name in MODE_ARGS:
        if isinstance(args.get(name), str) and not (
            stated("choice", str(args[name])) and _mode_alone(str(args[name]), texts)
        ):
            missing.append(f"the {name} ({args[name]})")
    for name in DATE_ARGS:
        day = _day(args.get(name))
        if day is not None and not _names_day(day, texts):
            missing.append(f"the {name.replace('_', ' ')} ({shown('date', day.isoformat())})")
    channel = args.get("channel")  # a yes to the ATM limit is none to international usage
    if isinstance(channel, str) and not _names_channel(channel, proposal):
        missing.append(f"the channel ({channel})")
    for name in ACCOUNT_ARGS:
        number = str(args.get(name) or "")
        if len(number) >= 8 and not (stated("digits", number[-4:]) or stated("digits", number)):
            missing.append(f"the account ({name.replace('_', ' ')} ending {number[-4:]})")
    for name, kind in RECORD_ARGS.items():
        key = args.get(name)
        if isinstance(key, str) and not _names_record(key, kind, actions, proposal, held):
            missing.append(f"which {kind} ({key}: by its id, last digits, type or details)")
    return missing


def _names_record(
    key: str,
    kind: RecordKind,
    actions: Sequence[str],
    proposal: Sequence[Message],
    held: Sequence[Holding],
) -> bool:
    """The proposal names the record the write acts on. Where its sentences that propose the
    action ("I will ...", "shall I ...") name records of its kind, they name this one only
    ("I'll close your FD ending 1217" is no proposal to close FD001219, whatever another
    sentence says of it); else any sentence or message names it."""
    wanted = key.strip().upper()
    texts = [m.text for m in proposal]
    # Most proposals name no record of the kind but this one: then no sentence of them names
    # another (a sentence says fewer marks than its message, records.py _told), and the answer
    # is whether they name this one, read without taking them apart into sentences.
    found = {k.upper() for k in named_in(texts, held, kind)}
    if found <= {wanted}:
        return wanted in found
    # A record named after "not" is one the action leaves alone ("I will close only this FD, not
    # your other FD ending 1216"; "I will not close your other FD"): that part is no proposal.
    proposing = [
        s
        for m in proposal
        for s in (_NOT_THIS.sub("", part) for part in sentences(m.text))
        if _PROPOSES.search(low := s.lower()) and any(_names(a, low) for a in actions)
    ]
    there = {k.upper() for k in named_in(proposing, held, kind)}
    return there == {wanted} if there else wanted in found


def _day(value: object) -> date | None:
    try:
        return date.fromisoformat(value) if isinstance(value, str) else None
    except ValueError:
        return None


def _names_day(day: date, texts: Sequence[str]) -> bool:
    """Some text says the day, alone or as a bound of a period ("Jan-Mar 2026" names 1 January
    and 31 March 2026), read against the task's date (a period may be "the last 3 months")."""
    if said_any("date", day.isoformat(), texts):
        return True
    today = task_day()
    if today is not None and any(day in period_days(t, today) for t in texts):
        return True
    return any(day in bounds for t in texts for bounds in named_periods(t.lower()))


def _mode_alone(mode: str, texts: Sequence[str]) -> bool:
    """Some sentence names the mode and no other un-negated: "by NEFT, IMPS or RTGS (whichever
    I pick)" states none of them (careless-agent trial: it passed 100 of 100), "by NEFT, not
    IMPS" and "NEFT or RTGS can carry it. I will send it by NEFT." state NEFT."""
    own = mode.lower()
    for text in texts:
        lowered = text.lower()
        for part in _PART.split(lowered) if own in lowered else ():
            named = {m.group() for m in _MODE.finditer(_NOT_THIS.sub("", part))}
            if named == {own}:
                return True
    return False


_MODE = re.compile(r"\b(?:neft|imps|rtgs|upi)\b")
_PART = re.compile(r"(?<=[.!?])\s+|\n+")  # sentences and lines, read in lower case


# From a "not" (or "rather than", "instead of") to its clause's end.
_NOT_THIS = re.compile(r"(?:\bnot\b|n't\b|\brather than\b|\binstead of\b)[^,;:.!?]*", re.IGNORECASE)


def _names_channel(channel: str, proposal: Sequence[Message]) -> bool:
    """The proposal names the card channel in any words ("usage abroad" for international)."""
    name = f"channel_{channel}"
    return name in vocabulary() and any(mentions(name, m.text) for m in proposal)


@lru_cache(maxsize=64)
def _action_patterns(action: str) -> tuple[re.Pattern[str], ...]:
    """The customer's patterns of one action (simulation/acts_rules.py ACTION_RULES)."""
    return tuple(re.compile(p) for name, p in ACTION_RULES if name == action)  # lower case


def names_action(action: str, text: str) -> bool:
    """The text names the action as the customer reads actions ("close", "send", "block").
    Only the write's own actions are tried: reading a message for all of them was most of the
    cost of this check."""
    return _names(action, text.lower())


def _names(action: str, lowered: str) -> bool:
    for pattern in _action_patterns(action):  # noqa: SIM110 - a loop, as outputs.told
        if pattern.search(lowered):
            return True
    return False


def _amount(value: int | float | str) -> Decimal | None:
    try:
        return Decimal(str(value)).quantize(Decimal("0.01"))
    except ArithmeticError:
        return None


def _check_one(
    write_id: str,
    call: Call,
    values: list[Disclosure],
    view: SessionView,
    told: Told,
    yeses: Sequence[Message],
    held: Sequence[Holding],
) -> list[str]:
    event = call.event
    name = f"{write_id} {event.call.name}"
    yes, proposal = proposal_window(view, call.position, yeses)
    if yes is None:
        return [f"{name} was made without the customer's agreement before it"]
    missing = unstated(event, proposal, held)
    heard = repr(" ".join(yes.text.split())[:80]) if missing else ""  # quoted only in evidence
    problems = [
        f"{name}: the proposal the customer's yes ({heard}) answered did not state {what}"
        for what in missing
    ]
    texts = [m.text for m in proposal]
    problems += [
        f"{name}: {v.label} ({shown(v.kind, v.value)}) was not told in the proposal the customer agreed to"
        for v in values
        if not told(v, texts)
    ]
    amounts = [amount for _, amount in _amounts(event)]
    if amounts:
        quoted = [x for v in values if v.kind == "amount" for x in (v.value, *v.also)]
        problems += stray_figures(event, amounts, proposal, view, quoted, yes.position)
    return problems


def _amounts(call: ToolEvent) -> list[tuple[str, Decimal]]:
    """The call's amounts above nothing, each with its argument's name (AMOUNT_ARGS)."""
    args = call.call.arguments or {}
    found = [
        (name, _amount(v))
        for name in AMOUNT_ARGS
        if isinstance(v := args.get(name), int | float | str) and not isinstance(v, bool)
    ]
    return [(name, a) for name, a in found if a is not None and a > 0]
