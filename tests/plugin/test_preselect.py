"""-k before the tests are made (issue 19, item 6): only the cases -k may keep become test items,
and pytest's -k then keeps exactly what it kept before."""

from __future__ import annotations

import pytest

from pytest_bankbench.plugin.preselect import case_names, preselect
from pytest_bankbench.run.cases import cases_of
from pytest_bankbench.tasks.loader import select, shipped_tasks

CASES = cases_of(select(shipped_tasks(), "lite"), 3)
SHARED = ["bankbench", "test_task", "tests"]
EXPRESSIONS = [
    CASES[0].task.task_id,
    "fd_closure and not declined",
    "t3 and deposits",
    "edge_case or (loans and not t2)",
    "bankbench and fd_rate_query",
    "not bankbench",
    "somemarker",  # no name holds it: a conftest may add it later
    "somemarker and fd_rate",
]


def _pytest_keeps(expression: str) -> list[str]:
    """pytest's own -k on the names a case's test has (shared names + its own)."""
    from _pytest.mark import KeywordMatcher
    from _pytest.mark.expression import Expression

    compiled = Expression.compile(expression)
    return [
        case.id
        for case in CASES
        if compiled.evaluate(KeywordMatcher(frozenset([*SHARED, *case_names(case)])))
    ]


@pytest.mark.parametrize("expression", EXPRESSIONS)
def test_no_case_pytest_would_keep_is_dropped(expression: str) -> None:
    kept = [c.id for c in preselect(expression, SHARED, CASES)]
    wanted = _pytest_keeps(expression)
    assert set(wanted) <= set(kept)
    if "somemarker" not in expression:
        assert kept == wanted  # exact where every identifier is a name the suite knows
    else:
        assert len(kept) >= len(wanted)  # kept for the marker a conftest may add


def test_without_a_usable_expression_every_case_is_kept() -> None:
    for expression in (None, "", "   ", "(unclosed and"):
        assert preselect(expression, SHARED, CASES) == CASES


def test_only_the_kept_cases_become_tests(pytester: pytest.Pytester) -> None:
    """Before, --bank-trials N built every (task, trial) test and -k deselected the rest."""
    recorder = pytester.inline_run(
        "-p",
        "no:cacheprovider",
        "--collect-only",
        "--bank-model",
        "gold",
        "--bank-trials",
        "20",
        "-k",
        "fd_closure_declined-001 and not t2",
    )
    deselected = [i for call in recorder.getcalls("pytest_deselected") for i in call.items]
    collected = [i.nodeid for i in recorder.getcalls("pytest_collection_finish")[0].session.items]
    assert not deselected
    trials = [f"-t{k + 1}]" if k else "-001]" for k in range(20)]
    assert len(collected) == sum("t2" not in t for t in trials)  # t2 and t20 are out
    assert all("fd_closure_declined-001" in n and "t2" not in n for n in collected)


def test_a_marker_a_conftest_adds_still_selects(pytester: pytest.Pytester) -> None:
    pytester.makeconftest(
        """
import pytest

def pytest_collection_modifyitems(items):
    for item in items:
        if "fd_rate_query-005" in item.nodeid:
            item.add_marker(pytest.mark.chosen_by_conftest)
"""
    )
    recorder = pytester.inline_run(
        "-p", "no:cacheprovider", "--collect-only", "--bank-model", "gold", "-k", "chosen_by"
    )
    collected = [i.nodeid for i in recorder.getcalls("pytest_collection_finish")[0].session.items]
    assert collected == ["bankbench::test_task[control-fd_rate_query-005]"]
