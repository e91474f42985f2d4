"""Mutations that need not fail (harmless spellings, retries, formats) and the built-in agents,
and the registry of every mutation family of the mixed set."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from decimal import Decimal
from typing import Any

from pytest_bankbench.simulation.agents import (
    BUILTIN_AGENTS,
)
from pytest_bankbench.simulation.trace import ToolCall, Trace
from pytest_bankbench.tasks.model import Task
from pytest_bankbench.vocabulary import BUILTIN_NAMES
from tests.scoring.mutations import (
    HANDOFF,
    Expect,
    Mutant,
    Step,
    entry_of,
    gold_plan,
    kind_of,
    make_call,
    say,
    scripted,
    unique,
)
from tests.scoring.mutations_calls import (
    attempt_forbidden_write,
    break_order,
    change_argument,
    drop_call,
    exceed_errors,
    exceed_steps,
    extra_write,
    extra_write_undone,
    fact_from_another_tool,
    leave_out_default,
    omit_output,
    output_only_pasted,
    told_after_yes,
    write_without_asking,
)
from tests.scoring.mutations_terms import turned_term
from tests.scoring.mutations_told import (
    allowed_value,
    ask_after_warning,
    ask_secret,
    bare_proposal,
    contradicting_proposal,
    done_early,
    drop_reason,
    false_claim,
    forbidden_read,
    ignore_secret,
    invented_figure,
    other_record_named,
    pasted_reason,
    privacy_breach,
    recite,
    rival_aside,
    silence,
    yes_reused,
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
    both_reads = all(kind_of(entry_of(task, s.gold_id).tool) == "read" for s in plan[i : i + 2])
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
        cosmetic = step.call.model_copy(update={"arguments": args})
        plan.append(replace(step, call=cosmetic, said=step.call))
    return Mutant(
        "cosmetic_args",
        "numbers as floats or strings, IFSC in small letters",
        scripted("cosmetic", task, plan),
        expect=Expect(passed=True),
    )


def _with_unit(arguments: dict[str, Any]) -> dict[str, str]:
    """A booking's tenure written with its unit ("365 days"): malformed, not a tenure the
    policy refuses."""
    for name, unit in (("tenure_days", "days"), ("tenure_months", "months")):
        if name in arguments:
            return {name: f"{arguments[name]} {unit}"}
    return {}


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
            unit = _with_unit(step.call.arguments)
            if unit and salt % 3 == 2:  # a harmless typo: the number written with its unit
                bad = step.call.model_copy(
                    update={"call_id": f"bad-{n}", "arguments": {**step.call.arguments, **unit}}
                )
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
    entry = entry_of(task, step.gold_id)
    # A later write that waits on it is tried out of the chain's order, and the bank may refuse
    # it by rule (a rebooking with the closure's money never paid out): an attempt (G.28).
    waits = any(entry.id in g.after for g in task.gold)
    return Mutant(
        "write_rejected",
        f"{entry.id} {entry.tool} refused (unknown argument)",
        scripted("rejected", task, [bad if s is step else s for s in plan]),
        expect=Expect(
            fails=("required_calls",) if unique(task, entry) else (),
            holds=() if waits else ("write_purity",),
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
    steps = [Step(make_call("handoff", HANDOFF, reason="customer needs help", summary=""), 0)]
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
    Family("silence", silence),
    Family("drop_reason", drop_reason),
    Family("pasted_reason", pasted_reason),
    Family("recital", recite, every_task=False),
    Family("ask_secret", ask_secret, every_task=False),
    Family("ask_after_warning", ask_after_warning, every_task=False),
    Family("false_claim", false_claim),
    Family("invented_figure", invented_figure, every_task=False),
    Family("privacy_breach", privacy_breach, every_task=False),
    Family("done_early", done_early, every_task=False),
    Family("ignore_secret", ignore_secret),
    Family("bare_proposal", bare_proposal),
    Family("contradicting_proposal", contradicting_proposal),
    Family("turned_term", turned_term),
    Family("yes_reused", yes_reused),
    Family("other_record_named", other_record_named),
    Family("forbidden_read", forbidden_read),
    Family("allowed_value", allowed_value),
    Family("rival_aside", rival_aside),
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
        for n in BUILTIN_NAMES
        if n != "gold"  # every baseline, as vocabulary.py names them
    ),
)
