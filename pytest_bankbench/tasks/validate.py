"""Checking a task file before it is run (`python -m pytest_bankbench validate-tasks FILE`).

Every line must load (each field error named, not only the first), every gold call must name a
tool and arguments it accepts, what the task's fields refer to must be as named (a disclosure's
write, an allowed value, a tell's record: tasks/references.py), the customer must exist, the
gold chain must replay with no failed call and no ineffective write, each gold read's own result
must show the `facts` it names (else no call could satisfy it), a stored `expected_changes` must
equal the replay's, and every value the agent must tell (required outputs, disclosures, the
values of tells) must be right: a value that names its record and field (`source`: the account
the customer named and its `balance`) must be what that record holds after the gold replay
(tasks/sources.py), and a value that names none must be one the gold replay shows, since a value
no gold call returns is one the agent cannot know (issue 17). A source may also name a gold
call's argument (the amount sent), a policy clause or an article that states the value (the Rs
200 replacement fee of F.24), or a row of the rate card. A value without one is counted in the
summary ("N told values name no source"): disclosures and tells may state a rule of the policy,
so the policy's text counts for them, but another figure in the same result or article would
have passed too. The command then plays each task that has no other problem with the gold agent
(runner.gold_problems), so a task the gold agent cannot pass is named here by the field its
failed check reads.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from pydantic import ValidationError

from pytest_bankbench.bank.customer_view import customer_problem, held_records
from pytest_bankbench.bank.diff import ChangeSet
from pytest_bankbench.bank.errors import ToolError
from pytest_bankbench.bank.facts import fact_fields, shows
from pytest_bankbench.bank.registry import get_tool
from pytest_bankbench.bank.store import Bank
from pytest_bankbench.concepts import vocabulary
from pytest_bankbench.tasks.loader import (
    NO_TASKS,
    TaskFileError,
    field_errors,
    in_base_split,
    not_json,
    task_lines,
)
from pytest_bankbench.tasks.model import Task
from pytest_bankbench.tasks.references import allowed_problems, disclosed_reads, unheld_records
from pytest_bankbench.tasks.replay import GoldReplayError, Replay, replay
from pytest_bankbench.tasks.sources import source_mismatch, told_sources, unsourced


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a task file, named by place, task and field."""

    path: Path
    line: int | None
    task_id: str | None
    field: str | None
    message: str

    def __str__(self) -> str:
        parts = [f"{self.path}:{self.line}" if self.line is not None else str(self.path)]
        if self.task_id is not None:
            parts.append(f"task {self.task_id}")
        if self.field is not None:
            parts.append(f"field {self.field}")
        return ": ".join([*parts, self.message])


@dataclass(frozen=True)
class Validation:
    """What a file's check found: the tasks that loaded, the values checked, every problem."""

    path: Path
    tasks: int = 0
    values: int = 0
    problems: tuple[Problem, ...] = ()
    played: bool = False  # the gold agent played every task that had no other problem

    def summary(self) -> str:
        """The file's one line: its problems, or what was checked."""
        if self.problems:
            lines = len({p.line for p in self.problems if p.line is not None})
            where = f" on {_count(lines, 'line')}" if lines else ""
            return f"{self.path}: {_count(len(self.problems), 'problem')}{where}"
        played = ", the gold agent passes each" if self.played else ""
        return (
            f"{self.path}: {_count(self.tasks, 'task')} valid (gold chains replayed{played}, "
            f"{_count(self.values, 'expected value')} found in the replays)"
        )


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}{'' if number == 1 else 's'}"


# Plays a task's gold session and says, as (field, why), each check the gold agent fails.
GoldPlay = Callable[[Task], list[tuple[str, str]]]


def validate_file(path: Path, play: GoldPlay | None = None) -> Validation:
    """Check every line of a task file; a file that cannot be read is one problem.

    With `play` (runner.gold_problems: the session layers sit above this one), each task with
    no other problem is also played by the gold agent with the scripted customer, so a task the
    gold agent cannot pass (a refusal whose `explain` does not say the reason a tell requires)
    is a problem here, not a surprise in the run."""
    try:
        lines = task_lines(path)
    except TaskFileError as exc:
        return Validation(path, problems=(_file_problem(path, exc),))
    problems: list[Problem] = []
    seen: dict[str, int] = {}
    loaded = values = 0
    for lineno, line in lines:
        task, line_problems = _load_line(path, lineno, line)
        problems += line_problems
        if task is None:
            continue
        loaded += 1
        at = _Place(path, lineno, task.task_id)
        if task.task_id in seen:
            problems.append(
                at.problem(
                    "task_id",
                    f"{task.task_id!r} already used on line {seen[task.task_id]} "
                    "(task ids must be unique in a file)",
                )
            )
        seen.setdefault(task.task_id, lineno)
        task_problems, checked = _check_task(task, at)
        if play is not None and not task_problems:
            task_problems = [at.problem(name, why) for name, why in play(task)]
        problems += task_problems
        values += checked
    if not lines:
        problems.append(Problem(path, None, None, None, NO_TASKS))
    return Validation(path, loaded, values, tuple(problems), play is not None)


def _file_problem(path: Path, exc: TaskFileError) -> Problem:
    """A loader error ("FILE[:LINE]: reason") as a problem, its place kept apart from its reason."""
    found = re.match(rf"{re.escape(str(path))}(?::(\d+))?: (.*)", str(exc), re.DOTALL)
    if found is None:
        return Problem(path, None, None, None, str(exc))
    line = int(found[1]) if found[1] else None
    return Problem(path, line, None, None, found[2])


@dataclass(frozen=True)
class _Place:
    path: Path
    line: int
    task_id: str | None

    def problem(self, field: str | None, message: str) -> Problem:
        return Problem(self.path, self.line, self.task_id, field, message)


def _load_line(path: Path, lineno: int, line: str) -> tuple[Task | None, list[Problem]]:
    """The line's task, or None and every reason it is not one."""
    try:
        data = json.loads(line)
    except json.JSONDecodeError as exc:
        return None, [Problem(path, lineno, None, None, not_json(exc))]
    task_id = data.get("task_id") if isinstance(data, dict) else None
    at = _Place(path, lineno, task_id if isinstance(task_id, str) else None)
    try:
        return Task.model_validate(in_base_split(data)), []
    except ValidationError as exc:
        return None, [at.problem(field, why) for field, why in field_errors(exc)]


def _check_task(task: Task, at: _Place) -> tuple[list[Problem], int]:
    """The task's problems beyond its shape, and how many of its values were checked."""
    runnable, gold = runnable_problems(task)
    problems = [at.problem(name, why) for name, why in runnable]
    if gold is None:
        return problems, 0
    problems += _facts_not_shown(task, gold, at)
    unshown, checked = unshown_values(task, gold)
    problems += [at.problem(name, why) for name, why in unshown]
    return problems, checked


def runnable_problems(task: Task) -> tuple[list[tuple[str, str]], Replay | None]:
    """What stops a task from being run at all, as (field, why), and its gold replay when the
    chain could be replayed: a gold call's unknown tool or refused arguments, a concept the
    vocabulary does not define, a customer the seed does not have, a gold call the bank refuses
    or a write that changes nothing, a stored change set that is not the replay's. A custom
    `--bank-tasks` file is refused at load on the first (tasks/loader.py), so a broken task is
    a usage error before the run, not a harness error inside it."""
    problems = [
        (f"gold.{index}", f"gold call {task.gold[index].id} {task.gold[index].tool}: {m}")
        for index, m in gold_call_problems(task)
    ]
    problems += allowed_problems(task)
    problems += disclosed_reads(task)
    problems += _unknown_concepts(task)
    problems += unsourced(task)
    with Bank(task.customer_id, task.task_date, task.bank_seed) as bank:
        unknown = customer_problem(bank)
        named = unknown is None and any(tell.record for tell in task.tells)
        held = held_records(bank) if named else {}
    if unknown is not None:
        problems.append(("customer_id", unknown))
    if problems:
        return problems, None  # the replay would only fail on the same call again
    try:
        gold = replay(task)
    except GoldReplayError as exc:
        index = next((i for i, c in enumerate(task.gold) if c.id == exc.call), None)
        reason = str(exc).removeprefix(f"{task.task_id}: ")
        return [(f"gold.{index}" if index is not None else "gold", reason)], None
    problems += unheld_records(task, held, gold)
    if task.expected_changes is not None and ChangeSet.of(list(task.expected_changes)) != (
        gold.changes
    ):
        problems.append(
            (
                "expected_changes",
                "differs from the change set the gold replay leaves; leave the field out (the "
                "replay gives it) or copy the replay's",
            )
        )
    return problems, gold


def gold_call_problems(task: Task) -> list[tuple[int, str]]:
    """(index, reason) of every gold call whose tool is unknown or whose arguments its schema
    refuses."""
    problems: list[tuple[int, str]] = []
    for index, call in enumerate(task.gold):
        try:
            get_tool(call.tool).validate(call.arguments)
        except ToolError as exc:
            problems.append((index, exc.message))
    return problems


def _unknown_concepts(task: Task) -> list[tuple[str, str]]:
    """Each concept a tell names that task_data/concepts.toml does not define: the scorer could
    never find it told."""
    known = vocabulary()
    return [
        (
            f"tells.{i}.concepts.{j}",
            f"unknown concept {name!r}; the concepts are: {', '.join(sorted(known))} "
            "(task_data/concepts.toml)",
        )
        for i, tell in enumerate(task.tells)
        for j, name in enumerate(tell.concepts)
        if name not in known
    ]


def unshown_values(task: Task, gold: Replay) -> tuple[list[tuple[str, str]], int]:
    """Each value the task says is told (required outputs, quotes, the values of its tells)
    that is wrong, as (field, why), and how many values were checked: a value must be what its
    `source` holds after the gold replay (the record, the named gold call's result or argument,
    the passage, the rate card's row). A value with no source is a problem of its own
    (`unsourced`, in runnable_problems). The generator stops on any (authoring/generate.py)."""
    unshown: list[tuple[str, str]] = []
    checked = 0
    for name, value in told_sources(task):
        checked += 1
        if value.source is not None and (why := source_mismatch(value, gold.places)) is not None:
            unshown.append((name, why))
    return unshown, checked


def _facts_not_shown(task: Task, gold: Replay, at: _Place) -> list[Problem]:
    """A gold read's `facts` that its own result does not show: no agent call could satisfy it
    the way the scorer reads results (bank/facts.py)."""
    problems: list[Problem] = []
    for index, call in enumerate(task.gold):
        need = call.facts
        if need is None:
            continue
        reveals = get_tool(call.tool).reveals
        if shows(
            reveals,
            call.arguments,
            gold.results[call.id],
            task.customer_id,
            need.entity,
            need.key,
            need.fields,
        ):
            continue
        can = sorted(fact_fields(reveals, need.entity))
        problems.append(
            at.problem(
                f"gold.{index}.facts",
                f"the result of {call.id} {call.tool} does not show {need.entity} {need.key!r} "
                f"with {', '.join(need.fields)}; for a {need.entity} it shows "
                f"{', '.join(can) or 'nothing'} (the key is the record's id, e.g. the account "
                "number)",
            )
        )
    return problems
