"""Whole-process costs of pytest with the plugin: start-up unused vs absent, collection, gold run.

Each figure is the median of several runs of a fresh interpreter: wall clock, and for start-up
and collection also the process time (user + system CPU of the pytest process). Peak memory is
each process's high-water mark (VmHWM), recorded at exit by a small plugin loaded with -p.

    python bench/pytest_costs.py                          # this environment
    python bench/pytest_costs.py --python VENV/bin/python # also collection in another one, e.g.
                                                          # a clean venv with the wheel installed

Bytecode caching is on for every run, as on a user's machine (PYTHONDONTWRITEBYTECODE unset):
without it pytest re-rewrites the asserts of every module of an installed plugin on each start.
"""

from __future__ import annotations

import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

RSS_PLUGIN = """
import json, os
from pathlib import Path

def pytest_unconfigure(config):
    worker = getattr(config, "workerinput", {}).get("workerid", "main")
    status = Path("/proc/self/status").read_text().splitlines()
    peak = next(int(line.split()[1]) for line in status if line.startswith("VmHWM"))
    out = Path(os.environ["BENCH_RSS_DIR"]) / f"{worker}-{os.getpid()}.json"
    out.write_text(json.dumps({"worker": worker, "peak_kb": peak}))
"""


def _environ(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    return {**env, **extra}


def _run(
    args: list[str], cwd: Path, env: dict[str, str] | None = None, python: str = sys.executable
) -> tuple[float, float]:
    """Wall and process seconds of one pytest run."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    subprocess.run(
        [python, "-m", "pytest", "-p", "no:cacheprovider", *args],
        cwd=cwd,
        env=env or _environ(),
        check=False,
        capture_output=True,
    )
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def _median(
    args: list[str],
    cwd: Path,
    runs: int,
    env: dict[str, str] | None = None,
    python: str = sys.executable,
) -> tuple[float, float]:
    _run(args, cwd, env, python)  # the bytecode caches written, as after a first run
    samples = [_run(args, cwd, env, python) for _ in range(runs)]
    return statistics.median(s[0] for s in samples), statistics.median(s[1] for s in samples)


def _peaks(args: list[str], cwd: Path) -> tuple[float, dict[str, float]]:
    """Wall seconds of one run and the peak RSS of each of its processes, in MB."""
    with tempfile.TemporaryDirectory() as out:
        env = _environ(BENCH_RSS_DIR=out, PYTHONPATH=str(cwd))
        wall, _ = _run(["-p", "bench_rss", *args], cwd, env)
        peaks = {}
        for path in Path(out).iterdir():
            data = json.loads(path.read_text())
            peaks[data["worker"]] = data["peak_kb"] / 1024
    return wall, peaks


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        cwd = Path(tmp)
        (cwd / "test_one.py").write_text("def test_one():\n    assert True\n")
        (cwd / "bench_rss.py").write_text(RSS_PLUGIN)
        absent = _environ(PYTEST_ADDOPTS="-p no:bankbench")
        # Interleaved, so a change in the machine's load falls on both alike.
        pairs = [
            (_run(["-q", "test_one.py"], cwd), _run(["-q", "test_one.py"], cwd, absent))
            for _ in range(9)
        ]
        unused, unused_cpu = (statistics.median(p[0][i] for p in pairs) for i in (0, 1))
        without, without_cpu = (statistics.median(p[1][i] for p in pairs) for i in (0, 1))
        print(
            f"pytest start-up, one trivial test: plugin installed but unused {unused:.3f} s "
            f"({unused_cpu:.3f} s CPU), plugin disabled {without:.3f} s ({without_cpu:.3f} s "
            f"CPU), difference {1000 * (unused - without):+.0f} ms"
        )
        collect, collect_cpu = _median(["--bank-model", "gold", "--collect-only", "-q"], cwd, 5)
        print(
            f"collection of the base split (1,000 tests), whole process: {collect:.2f} s wall, "
            f"{collect_cpu:.2f} s process time ({collect_cpu - unused_cpu:.2f} s more than the "
            f"trivial run)"
        )
        # A user's environment has the package's dependencies, not the dev extra's hypothesis,
        # whose pytest plugin alone adds ~0.2 s to every start-up here.
        user, user_cpu = _median(
            ["-p", "no:hypothesispytest", "--bank-model", "gold", "--collect-only", "-q"], cwd, 5
        )
        print(
            f"the same without hypothesis's plugin (a user's environment): {user:.2f} s wall, "
            f"{user_cpu:.2f} s process time (target: under 0.5 s)"
        )
        if "--python" in sys.argv:
            other = sys.argv[sys.argv.index("--python") + 1]
            wall, cpu = _median(
                ["--bank-model", "gold", "--collect-only", "-q"], cwd, 5, None, other
            )
            print(f"the same with {other}: {wall:.2f} s wall, {cpu:.2f} s process time")
        serial, serial_peaks = _peaks(["--bank-model", "gold", "-q"], cwd)
        parallel, parallel_peaks = _peaks(["--bank-model", "gold", "-q", "-n", "2"], cwd)
        print(
            f"pytest --bank-model gold over the base split: {serial:.1f} s serial, "
            f"{parallel:.1f} s with -n 2"
        )
        workers = ", ".join(
            f"{name} {mb:.0f} MB" for name, mb in sorted(parallel_peaks.items()) if name != "main"
        )
        print(
            f"peak RSS: serial process {serial_peaks.get('main', 0):.0f} MB; with -n 2 "
            f"controller {parallel_peaks.get('main', 0):.0f} MB, workers {workers}"
        )


if __name__ == "__main__":
    main()
