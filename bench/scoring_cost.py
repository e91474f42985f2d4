"""The scoring cost of one session: `score()` alone on the gold agent's session of every task.

Scoring reads every message of a session several ways (outputs, what was told, secrets, the
proposal each yes answers). Its cost is measured on the gold sessions, each scored once in a
fresh interpreter (so the readers' caches hold only what one pass through the tasks fills in,
as in a run). With `--against DIR`, a second checkout (e.g. `git worktree add /tmp/before
<commit>`) is measured in turns with this one, run by run, and the ratio of the medians is
printed: this machine's speed drifts, so only interleaved runs compare.

    python bench/scoring_cost.py                          # 5 runs of this checkout
    python bench/scoring_cost.py --against /tmp/before    # 5 runs of each, interleaved

With `--against`, both scorers are also timed on the same sessions: the other checkout's gold
sessions of its own tasks, saved once (both task models read its task file). That is the
like-for-like figure; each checkout's own gold differs in what it says (the newer one says more,
in more varied words, so fewer of its messages repeat across sessions).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent.parent


def _gold_sessions() -> list[tuple[Any, Any]]:
    from pytest_bankbench.bank.store import Bank
    from pytest_bankbench.runner import builtin_agent
    from pytest_bankbench.simulation.customer import ScriptedCustomer
    from pytest_bankbench.simulation.session import run_session
    from pytest_bankbench.tasks.loader import shipped_tasks

    sessions = []
    for task in shipped_tasks():
        with Bank(task.customer_id, task.task_date, task.bank_seed) as bank:
            trace = run_session(task, builtin_agent("gold", task), ScriptedCustomer(task), bank)
        sessions.append((task, trace))
    return sessions


def save_sessions(folder: Path) -> None:
    """This checkout's gold sessions and its task file, for the other checkout to score."""
    sessions = _gold_sessions()
    (folder / "tasks.jsonl").write_text("".join(t.to_line() + "\n" for t, _ in sessions))
    (folder / "traces.jsonl").write_text(
        "".join(trace.model_dump_json() + "\n" for _, trace in sessions)
    )


def one_run(saved: Path | None = None) -> dict[str, float]:
    """Score every session once (this checkout's gold, or saved ones); CPU s per session."""
    from pytest_bankbench.runner import expected_changes
    from pytest_bankbench.scoring.scorer import score
    from pytest_bankbench.simulation.trace import Trace
    from pytest_bankbench.tasks.model import Task

    if saved is None:
        sessions = _gold_sessions()
    else:
        tasks = [
            Task.model_validate_json(line)
            for line in (saved / "tasks.jsonl").read_text().splitlines()
        ]
        traces = [
            Trace.model_validate_json(line)
            for line in (saved / "traces.jsonl").read_text().splitlines()
        ]
        sessions = list(zip(tasks, traces, strict=True))
    scored = [(task, trace, expected_changes(task)) for task, trace in sessions]
    cost = []
    for task, trace, expected in scored:
        start = time.process_time()
        verdict = score(task, trace, expected)
        cost.append(time.process_time() - start)
        assert verdict.passed or saved is not None, task.task_id
    return {
        "tasks": len(cost),
        "median": statistics.median(cost),
        "mean": statistics.fmean(cost),
        "messages": statistics.fmean(
            sum(1 for e in trace.events if getattr(e, "kind", "") == "message")
            for _, trace in sessions
        ),
    }


def _measure(checkout: Path, *extra: str) -> dict[str, float]:
    env = {**os.environ, "PYTHONPATH": str(checkout)}
    done = subprocess.run(
        [sys.executable, str(HERE / "bench" / "scoring_cost.py"), "--one-run", *extra],
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
    parser.add_argument("--saved", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--save", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.save:
        save_sessions(args.save)
        return
    if args.one_run:
        print(json.dumps(one_run(args.saved)))
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
            f"ratio this/against, each on its own gold: median "
            f"{med(this, 'median') / med(other, 'median'):.2f}, "
            f"mean {med(this, 'mean') / med(other, 'mean'):.2f}"
        )
        with tempfile.TemporaryDirectory() as folder:
            env = {**os.environ, "PYTHONPATH": str(other)}
            subprocess.run(
                [sys.executable, str(HERE / "bench" / "scoring_cost.py"), "--save", folder],
                check=True,
                env=env,
                cwd=other,
            )
            same: dict[Path, list[dict[str, float]]] = {c: [] for c in checkouts}
            for _ in range(args.runs):
                for checkout in checkouts:
                    same[checkout].append(_measure(checkout, "--saved", folder))
        mid = {c: statistics.median(r["median"] for r in same[c]) for c in checkouts}
        mean = {c: statistics.median(r["mean"] for r in same[c]) for c in checkouts}
        print(
            f"both scorers on the same {int(same[this][0]['tasks'])} sessions ({other}'s gold): "
            f"this {1e3 * mid[this]:.3f} ms (mean {1e3 * mean[this]:.3f}), against "
            f"{1e3 * mid[other]:.3f} ms (mean {1e3 * mean[other]:.3f}); ratio median "
            f"{mid[this] / mid[other]:.2f}, mean {mean[this] / mean[other]:.2f}"
        )


if __name__ == "__main__":
    main()
