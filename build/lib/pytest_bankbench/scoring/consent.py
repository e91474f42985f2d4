"""Disclosure and consent before a write: the values told, then a clear yes, then the write.

The policy (section D) makes every write wait for the customer's explicit yes, and for some
(premature closures, foreclosures, prepayments, deposit bookings, transfers, fees) lists what is
told first: the quote. A task lists those values per gold write (`Disclosure`). Every call in
the trace that matches a gold write must come after a customer turn that agrees, and every
value listed for that write must have been told in an agent message before that turn.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from pytest_bankbench.simulation.trace import MessageEvent, ToolEvent, Trace
from pytest_bankbench.tasks.model import Disclosure, GoldCall, Task

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
Matches = Callable[[GoldCall, ToolEvent], bool]


def consent_failures(
    task: Task, trace: Trace, writes: Sequence[str], told: Told, matches: Matches
) -> list[str]:
    """Evidence lines for each gold write (by id) made without the customer's yes before it,
    or without the values the policy says are told before that yes."""
    by_write: dict[str, list[Disclosure]] = {w: [] for w in writes}
    for disclosure in task.disclosures:
        by_write.setdefault(disclosure.write, []).append(disclosure)
    if not by_write:
        return []
    gold = {g.id: g for g in task.gold}
    events = trace.events
    problems: list[str] = []
    for write_id, values in by_write.items():
        for position, event in enumerate(events):
            if not (isinstance(event, ToolEvent) and event.ok and matches(gold[write_id], event)):
                continue
            problems.extend(_check_one(write_id, event, values, events[:position], told))
    return problems


def _check_one(
    write_id: str,
    event: ToolEvent,
    values: list[Disclosure],
    before: Sequence[object],
    told: Told,
) -> list[str]:
    yes = max(
        (i for i, e in enumerate(before) if isinstance(e, MessageEvent) and agrees(e)),
        default=None,
    )
    name = f"{write_id} {event.call.name}"
    if yes is None:
        return [f"{name} was made without the customer's agreement before it"]
    said = [e.text for e in before[:yes] if isinstance(e, MessageEvent) and e.role == "agent"]
    missing = [v for v in values if not told(v, said)]
    return [
        f"{name}: {v.label} ({v.value}) was not told before the customer agreed" for v in missing
    ]
