"""The generator is deterministic and every shipped task passes the construction filter."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from datetime import date
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from pytest_bankbench.authoring import generate as gen
from pytest_bankbench.authoring.base import FAMILIES, Context, Draft, Family, Known, Of, Out
from pytest_bankbench.authoring.generate import write
from pytest_bankbench.bank.image import DEFAULT_SEED
from pytest_bankbench.bank.store import Bank
from pytest_bankbench.paths import data_dir
from pytest_bankbench.tasks.loader import TASKS_FILE, shipped_tasks
from pytest_bankbench.tasks.model import Task


def test_regenerating_writes_identical_bytes(tmp_path: Path) -> None:
    written, _rejected = write(tmp_path)
    assert written == len(shipped_tasks())
    assert (tmp_path / TASKS_FILE).read_bytes() == (data_dir() / TASKS_FILE).read_bytes()


def _with_output(family: Family, output: Callable[[Draft, Out], Out]) -> Family:
    """The family with its first output rewritten from the draft it makes."""

    def make(*args: Any) -> Draft | None:
        made = family.make(*args)
        if made is None:
            return None
        return replace(made, outputs=[output(made, made.outputs[0]), *made.outputs[1:]])

    return replace(family, make=make)


def _first_account_balance(made: Draft, out: Out) -> Out:
    """Issue 17's slip: the balance of the customer's first account, not the one named, with
    the record the output reports still the named account."""
    assert isinstance(out.source, Of) and out.source.entity == "account"
    with Bank(made.customer_id, date(2026, 4, 1), DEFAULT_SEED) as bank:
        first = bank.one(
            "SELECT balance FROM accounts WHERE customer_id = ? AND account_number != ? "
            "ORDER BY account_number",
            made.customer_id,
            out.source.key,
        )
    value = f"{Decimal(first['balance']) / 100}" if first else "13.07"
    return replace(out, source=Known(value, of=out.source))


@pytest.mark.parametrize(
    ("rewrite", "message"),
    [
        (
            _first_account_balance,
            r"balance_enquiry-001: the value .* is not the balance of account",
        ),
        (
            lambda _d, out: replace(out, source=replace(out.source, field="balanse")),
            r"balance_enquiry-001: balanse of account .* is shown by no gold result or record",
        ),
    ],
)
def test_a_family_with_a_wrong_expected_value_stops_generation(
    monkeypatch: pytest.MonkeyPatch, rewrite: Callable[[Draft, Out], Out], message: str
) -> None:
    """An output whose value is not what the record it names holds after the gold chain (or
    that names a field no record shows) stops generation, naming the task and the field."""
    gen.load_families()
    family = FAMILIES["balance_enquiry"]
    monkeypatch.setitem(FAMILIES, "balance_enquiry", _with_output(family, rewrite))
    with pytest.raises(gen.WrongExpectedValue, match=message):
        gen._family_tasks(Context(DEFAULT_SEED), "balance_enquiry", DEFAULT_SEED, [])
    # The family as written generates.
    monkeypatch.setitem(FAMILIES, "balance_enquiry", family)
    made = gen._family_tasks(Context(DEFAULT_SEED), "balance_enquiry", DEFAULT_SEED, [])
    assert [t.task_id for t in made] == [
        t.task_id for t in shipped_tasks() if t.family == "balance_enquiry"
    ]
    assert all(t.required_outputs[0].source is not None for t in made)


def test_a_told_value_unlike_its_tasks_record_stops_generation(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A value the generator reads right but a later change makes wrong is caught by the
    validate-tasks check the generator runs on every task (tasks/validate.py)."""
    gen.load_families()
    original = gen._build

    def build(*args: Any) -> Task:
        task = original(*args)
        out = task.required_outputs[0]
        shifted = out.model_copy(update={"value": str(out.amount() + Decimal("13.07"))})
        return task.model_copy(update={"required_outputs": (shifted,)})

    monkeypatch.setattr(gen, "_build", build)
    with pytest.raises(
        gen.WrongExpectedValue, match=r"balance_enquiry-001: field required_outputs\.0"
    ):
        gen._family_tasks(Context(DEFAULT_SEED), "balance_enquiry", DEFAULT_SEED, [])
