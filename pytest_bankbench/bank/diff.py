"""Row-level change sets against the seed state, normalized so that two sessions compare fairly."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from pydantic import ConfigDict

from pytest_bankbench.bank.frozen import FrozenRecord
from pytest_bankbench.bank.schema import TABLE_BY_NAME
from pytest_bankbench.money import shown_value

JsonScalar = str | int | float | bool | None


class FieldChange(FrozenRecord):
    """One field of one row: its value in the seed and after the session."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    field: str
    before: JsonScalar
    after: JsonScalar


class RowChange(FrozenRecord):
    """A row the session inserted, updated or deleted, with the fields that differ."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    table: str
    key: str
    op: str
    fields: tuple[FieldChange, ...]

    def signature(self) -> str:
        """Canonical text used for comparison (generated keys already replaced)."""
        # repr is as injective as JSON on the stored scalars (str, int, float, bool, None), and
        # several times cheaper: the final-state check computes it for every changed row.
        parts = [f"{c.field}:{c.before!r}->{c.after!r}" for c in self.fields]
        return f"{self.table}|{self.op}|{self.key}|" + ";".join(parts)

    def describe(self) -> str:
        """One line for a failure message."""
        # Paise fields read in rupees (Rs 95,648.19): the line is evidence a person reads.
        shown = ", ".join(
            f"{c.field}: {shown_value(c.field, c.before)} -> {shown_value(c.field, c.after)}"
            for c in self.fields
        )
        return f"{self.op} {self.table}[{self.key}] {shown}"


def row_change(
    table: str, key: str, before: dict[str, Any] | None, after: dict[str, Any] | None
) -> RowChange | None:
    """Build the change of one row from its before and after images; None when they are equal."""
    if before == after:
        return None
    spec = TABLE_BY_NAME[table]
    if before is None and after is not None:
        op = "insert"
        cols = [c for c in spec.column_names if not (spec.generated_key and c in spec.key)]
        fields = tuple(FieldChange(field=c, before=None, after=after[c]) for c in cols)
        if spec.generated_key:
            key = "<new>"
    elif after is None and before is not None:
        op = "delete"
        fields = tuple(
            FieldChange(field=c, before=before[c], after=None) for c in spec.column_names
        )
    else:
        assert before is not None and after is not None
        op = "update"
        fields = tuple(
            FieldChange(field=c, before=before[c], after=after[c])
            for c in spec.column_names
            if before[c] != after[c]
        )
    return RowChange(table=table, key=key, op=op, fields=fields)


@dataclass(frozen=True)
class ChangeSet:
    """The normalized changes of a session: order-free, generated keys replaced by content."""

    rows: tuple[RowChange, ...]

    @classmethod
    def of(cls, rows: list[RowChange]) -> ChangeSet:
        return cls(tuple(sorted(rows, key=RowChange.signature)))

    def counter(self) -> Counter[str]:
        return Counter(row.signature() for row in self.rows)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ChangeSet) and self.counter() == other.counter()

    def __hash__(self) -> int:
        return hash(tuple(sorted(self.counter().items())))

    def to_json(self) -> list[dict[str, Any]]:
        return [row.model_dump(mode="json") for row in self.rows]

    @classmethod
    def from_json(cls, data: list[dict[str, Any]]) -> ChangeSet:
        return cls.of([RowChange.model_validate(item) for item in data])


@dataclass(frozen=True)
class StateDiff:
    """Rows changed only by the session under test, and rows changed only by the gold replay."""

    unexpected: tuple[RowChange, ...]
    missing: tuple[RowChange, ...]

    @property
    def equal(self) -> bool:
        return not self.unexpected and not self.missing

    def describe(self) -> str:
        lines = [f"+ got      {row.describe()}" for row in self.unexpected]
        lines += [f"- expected {row.describe()}" for row in self.missing]
        return "\n".join(lines)


def compare(actual: ChangeSet, expected: ChangeSet) -> StateDiff:
    """Multiset difference of two change sets, both ways."""
    got, want = actual.counter(), expected.counter()
    extra, lacking = got - want, want - got
    unexpected = _pick(actual.rows, extra)
    missing = _pick(expected.rows, lacking)
    return StateDiff(unexpected, missing)


def _pick(rows: tuple[RowChange, ...], wanted: Counter[str]) -> tuple[RowChange, ...]:
    left = Counter(wanted)
    picked = []
    for row in rows:
        sig = row.signature()
        if left[sig] > 0:
            left[sig] -= 1
            picked.append(row)
    return tuple(picked)
