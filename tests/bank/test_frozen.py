"""Frozen records share one fields-set per class, and behave as plain frozen models otherwise."""

from __future__ import annotations

import pickle

import pytest
from pydantic import ValidationError

from pytest_bankbench.bank.diff import FieldChange, RowChange
from pytest_bankbench.bank.frozen import FrozenRecord


class _Pair(FrozenRecord):
    left: int
    right: int = 0


def test_instances_given_every_field_share_one_set() -> None:
    a, b = FieldChange(field="x", before=1, after=2), FieldChange(field="y", before=None, after=3)
    assert a.model_fields_set is b.model_fields_set
    assert a.model_fields_set == {"field", "before", "after"}


def test_an_instance_that_left_a_default_keeps_its_own_set() -> None:
    full, partial = _Pair(left=1, right=2), _Pair(left=1)
    assert partial.model_fields_set == {"left"}
    assert full.model_fields_set == {"left", "right"}
    assert _Pair(left=3, right=4).model_fields_set is full.model_fields_set


def test_a_copy_with_changes_gets_a_set_of_its_own() -> None:
    one, two = _Pair(left=1, right=2), _Pair(left=5, right=6)
    partial = _Pair(left=1)
    copied = partial.model_copy(update={"right": 9})
    assert copied.right == 9
    assert partial.model_fields_set == {"left"}
    assert one.model_fields_set is two.model_fields_set == {"left", "right"}


def test_records_stay_frozen_equal_hashable_and_picklable() -> None:
    row = RowChange(
        table="accounts",
        key="SB1",
        op="update",
        fields=(FieldChange(field="balance", before=1, after=2),),
    )
    with pytest.raises(ValidationError):
        row.key = "other"  # type: ignore[misc]
    assert row == RowChange.model_validate_json(row.model_dump_json())
    assert hash(row) == hash(row.model_copy())
    assert pickle.loads(pickle.dumps(row)) == row
    with pytest.raises(ValidationError, match="extra"):
        _Pair.model_validate({"left": 1, "surprise": 2})
