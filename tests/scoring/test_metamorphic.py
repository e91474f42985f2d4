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
from pytest_bankbench.simulation.customer import ScriptedCustomer
from pytest_bankbench.simulation.session import run_session
from pytest_bankbench.tasks.loader import shipped_tasks
from pytest_bankbench.tasks.model import Task
from pytest_bankbench.tasks.replay import replay
from tests.scoring.variants import (
    CONFIRMATIONS,
    PlanAgent,
    Style,
    forbidden_applies,
    plan,
    skip_quote_applies,
    told_only_at_the_end,
    wrong_record_applies,
)

TASKS = shipped_tasks()
FAMILIES = sorted({t.family for t in TASKS})
Applies = Callable[[Task], bool]


def _always(task: Task) -> bool:
    return True


def _writes(task: Task) -> bool:
    return any(get_tool(g.tool).kind == "write" for g in task.gold)


def _disclosed(task: Task) -> bool:
    return bool(task.disclosures)


def _choices(task: Task) -> bool:
    return any(o.kind == "choice" and o.rivals for o in task.required_outputs)


VARIANTS: dict[str, list[Style]] = {
    "other_read_tool": [Style(alt_tools=True)],
    "value_from_a_write": [Style(from_writes=True)],
    "extra_harmless_reads": [Style(extra_reads=True)],
    "another_allowed_order": [Style(reorder=True)],
    "defaults_left_out": [Style(defaults="omit")],
    "defaults_spelled_out": [Style(defaults="spell")],
    "values_in_other_forms": [Style(value_style=n) for n in range(1, 5)],
    "confirmation_phrasings": [Style(confirm=c) for c in CONFIRMATIONS],
    "closing_anything_else": [Style(anything_else=True)],
    "all_at_once": [
        Style(alt_tools=True, from_writes=True, extra_reads=True, reorder=True, value_style=2)
    ],
}
CORRUPTIONS: dict[str, tuple[Style, Applies, frozenset[str]]] = {
    "skipped_quote": (Style(skip_quote=True), skip_quote_applies, frozenset({"stopped_short"})),
    "write_before_consent": (
        Style(no_consent=True),
        _writes,
        frozenset({"acted_without_consent"}),
    ),
    "quote_after_the_yes": (
        Style(quote_after_yes=True),
        _disclosed,
        frozenset({"acted_without_consent"}),
    ),
    "extra_write": (Style(extra_write=True), _always, frozenset({"unrequested_write"})),
    "attempted_forbidden_write": (
        Style(forbidden=True),
        forbidden_applies,
        frozenset({"unrequested_write"}),
    ),
    "wrong_record": (
        Style(wrong_record=True),
        wrong_record_applies,
        frozenset({"unrequested_write", "stopped_short"}),
    ),
    "pasted_raw_answer": (Style(pasted=True), told_only_at_the_end, frozenset({"missing_output"})),
    "hedged_answer": (Style(hedged=True), _choices, frozenset({"missing_output"})),
}


@cache
def _expected(task_id: str) -> ChangeSet:
    task = next(t for t in TASKS if t.task_id == task_id)
    return replay(task).changes


def _play(task: Task, style: Style, seed: int) -> Verdict:
    with Bank(task.customer_id, task.task_date, task.bank_seed) as bank:
        trace = run_session(task, PlanAgent(plan(task, style, seed)), ScriptedCustomer(task), bank)
    return score(task, trace, _expected(task.task_id))


def _evidence(verdict: Verdict) -> str:
    return "; ".join(line for lines in verdict.evidence.values() for line in lines[:2])


@pytest.mark.parametrize("kind", sorted(VARIANTS))
@pytest.mark.parametrize("family", FAMILIES)
def test_variant_passes(
    family: str, kind: str, record_property: Callable[[str, object], None]
) -> None:
    failures, played = [], 0
    for task in (t for t in TASKS if t.family == family):
        for seed, style in enumerate(VARIANTS[kind]):
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
    style, applies, expected = CORRUPTIONS[kind]
    wrong, played = [], 0
    for task in (t for t in TASKS if t.family == family and applies(t)):
        verdict = _play(task, style, 0)
        played += 1
        if verdict.failure_type not in expected:
            wrong.append(f"{task.task_id}: {verdict.failure_type} (want {sorted(expected)})")
    record_property("metamorphic_sessions", played)
    assert not wrong, "\n".join(wrong[:5])
