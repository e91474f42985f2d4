"""The generator is deterministic and every shipped task passes the construction filter."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from datetime import date
from decimal import Decimal
from pathlib import Path
from typing import Any, TypeVar

import pytest

from pytest_bankbench.authoring import generate as gen
from pytest_bankbench.authoring.base import FAMILIES, Context, Draft, Family, Known, Of, Out, Tell
from pytest_bankbench.authoring.generate import write
from pytest_bankbench.bank.image import DEFAULT_SEED
from pytest_bankbench.bank.store import Bank
from pytest_bankbench.paths import data_dir
from pytest_bankbench.tasks.loader import TASKS_FILE, shipped_tasks
from pytest_bankbench.tasks.model import Task
from pytest_bankbench.tasks.sources import told_sources

T = TypeVar("T", Out, Tell)


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
            r"balance_enquiry-001: field required_outputs\.0: .balance.: amount .* is not the "
            r"balance of account",
        ),
        (
            lambda _d, out: replace(out, source=replace(out.source, field="balanse")),
            r"balance_enquiry-001: field required_outputs\.0: balanse of account .* is shown by no "
            r"gold result or record",
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


def _with_told(family: Family, label: str, value: str) -> Family:
    """The family with its output or disclosure `label` written `value`, its place kept."""

    def wrong(told: T) -> T:
        if told.label != label:
            return told
        place = told.source if isinstance(told.source, Of) else told.source.of
        return replace(told, source=Known(value, place))

    def make(*args: Any) -> Draft | None:
        made = family.make(*args)
        if made is None:
            return None
        outputs = [wrong(o) for o in made.outputs]
        return replace(made, outputs=outputs, disclosures=[wrong(d) for d in made.disclosures])

    return replace(family, make=make)


@pytest.mark.parametrize(
    ("name", "label", "value", "message"),
    [
        (
            "lost_card_block",
            "replacement fee",
            "250",
            r"lost_card_block-001: field disclosures\.2: 'replacement fee': amount 250 is not "
            r"what policy clause F\.24 says: 200",
        ),
        (
            "new_payee_transfer",
            "amount",
            "1.00",
            r"new_payee_transfer-001: field disclosures\.0: 'amount': amount 1\.00 is not the "
            r"argument amount of gold call c\d",
        ),
        (  # the rate told before the booking is also the rate booked (`same_as`)
            "rd_opening",
            "rate",
            "9.99",
            r"rd_opening-001: field disclosures\.0: the value 9\.99 is not the rate_percent of "
            r"gold call c\d",
        ),
        (
            "fd_rate_query",
            "rate",
            "9.99",
            r"fd_rate_query-001: field required_outputs\.0: 'rate': percent 9\.99 is not the "
            r"applicable_rate_percent of the rate card's slab for \d+ days",
        ),
    ],
)
def test_a_family_telling_a_wrong_rule_argument_or_rate_stops_generation(
    monkeypatch: pytest.MonkeyPatch, name: str, label: str, value: str, message: str
) -> None:
    """A fee of the policy, an amount the transfer sends, a rate of the rate card: a family
    that writes one wrong stops generation, naming the task, the field and the place."""
    gen.load_families()
    family = FAMILIES[name]
    monkeypatch.setitem(FAMILIES, name, _with_told(family, label, value))
    with pytest.raises(gen.WrongExpectedValue, match=message):
        gen._family_tasks(Context(DEFAULT_SEED), name, DEFAULT_SEED, [])


def test_a_told_value_without_a_place_stops_generation(monkeypatch: pytest.MonkeyPatch) -> None:
    """A value the family writes into a task without its place (a bare ToldValue, as `const`
    used to make) is refused: every told value of a generated task names its source."""
    gen.load_families()
    original = gen._build

    def build(*args: Any) -> Task:
        task = original(*args)
        bare = tuple(d.model_copy(update={"source": None}) for d in task.disclosures)
        return task.model_copy(update={"disclosures": bare})

    monkeypatch.setattr(gen, "_build", build)
    with pytest.raises(
        gen.WrongExpectedValue,
        match=r"lost_card_block-001: .*field disclosures\.0\.source: 'block' names no source",
    ):
        gen._family_tasks(Context(DEFAULT_SEED), "lost_card_block", DEFAULT_SEED, [])


def test_no_shipped_told_value_lacks_a_source() -> None:
    """Every value a shipped task tells names its place (issue 17): counted over the file."""
    told = [(t.task_id, field) for t in shipped_tasks() for field, _ in told_sources(t)]
    unsourced = [
        (t.task_id, field)
        for t in shipped_tasks()
        for field, value in told_sources(t)
        if value.source is None
    ]
    assert told and unsourced == []
