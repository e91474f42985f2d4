"""The required calls of a session (SCORING.md, required_calls): each gold call placed at the
earliest successful call that satisfies it after its dependencies, a required fact by any result
that shows it, and the evidence line of each one missing."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from pytest_bankbench.bank.facts import fact_fields, shows
from pytest_bankbench.bank.registry import ToolSpec, all_tools
from pytest_bankbench.scoring.matching import matches, matches_call, same_value
from pytest_bankbench.scoring.outputs import shown
from pytest_bankbench.scoring.view import Call, SessionView, call_of
from pytest_bankbench.simulation.trace import ToolEvent
from pytest_bankbench.tasks.model import FactNeed, GoldCall, Source, Task, ToldValue


def placed_calls(task: Task, view: SessionView) -> dict[str, int | None]:
    """The trace position of the call that serves each gold call (None when missing): the
    earliest successful call satisfying it after its dependencies."""
    placed = _assign(task, view.successful, view.tools)
    return {g: None if at is None else view.successful[at].position for g, at in placed.items()}


def missing_calls(
    task: Task, view: SessionView, placed: dict[str, int | None] | None = None
) -> list[str]:
    """Evidence lines for each gold call no successful call of the session satisfies
    (`placed`: placed_calls(), when already read)."""
    if placed is None:
        placed = placed_calls(task, view)
    return [_missing(gold, view) for gold in task.gold if placed[gold.id] is None]


# F.24: a lost or stolen card is blocked at once, "before anything else the customer asks ...
# and only then deal with the rest".
_BLOCK_FIRST = ("block_card", frozenset({"lost", "stolen"}))


def told_before_block(
    task: Task,
    placed: dict[str, int | None],
    heard: Sequence[tuple[int, str]],
    said: Callable[[ToldValue, list[str]], bool],
) -> list[str]:
    """Evidence for each value asked for that the agent told before a lost or stolen card's
    block (F.24), where the call that shows it comes after the block in the task's order (the
    balance asked beside the lost card): told first, the rest was dealt with before the block,
    whatever is said again after it. Reads alone are no telling: a careful agent may list the
    customer's accounts before it finds the card. `heard`: the agent's messages in its own
    words, with their positions."""
    tool, reasons = _BLOCK_FIRST
    block = next(
        (g for g in task.gold if g.tool == tool and g.arguments.get("reason") in reasons), None
    )
    at = placed.get(block.id) if block is not None else None
    if block is None or at is None:
        return []
    before = [text for position, text in heard if position < at]
    problems: list[str] = []
    for output in task.required_outputs:
        source = shown_by(task, output.source)
        if source is None or block.id not in _ancestors(task, source.id):
            continue
        if before and said(output, before):
            problems.append(
                f"told {output.label} ({shown(output.kind, output.value)}) before {block.id}"
                f" {tool}: a {block.arguments['reason']} card is blocked at once, before"
                " anything else the customer asks (F.24)"
            )
    return problems


def _ancestors(task: Task, gold_id: str) -> set[str]:
    """The gold calls a gold call depends on, directly or through others."""
    after = {g.id: g.after for g in task.gold}
    found: set[str] = set()
    todo = list(after.get(gold_id, ()))
    while todo:
        one = todo.pop()
        if one not in found:
            found.add(one)
            todo.extend(after.get(one, ()))
    return found


def shown_by(task: Task, source: Source | None) -> GoldCall | None:
    """The gold call that shows a told value: the read whose result it is, or the first read of
    the record's field (None for a write's result, which a quote may show before it, such as a
    closure's payout; an argument; a passage; or a value no gold call shows). A value
    is told from it only once it has been made: told before, it is not what the bank showed
    in the order the policy sets (F.24: a lost card is blocked before the balance is read)."""
    if source is None or source.kind not in ("record", "result"):
        return None
    if source.kind == "result":  # a read's (a quote's): a write's may be known before it
        call = next((g for g in task.gold if g.id == source.call), None)
        spec = all_tools().get(call.tool) if call is not None else None
        return call if spec is not None and spec.kind != "write" else None
    return next(
        (
            g
            for g in task.gold
            if g.facts
            and (g.facts.entity, g.facts.key) == (source.entity, source.key)
            and source.field in g.facts.fields
        ),
        None,
    )


def shows_fact(need: FactNeed, event: ToolEvent, customer_id: str) -> bool:
    """A successful result shows the record and every field of a required fact."""
    return _shows(need, event, all_tools().get(event.call.name), customer_id)


def _shows(need: FactNeed, event: ToolEvent, spec: ToolSpec | None, customer_id: str) -> bool:
    if not event.ok or event.output is None or event.call.arguments is None:
        return False
    if spec is None:
        return False
    return shows(
        spec.reveals,
        event.call.arguments,
        event.output,
        customer_id,
        need.entity,
        need.key,
        need.fields,
    )


def satisfies(gold: GoldCall, event: ToolEvent, customer_id: str) -> bool:
    """A required fact by any result that shows it; any other gold call by a matching call."""
    return shows_fact(gold.facts, event, customer_id) if gold.facts else matches(gold, event)


def _satisfied_by(
    gold: GoldCall, call: Call, customer_id: str, showing: frozenset[str] = frozenset()
) -> bool:
    """satisfies() on a call of a session's view; `showing`: _showing(gold.facts), for a fact."""
    if gold.facts:
        if call.event.call.name not in showing:
            return False  # its tool never shows all the fact's fields: no need to read its result
        return _shows(gold.facts, call.event, call.spec, customer_id)
    return matches_call(gold, call)


_SHOWING: tuple[dict[str, ToolSpec], dict[tuple[str, tuple[str, ...]], frozenset[str]]]
_SHOWING = ({}, {})


def _showing(need: FactNeed, tools: dict[str, ToolSpec]) -> frozenset[str]:
    """tools_showing(need), kept per registry (`tools`: all_tools(), which a re-import of the
    tools builds anew)."""
    global _SHOWING
    held, known = _SHOWING
    if held is not tools:
        held, known = tools, {}
        _SHOWING = (held, known)
    key = (need.entity, need.fields)
    found = known.get(key)
    if found is None:
        found = known[key] = frozenset(tools_showing(need))
    return found


def assign_required(task: Task, calls: Sequence[ToolEvent]) -> dict[str, int | None]:
    """Earliest trace call satisfying each gold call after its dependencies (None when missing).

    Earliest-feasible in chain order is optimal: dependencies only set lower bounds, so taking
    the smallest index for each call never blocks a later one. A fact may also be shown by the
    dependency itself when that is a write: a write's result describes the records after it.
    """
    tools = all_tools()
    return _assign(task, [call_of(i, e, tools) for i, e in enumerate(calls)], tools)


def _assign(task: Task, calls: Sequence[Call], tools: dict[str, ToolSpec]) -> dict[str, int | None]:
    names = [c.event.call.name for c in calls]
    placed: dict[str, int | None] = {}
    # Plain loops, not generators: this runs for every gold call of every session scored.
    for gold in task.gold:
        floor = -1  # the latest of its dependencies
        missing = False
        for dep in gold.after:
            at = placed[dep]
            if at is None:
                missing = True
                break
            if at > floor:
                floor = at
        if missing:
            placed[gold.id] = None
            continue
        start = floor
        if gold.facts and floor >= 0 and calls[floor].event.tool_kind == "write":
            start = floor - 1
        # Only the calls of a tool that may satisfy it are read (_satisfied_by answers False for
        # every other without reading it): a test of the tool's name, not a call per position.
        wanted = _showing(gold.facts, tools) if gold.facts else frozenset({gold.tool})
        found: int | None = None
        for i in range(start + 1, len(calls)):
            if names[i] in wanted and _satisfied_by(gold, calls[i], task.customer_id, wanted):
                found = i
                break
        placed[gold.id] = found
    return placed


def _closest(gold: GoldCall, view: SessionView) -> str:
    same = [e for e in view.tool_events if e.call.name == gold.tool]
    if not same:
        return f"no call to {gold.tool} was made"
    shown = []
    for e in same[:3]:
        args = e.call.arguments or {}
        diffs = [
            f"{n}={args.get(n)!r} (want {gold.arguments[n]!r})"
            for n in gold.match
            if n not in args or not same_value(gold.arguments[n], args[n])
        ]
        status = "ok" if e.ok else f"failed: {e.error_code}"
        shown.append(f"{gold.tool}({', '.join(diffs) or 'arguments match'}) [{status}]")
    return "closest: " + "; ".join(shown)


def _describe(gold: GoldCall) -> str:
    order = f" after {', '.join(gold.after)}" if gold.after else ""
    if gold.facts:
        need = gold.facts
        return f"{gold.id} fact: {need.entity} {need.key}: {', '.join(need.fields)}{order}"
    args = ", ".join(f"{n}={gold.arguments[n]!r}" for n in gold.match)
    return f"{gold.id} {gold.tool}({args}){order}"


def tools_showing(need: FactNeed) -> list[str]:
    """The tools whose results can show every field of a required fact."""
    return sorted(
        name
        for name, spec in all_tools().items()
        if set(need.fields) <= fact_fields(spec.reveals, need.entity)
    )


def _missing(gold: GoldCall, view: SessionView) -> str:
    if gold.facts:
        shown_by = ", ".join(tools_showing(gold.facts))
        return f"missing {_describe(gold)}; shown by a successful {shown_by}"
    return f"missing {_describe(gold)}; {_closest(gold, view)}"
