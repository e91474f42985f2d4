"""The sessions a run plays: one case per (task, trial), with its seed, and the shard they fall in."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Collection, Iterable, Iterator
from dataclasses import dataclass

from pytest_bankbench.tasks.model import Task

CaseKey = tuple[str, int]  # (task id, trial)


@dataclass(frozen=True)
class BankCase:
    """One session to run: a task and a trial number with its recorded seed."""

    task: Task
    trial: int
    seed: int

    @property
    def id(self) -> str:
        base = f"{self.task.category}-{self.task.task_id}"
        return base if self.trial == 0 else f"{base}-t{self.trial + 1}"

    @property
    def key(self) -> CaseKey:
        return self.task.task_id, self.trial


def session_seed(task_id: str, trial: int) -> int:
    """A per-session seed, the same in every process (hashlib, never hash())."""
    return int.from_bytes(hashlib.sha256(f"{task_id}|{trial}".encode()).digest()[:4], "big")


def cases_of(tasks: Iterable[Task], trials: int) -> list[BankCase]:
    """Every session of the tasks, trial by trial within each task."""
    return list(iter_cases(tasks, trials))


def iter_cases(tasks: Iterable[Task], trials: int) -> Iterator[BankCase]:
    """The same, one at a time: a run holds only the cases it selects (issue 19, item 6)."""
    for task in tasks:
        for trial in range(trials):
            yield BankCase(task, trial, session_seed(task.task_id, trial))


def shard_keys(cases: Iterable[BankCase], index: int, count: int) -> set[CaseKey]:
    """Shard I of N: every N-th session of the whole sorted case list, starting at the I-th.

    Decided before -k, resume and xdist, so the shards of one configuration never overlap
    and together hold every session, on any machine.
    """
    keys = sorted(c.key for c in cases)
    return {key for position, key in enumerate(keys) if position % count == index - 1}


def in_shard(
    task_ids: Iterable[str], trials: int, index: int, count: int
) -> Callable[[CaseKey], bool]:
    """Whether a session is in shard I of N (as `shard_keys`), without building every case: a
    key's place in the sorted list of all (task, trial) keys is its task's rank times the
    trials, plus its trial."""
    rank = {task_id: n for n, task_id in enumerate(sorted(set(task_ids)))}

    def mine(key: CaseKey) -> bool:
        return (rank[key[0]] * trials + key[1]) % count == index - 1

    return mine


def pending_cases(
    cases: Iterable[BankCase],
    finished: Collection[CaseKey],
    saved: Collection[CaseKey] | None = None,
    shard: Callable[[CaseKey], bool] | None = None,
) -> list[BankCase]:
    """The cases still to play: not finished by a resumed run, with a saved trace when
    re-grading (`saved`), and in this machine's shard (`in_shard`)."""
    return [
        c
        for c in cases
        if c.key not in finished
        and (saved is None or c.key in saved)
        and (shard is None or shard(c.key))
    ]
