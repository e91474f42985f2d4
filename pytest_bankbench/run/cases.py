"""The sessions a run plays: one case per (task, trial), with its seed, and the shard they fall in."""

from __future__ import annotations

import hashlib
from collections.abc import Collection, Iterable
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
    return [BankCase(t, k, session_seed(t.task_id, k)) for t in tasks for k in range(trials)]


def shard_keys(cases: Iterable[BankCase], index: int, count: int) -> set[CaseKey]:
    """Shard I of N: every N-th session of the whole sorted case list, starting at the I-th.

    Decided before -k, resume and xdist, so the shards of one configuration never overlap
    and together hold every session, on any machine.
    """
    keys = sorted(c.key for c in cases)
    return {key for position, key in enumerate(keys) if position % count == index - 1}


def pending_cases(
    cases: list[BankCase],
    finished: Collection[CaseKey],
    saved: Collection[CaseKey] | None = None,
    shard: tuple[int, int] | None = None,
) -> list[BankCase]:
    """The cases still to play: not finished by a resumed run, with a saved trace when
    re-grading (`saved`), and in this machine's shard."""
    pending = [c for c in cases if c.key not in finished]
    if saved is not None:
        pending = [c for c in pending if c.key in saved]
    if shard is not None:
        mine = shard_keys(cases, *shard)
        pending = [c for c in pending if c.key in mine]
    return pending
