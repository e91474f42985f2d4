"""Connections that hold a seed's bank, reused from session to session by rolling back.

Opening a bank from the template image copies 4 MB and parses the schema at the first query
(about 0.6 ms of a 2-3 ms gold session, issue 11, item 7). A pooled connection instead runs each
session inside one transaction and is returned to the seed state by rolling it back, which
restores every page as it was (tests/bank/test_pool.py compares the serialized database).
"""

from __future__ import annotations

import os
import sqlite3
import threading
from functools import cache

from pytest_bankbench.bank.image import image_once, template_image


class ConnectionPool:
    """Idle connections by seed; a taken one is inside a transaction its giver rolls back."""

    def __init__(self) -> None:
        self._idle: dict[int, list[sqlite3.Connection]] = {}
        self._opened: set[int] = set()
        self._lock = threading.Lock()

    def take(self, seed: int) -> sqlite3.Connection:
        """A connection holding the seed's bank as seeded, with a transaction begun."""
        with self._lock:
            idle = self._idle.get(seed)
            conn = idle.pop() if idle else None
        if conn is None:
            conn = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
            conn.deserialize(self._image(seed))
            # The pages are in memory already; a 2 MB page cache over them (the default) only
            # added to a worker's peak, and sessions run no slower with 256 KB.
            conn.execute("PRAGMA cache_size = -256")
        conn.row_factory = sqlite3.Row
        conn.execute("BEGIN")
        return conn

    def _image(self, seed: int) -> bytes:
        # A serial worker opens one connection in all: its image need not outlive it. Sessions
        # in flight together (--bank-concurrency) open more, from the image kept in memory.
        with self._lock:
            first = seed not in self._opened
            self._opened.add(seed)
        return image_once(seed) if first else template_image(seed)

    def give_back(self, seed: int, conn: sqlite3.Connection) -> None:
        """Roll the connection back to the seed and keep it, or close it when it cannot be."""
        # A transaction ended by anyone but us may have committed changes: never reuse it.
        if conn.in_transaction:
            try:
                conn.execute("ROLLBACK")
            except sqlite3.Error:
                pass
            else:
                with self._lock:
                    idle = self._idle.setdefault(seed, [])
                    if len(idle) < _IDLE_MAX:
                        idle.append(conn)
                        return
        conn.close()

    def clear(self) -> None:
        """Forget the idle connections (a forked child must not share its parent's)."""
        self._idle = {}


# Enough for the sessions in flight on one worker thread plus a replay; more would be memory
# held by a worker that had a burst of concurrent sessions.
_IDLE_MAX = 4
POOL = ConnectionPool()
os.register_at_fork(after_in_child=POOL.clear)


@cache
def closed_connection() -> sqlite3.Connection:
    """A closed connection: a closed bank raises as before rather than touch a pooled one."""
    conn = sqlite3.connect(":memory:")
    conn.close()
    return conn
