"""Whole-process costs of pytest with the plugin: start-up unused vs absent, collection, gold run.

Each figure is the median of several runs of a fresh interpreter (wall clock).
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def _time(args: list[str], cwd: Path, runs: int, env: dict[str, str] | None = None) -> float:
    samples = []
    for _ in range(runs):
        t = time.perf_counter()
        subprocess.run(
            [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *args],
            cwd=cwd,
            env=env,
            check=False,
            capture_output=True,
        )
        samples.append(time.perf_counter() - t)
    return statistics.median(samples)


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        cwd = Path(tmp)
        (cwd / "test_one.py").write_text("def test_one():\n    assert True\n")
        absent = dict(os.environ, PYTEST_ADDOPTS="-p no:bankbench")
        unused = _time(["-q", "test_one.py"], cwd, 7)
        without = _time(["-q", "test_one.py"], cwd, 7, absent)
        print(
            f"pytest start-up, one trivial test: plugin installed but unused {unused:.3f} s, "
            f"plugin disabled {without:.3f} s, difference {1000 * (unused - without):+.0f} ms"
        )
        collect = _time(["--bank-model", "gold", "--collect-only", "-q"], cwd, 3)
        print(f"collection of the base split (1,000 tests), whole process: {collect:.2f} s")
        serial = _time(["--bank-model", "gold", "-q"], cwd, 1)
        parallel = _time(["--bank-model", "gold", "-q", "-n", "2"], cwd, 1)
        print(
            f"pytest --bank-model gold over the base split: {serial:.1f} s serial, "
            f"{parallel:.1f} s with -n 2"
        )


if __name__ == "__main__":
    main()
