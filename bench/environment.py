"""The environment's own cost: steps per second per core, and a whole session without a model.

The policy is taken out: the gold agent's moves on every train task are recorded first, then
replayed into BankEnv (reset, each step, the verdict and rewards at the end): once to warm
up, as a trainer plays each task many times (a group of rollouts per task), then timed in CPU
seconds of this one thread. A step is one move (its calls, its message, the customer's reply);
a session is its reset, its steps and its scoring. Goals (issue 20): a session under 2 ms and
a step under 0.2 ms. Each run is a fresh interpreter. With `--against DIR` (another checkout,
e.g. `git worktree add /tmp/before <commit>`) both are run in turns and the ratios of the
medians printed: this machine's speed drifts, so only interleaved runs compare.

    python bench/environment.py                        # 5 runs of this checkout
    python bench/environment.py --against /tmp/before  # 5 runs of each, interleaved
    python bench/environment.py --http                 # also the loopback server's cost
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
from typing import Any

HERE = Path(__file__).resolve().parent.parent
METRICS = (
    "session_ms",
    "step_ms",
    "reset_ms",
    "final_step_ms",
    "plugin_session_ms",
    "steps_per_s",
)


def _recorded() -> list[tuple[Any, list[Any]]]:
    """The gold agent's moves on every train task, played once (not timed)."""
    from pytest_bankbench.environment import BankEnv
    from pytest_bankbench.simulation.agents import GoldAgent

    env, plays = BankEnv("train"), []
    for task in env.tasks:
        env.reset(task)
        agent, moves = GoldAgent(task), []
        while not env.done:
            moves.append(agent.act(env.events))
            env.step(moves[-1])
        plays.append((task, moves))
    env.close()
    return plays


def one_run(http: bool = False) -> dict[str, float]:
    """Every recorded session replayed once; CPU ms per session, step and reset."""
    from pytest_bankbench.environment import BankEnv

    plays = _recorded()
    env: Any = BankEnv("train")
    server = None
    if http:
        from pytest_bankbench.environment.server import BankEnvClient, serve

        server = serve()
        env = BankEnvClient(server.url)
    clock = time.process_time
    for task, moves in plays:  # a warm-up round: a trainer plays each task many times
        env.reset(task.task_id)
        for move in moves:
            env.step(move)
    reset = middle = final = 0.0
    middles = 0
    for task, moves in plays:
        started = clock()
        env.reset(task.task_id)
        after_reset = clock()
        for move in moves[:-1]:
            env.step(move)
        before_final = clock()
        env.step(moves[-1])  # the last step scores the session
        ended = clock()
        reset += after_reset - started
        middle += before_final - after_reset
        final += ended - before_final
        middles += len(moves) - 1
    if server is not None:
        env.close()
        server.shutdown()
    # For scale: the plugin's own path on the same tasks, gold agent included (run_task).
    from pytest_bankbench.runner import builtin_agent, run_task

    started = clock()
    for task, _ in plays:
        run_task(task, builtin_agent("gold", task))
    plugin = clock() - started
    sessions, steps = len(plays), sum(len(m) for _, m in plays)
    total = reset + middle + final
    return {
        "sessions": sessions,
        "steps": steps,
        "session_ms": 1000 * total / sessions,
        "step_ms": 1000 * middle / max(middles, 1),
        "reset_ms": 1000 * reset / sessions,
        "final_step_ms": 1000 * final / sessions,
        "steps_per_s": steps / total,
        "plugin_session_ms": 1000 * plugin / sessions,
    }


def _child(checkout: Path, http: bool) -> dict[str, float]:
    env = {**os.environ, "PYTHONPATH": str(checkout)}
    command = [sys.executable, str(Path(__file__).resolve()), "--child"]
    if http:
        command.append("--http")
    out = subprocess.run(command, env=env, check=True, capture_output=True, text=True).stdout
    result: dict[str, float] = json.loads(out.strip().splitlines()[-1])
    return result


def _medians(runs: list[dict[str, float]]) -> dict[str, float]:
    return {m: statistics.median(r.get(m, 0.0) for r in runs) for m in METRICS}


def _show(label: str, median: dict[str, float]) -> None:
    print(
        f"{label:>8}: session {median['session_ms']:.3f} ms (reset {median['reset_ms']:.3f}, "
        f"scoring step {median['final_step_ms']:.3f}), step {median['step_ms']:.4f} ms, "
        f"{median['steps_per_s']:,.0f} steps/s per core; the plugin's gold session with its "
        f"agent {median['plugin_session_ms']:.3f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--against", type=Path, help="another checkout to compare with")
    parser.add_argument("--http", action="store_true", help="through the loopback server")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(one_run(args.http)))
        return
    mine: list[dict[str, float]] = []
    theirs: list[dict[str, float]] = []
    for run in range(args.runs):
        mine.append(_child(HERE, args.http))
        line = f"run {run + 1}: this {mine[-1]['session_ms']:.3f} ms a session"
        if args.against:
            theirs.append(_child(args.against.resolve(), args.http))
            line += f", against {theirs[-1]['session_ms']:.3f} ms"
        print(line, flush=True)
    first = mine[0]
    print(f"{first['sessions']:.0f} train sessions, {first['steps']:.0f} steps, CPU time")
    now = _medians(mine)
    _show("this", now)
    if args.against:
        before = _medians(theirs)
        _show("against", before)
        ratios = ", ".join(f"{m} {before[m] / now[m]:.2f}x" for m in METRICS[:4])
        print(
            f"   ratio: {ratios} faster; steps/s {now['steps_per_s'] / before['steps_per_s']:.2f}x"
        )


if __name__ == "__main__":
    main()
