"""SCORING.md: an independent re-implementation of the scorer agrees with the real one on every
session of a mixed set of traces (gold sessions and mutations of them, all real sessions)."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from decimal import Decimal
from functools import cache

import pytest

from pytest_bankbench.bank.diff import ChangeSet
from pytest_bankbench.bank.registry import get_tool
from pytest_bankbench.bank.store import Bank
from pytest_bankbench.runner import expected_changes
from pytest_bankbench.scoring.scorer import CHECKS, Verdict, score
from pytest_bankbench.simulation.agents import GoldAgent
from pytest_bankbench.simulation.customer import ScriptedCustomer
from pytest_bankbench.simulation.session import run_session
from pytest_bankbench.simulation.trace import ToolEvent, Trace
from pytest_bankbench.tasks.loader import shipped_tasks
from pytest_bankbench.tasks.model import Task
from tests.scoring import independent_scorer as mine
from tests.scoring.independent_scorer import Judgement, figures, judge
from tests.scoring.mutations import (
    MUTATIONS,
    Expect,
    Mutant,
    run_mutant,
)

TARGET_TASKS = 100  # about this many tasks, spread evenly over every family
REQUIRED_KINDS = (
    "gold",
    "drop_read",
    "drop_write",
    "extra_write",
    "extra_write_undone",
    "change_arg",
    "break_order",
    "max_steps",
    "max_errors",
    "omit_output",
)


@dataclass(frozen=True)
class Case:
    task: Task
    kind: str
    detail: str
    trace: Trace
    expected: ChangeSet
    real: Verdict
    mine: Judgement
    expect: Expect

    def describe(self) -> str:
        real = {c: self.real.checks[c] for c in CHECKS}
        evidence = {c: lines for c, lines in self.real.evidence.items() if lines}
        return (
            f"{self.task.task_id} [{self.kind}: {self.detail}] end={self.trace.end}\n"
            f"    real: passed={self.real.passed} failure={self.real.failure_type} "
            f"false_pass={self.real.false_pass} {real}\n"
            f"    mine: passed={self.mine.passed} failure={self.mine.failure_type} "
            f"false_pass={self.mine.false_pass} {self.mine.checks}\n"
            f"    real evidence: {evidence}"
        )


def sample() -> list[Task]:
    """Every k-th shipped task by id: families are contiguous in id order, so all are hit."""
    tasks = sorted(shipped_tasks(), key=lambda t: t.task_id)
    return tasks[:: max(1, len(tasks) // TARGET_TASKS)]


def _case(
    task: Task, kind: str, detail: str, trace: Trace, expected: ChangeSet, expect: Expect
) -> Case:
    return Case(
        task,
        kind,
        detail,
        trace,
        expected,
        score(task, trace, expected),
        judge(task, trace, expected),
        expect,
    )


@cache
def cases() -> tuple[Case, ...]:
    built: list[Case] = []
    rotating = [m for m in MUTATIONS if not m.every_task]
    for n, task in enumerate(sample()):
        expected = expected_changes(task)
        with Bank(task.customer_id, task.task_date, task.bank_seed) as bank:
            gold = run_session(task, GoldAgent(task), ScriptedCustomer(task), bank)
        built.append(_case(task, "gold", "the gold agent", gold, expected, Expect(passed=True)))
        for family in [m for m in MUTATIONS if m.every_task] + [rotating[n % len(rotating)]]:
            mutant: Mutant | None = family.make(task, gold, n)
            if mutant is not None:
                built.append(
                    _case(
                        task,
                        mutant.kind,
                        mutant.detail,
                        run_mutant(task, mutant),
                        expected,
                        mutant.expect,
                    )
                )
    return tuple(built)


def test_the_mixed_set_is_large_and_covers_every_mutation_and_family() -> None:
    counts = Counter(case.kind for case in cases())
    assert sum(counts.values()) >= 400, counts
    for kind in REQUIRED_KINDS:
        assert counts[kind] >= 25, (kind, counts)
    for family in MUTATIONS:
        assert counts[family.kind] >= 3, (family.kind, counts)
    glued = [
        c
        for c in cases()
        if c.kind == "output_formats"
        and any(re.search(r"Rs\.\d", text) for text in c.trace.agent_messages())
    ]
    assert len(glued) >= 5  # 'Rs.1,23,456.78': the real reader once took it for 23456.78
    families = {t.family for t in shipped_tasks()}
    assert {case.task.family for case in cases()} == families


def _outcome(verdict: Verdict | Judgement) -> tuple[object, ...]:
    checks = {str(name): ok for name, ok in verdict.checks.items()}
    return (
        verdict.passed,
        verdict.failure_type,
        verdict.false_pass,
        tuple(checks[c] for c in CHECKS),
    )


def test_the_independent_scorer_agrees_with_the_real_one_on_every_trace() -> None:
    disagreements = [case for case in cases() if _outcome(case.real) != _outcome(case.mine)]
    shown = "\n".join(case.describe() for case in disagreements[:20])
    assert not disagreements, f"{len(disagreements)} of {len(cases())} traces disagree:\n{shown}"


def _broken_expectations(case: Case) -> list[str]:
    verdict, expect = case.real, case.expect
    checks = {str(name): ok for name, ok in verdict.checks.items()}
    problems = [f"{c} should fail" for c in expect.fails if checks[c]]
    problems += [f"{c} should hold" for c in expect.holds if not checks[c]]
    if expect.passed is not None and verdict.passed != expect.passed:
        problems.append(f"passed should be {expect.passed}")
    if expect.extra_takes_effect:
        extras = [e for e in case.trace.tool_events() if e.call.call_id.startswith("extra-")]
        if not extras or not all(e.took_effect for e in extras):
            problems.append(f"the extra writes did not all take effect: {extras}")
    return problems


def test_every_mutation_bites_as_intended() -> None:
    broken = [(case, p) for case in cases() if (p := _broken_expectations(case))]
    shown = "\n".join(f"{problems}\n{case.describe()}" for case, problems in broken[:20])
    assert not broken, f"{len(broken)} mutants did not do what they should:\n{shown}"


def test_the_mutations_fail_their_sessions() -> None:
    """Every mutant of the brief's list fails (where the mutation is certain to bite)."""
    by_kind: dict[str, Counter[str | None]] = {}
    for case in cases():
        by_kind.setdefault(case.kind, Counter())[case.real.failure_type] += 1
    assert set(by_kind["gold"]) == {None}
    assert set(by_kind["cosmetic_args"]) == {None}
    assert set(by_kind["output_formats"]) == {None}
    assert set(by_kind["max_steps"]) == set(by_kind["max_errors"]) == {"ended_with_error"}
    assert set(by_kind["omit_output"]) == {"missing_output"}
    assert set(by_kind["extra_write"]) == {"unrequested_write"}
    assert set(by_kind["extra_write_undone"]) == {"unrequested_write"}
    for kind in ("drop_read", "drop_write", "change_arg", "break_order"):
        certain = [c for c in cases() if c.kind == kind and c.expect.fails]
        assert len(certain) >= 20, kind
        assert all(c.real.failure_type is not None for c in certain), kind


def test_an_undone_unrequested_write_is_a_false_pass() -> None:
    undone = [
        c
        for c in cases()
        if c.kind == "extra_write_undone"
        and any(e.call.call_id == "extra-undo" and e.took_effect for e in c.trace.tool_events())
    ]
    assert len(undone) >= 20
    for case in undone:
        assert case.real.checks["final_state"] and case.real.false_pass, case.describe()
        assert case.mine.checks["final_state"] and case.mine.false_pass, case.describe()


# -- the set is sharp enough: a scorer that drops any one rule disagrees somewhere -----------
_canonical, _required_calls_ok, _write_purity_ok = (
    mine.canonical,
    mine.required_calls_ok,
    mine.write_purity_ok,
)


def _no_order(task: Task, trace: Trace) -> bool:
    made = [e for e in trace.tool_events() if e.ok]
    return all(any(mine.same_call(g, e) for e in made) for g in task.gold)


def _failed_calls_count(task: Task, trace: Trace) -> bool:
    return _required_calls_ok(
        task,
        trace.model_copy(
            update={
                "events": tuple(
                    e.model_copy(update={"ok": True}) if isinstance(e, ToolEvent) else e
                    for e in trace.events
                )
            }
        ),
    )


def _licence_reused(task: Task, trace: Trace) -> bool:
    licences = [g for g in task.gold if get_tool(g.tool).kind == "write"]
    return all(
        any(mine.same_call(g, e) for g in licences) for e in trace.tool_events() if e.took_effect
    )


def _rejected_writes_count(task: Task, trace: Trace) -> bool:
    return _write_purity_ok(
        task,
        trace.model_copy(
            update={
                "events": tuple(
                    e.model_copy(update={"took_effect": e.tool_kind == "write"})
                    if isinstance(e, ToolEvent)
                    else e
                    for e in trace.events
                )
            }
        ),
    )


BROKEN: dict[str, dict[str, object]] = {
    "order constraints ignored": {"required_calls_ok": _no_order},
    "failed calls satisfy required calls": {"required_calls_ok": _failed_calls_count},
    "a gold write licenses any number of writes": {"write_purity_ok": _licence_reused},
    "rejected writes count as writes": {"write_purity_ok": _rejected_writes_count},
    "amounts read without digit grouping": {
        "figures": lambda text: [Decimal(m) for m in re.findall(r"\d+(?:\.\d+)?", text)]
    },
    "a hand-off is not a normal end": {"NORMAL_END_REASONS": ("customer_stop", "agent_end")},
    "arguments compared as sent": {"canonical": lambda value: ("raw", value)},
    "strings compared with their case": {
        "canonical": lambda value: (
            ("text", value)
            if isinstance(value, str) and not value.strip().isdigit()
            else _canonical(value)
        )
    },
    "stopped short ranked before unrequested write": {
        "FAILURE_ORDER": (
            ("ended_normally", "ended_with_error"),
            ("required_calls", "stopped_short"),
            ("write_purity", "unrequested_write"),
            ("final_state", "wrong_final_state"),
            ("required_outputs", "missing_output"),
        )
    },
    "false pass ignores write purity": {
        "false_pass": property(lambda j: j.checks["final_state"] and not j.checks["required_calls"])
    },
}


@pytest.mark.parametrize("broken", BROKEN)
def test_a_scorer_missing_one_rule_disagrees_somewhere(
    broken: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name, value in BROKEN[broken].items():
        monkeypatch.setattr(mine.Judgement if name == "false_pass" else mine, name, value)
    differ = [
        c for c in cases() if _outcome(c.real) != _outcome(judge(c.task, c.trace, c.expected))
    ]
    assert differ, f"no trace tells the real scorer from one where {broken}"


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("balance: Rs. 1,23,456.78.", "123456.78"),
        ("balance: Rs.1,23,456.78", "123456.78"),
        ("balance: INR 123,456.78", "123456.78"),
        ("balance: 123456.78", "123456.78"),
        ("₹12,00,000", "1200000"),
        ("about 1.5 lakh", "150000"),
        ("2 crore in all", "20000000"),
        ("12 lakhs", "1200000"),
        ("Rs. 5,000, then Rs. 300", "5000"),
        ("Rs. 5,000, then Rs. 300", "300"),
    ],
)
def test_the_independent_number_reader(text: str, value: str) -> None:
    assert Decimal(value) in figures(text)


def test_ids_are_not_read_as_amounts() -> None:
    assert figures("deposit FD000003, payee BEN900001, loan LN000121") == []
