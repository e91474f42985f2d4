"""Cost of the fresh seeded bank that every test gets (template build once, then per test)."""

from __future__ import annotations

import statistics
import time
from datetime import date

from pytest_bankbench.bank.store import Bank, template_image


def main(rounds: int = 2000) -> None:
    start = time.perf_counter()
    image = template_image()
    build = time.perf_counter() - start
    samples = []
    for _ in range(rounds):
        t = time.perf_counter()
        with Bank("CUST00001", date(2026, 5, 1)) as bank:
            bank.one("SELECT balance FROM accounts WHERE customer_id = ?", bank.customer_id)
        samples.append(time.perf_counter() - t)
    samples.sort()
    print(
        f"template image: {len(image) / 1e6:.1f} MB, built once per process in {build * 1e3:.0f} ms"
    )
    print(
        f"fresh bank (open + first query + close), {rounds} rounds: "
        f"median {statistics.median(samples) * 1e3:.3f} ms, "
        f"p95 {samples[int(0.95 * rounds)] * 1e3:.3f} ms, min {samples[0] * 1e3:.3f} ms"
    )


if __name__ == "__main__":
    main()
