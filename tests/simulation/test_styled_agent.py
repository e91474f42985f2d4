"""A careful agent worded as real models word it passes; the same agent careless still fails.

The styled agent (tests/simulation/styled_agent.py) makes the gold agent's decisions and says
every message in another style (markdown tables, terse, verbose-apologetic, Indian bank English
with "₹/-" and DD/MM/YYYY), with the refusals reworded (styled_reasons.py), and, on `paths`, takes
the other paths the policy allows (the tool's default count, IMPS for NEFT, a clarifying question
of its own). All 1,000 tasks pass in every style on both paths (`python -m
tests.simulation.styled_agent` runs them, 35 s); here one task per family, a different one per
style, keeps the suite cheap.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from pytest_bankbench.runner import run_task
from pytest_bankbench.simulation.agents import HANDOFF, GoldAgent
from pytest_bankbench.simulation.trace import Event, MessageEvent, Trace
from pytest_bankbench.tasks.loader import shipped_tasks
from pytest_bankbench.tasks.model import GoldCall, Task, ToldValue
from tests.simulation.styled_agent import STYLES, StyledAgent, style_of

TASKS = shipped_tasks()
FAMILIES = sorted({t.family for t in TASKS})


def _sample(offset: int) -> list[Task]:
    """One task per family: the family's (offset)-th, so each style meets other records."""
    by_family: dict[str, list[Task]] = {}
    for task in TASKS:
        by_family.setdefault(task.family, []).append(task)
    return [tasks[offset % len(tasks)] for _, tasks in sorted(by_family.items())]


def _agent_lines(trace: Trace) -> list[str]:
    return [e.text for e in trace.events if isinstance(e, MessageEvent) and e.role == "agent"]


@pytest.mark.parametrize("paths", [False, True], ids=["gold-path", "other-paths"])
@pytest.mark.parametrize("style", STYLES)
def test_a_careful_agent_passes_in_every_style(style: str, paths: bool) -> None:
    offset = STYLES.index(style) + (len(STYLES) if paths else 0)
    failed = [
        f"{t.task_id}: {v.failure_type}: {next(iter(e for e in v.evidence.values() if e), [''])}"
        for t in _sample(offset)
        if not (v := run_task(t, StyledAgent(t, style, paths)).verdict).passed
    ]
    assert not failed, failed[:3]


def test_one_style_per_seed_covers_every_style() -> None:
    assert {style_of(seed) for seed in range(len(STYLES))} == set(STYLES)


@pytest.mark.parametrize("style", STYLES)
def test_the_styles_say_everything_in_their_own_words(style: str) -> None:
    """No message of a style is the gold agent's, so the passes above are not the gold's own."""
    same: list[str] = []
    for task in _sample(STYLES.index(style)):
        gold = set(_agent_lines(run_task(task, GoldAgent(task)).trace))
        same += [
            m for m in _agent_lines(run_task(task, StyledAgent(task, style)).trace) if m in gold
        ]
    assert not same, same[:3]


class _NoReason(StyledAgent):
    """The styled agent that says it cannot, and never why (H.29)."""

    def _explain(self, instruction: int) -> str | None:
        return None


class _NoResult(StyledAgent):
    """The styled agent that reports no write's value (J.38): "Done." and nothing else."""

    def closing(self, said: Sequence[ToldValue], explain: str | None) -> str:
        return self.say.closing([], explain, self._key("close"), self._changed())

    def handing_over(self, handoff: GoldCall, events: Sequence[Event]) -> str:
        return self.say.handoff(handoff)


def _families_with(kind: str) -> list[Task]:
    return [t for t in _sample(0) if any(tell.kind == kind for tell in t.tells)]


@pytest.mark.parametrize("style", STYLES)
def test_the_same_agent_without_its_reasons_fails(style: str) -> None:
    tasks = _families_with("reason")
    assert tasks
    passed = [t.task_id for t in tasks if run_task(t, _NoReason(t, style)).verdict.passed]
    assert not passed, passed


@pytest.mark.parametrize("style", STYLES)
def test_the_same_agent_without_its_results_fails_where_a_write_reports_one(style: str) -> None:
    from pytest_bankbench.bank.registry import get_tool

    tasks = [
        t
        for t in _sample(1)
        if any(get_tool(c.tool).reports for c in t.gold)
        and not t.required_outputs  # a value asked for would be told anyway
        and not any(c.tool == HANDOFF for c in t.gold)  # the hand-off's summary tells it
    ]
    assert tasks
    verdicts = {t.task_id: run_task(t, _NoResult(t, style)).verdict for t in tasks}
    passed = [task_id for task_id, v in verdicts.items() if v.passed]
    assert not passed, passed
