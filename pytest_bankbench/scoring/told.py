"""What the agent must tell the customer, beyond the values asked for (policy H.29, I.32-34, J.38).

- The result of every write the agent made, after it: a value its tool reports (`reports`, in
  bank/tools_*.py: the reference, the new balance, the date), or, where the tool reports none,
  that the change was made (the `completed` concept, not said as under way: completion.py).
- Each of the task's `tells` (tasks/model.py `MustTell`): a refusal's reason, the alternative
  the policy says to offer, the hand-off team, the clarifying question; by concept, un-negated,
  or by value. A `before` one only counts before the gold call it names.
- A hand-off carries a summary: the amounts and dates of the gold summary are in the agent's
  `summary`, and a dispute or a complaint is called one.


Only the agent's own words count (scoring/own_words.py: raw output, pasted sentences and
recitals out; a reason read only where it is about the record in question). A card setting
told otherwise than the change set it is read in scoring/settings_told.py.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

from pytest_bankbench.concepts import says
from pytest_bankbench.scoring.agreed import agreed, unagreed
from pytest_bankbench.scoring.completion import denies, reports_done
from pytest_bankbench.scoring.corrections import restated, told, two_ways
from pytest_bankbench.scoring.handoff_summary import HANDOFF, summary_problems
from pytest_bankbench.scoring.handoff_team import wrong_teams
from pytest_bankbench.scoring.outputs import OutputKind, said, shown
from pytest_bankbench.scoring.own_words import (
    RECITAL_CHARS,
    RECITAL_RECORDS,
    Said,
    about_record,
    own_words,
    records,
)
from pytest_bankbench.scoring.settings_told import (
    SET_CHANNEL,
    TRANSFER,
    contrary_modes,
    contrary_settings,
)
from pytest_bankbench.scoring.view import Call, SessionView
from pytest_bankbench.tasks.model import GoldCall, MustTell, Task

Matches = Callable[[GoldCall, Call], bool]


def _first_call(gold: GoldCall, view: SessionView, matches: Matches) -> int | None:
    """Where the trace first makes the gold call (same tool, matched arguments), if it does."""
    return next((c.position for c in view.successful if matches(gold, c)), None)


def _tells_it(tell: MustTell, message: Said) -> bool:
    """Concepts are read in the message without raw output; values by their readers."""
    if any(says(c, message.plain) for c in tell.concepts):
        return True
    return any(
        said(v.kind, value, message.text, unit=v.unit, rivals=v.rivals)
        for v in tell.values
        for value in (v.value, *v.also)
    )


def _about(task: Task, key: str, message: Said) -> Said:
    """The message with what it says of another record than `key` blanked."""
    plain = about_record(task, key, message.plain)
    return message if plain == message.plain else message._replace(plain=plain, text=plain)


def _report(spec: str, output: dict[str, Any]) -> tuple[OutputKind, str] | None:
    name, _, kind = spec.partition(":")
    value = output.get(name)
    if value is None or value == "":
        return None
    return kind, str(value)  # type: ignore[return-value]


def untold_results(view: SessionView, messages: Sequence[Said]) -> list[str]:
    """Evidence for each write that took effect and was never reported after it."""
    problems: list[str] = []
    for call in view.effective:
        event, position, spec = call.event, call.position, call.spec
        if event.call.name == HANDOFF or spec is None or event.output is None:
            continue
        after = [m for m in messages if m.position > position and m.words]
        later = [m.words for m in after]
        # Each value the tool reports, by its field's name: (name, (kind, value)).
        named = [(s.partition(":")[0], r) for s in spec.reports if (r := _report(s, event.output))]
        reports = [r for _, r in named]
        denial = _denial(view, position, after)
        if denial is not None:  # the result told is not the bank's (J.38)
            problems.append(
                f"told the customer {event.call.name}({event.call.arguments}) failed or may not "
                f"have gone through, but it took effect (J.38): said {_last([denial])}; the "
                f"bank's result: {_shown(named) or 'the change was made'}"
            )
            continue
        if reports:
            # A field also stated at another figure is told two ways (corrections.py, J.36).
            wrong = [(n, k, v, o) for n, (k, v) in named if (o := restated(k, v, n, later))]
            for field, of, figure, (sentence, text) in wrong:
                label = f"{field.replace('_', ' ')} of {event.call.name}"
                problems.append(two_ways(label, shown(of, figure), sentence, text))
            if wrong or any(told(k, v, later) for k, v in reports):
                continue
            wanted = _shown(named)
        else:
            if any(reports_done(m.plain_words) for m in after):
                continue
            wanted = "that the change was made"
        # The message that should have reported it: the first after it, not the closing line
        # (lite new_payee_transfer: a payee's add was quoted by the transfer's "Sent!").
        problems.append(
            f"never told the result of {event.call.name}({event.call.arguments}) after it "
            f"(J.38): expected {wanted}; said after it: {_last(later[:1])}{_recitals(messages)}"
        )
    return problems


def _shown(named: Sequence[tuple[str, tuple[OutputKind, str]]]) -> str:
    """A write's reported values as evidence shows them ("reference NEFT123 or balance ...")."""
    return " or ".join(f"{name} {shown(kind, v)}" for name, (kind, v) in named)


def _denial(view: SessionView, position: int, after: Sequence[Said]) -> str | None:
    """The first message after the write at `position` that says it failed or may not have gone
    through, before any call that failed (a denial after one is read as about that one)."""
    failed_at = next(
        (c.position for c in view.calls if c.position > position and not c.event.ok), None
    )
    for m in after:
        if failed_at is not None and m.position > failed_at:
            break
        if denies(m.plain_words):
            return m.text
    return None


def untold(
    task: Task, view: SessionView, matches: Matches, messages: Sequence[Said] | None = None
) -> list[str]:
    """Evidence for everything the agent had to tell the customer and did not (`messages`:
    the session's own_words, when already read)."""
    if messages is None:
        messages = own_words(task, view)
    problems = untold_results(view, messages)
    if any(c.event.call.name == SET_CHANNEL for c in view.effective):
        outputs = [c.event.output for c in view.successful if c.event.output]
        problems.extend(contrary_settings(view, messages, records(outputs)))
    if any(c.event.call.name == TRANSFER for c in view.effective):
        problems.extend(contrary_modes(view, messages))
    if not task.tells and not any(g.tool == HANDOFF for g in task.gold):
        return problems  # nothing more to tell, and no hand-off summary to read
    gold = {g.id: g for g in task.gold}
    handoff_at = next((c.position for c in view.calls if c.event.call.name == HANDOFF), None)
    for tell in task.tells:
        limit: int | None = None
        if tell.before is not None:
            limit = _first_call(gold[tell.before], view, matches)
        if tell.kind == "handoff" and handoff_at is not None:
            limit = handoff_at if limit is None else min(limit, handoff_at)
        if tell.kind == "agree":  # agreed with the customer, not told (scoring/agreed.py)
            if not agreed(tell, view.messages, limit):
                point = f" before {gold[tell.before].tool}" if tell.before else ""
                problems.append(unagreed(tell, point))
            continue
        # A clarifying question may list the records it asks about; nothing else may.
        heard = [
            m
            for m in messages
            if (limit is None or m.position < limit)
            and (m.words or (tell.kind == "clarify" and not m.too_long))
        ]
        if tell.kind == "reason":  # the rule, said about the record in question (issue 16)
            heard = [m._replace(plain=m.of_ours, text=m.of_ours) if m.of_ours else m for m in heard]
            if tell.record:  # nor of another named by its description (own_words.about_record)
                heard = [_about(task, tell.record, m) if _tells_it(tell, m) else m for m in heard]
        if tell.kind == "handoff":  # the team named as taking over is the policy's (I.32)
            problems.extend(wrong_teams(tell, [m.plain_words for m in heard]))
        if any(_tells_it(tell, m) for m in heard):
            continue
        texts = [m.text for m in heard]  # for the evidence only
        point = f" before {gold[tell.before].tool}" if tell.before else ""
        if not point and tell.kind == "handoff" and handoff_at is not None:
            point = " before the hand-off"
        problems.append(
            f"never told the {tell.kind} ({tell.label}){point}: expected {_expected(tell)}; "
            f"said: {_last(_nearest(texts, tell))}{_recitals(messages)}"
        )
    problems.extend(summary_problems(task, view))
    return problems


def _expected(tell: MustTell) -> str:
    parts = [f"'{c}' (e.g. '{_example(c)}')" for c in tell.concepts]
    parts += [f"{v.label} {shown(v.kind, v.value)}" for v in tell.values]
    return " or ".join(parts)


def _example(name: str) -> str:
    from pytest_bankbench.concepts import concept

    phrases = concept(name).phrases
    return next((p for p in phrases if not re.search(r"[*#]", p)), phrases[0])


def _recitals(messages: Sequence[Said]) -> str:
    emptied = sum(1 for m in messages if not m.words)
    if not emptied:
        return ""
    return (
        f" ({emptied} message(s) told nothing: a recital names {RECITAL_RECORDS} or more records"
        f" the task does not involve, or runs past {RECITAL_CHARS} characters)"
    )


def _nearest(texts: Sequence[str], tell: MustTell) -> list[str]:
    """The messages with the one that comes nearest to telling it last: most of the words of its
    label and its concepts' phrases (the reason said in words the vocabulary lacks, not the
    closing line after it; an independent careful agent, issue 16). Evidence only."""
    from pytest_bankbench.concepts import concept

    wanted = set(_WORDS.findall(tell.label.lower()))
    for name in tell.concepts:
        wanted.update(w for p in concept(name).phrases for w in _WORDS.findall(p.lower()))
    wanted.update(w for v in tell.values for w in _WORDS.findall(v.label.lower()))
    if not texts or not wanted:
        return list(texts)
    shared = [len(wanted & set(_WORDS.findall(t.lower()))) for t in texts]
    best = max(range(len(texts)), key=lambda i: (shared[i], i))
    return list(texts) if not shared[best] else [*texts[:best], *texts[best + 1 :], texts[best]]


_WORDS = re.compile(r"[a-z]{4,}")


def _last(texts: Sequence[str], limit: int = 160) -> str:
    if not texts:
        return "nothing"
    flat = " ".join(texts[-1].split())
    return repr(flat if len(flat) <= limit else flat[: limit - 3] + "...")
