"""The scoring cost of one session: `score()` alone on the gold agent's session of every task.

Scoring reads every message of a session several ways (outputs, what was told, secrets, the
proposal each yes answers). Its cost is measured on the gold sessions, each scored once in a
fresh interpreter (so the readers' caches hold only what one pass through the tasks fills in,
as in a run). With `--against DIR`, a second checkout (e.g. `git worktree add /tmp/before
<commit>`) is measured in turns with this one, run by run, and the ratio of the medians is
printed: this machine's speed drifts, so only interleaved runs compare.

    python bench/scoring_cost.py                          # 5 runs of this checkout
    python bench/scoring_cost.py --against /tmp/before    # 5 runs of each, interleaved
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent


def one_run() -> dict[str, float]:
    """Score every task's gold session once; CPU seconds per session."""
    from pytest_bankbench.bank.store import Bank
    from pytest_bankbench.runner import builtin_agent, expected_changes
    from pytest_bankbench.scoring.scorer import score
    from pytest_bankbench.simulation.customer import ScriptedCustomer
    from pytest_bankbench.simulation.session import run_session
    from pytest_bankbench.tasks.loader import shipped_tasks

    sessions = []
    for task in shipped_tasks():
        with Bank(task.customer_id, task.task_date, task.bank_seed) as bank:
            trace = run_session(task, builtin_agent("gold", task), ScriptedCustomer(task), bank)
        sessions.append((task, trace, expected_changes(task)))
    cost = []
    for task, trace, expected in sessions:
        start = time.process_time()
        verdict = score(task, trace, expected)
        cost.append(time.process_time() - start)
        assert verdict.passed, task.task_id
    return {
        "tasks": len(cost),
        "median": statistics.median(cost),
        "mean": statistics.fmean(cost),
        "messages": statistics.fmean(
            sum(1 for e in trace.events if getattr(e, "kind", "") == "message")
            for _, trace, _ in sessions
        ),
    }


def _measure(checkout: Path) -> dict[str, float]:
    env = {**os.environ, "PYTHONPATH": str(checkout)}
    done = subprocess.run(
        [sys.executable, str(HERE / "bench" / "scoring_cost.py"), "--one-run"],
        capture_output=True,
        check=True,
        text=True,
        env=env,
        cwd=checkout,
    )
    return dict(json.loads(done.stdout))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--against", type=Path, help="another checkout to compare with")
    parser.add_argument("--one-run", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one_run:
        print(json.dumps(one_run()))
        return
    checkouts = [HERE] + ([args.against.resolve()] if args.against else [])
    runs: dict[Path, list[dict[str, float]]] = {c: [] for c in checkouts}
    for _ in range(args.runs):
        for checkout in checkouts:  # in turns: a slow phase of the machine hits both
            runs[checkout].append(_measure(checkout))

    def med(checkout: Path, key: str) -> float:
        return statistics.median(r[key] for r in runs[checkout])

    for checkout in checkouts:
        print(
            f"{checkout}: {int(runs[checkout][0]['tasks'])} gold sessions, "
            f"{med(checkout, 'messages'):.1f} messages each; scoring CPU per session: median "
            f"{1e3 * med(checkout, 'median'):.3f} ms, mean {1e3 * med(checkout, 'mean'):.3f} ms "
            f"(medians of {args.runs} runs)"
        )
    if args.against:
        this, other = checkouts
        print(
            f"ratio this/against: median {med(this, 'median') / med(other, 'median'):.2f}, "
            f"mean {med(this, 'mean') / med(other, 'mean'):.2f}"
        )


if __name__ == "__main__":
    main()
