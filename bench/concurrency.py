"""Many sessions at once without many processes: --bank-concurrency against a 1 s endpoint.

1,000 one-call sessions (40 one-instruction control tasks x 25 trials, written to a task file so
only they are collected; --bank-max-steps 2 ends each session after the agent's first reply)
against bench/fake_server.py answering every request after 1 s. With 64 sessions in flight the ideal is 1000 / 64 = 15.6 s; the target is within 1.3x
of it at under 1.5 GB of RSS summed over the run's processes. Prints numbers, asserts nothing.

    python bench/concurrency.py                # the target configurations
    python bench/concurrency.py --serial       # plus 40 sessions one at a time, for reference
    python bench/concurrency.py --dev-plugins  # with the dev extra's pytest plugins loaded

Runs as in a user's environment (the package with its [llm] extra): the dev extra's pytest
plugins, hypothesis's and syrupy's, are disabled; they cost ~0.25 s of each run's critical path
(hypothesis's import at start-up, syrupy's report at the end).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from http.server import ThreadingHTTPServer
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
import fake_server

PORT = 18766
FAMILIES = ("fd_rate_query", "balance_enquiry")  # 40 control tasks, one instruction each
ONE_CALL = ["--bank-max-steps", "2"]  # the customer's opening, then one agent reply
DEV_PLUGINS_OFF = ["-p", "no:hypothesispytest", "-p", "no:syrupy"]  # not in a user's install

# Each process (controller and workers) appends its peak RSS; their sum bounds the run's total.
PEAK_PLUGIN = """
import resource
def pytest_sessionfinish(session):
    with open("peaks.txt", "a") as fh:
        fh.write(f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss}\\n")
"""


class _DeepBacklog(ThreadingHTTPServer):
    # A real endpoint accepts 64 simultaneous connections; socketserver's default backlog of 5
    # would make the loopback server, not the harness, the bottleneck.
    request_queue_size = 256


@dataclass(frozen=True)
class Run:
    wall_s: float
    cpu_s: float  # user + system of pytest and its workers: what a loaded machine cannot hide
    sessions: int
    rss_mb: float  # peak RSS summed over the processes


def _run(cwd: Path, args: list[str]) -> Run:
    peaks = cwd / "peaks.txt"
    peaks.unlink(missing_ok=True)
    report = cwd / "r.json"
    before = os.times()
    start = time.perf_counter()
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-p",
            "no:cacheprovider",
            "-q",
            "--tb=no",
            *([] if "--dev-plugins" in sys.argv else DEV_PLUGINS_OFF),
            *args,
            "--bank-report",
            str(report),
        ],
        cwd=cwd,
        check=False,
        capture_output=True,
    )
    wall = time.perf_counter() - start
    after = os.times()
    cpu = (after.children_user - before.children_user) + (
        after.children_system - before.children_system
    )
    sessions = json.loads(report.read_text())["summary"]["sessions"]
    total_mb = sum(int(x) for x in peaks.read_text().split()) / 1024
    return Run(wall, cpu, sessions, total_mb)


def _task_file(path: Path) -> None:
    from pytest_bankbench.tasks.loader import select, shipped_tasks

    tasks = [t for t in select(shipped_tasks(), "base") if t.family in FAMILIES]
    path.write_text("".join(t.model_dump_json() + "\n" for t in tasks), encoding="utf-8")


def main() -> None:
    fake_server.ThreadingHTTPServer = _DeepBacklog  # type: ignore[attr-defined]
    server = fake_server.serve(PORT, 1.0)
    model = ["--bank-model", "openai/fake", "--bank-api-base", f"http://127.0.0.1:{PORT}/v1"]
    with tempfile.TemporaryDirectory() as tmp:
        cwd = Path(tmp)
        (cwd / "conftest.py").write_text(PEAK_PLUGIN)
        _task_file(cwd / "tasks.jsonl")
        tasks = [*model, "--bank-tasks", "tasks.jsonl", *ONE_CALL]
        print(f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} before the runs")
        if "--serial" in sys.argv:
            run = _run(cwd, tasks)
            print(
                f"{'reference, one at a time':<24} {run.sessions} sessions x 1 s: "
                f"{run.wall_s:5.1f} s wall, {run.cpu_s:5.1f} s CPU; peak RSS {run.rss_mb:.0f} MB"
            )
        for label, extra in (
            ("-n 0, 64 in flight", ["--bank-concurrency", "64"]),
            ("-n 2, 32 in flight each", ["-n", "2", "--bank-concurrency", "32"]),
        ):
            run = _run(cwd, [*tasks, "--bank-trials", "25", *extra])
            ideal = run.sessions / 64
            print(
                f"{label:<24} {run.sessions} sessions x 1 s: {run.wall_s:5.1f} s wall "
                f"(ideal {ideal:.1f} s, {run.wall_s / ideal:.2f}x), {run.cpu_s:5.1f} s CPU; "
                f"total peak RSS {run.rss_mb:.0f} MB"
            )
    server.shutdown()


if __name__ == "__main__":
    main()
