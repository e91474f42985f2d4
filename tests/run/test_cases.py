"""The cases of a run are made when selected, never all at once (issue 19, item 6): the lazy
shard test and the lookup by test id agree with the case list they replace."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from pytest_bankbench.run.bench_run import BenchRun
from pytest_bankbench.run.cases import cases_of, in_shard, pending_cases, shard_keys
from pytest_bankbench.tasks.loader import select, shipped_tasks

TASKS = select(shipped_tasks(), "lite")


@pytest.mark.parametrize(("trials", "count"), [(1, 1), (1, 3), (3, 4), (7, 5)])
def test_the_lazy_shard_is_the_shard_of_the_whole_list(trials: int, count: int) -> None:
    cases = cases_of(TASKS[::-1], trials)  # any order of tasks: the shard is by sorted key
    ids = [t.task_id for t in TASKS]
    for index in range(1, count + 1):
        mine = in_shard(ids, trials, index, count)
        wanted = shard_keys(cases, index, count)
        assert {c.key for c in pending_cases(cases, set(), shard=mine)} == wanted


def _run(trials: int) -> Any:
    """A BenchRun's case lookup over the lite tasks, without the rest of a run."""
    run = BenchRun.__new__(BenchRun)
    run.settings = SimpleNamespace(trials=trials)  # type: ignore[assignment]
    run.tasks = TASKS
    run._by_base = {f"{t.category}-{t.task_id}": t for t in TASKS}
    return run


def test_every_case_is_found_by_its_test_id_and_nothing_else() -> None:
    run = _run(12)
    for case in cases_of(TASKS, 12):
        assert run.case_by_id(case.id) == case
    base = cases_of(TASKS, 1)[0].id
    for wrong in (f"{base}-t1", f"{base}-t13", f"{base}-t02", f"{base}-tx", "no-such-001", ""):
        assert run.case_by_id(wrong) is None
    assert list(run.all_cases()) == cases_of(TASKS, 12)
