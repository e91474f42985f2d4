"""Cost of the fresh seeded bank that every test gets: the template image, then a bank per test.

The image is built from the seed, or read from the per-machine disk cache (bank/image.py); a
bank is a pooled connection rolled back to the seed (bank/pool.py), or, the first time in a
process, a copy of the image. Each figure is measured in this process.
"""

from __future__ import annotations

import statistics
import tempfile
import time
from datetime import date
from pathlib import Path

from pytest_bankbench.bank.image import DEFAULT_SEED, build_image, cached_image
from pytest_bankbench.bank.store import Bank, template_image

TODAY = date(2026, 5, 1)


def _median_ms(samples: list[float]) -> float:
    return 1e3 * statistics.median(samples)


def main(rounds: int = 2000) -> None:
    builds = []
    for _ in range(3):
        t = time.perf_counter()
        image = build_image(DEFAULT_SEED)
        builds.append(time.perf_counter() - t)
    with tempfile.TemporaryDirectory() as tmp:
        cached_image(DEFAULT_SEED, Path(tmp))
        reads = []
        for _ in range(10):
            t = time.perf_counter()
            cached_image(DEFAULT_SEED, Path(tmp))
            reads.append(time.perf_counter() - t)
    print(
        f"template image: {len(image) / 1e6:.1f} MB; built in {_median_ms(builds):.0f} ms, "
        f"read from the disk cache in {_median_ms(reads):.1f} ms (median)"
    )
    template_image()
    t = time.perf_counter()
    with Bank("CUST00001", TODAY) as bank:
        bank.one("SELECT balance FROM accounts WHERE customer_id = ?", bank.customer_id)
    first = time.perf_counter() - t
    samples = []
    for _ in range(rounds):
        t = time.perf_counter()
        with Bank("CUST00001", TODAY) as bank:
            bank.one("SELECT balance FROM accounts WHERE customer_id = ?", bank.customer_id)
            bank.execute("UPDATE accounts SET balance = 0 WHERE customer_id = ?", bank.customer_id)
        samples.append(time.perf_counter() - t)
    samples.sort()
    print(f"first bank of a process (copy of the image, first query): {first * 1e3:.2f} ms")
    print(
        f"fresh bank per test (open, first query, a write, close), {rounds} rounds: "
        f"median {_median_ms(samples):.3f} ms, p95 {samples[int(0.95 * rounds)] * 1e3:.3f} ms, "
        f"min {samples[0] * 1e3:.3f} ms"
    )


if __name__ == "__main__":
    main()
