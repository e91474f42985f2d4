"""The scoring cost of one session: `score()` alone on the gold agent's session of every task.

Scoring reads every message of a session several ways (outputs, what was told, secrets, the
proposal each yes answers). Its cost is measured on the gold sessions, each scored once in a
fresh interpreter (so the readers' caches hold only what one pass through the tasks fills in,
as in a run). With `--against COMMIT` (46ae4f9: the scorer before issue 16, extracted into a
temporary folder) or `--against DIR`, a second checkout is measured beside this one: in each run
both score their sessions in one fresh interpreter each, CHUNK sessions at a time in turns (who
goes first alternates), so a slow phase of this shared machine hits both alike; the ratio of the
two medians is taken run by run, and the median of those ratios printed with their range.

    python bench/scoring_cost.py                          # 5 runs of this checkout
    python bench/scoring_cost.py --against 46ae4f9        # 5 runs of each, interleaved
    python bench/scoring_cost.py --against /tmp/before    # a folder holding another checkout
    python bench/scoring_cost.py --same-verdicts main     # verdicts of every built-in agent
    python bench/scoring_cost.py --against 46ae4f9 --in-run   # also each right after its play

With `--against`, both scorers are also timed on the same sessions, twice: the other
checkout's gold sessions of its own tasks, and this checkout's, each saved once. A task model
reads the other's file with the fields it does not know dropped, so each scorer checks what it
knows: on the older sessions the newer scorer finds nothing to be told (the older tasks have no
`tells`), on the newer ones the older scorer skips the tells and reads the words it checks. These
two hold the words fixed and change only the scorer: the cost a user's model pays for the new
checks. Each checkout's own gold differs in what it says as well (the newer gold tells results,
reasons and alternatives), and is what a run of the shipped gold pays.

With `--same-verdicts DIR`, every built-in agent plays every task once in this checkout, and
both checkouts score the saved sessions: their verdicts (checks, failure type, evidence) must be
byte-identical, session for session. A speed-up of the scorer may change no verdict.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent.parent
CHUNK = 20  # sessions scored by one checkout before the other's turn


def _play(task: Any, agent: str = "gold") -> Any:
    """One session of a built-in agent with the scripted customer on a fresh bank: its trace."""
    from pytest_bankbench.bank.store import Bank
    from pytest_bankbench.runner import builtin_agent
    from pytest_bankbench.simulation.customer import ScriptedCustomer
    from pytest_bankbench.simulation.session import run_session

    with Bank(task.customer_id, task.task_date, task.bank_seed) as bank:
        return run_session(task, builtin_agent(agent, task), ScriptedCustomer(task), bank)


def _gold_sessions() -> list[tuple[Any, Any]]:
    from pytest_bankbench.tasks.loader import shipped_tasks

    return [(task, _play(task)) for task in shipped_tasks()]


def save_sessions(folder: Path) -> None:
    """This checkout's gold sessions and its task file, for the other checkout to score."""
    sessions = _gold_sessions()
    (folder / "tasks.jsonl").write_text("".join(t.to_line() + "\n" for t, _ in sessions))
    (folder / "traces.jsonl").write_text(
        "".join(trace.model_dump_json() + "\n" for _, trace in sessions)
    )


def save_agent_sessions(folder: Path) -> None:
    """Every built-in agent's session of every task, one traces file per agent."""
    from pytest_bankbench.tasks.loader import shipped_tasks
    from pytest_bankbench.vocabulary import BUILTIN_NAMES

    tasks = shipped_tasks()
    (folder / "tasks.jsonl").write_text("".join(t.to_line() + "\n" for t in tasks))
    for name in BUILTIN_NAMES:
        lines = [_play(task, name) for task in tasks]
        (folder / f"traces-{name}.jsonl").write_text(
            "".join(t.model_dump_json() + "\n" for t in lines)
        )


def write_verdicts(folder: Path, out: Path) -> None:
    """Score every saved session (save_agent_sessions) with this checkout's scorer."""
    from pytest_bankbench.runner import expected_changes
    from pytest_bankbench.scoring.scorer import score
    from pytest_bankbench.simulation.trace import Trace
    from pytest_bankbench.tasks.model import Task

    tasks = [
        Task.model_validate_json(line) for line in (folder / "tasks.jsonl").read_text().splitlines()
    ]
    expected = [expected_changes(t) for t in tasks]
    with out.open("w") as sink:
        for path in sorted(folder.glob("traces-*.jsonl")):
            traces = [Trace.model_validate_json(x) for x in path.read_text().splitlines()]
            for task, trace, changes in zip(tasks, traces, expected, strict=True):
                verdict = score(task, trace, changes)
                sink.write(f"{trace.agent}\t{verdict.model_dump_json()}\n")


def same_verdicts(other: Path) -> int:
    """Compare the verdicts of this checkout and `other` on every built-in agent's sessions."""
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        env = {**os.environ, "PYTHONPATH": str(HERE)}
        run = [sys.executable, str(HERE / "bench" / "scoring_cost.py")]
        subprocess.run([*run, "--save-agents", name], check=True, env=env, cwd=HERE)
        outs: dict[Path, list[str]] = {}
        for checkout in (HERE, other):
            out = folder / f"verdicts-{len(outs)}.txt"
            env = {**os.environ, "PYTHONPATH": str(checkout)}
            args = [*run, "--verdicts", name, "--out", str(out)]
            subprocess.run(args, check=True, env=env, cwd=checkout)
            outs[checkout] = out.read_text().splitlines()
        this, that = outs[HERE], outs[other]
    assert len(this) == len(that), (len(this), len(that))
    differ = [(a, b) for a, b in zip(this, that, strict=True) if a != b]
    per_agent: dict[str, list[int]] = {}
    for line in this:
        agent, verdict = line.split("\t", 1)
        passed = json.loads(verdict)["passed"]
        counts = per_agent.setdefault(agent, [0, 0])
        counts[0] += 1
        counts[1] += passed
    for agent, (sessions, passed) in per_agent.items():
        print(f"{agent}: {sessions} sessions, {passed} passed")

    def outcome(line: str) -> tuple[bool, str | None]:
        verdict = json.loads(line.split("\t", 1)[1])
        return verdict["passed"], verdict["failure_type"]

    outcomes = sum(1 for a, b in differ if outcome(a) != outcome(b))
    print(
        f"{len(this)} sessions of {len(per_agent)} agents: {len(differ)} verdicts differ "
        f"between {HERE} and {other} ({outcomes} in outcome or failure type)"
    )
    for a, b in differ[:5]:
        print(f"  this:  {a[:400]}\n  other: {b[:400]}")
    return 1 if differ else 0


def _sessions(saved: Path | None) -> list[tuple[Any, Any, Any]]:
    """This checkout's gold sessions, or saved ones, each with its task's expected changes."""
    from pytest_bankbench.runner import expected_changes
    from pytest_bankbench.simulation.trace import Trace
    from pytest_bankbench.tasks.model import Task

    if saved is None:
        sessions = _gold_sessions()
    else:
        tasks = [_read(Task, line) for line in (saved / "tasks.jsonl").read_text().splitlines()]
        traces = [_read(Trace, line) for line in (saved / "traces.jsonl").read_text().splitlines()]
        sessions = list(zip(tasks, traces, strict=True))
    return [(task, trace, expected_changes(task)) for task, trace in sessions]


def _read(model: Any, line: str) -> Any:
    """A saved line as `model`, the fields it does not know dropped: an older checkout reads
    a newer one's tasks and traces as its own scorer would see them (what it cannot check, such
    as the tells an older task did not have, it does not read)."""
    from pydantic import ValidationError

    data = json.loads(line)
    while True:
        try:
            return model.model_validate(data)
        except ValidationError as error:
            extra = [e["loc"] for e in error.errors() if e["type"] == "extra_forbidden"]
            if not extra:
                raise
            for *path, name in extra:
                owner = data
                for step in path:
                    owner = owner[step]
                del owner[name]


def serve(saved: Path | None, in_run: bool = False) -> None:
    """A scorer on a pipe: reads "start end", scores those sessions once, answers their CPU
    seconds (one JSON list a line). Each session is scored once per process, as in a run.
    `in_run`: each session is played again, untimed, just before it is scored, as a run scores
    a session right after playing it (the customer's reading fills the caches and the CPU's)."""
    from pytest_bankbench.scoring.scorer import score

    scored = _sessions(saved)
    messages = statistics.fmean(
        sum(1 for e in trace.events if getattr(e, "kind", "") == "message")
        for _, trace, _ in scored
    )
    print(json.dumps({"tasks": len(scored), "messages": messages}), flush=True)
    for line in sys.stdin:
        first, last = map(int, line.split())
        cost = []
        for task, trace, expected in scored[first:last]:
            if in_run:
                _play(task)
            start = time.process_time()
            verdict = score(task, trace, expected)
            cost.append(time.process_time() - start)
            assert verdict.passed or saved is not None, task.task_id
        print(json.dumps(cost), flush=True)


class _Scorer:
    """One checkout's scorer in a fresh interpreter (serve())."""

    def __init__(self, checkout: Path, saved: Path | None, in_run: bool) -> None:
        env = {**os.environ, "PYTHONPATH": str(checkout)}
        command = [sys.executable, str(HERE / "bench" / "scoring_cost.py"), "--serve"]
        command += ["--saved", str(saved)] if saved else []
        command += ["--in-run"] if in_run else []
        self.process = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env, cwd=checkout
        )
        assert self.process.stdin is not None and self.process.stdout is not None
        self.stdin, self.stdout = self.process.stdin, self.process.stdout
        self.meta = json.loads(self.stdout.readline())
        self.cost: list[float] = []

    def score(self, first: int, last: int) -> None:
        self.stdin.write(f"{first} {last}\n")
        self.stdin.flush()
        self.cost += json.loads(self.stdout.readline())

    def close(self) -> None:
        self.stdin.close()
        self.process.wait()


def one_run(checkouts: list[Path], saved: Path | None, in_run: bool = False) -> list[_Scorer]:
    """Every checkout scores every session once, CHUNK sessions at a time in turns (who goes
    first alternates): a slow phase of the shared machine hits all of them alike."""
    scorers = [_Scorer(c, saved, in_run) for c in checkouts]
    tasks = int(scorers[0].meta["tasks"])
    for turn, first in enumerate(range(0, tasks, CHUNK)):
        for scorer in scorers[:: 1 if turn % 2 == 0 else -1]:
            scorer.score(first, min(tasks, first + CHUNK))
    for scorer in scorers:
        scorer.close()
    return scorers


def _report(
    checkouts: list[Path], runs: int, saved: Path | None, what: str, in_run: bool = False
) -> None:
    medians: dict[Path, list[float]] = {c: [] for c in checkouts}
    means: dict[Path, list[float]] = {c: [] for c in checkouts}
    meta: dict[Path, dict[str, float]] = {}
    for _ in range(runs):
        for checkout, scorer in zip(checkouts, one_run(checkouts, saved, in_run), strict=True):
            medians[checkout].append(statistics.median(scorer.cost))
            means[checkout].append(statistics.fmean(scorer.cost))
            meta[checkout] = scorer.meta
    for checkout in checkouts:
        print(
            f"{checkout} on {what}: {int(meta[checkout]['tasks'])} sessions, "
            f"{meta[checkout]['messages']:.1f} messages each; scoring CPU per session: median "
            f"{1e3 * statistics.median(medians[checkout]):.3f} ms, mean "
            f"{1e3 * statistics.median(means[checkout]):.3f} ms (medians of {runs} runs)"
        )
    if len(checkouts) == 2:
        this, other = checkouts
        ratios = sorted(a / b for a, b in zip(medians[this], medians[other], strict=True))
        mean_ratios = sorted(a / b for a, b in zip(means[this], means[other], strict=True))
        print(
            f"  ratio this/against on {what}, run by run: median of the median ratios "
            f"{statistics.median(ratios):.2f} (runs {ratios[0]:.2f}-{ratios[-1]:.2f}), "
            f"of the mean ratios {statistics.median(mean_ratios):.2f} "
            f"({mean_ratios[0]:.2f}-{mean_ratios[-1]:.2f})"
        )


@contextlib.contextmanager
def checkout(where: str | None) -> Iterator[Path | None]:
    """A folder as given, or a commit of this repository extracted into a temporary folder
    (`git archive`: no worktree is registered)."""
    if where is None or Path(where).is_dir():
        yield Path(where).resolve() if where else None
        return
    with tempfile.TemporaryDirectory() as folder:
        archive = subprocess.run(
            ["git", "-C", str(HERE), "archive", where], capture_output=True, check=True
        )
        subprocess.run(["tar", "-x", "-C", folder], input=archive.stdout, check=True)
        yield Path(folder)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument(
        "--against",
        help="another checkout to compare with: a folder, or a commit of this repository",
    )
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--saved", type=Path, help=argparse.SUPPRESS)
    parser.add_argument(
        "--in-run",
        action="store_true",
        help="also score each gold session right after playing it again, as a run does",
    )
    parser.add_argument("--save", type=Path, help=argparse.SUPPRESS)
    parser.add_argument(
        "--same-verdicts",
        help="another checkout (a folder or a commit) whose verdicts must be the same",
    )
    parser.add_argument("--save-agents", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--verdicts", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--out", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.same_verdicts:
        with checkout(args.same_verdicts) as other:
            assert other is not None
            code = same_verdicts(other)
        sys.exit(code)
    if args.save_agents:
        save_agent_sessions(args.save_agents)
        return
    if args.verdicts:
        write_verdicts(args.verdicts, args.out)
        return
    if args.save:
        save_sessions(args.save)
        return
    if args.serve:
        serve(args.saved, args.in_run)
        return
    with checkout(args.against) as other:
        _compare(args.runs, other, args.in_run)


def _compare(runs: int, other: Path | None, in_run: bool = False) -> None:
    checkouts = [HERE] + ([other] if other else [])
    _report(checkouts, runs, None, "its own gold")
    if in_run:
        _report(checkouts, runs, None, "its own gold, each right after it was played", True)
    if other is None:
        return
    for whose in (other, HERE):
        with tempfile.TemporaryDirectory() as folder:
            env = {**os.environ, "PYTHONPATH": str(whose)}
            subprocess.run(
                [sys.executable, str(HERE / "bench" / "scoring_cost.py"), "--save", folder],
                check=True,
                env=env,
                cwd=whose,
            )
            _report(checkouts, runs, Path(folder), f"the same sessions ({whose}'s gold)")


if __name__ == "__main__":
    main()
