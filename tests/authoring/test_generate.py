"""The generator is deterministic and every shipped task passes the construction filter."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pytest_bankbench.authoring.generate import write
from pytest_bankbench.paths import data_dir
from pytest_bankbench.tasks.loader import TASKS_FILE, shipped_tasks


def test_regenerating_writes_identical_bytes(tmp_path: Path) -> None:
    written, _rejected = write(tmp_path)
    assert written == len(shipped_tasks())
    assert (tmp_path / TASKS_FILE).read_bytes() == (data_dir() / TASKS_FILE).read_bytes()


def test_a_family_with_a_wrong_expected_value_stops_generation(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """An output read from the wrong place (here: a balance off by Rs 13.07) is found by
    checking it against the gold replay's results, and generation names the task and field."""
    from dataclasses import replace
    from decimal import Decimal

    from pytest_bankbench.authoring import generate as gen
    from pytest_bankbench.authoring.base import FAMILIES, Context
    from pytest_bankbench.bank.image import DEFAULT_SEED

    gen.load_families()
    family = FAMILIES["balance_enquiry"]

    def wrong(*args: Any) -> Any:
        draft = family.make(*args)
        if draft is None:
            return None
        out = draft.outputs[0]
        off = replace(
            out, source=lambda results: str(Decimal(out.source(results)) + Decimal("13.07"))
        )
        return replace(draft, outputs=[off, *draft.outputs[1:]])

    monkeypatch.setitem(FAMILIES, "balance_enquiry", replace(family, make=wrong))
    with pytest.raises(
        gen.WrongExpectedValue, match=r"balance_enquiry-001: field required_outputs\.0"
    ):
        gen._family_tasks(Context(DEFAULT_SEED), "balance_enquiry", DEFAULT_SEED, [])
    # The family as written generates.
    monkeypatch.setitem(FAMILIES, "balance_enquiry", family)
    made = gen._family_tasks(Context(DEFAULT_SEED), "balance_enquiry", DEFAULT_SEED, [])
    assert [t.task_id for t in made] == [
        t.task_id for t in shipped_tasks() if t.family == "balance_enquiry"
    ]
