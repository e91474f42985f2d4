"""Gold session plus scoring per task over all 1,000 tasks (no pytest)."""

from __future__ import annotations

import statistics
import time

from pytest_bankbench.bank.store import Bank
from pytest_bankbench.runner import builtin_agent, run_task
from pytest_bankbench.scoring.scorer import score
from pytest_bankbench.simulation.customer import ScriptedCustomer
from pytest_bankbench.simulation.session import run_session
from pytest_bankbench.tasks.loader import shipped_tasks
from pytest_bankbench.tasks.replay import replay


def main() -> None:
    tasks = shipped_tasks()
    run_task(tasks[0], builtin_agent("gold", tasks[0]))  # warm the template and tool modules
    replays, sessions, scorings = [], [], []
    for task in tasks:
        t = time.perf_counter()
        replay(task)
        replays.append(time.perf_counter() - t)
        t = time.perf_counter()
        result = run_task(task, builtin_agent("gold", task))
        sessions.append(time.perf_counter() - t)
        assert result.verdict.passed, task.task_id
    for task in tasks:  # scoring alone, on traces not yet scored (no warm caches)
        expected = replay(task).changes
        with Bank(task.customer_id, task.task_date, task.bank_seed) as bank:
            agent, customer = builtin_agent("gold", task), ScriptedCustomer(task)
            trace = run_session(task, agent, customer, bank)
        t = time.perf_counter()
        score(task, trace, expected)
        scorings.append(time.perf_counter() - t)
    print(f"tasks: {len(tasks)}")
    print(
        f"gold replay alone: median {statistics.median(replays) * 1e3:.2f} ms, "
        f"total {sum(replays):.2f} s"
    )
    print(
        f"scoring alone (all checks, a trace not scored before): median "
        f"{statistics.median(scorings) * 1e3:.3f} ms, total {sum(scorings):.2f} s"
    )
    print(
        f"gold session + replay + scoring: median {statistics.median(sessions) * 1e3:.2f} ms, "
        f"total {sum(sessions):.2f} s"
    )


if __name__ == "__main__":
    main()
