"""Pooled bank connections: every session starts from the seed, whatever the last one did."""

from __future__ import annotations

import sqlite3
import threading

import pytest

from pytest_bankbench.bank.pool import POOL, ConnectionPool
from pytest_bankbench.bank.store import DEFAULT_SEED, Bank, template_image
from tests.bank.bank_testkit import TODAY, call, funded


def _serialized_after_rollback(pool: ConnectionPool) -> bytes:
    conn = pool.take(DEFAULT_SEED)
    try:
        return conn.serialize()
    finally:
        pool.give_back(DEFAULT_SEED, conn)


def _busy_session(pool: ConnectionPool) -> sqlite3.Connection:
    """A connection that went through writes of every kind, given back."""
    conn = pool.take(DEFAULT_SEED)
    conn.execute("UPDATE accounts SET balance = 0")
    conn.execute("DELETE FROM nominees")
    conn.execute("INSERT INTO sequences(name, next) VALUES ('FD', 7)")
    conn.execute("CREATE TEMP TABLE scratch (x)")
    pool.give_back(DEFAULT_SEED, conn)
    return conn


def test_a_given_back_connection_is_the_seed_byte_for_byte() -> None:
    pool = ConnectionPool()
    used = _busy_session(pool)
    again = pool.take(DEFAULT_SEED)
    assert again is used  # reused, not a fresh copy
    assert again.serialize() == template_image()
    assert again.execute("SELECT COUNT(*) FROM sqlite_temp_master").fetchone()[0] == 0
    pool.give_back(DEFAULT_SEED, again)


def test_a_session_through_the_tools_leaves_no_trace_for_the_next() -> None:
    cond = f"{funded(1_00_000_00)} AND a.customer_id IN (SELECT customer_id FROM customers WHERE kyc_status = 'full')"
    with Bank("", TODAY) as probe:
        row = probe.one(f"SELECT a.customer_id, a.account_number FROM accounts a WHERE {cond}")
    assert row is not None
    with Bank(row["customer_id"], TODAY) as bank:
        call(bank, "create_fd", from_account=row["account_number"], amount=50000, tenure_days=400)
        assert bank.changes().rows
    with Bank(row["customer_id"], TODAY) as fresh:
        assert fresh.changes().rows == ()
        assert fresh.next_id("FD") == "FD900001"
    assert _serialized_after_rollback(POOL) == template_image()


def test_a_committed_connection_is_closed_not_reused() -> None:
    pool = ConnectionPool()
    conn = pool.take(DEFAULT_SEED)
    conn.execute("COMMIT")
    conn.execute("UPDATE accounts SET balance = 0")
    pool.give_back(DEFAULT_SEED, conn)
    with pytest.raises(sqlite3.ProgrammingError):
        conn.execute("SELECT 1")
    fresh = pool.take(DEFAULT_SEED)
    assert fresh is not conn
    assert fresh.serialize() == template_image()
    pool.give_back(DEFAULT_SEED, fresh)


def test_open_banks_never_share_a_connection() -> None:
    banks = [Bank("", TODAY) for _ in range(3)]
    assert len({id(bank.conn) for bank in banks}) == 3
    for bank in banks:
        bank.close()


def test_the_pool_keeps_a_few_idle_connections() -> None:
    pool = ConnectionPool()
    taken = [pool.take(DEFAULT_SEED) for _ in range(6)]
    for conn in taken:
        pool.give_back(DEFAULT_SEED, conn)
    kept = [pool.take(DEFAULT_SEED) for _ in range(6)]
    assert len({id(c) for c in kept} & {id(c) for c in taken}) == 4
    for conn in kept:
        pool.give_back(DEFAULT_SEED, conn)


def test_a_closed_bank_cannot_touch_a_pooled_connection() -> None:
    bank = Bank("", TODAY)
    pooled = bank.conn
    bank.close()
    bank.close()  # twice is harmless
    with pytest.raises(sqlite3.ProgrammingError, match="closed"):
        bank.one("SELECT 1")
    with Bank("", TODAY) as next_bank:
        assert next_bank.conn is pooled


def test_banks_in_threads_each_start_from_the_seed() -> None:
    errors: list[BaseException] = []

    def session() -> None:
        try:
            for _ in range(20):
                with Bank("", TODAY) as bank:
                    assert bank.changes().rows == ()
                    bank.execute("UPDATE accounts SET balance = balance + 1")
                    assert bank.changes().rows
        except BaseException as exc:  # handed to the test thread
            errors.append(exc)

    threads = [threading.Thread(target=session) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert _serialized_after_rollback(POOL) == template_image()
