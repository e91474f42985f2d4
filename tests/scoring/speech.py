"""How the test agents talk: the gold agent's dialogue, reused piece by piece, so that a mutant
or a variant differs from the gold only where it means to (issue 16: what the agent tells).

A test agent opens as the gold agent does (asking for the details it needs), proposes each write
by stating its action and values (consent counts only for what the proposal stated), announces
a hand-off with its team and summary before the transfer, reports each write's result after it
(the first value its tool `reports`), explains a refusal with the instruction's reason, and warns
a customer who volunteers a secret.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

from pytest_bankbench.bank.registry import all_tools
from pytest_bankbench.records import RECORD_ARGS, holdings, phrase
from pytest_bankbench.simulation.agents import REPORT_LABELS, SECRET_WARNING
from pytest_bankbench.simulation.dialogue import Phrasing
from pytest_bankbench.simulation.phrasings import GOLD_PHRASING, PHRASINGS
from pytest_bankbench.simulation.trace import Event, MessageEvent, ToolCall, ToolEvent
from pytest_bankbench.tasks.model import GoldCall, Task, ToldValue

SAY: Phrasing = PHRASINGS[GOLD_PHRASING]
HANDOFF = "transfer_to_human_agent"


def as_gold(call: ToolCall, instruction: int = 0) -> GoldCall:
    """A call as the dialogue describes one (it reads only the tool and the arguments)."""
    return GoldCall(
        id="c0",
        tool=call.name,
        arguments=dict(call.arguments or {}),
        match=(),
        instruction=instruction,
    )


def opening(task: Task) -> str | None:
    """The gold agent's first message when the customer left details out: what it needs."""
    if not task.scenario.facts:
        return None
    topics = [t for f in task.scenario.structured_facts() if not f.after for t in f.about]
    return f"{greeting()} {SAY.asking(topics)}"


def greeting() -> str:
    """The gold register's greeting (a field of the phrasing, or a method where a register has
    several greetings: its plainest)."""
    said = cast(Any, SAY).greeting
    return str(said() if callable(said) else said)


def proposal(
    call: ToolCall, quote: Sequence[ToldValue], explain: str = "", task: Task | None = None
) -> str:
    """The action and its values stated (the card, FD or loan named as the gold agent names it,
    given the `task`), the quote, and the gold agent's question."""
    return SAY.proposal(as_gold(call), quote, explain, record=record(task, call))


def another_record(task: Task, call: ToolCall) -> ToolCall | None:
    """The call on another of the customer's records of the kind it acts on (None when the
    call acts on no card, FD or loan, or the customer holds no other)."""
    args = call.arguments or {}
    arg = next((a for a in RECORD_ARGS if a in args), None)
    if arg is None:
        return None
    held = holdings(task.customer_id, task.task_date, task.bank_seed)
    other = next(
        (h.key for h in held if h.kind == RECORD_ARGS[arg] and h.key != str(args[arg])), None
    )
    return None if other is None else call.model_copy(update={"arguments": {**args, arg: other}})


def record(task: Task | None, call: ToolCall) -> str | None:
    """How the gold agent names the card, FD or loan the call acts on (records.phrase)."""
    args = call.arguments or {}
    key = next((str(args[a]) for a in RECORD_ARGS if a in args), None)
    if task is None or key is None:
        return None
    return phrase(key, holdings(task.customer_id, task.task_date, task.bank_seed))


def results(events: Sequence[Event], since: int = 0) -> list[ToldValue]:
    """What each write that took effect after `since` came to: the first value its tool
    reports, as the gold agent tells it (J.38). A hand-off reports nothing."""
    tools = all_tools()
    told: list[ToldValue] = []
    for event in events[since:]:
        if not (isinstance(event, ToolEvent) and event.took_effect and event.output):
            continue
        spec = tools.get(event.call.name)
        for report in spec.reports if spec else ():
            name, _, kind = report.partition(":")
            if event.output.get(name) not in (None, ""):
                label = REPORT_LABELS.get(name, name.replace("_", " "))
                told.append(ToldValue(label=label, kind=kind, value=str(event.output[name])))
                break
    return told


def said_results(values: Sequence[ToldValue]) -> str:
    return SAY.results(values)


def completed_writes(events: Sequence[Event], since: int = 0) -> bool:
    """A write with no reported value took effect after `since` (told as 'that is done')."""
    tools = all_tools()
    return any(
        isinstance(e, ToolEvent)
        and e.took_effect
        and e.call.name != HANDOFF
        and not any(
            (e.output or {}).get(r.partition(":")[0]) not in (None, "")
            for r in (tools[e.call.name].reports if e.call.name in tools else ())
        )
        for e in events[since:]
    )


def handing_over(call: ToolCall, events: Sequence[Event], since: int = 0) -> str:
    """The message before a hand-off: what was done, who takes over, the summary passed on."""
    done = said_results(results(events, since))
    return f"{done} {SAY.handoff(as_gold(call))}".strip()


def closing(values: Sequence[ToldValue], explain: str | None, extra: Sequence[str] = ()) -> str:
    """The turn that ends an instruction: results (or the refusal's reason), then `extra`."""
    return " ".join([SAY.closing(values, explain), *extra]).strip()


def volunteered_now(task: Task, events: Sequence[Event], warned: set[int]) -> bool:
    """The customer's last turn offers a secret its instruction volunteers, not yet answered."""
    last = next((e for e in reversed(events) if isinstance(e, MessageEvent)), None)
    if last is None or last.role != "customer":
        return False
    for index, instruction in enumerate(task.scenario.instructions):
        if instruction.volunteers and index not in warned and instruction.volunteers in last.text:
            warned.add(index)
            return True
    return False


def warned(message: str) -> str:
    return f"{SECRET_WARNING} {message}".strip()
