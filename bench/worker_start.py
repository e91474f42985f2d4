"""Time for a fresh worker to be ready for its first session (issue 11, item 7).

From process start: import the session core (`pytest_bankbench.runner`, which brings pytest,
pydantic, the bank, the simulation and the scoring), get the seeded bank image, open the first
bank and query it. Measured as the wall time of a fresh interpreter, median of several, with the
image in a warm disk cache and with the cache turned off (built in memory, as before the cache).
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time

from pytest_bankbench.bank.image import CACHE_ENV, CACHE_OFF

FIRST_SESSION_READY = """
from datetime import date
import pytest_bankbench.runner
from pytest_bankbench.bank.store import Bank
with Bank("CUST00001", date(2026, 5, 1)) as bank:
    bank.one("SELECT balance FROM accounts WHERE customer_id = ?", bank.customer_id)
"""


def _wall(env: dict[str, str], runs: int) -> float:
    command = [sys.executable, "-c", FIRST_SESSION_READY]
    return statistics.median(_timed(command, env) for _ in range(runs))


def main(runs: int = 9) -> None:
    bare = statistics.median(_timed([sys.executable, "-c", "pass"]) for _ in range(runs))
    with tempfile.TemporaryDirectory() as tmp:
        cached = dict(os.environ, **{CACHE_ENV: tmp})
        _wall(cached, 1)  # fills the cache, as the first worker on a machine does
        warm = _wall(cached, runs)
    cold = _wall(dict(os.environ, **{CACHE_ENV: CACHE_OFF}), runs)
    print(
        f"worker ready for its first session (import, image, first bank), median of {runs}: "
        f"{warm:.3f} s with the image cached on disk, {cold:.3f} s building it "
        f"(bare interpreter {bare:.3f} s)"
    )


def _timed(command: list[str], env: dict[str, str] | None = None) -> float:
    t = time.perf_counter()
    subprocess.run(command, env=env, check=True)
    return time.perf_counter() - t


if __name__ == "__main__":
    main()
