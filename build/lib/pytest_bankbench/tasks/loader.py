"""Reading task files: one JSON object per line, each error named by file, line and field."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from pydantic import ValidationError

from pytest_bankbench.paths import data_dir
from pytest_bankbench.tasks.model import SPLITS, Task

TASKS_FILE = "tasks.jsonl"


class TaskFileError(ValueError):
    """A task file that cannot be used, with the place and the reason."""


def load_tasks(path: Path) -> list[Task]:
    """Every task of a JSONL file, validated; the first bad line raises TaskFileError."""
    if not path.is_file():
        raise TaskFileError(
            f"{path}: no such task file (expected a .jsonl file, one task per line)"
        )
    tasks: list[Task] = []
    seen: dict[str, int] = {}
    for lineno, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            data = json.loads(line)
        except json.JSONDecodeError as exc:
            raise TaskFileError(
                f"{path}:{lineno}: not valid JSON ({exc.msg} at column {exc.colno})"
            ) from None
        try:
            task = Task.model_validate(data)
        except ValidationError as exc:
            first = exc.errors()[0]
            field = ".".join(str(p) for p in first["loc"]) or "(task)"
            more = f" (and {exc.error_count() - 1} more)" if exc.error_count() > 1 else ""
            raise TaskFileError(f"{path}:{lineno}: field {field!r}: {first['msg']}{more}") from None
        if task.task_id in seen:
            raise TaskFileError(
                f"{path}:{lineno}: task id {task.task_id!r} already used on line "
                f"{seen[task.task_id]}"
            )
        seen[task.task_id] = lineno
        tasks.append(task)
    if not tasks:
        raise TaskFileError(f"{path}: the file holds no tasks")
    return tasks


@cache
def shipped_tasks() -> tuple[Task, ...]:
    """The 1,000 shipped tasks, in file order."""
    return tuple(load_tasks(data_dir() / TASKS_FILE))


def select(tasks: tuple[Task, ...] | list[Task], split: str) -> list[Task]:
    """Tasks of a split, sorted by id (the same order on every xdist worker)."""
    if split not in SPLITS:
        raise TaskFileError(f"unknown split {split!r}; choose one of {', '.join(SPLITS)}")
    return sorted((t for t in tasks if split in t.splits), key=lambda t: t.task_id)
