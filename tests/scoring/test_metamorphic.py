"""The metamorphic suite: on every task, what a careful agent may choose passes, and each
corruption fails with the failure type it deserves (issue: verdicts that judge the banking).

Variants and corruptions are generated from each task and a seed (tests/scoring/variants.py),
one test per family and kind, so a new family is covered without a new test. The number of
sessions played is recorded on each test and summed in the run's terminal summary.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

import pytest

from pytest_bankbench.bank.diff import ChangeSet
from pytest_bankbench.bank.registry import get_tool
from pytest_bankbench.bank.store import Bank
from pytest_bankbench.scoring.scorer import Verdict, score
from pytest_bankbench.simulation.agents import OPEN_READS, GoldAgent, say_output
from pytest_bankbench.simulation.customer import ScriptedCustomer
from pytest_bankbench.simulation.session import run_session
from pytest_bankbench.simulation.trace import ToolCall, Trace
from pytest_bankbench.tasks.loader import shipped_tasks
from pytest_bankbench.tasks.model import GoldCall, Task
from pytest_bankbench.tasks.replay import replay
from tests.scoring import independent_scorer as mine
from tests.scoring import independent_telling as telling
from tests.scoring import speech
from tests.scoring.variants import (
    CONFIRMATIONS,
    RECAPS,
    PlanAgent,
    Style,
    forbidden_applies,
    other_record_applies,
    plan,
    quote_late_applies,
    skip_quote_applies,
    told_only_at_the_end,
    wrong_record_applies,
    wrong_rule_figures,
)

TASKS = shipped_tasks()
HANDOFF = "transfer_to_human_agent"
FAMILIES = sorted({t.family for t in TASKS})
Applies = Callable[[Task], bool]


def _always(task: Task) -> bool:
    return True


def _writes(task: Task) -> bool:
    return any(get_tool(g.tool).kind == "write" for g in task.gold)


def _choices(task: Task) -> bool:
    return any(o.kind == "choice" and o.rivals for o in task.required_outputs)


def _reasons(task: Task) -> bool:
    return any(t.kind == "reason" for t in task.tells) and any(
        i.explain for i in task.scenario.instructions
    )


def _allows(task: Task) -> bool:
    return any(g.allowed for g in task.gold)


def _volunteers(task: Task) -> bool:
    return any(i.volunteers for i in task.scenario.instructions)


# Each kind: its styles, and the tasks it applies to.
VARIANTS: dict[str, tuple[list[Style], Applies]] = {
    "other_read_tool": ([Style(alt_tools=True)], _always),
    "value_from_a_write": ([Style(from_writes=True)], _always),
    "extra_harmless_reads": ([Style(extra_reads=True)], _always),
    "another_allowed_order": ([Style(reorder=True)], _always),
    "defaults_left_out": ([Style(defaults="omit")], _always),
    "defaults_spelled_out": ([Style(defaults="spell")], _always),
    "values_in_other_forms": ([Style(value_style=n) for n in range(1, 5)], _always),
    "confirmation_phrasings": ([Style(confirm=c) for c in CONFIRMATIONS], _writes),
    "recap_confirmations": ([Style(recap=r) for r in RECAPS], _writes),
    "reason_synonyms": ([Style(synonyms=n) for n in range(3)], _reasons),
    "results_reworded": ([Style(result_form=n) for n in range(1, 4)], _writes),
    "allowed_alternative": ([Style(alternative=True)], _allows),
    "closing_anything_else": ([Style(anything_else=True)], _always),
    "all_at_once": (
        [Style(alt_tools=True, from_writes=True, extra_reads=True, reorder=True, value_style=2)],
        _always,
    ),
}


@cache
def _gold(task_id: str) -> Trace:
    task = next(t for t in TASKS if t.task_id == task_id)
    with Bank(task.customer_id, task.task_date, task.bank_seed) as bank:
        return run_session(task, GoldAgent(task), ScriptedCustomer(task), bank)


def _silence_bites(task: Task) -> bool:
    """A write's result that nothing else the gold agent says tells (not an output, not a
    quote, not a hand-off's summary)."""
    gold = _gold(task.task_id)
    told = [say_output(v) for v in (*task.required_outputs, *task.disclosures)]
    told += [e.call.arguments.get("summary", "") for e in gold.tool_events() if e.call.arguments]
    writes = [e for e in gold.tool_events() if e.took_effect and e.call.name != HANDOFF]
    return any(not telling.result_told(e, [str(t) for t in told]) for e in writes)


def _reason_bites(task: Task) -> bool:
    """A reason the gold agent says only in the instruction's explanation."""
    explains = [i.explain for i in task.scenario.instructions if i.explain]
    rest = []
    for message in _gold(task.task_id).agent_messages():
        for part in explains:
            message = message.replace(part, " ")
        rest.append(message)
    # Where a reason comes before a changed write, the customer agrees only once it is said:
    # dropping it there fails the consent as well, so those tasks are left out.
    return any(
        not any(telling.tell_said(t, m) for m in rest)
        and not any(
            g.instruction == t.instruction and _kind_of(g) == "write" and g.tool != HANDOFF
            for g in task.gold
        )
        for t in task.tells
        if t.kind == "reason"
    ) and bool(explains)


def _recital_bites(task: Task) -> bool:
    """The customer has two or more records the task does not involve, and something must be
    told in the answer the recital follows."""
    records: dict[str, set[str]] = {}
    with Bank(task.customer_id, task.task_date, task.bank_seed) as bank:
        for name in OPEN_READS:
            telling.shown_records(get_tool(name).invoke(bank, {}), records)
    others = [k for k in records if k not in telling.involved(task)]
    return len(others) >= 2 and bool(task.required_outputs or task.tells)


def _bare_bites(task: Task) -> bool:
    """A write whose action, amount, mode or account the opening questions do not state."""
    opening = speech.opening(task) or ""
    return any(
        _kind_of(g) == "write"
        and g.tool != HANDOFF
        and not mine.stated(
            ToolCall(call_id="x", name=g.tool, arguments=g.arguments), [opening], task
        )
        for g in task.gold
    )


def _reuse_bites(task: Task) -> bool:
    """Two writes for one instruction, the second not stated by the first's proposal."""
    for n in range(len(task.scenario.instructions)):
        writes = [g for g in task.gold if g.instruction == n and _kind_of(g) == "write"]
        writes = [g for g in writes if g.tool != HANDOFF]
        if len(writes) >= 2:
            first, second = (
                ToolCall(call_id="x", name=g.tool, arguments=g.arguments) for g in writes[:2]
            )
            proposal = speech.proposal(
                first, [d for d in task.disclosures if d.write == writes[0].id], task=task
            )
            if not mine.stated(second, [proposal], task):
                return True
    return False


def _kind_of(call: GoldCall) -> str:
    return get_tool(call.tool).kind


def _tells_a_rule_figure(task: Task) -> bool:
    """A refusal's reason that states a rule with a figure of the policy (derived from the
    tasks: IMPS's maximum, the cooling period's Rs 50,000, a lock-in's 12 EMIs or 5 years ...)."""
    return any(
        i.explain and wrong_rule_figures(i.explain) != i.explain for i in task.scenario.instructions
    )


def _never(task: Task) -> bool:
    return False


REAL_SCORER_GAPS: dict[str, Applies] = {}  # none known (a secret far from its name was one)


# Each corruption: its style, the tasks it applies to, the failure types it may end in, and
# (where it is certain) the only checks it may fail.
CORRUPTIONS: dict[str, tuple[Style, Applies, frozenset[str], frozenset[str] | None]] = {
    "skipped_quote": (
        Style(skip_quote=True),
        skip_quote_applies,
        frozenset({"stopped_short"}),
        None,
    ),
    "write_before_consent": (
        Style(no_consent=True),
        _writes,
        frozenset({"acted_without_consent"}),
        None,
    ),
    "quote_after_the_yes": (
        Style(quote_after_yes=True),
        quote_late_applies,
        frozenset({"acted_without_consent"}),
        None,
    ),
    "extra_write": (Style(extra_write=True), _always, frozenset({"unrequested_write"}), None),
    "attempted_forbidden_write": (
        Style(forbidden=True),
        forbidden_applies,
        frozenset({"unrequested_write"}),
        None,
    ),
    "wrong_record": (
        Style(wrong_record=True),
        wrong_record_applies,
        frozenset({"unrequested_write", "stopped_short"}),
        None,
    ),
    "pasted_raw_answer": (
        Style(pasted=True),
        told_only_at_the_end,
        frozenset({"missing_output"}),
        None,
    ),
    "hedged_answer": (Style(hedged=True), _choices, frozenset({"missing_output"}), None),
    "silence_after_a_write": (
        Style(no_results=True),
        _silence_bites,
        frozenset({"not_told"}),
        frozenset({"told_customer"}),
    ),
    "reason_left_out": (
        Style(no_reasons=True),
        _reason_bites,
        frozenset({"not_told"}),
        frozenset({"told_customer"}),
    ),
    "recital_of_all_records": (
        Style(recite=True),
        _recital_bites,
        frozenset({"missing_output", "not_told"}),
        frozenset({"required_outputs", "told_customer"}),
    ),
    "asks_for_a_secret": (
        Style(ask_secret=True),
        _always,
        frozenset({"asked_for_secret"}),
        frozenset({"no_secrets"}),
    ),
    "volunteered_secret_ignored": (
        Style(no_warning=True),
        _volunteers,
        frozenset({"asked_for_secret"}),
        frozenset({"no_secrets"}),
    ),
    "consent_before_the_action_is_stated": (
        Style(bare=True),
        _bare_bites,
        frozenset({"acted_without_consent"}),
        frozenset({"disclosure_consent", "told_customer"}),
    ),
    "proposal_names_another_record": (
        Style(other_record=True),
        other_record_applies,
        frozenset({"acted_without_consent"}),
        None,
    ),
    "one_yes_for_two_writes": (
        Style(reuse_yes=True),
        _reuse_bites,
        frozenset({"acted_without_consent"}),
        frozenset({"disclosure_consent"}),
    ),
    "rule_told_with_another_figure": (
        Style(wrong_rule=True),
        _tells_a_rule_figure,
        # told as the reason of a proposal, the agreed proposal states a figure nothing gave too
        frozenset({"not_told", "acted_without_consent"}),
        frozenset({"told_customer", "disclosure_consent"}),
    ),
    "forbidden_read": (
        Style(peek=True),
        _always,
        frozenset({"forbidden_access"}),
        frozenset({"forbidden_access"}),
    ),
}


@cache
def _expected(task_id: str) -> ChangeSet:
    task = next(t for t in TASKS if t.task_id == task_id)
    return replay(task).changes


def _play(task: Task, style: Style, seed: int) -> Verdict:
    with Bank(task.customer_id, task.task_date, task.bank_seed) as bank:
        agent = PlanAgent(plan(task, style, seed), task)
        trace = run_session(task, agent, ScriptedCustomer(task), bank)
    return score(task, trace, _expected(task.task_id))


def _evidence(verdict: Verdict) -> str:
    return "; ".join(line for lines in verdict.evidence.values() for line in lines[:2])


@pytest.mark.parametrize("kind", sorted(VARIANTS))
@pytest.mark.parametrize("family", FAMILIES)
def test_variant_passes(
    family: str, kind: str, record_property: Callable[[str, object], None]
) -> None:
    failures, played = [], 0
    styles, applies = VARIANTS[kind]
    for task in (t for t in TASKS if t.family == family and applies(t)):
        for seed, style in enumerate(styles):
            verdict = _play(task, style, seed)
            played += 1
            if not verdict.passed:
                failures.append(f"{task.task_id} [{verdict.failure_type}] {_evidence(verdict)}")
    record_property("metamorphic_sessions", played)
    assert not failures, "\n".join(failures[:5])


@pytest.mark.parametrize("kind", sorted(CORRUPTIONS))
@pytest.mark.parametrize("family", FAMILIES)
def test_corruption_fails_for_its_reason(
    family: str, kind: str, record_property: Callable[[str, object], None]
) -> None:
    style, applies, expected, may_fail = CORRUPTIONS[kind]
    wrong: list[str] = []
    known: list[str] = []
    played = 0
    gap = REAL_SCORER_GAPS.get(kind, _never)
    for task in (t for t in TASKS if t.family == family and applies(t)):
        verdict = _play(task, style, 0)
        played += 1
        failed = {c for c, ok in verdict.checks.items() if not ok}
        if verdict.failure_type not in expected or (may_fail is not None and failed - may_fail):
            (known if gap(task) else wrong).append(
                f"{task.task_id}: {verdict.failure_type}, failed {sorted(failed)} (want "
                f"{sorted(expected)}, only {sorted(may_fail or ())}) {_evidence(verdict)}"
            )
    record_property("metamorphic_sessions", played)
    assert not wrong, "\n".join(wrong[:5])
    if known:
        pytest.xfail(f"a known gap of the real scorer: {known[0]}")
