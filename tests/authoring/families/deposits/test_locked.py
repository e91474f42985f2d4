"""Locked-FD families: a step that depended on a refused closure writes nothing."""

from __future__ import annotations

from collections import Counter

from tests.authoring.families.shipped import (
    CTX,
    tasks_of,
    writes,
)


def test_refused_step_blocks_next_writes_nothing_and_names_the_reason() -> None:
    reasons: Counter[str] = Counter()
    for task in tasks_of("refused_step_blocks_next"):
        assert not writes(task), task.task_id
        assert len(task.scenario.instructions) == 2
        first, second = task.scenario.instructions
        assert first.explain and second.explain and second.decline
        fd_id = task.gold[0].facts.key if task.gold[0].facts else ""
        fd = CTX.one("SELECT * FROM deposits WHERE deposit_id = ?", fd_id)
        if fd["deposit_type"] == "tax_saver_fd":
            reasons["lock-in"] += 1
        else:
            assert fd["lien_loan_id"] is not None, task.task_id
            reasons["lien"] += 1
        assert not task.required_outputs, task.task_id
        assert [(t.kind, t.concepts, t.record) for t in task.tells] == [
            ("reason", ("lock_in",) if fd["deposit_type"] == "tax_saver_fd" else ("lien",), fd_id)
        ], task.task_id
    assert set(reasons) == {"lock-in", "lien"}, reasons
