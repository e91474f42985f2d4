"""A gold session with all its checks, per task over all 1,000 tasks (no pytest, no model).

What `runner.run_task(task, builtin_agent("gold", task))` does: a fresh bank, the session, and
the verdict against the task's stored change set. Each run is a fresh interpreter that plays
every task once (nothing warmed by an earlier pass); the figures are the median over the runs.
Scoring alone and the gold replay (what a custom task file without stored changes pays) are
measured apart.

    python bench/replay_score.py              # 5 runs
    python bench/replay_score.py --runs 9
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time


def one_run() -> dict[str, float]:
    """Play every task once in this process; per-task seconds of each measured step."""
    from pytest_bankbench.bank.store import Bank
    from pytest_bankbench.runner import builtin_agent, expected_changes, run_task
    from pytest_bankbench.scoring.scorer import score
    from pytest_bankbench.simulation.customer import ScriptedCustomer
    from pytest_bankbench.simulation.session import run_session
    from pytest_bankbench.tasks.loader import shipped_tasks
    from pytest_bankbench.tasks.replay import replay

    tasks = shipped_tasks()
    with Bank(tasks[0].customer_id, tasks[0].task_date, tasks[0].bank_seed):
        pass  # the template image and a pooled connection, as a worker has before its first test
    sessions = []
    for task in tasks:
        t = time.perf_counter()
        result = run_task(task, builtin_agent("gold", task))
        sessions.append(time.perf_counter() - t)
        assert result.verdict.passed, task.task_id
    scorings = []
    for task in tasks:
        with Bank(task.customer_id, task.task_date, task.bank_seed) as bank:
            agent, customer = builtin_agent("gold", task), ScriptedCustomer(task)
            trace = run_session(task, agent, customer, bank)
        t = time.perf_counter()
        score(task, trace, expected_changes(task))
        scorings.append(time.perf_counter() - t)
    replays = []
    for task in tasks:
        t = time.perf_counter()
        replay(task)
        replays.append(time.perf_counter() - t)
    return {
        "tasks": len(tasks),
        "session_mean": statistics.fmean(sessions),
        "session_median": statistics.median(sessions),
        "session_total": sum(sessions),
        "scoring_median": statistics.median(scorings),
        "replay_median": statistics.median(replays),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--one-run", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one_run:
        print(json.dumps(one_run()))
        return
    runs = [
        json.loads(
            subprocess.run(
                [sys.executable, __file__, "--one-run"], capture_output=True, check=True, text=True
            ).stdout
        )
        for _ in range(args.runs)
    ]

    def median_ms(key: str) -> float:
        return 1e3 * statistics.median(float(run[key]) for run in runs)

    print(f"tasks: {runs[0]['tasks']}, runs: {len(runs)} (fresh process each, medians shown)")
    print(
        f"gold session with all its checks (run_task): mean {median_ms('session_mean'):.2f} ms "
        f"a task, median {median_ms('session_median'):.2f} ms, "
        f"{median_ms('session_total') / 1e3:.2f} s for all"
    )
    print(
        f"scoring alone (all checks, stored change set): median {median_ms('scoring_median'):.3f} ms"
    )
    print(
        f"gold replay alone (only for a task file without stored changes): "
        f"median {median_ms('replay_median'):.2f} ms"
    )


if __name__ == "__main__":
    main()
