"""A fresh seeded bank per session: SQLite in memory, the seed's records, with change capture."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import date
from functools import cache
from typing import Any

from pytest_bankbench.bank.diff import ChangeSet, RowChange, row_change
from pytest_bankbench.bank.image import DEFAULT_SEED as DEFAULT_SEED
from pytest_bankbench.bank.image import template_image as template_image
from pytest_bankbench.bank.pool import POOL, closed_connection
from pytest_bankbench.bank.schema import (
    CHANGE_LOG,
    TABLE_BY_NAME,
    TABLES,
    select_row_json,
    select_row_json_by_parts,
)


class Bank:
    """One session's bank: the seeded records, the logged-in customer and the task's date."""

    def __init__(self, customer_id: str, today: date, seed: int = DEFAULT_SEED) -> None:
        self.customer_id = customer_id
        self.today = today
        self.seed = seed
        self.conn = POOL.take(seed)

    def close(self) -> None:
        conn, self.conn = self.conn, closed_connection()
        if conn is not self.conn:
            POOL.give_back(self.seed, conn)

    def __enter__(self) -> Bank:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- reads ---------------------------------------------------------------------------
    def one(self, sql: str, *params: Any) -> sqlite3.Row | None:
        row: sqlite3.Row | None = self.conn.execute(sql, params).fetchone()
        return row

    def all(self, sql: str, *params: Any) -> list[sqlite3.Row]:
        return list(self.conn.execute(sql, params).fetchall())

    # -- writes --------------------------------------------------------------------------
    @contextmanager
    def transaction(self) -> Iterator[None]:
        """All-or-nothing: a tool that fails half way leaves the records as they were."""
        self.conn.execute("SAVEPOINT tool")
        try:
            yield
        except BaseException:
            self.conn.execute("ROLLBACK TO tool")
            self.conn.execute("RELEASE tool")
            raise
        self.conn.execute("RELEASE tool")

    def execute(self, sql: str, *params: Any) -> None:
        self.conn.execute(sql, params)

    def next_id(self, prefix: str) -> str:
        """A fresh record id from a per-bank sequence, deterministic for a given call order."""
        row = self.one("SELECT next FROM sequences WHERE name = ?", prefix)
        number = int(row["next"]) if row else 1
        self.execute(
            "INSERT OR REPLACE INTO sequences(name, next) VALUES (?, ?)", prefix, number + 1
        )
        return f"{prefix}{900000 + number}"

    def insert(self, table: str, **values: Any) -> None:
        cols = TABLE_BY_NAME[table].column_names
        marks = ", ".join("?" for _ in cols)
        self.execute(
            f"INSERT INTO {table} ({', '.join(cols)}) VALUES ({marks})",
            *(values.get(c) for c in cols),
        )

    # -- state ---------------------------------------------------------------------------
    def changes(self) -> ChangeSet:
        """Every row that differs from the seed, field by field."""
        rows: list[RowChange] = []
        for tbl, pk, before_text in self.conn.execute(
            f"SELECT tbl, pk, before FROM {CHANGE_LOG}"
        ).fetchall():
            found = self.conn.execute(*_row_lookup(tbl, pk)).fetchone()
            before = json.loads(before_text) if before_text is not None else None
            after = json.loads(found[0]) if found else None
            change = row_change(tbl, pk, before, after)
            if change is not None:
                rows.append(change)
        return ChangeSet.of(rows)


def _row_lookup(tbl: str, pk: str) -> tuple[str, tuple[str, ...]]:
    """The query for a logged row's current image: by its key columns when the logged key splits
    into them unambiguously (no value holds the separator), else by the logged key alone."""
    table = TABLE_BY_NAME[tbl]
    parts = pk.split("|")
    if len(parts) == len(table.key):
        return _by_parts(tbl), (*parts, pk)
    return select_row_json(table), (pk,)


@cache
def _by_parts(tbl: str) -> str:
    return select_row_json_by_parts(TABLE_BY_NAME[tbl])


def table_names() -> list[str]:
    """Names of the record tables, in declaration order."""
    return [table.name for table in TABLES]
