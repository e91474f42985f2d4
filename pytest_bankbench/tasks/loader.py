"""Reading task files: one JSON object per line, each error named by file, line and field."""

from __future__ import annotations

import difflib
import gc
import json
from functools import cache
from pathlib import Path
from typing import Any, get_args

from pydantic import BaseModel, ValidationError

from pytest_bankbench.errors import BankBenchError
from pytest_bankbench.paths import data_dir
from pytest_bankbench.tasks.model import SPLITS, Task
from pytest_bankbench.vocabulary import DEFAULT_SPLIT

TASKS_FILE = "tasks.jsonl"
NO_TASKS = "the file holds no tasks; a task file holds one task per line, each a JSON object"
_BOM = "\ufeff"


class TaskFileError(BankBenchError, ValueError):
    """A task file that cannot be used, with the place and the reason."""


def load_tasks(path: Path, *, shipped: bool = False) -> list[Task]:
    """Every task of a JSONL file, validated; the first bad line raises TaskFileError.

    A file of one's own (`--bank-tasks`) is run whole unless a split is given, so each of its
    tasks is in the base split as well as the splits it names, and each task must be runnable: its gold calls fit their tools'
    typed arguments, its concepts and customer exist, and its gold chain replays (a task that
    cannot run is refused here, naming line and field, not found as a harness error). The
    shipped file (`shipped=True`) keeps its splits as written and skips these checks: it is
    generated from the tools, and tests/tasks/test_loader.py and `validate-tasks` check it."""
    tasks: list[Task] = []
    seen: dict[str, int] = {}
    for lineno, line in task_lines(path):
        if shipped and (task := _parsed(line)) is not None:
            tasks.append(_unique(task, seen, path, lineno))
            continue
        try:
            data = json.loads(line)
        except json.JSONDecodeError as exc:
            raise TaskFileError(f"{path}:{lineno}: {not_json(exc)}") from None
        except RecursionError:
            raise TaskFileError(
                f"{path}:{lineno}: not a task: JSON nested too deep to read (a task is an object "
                "a few levels deep)"
            ) from None
        except ValueError as exc:  # e.g. an integer of more digits than Python converts
            raise TaskFileError(f"{path}:{lineno}: not a task: {str(exc)[:160]}") from None
        if not shipped:
            data = in_base_split(data)
        try:
            task = Task.model_validate(data)
        except ValidationError as exc:
            errors = field_errors(exc)
            field, why = errors[0]
            place = f"{path}:{lineno}"
            task_id = data.get("task_id") if isinstance(data, dict) else None
            if isinstance(task_id, str) and field != "task_id":  # as the checks after this say
                place += f": task {task_id!r}"
            place += f": field {field!r}" if field else ""
            more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
            raise TaskFileError(f"{place}: {why}{more}") from None
        if not shipped:
            task = _runnable(task, f"{path}:{lineno}")
        tasks.append(_unique(task, seen, path, lineno))
    if not tasks:
        raise TaskFileError(f"{path}: {NO_TASKS}")
    return tasks


def not_json(exc: json.JSONDecodeError) -> str:
    """`not valid JSON (Unterminated string starting at column 8)`: json's own messages may
    end in "at" already (it read "starting at at column 8"). A line that ends before its object
    does is most often a task written over several lines (the README's example, pasted): said
    so."""
    why = f"not valid JSON ({exc.msg.removesuffix(' at')} at column {exc.colno})"
    if exc.doc.lstrip().startswith("{") and exc.pos >= len(exc.doc.rstrip()):
        why += "; the line ends inside its task: write each task as one JSON object on one line"
    return why


# pydantic names the member of a union it tried (`facts.0.Fact.about`, `facts.0.str`); an
# author knows only the field.
_UNION_MEMBERS = frozenset({"Fact", "str"})
_DATE_HINT = 'a date is written "YYYY-MM-DD", in quotes'
_SCALARS = (str, int, float, bool, type(None))
_GIVEN_CHARS = 60


def _given(error: Any, why: str) -> str:
    """`why` with the value given, when it is one value the message does not show already
    (pydantic's "Input should be 'amount', 'date', ..." never says it was 'rupees')."""
    value = error.get("input")
    if error["type"] in ("missing", "extra_forbidden") or not isinstance(value, _SCALARS):
        return why
    shown = repr(value)
    if shown in why:
        return why
    if len(shown) > _GIVEN_CHARS:
        shown = shown[: _GIVEN_CHARS - 3] + "..."
    return f"{why} (got {shown})"


def field_errors(exc: ValidationError) -> list[tuple[str | None, str]]:
    """A task's validation errors as (field, what is wrong), in words an author acts on: the
    field without pydantic's union members (of a fact that is neither a string nor a valid
    object, only the object's errors), a rule of the task's own without "Value error, ", the
    form a date is written in, a line that is not an object said so, and the value given."""
    errors: list[tuple[str | None, str]] = []
    # An unknown field first: a misspelt one is also a required one missing, and the missing
    # one alone never named the typo (user trial: `scenario.instrucions`).
    raw = sorted(exc.errors(), key=lambda e: e["type"] != "extra_forbidden")
    objects = {tuple(e["loc"][: e["loc"].index("Fact")]) for e in raw if "Fact" in e["loc"]}
    for error in raw:
        loc = error["loc"]
        if "str" in loc and tuple(loc[: loc.index("str")]) in objects:
            continue  # the same fact's errors as an object say more
        if _only_follows(error, raw):
            continue
        field = ".".join(str(p) for p in loc if p not in _UNION_MEMBERS) or None
        why = error["msg"].removeprefix("Value error, ")
        if error["type"] == "model_type" and field is None:
            why = "a task is one JSON object per line ({...}); this line holds another value"
        elif field == "task_id" and error["type"] == "string_pattern_mismatch":
            why = (
                f"{error['input']!r} is not name-NNN: lower-case letters and underscores, a "
                "dash, three digits (my_balance-001)"
            )
        elif error["type"] == "string_type" and loc[-1] == "value":
            why = f'{error["input"]!r} is not a string: a value is written in quotes ("123650.86")'
        elif error["type"] == "date_from_datetime_inexact":  # a number, read as a timestamp
            why = f"{error['input']!r} is not a date; {_DATE_HINT}"
        elif error["type"] == "extra_forbidden":
            why = _unknown_field(loc)
        elif error["type"] == "missing" and len(loc) == 1:  # user trial: what is accepted?
            # `splits` is required of the shipped file only: a task of one's own may leave it
            # out (it is in the base split), so it is not said to be needed.
            needed = [
                name
                for name, f in Task.model_fields.items()
                if f.is_required() and name != "splits"
            ]
            why = f"missing; every task has {', '.join(needed)} (README: Writing tasks)"
        elif error["type"].startswith("date"):
            why = f"{_given(error, why)}; {_DATE_HINT}"
        else:
            why = _given(error, why)
        errors.append((field, why))
    return errors


def _unknown_field(loc: tuple[int | str, ...]) -> str:
    """What an unknown field's author needs: the nearest accepted name (a typo) and the list."""
    owner = _model_at(loc[:-1])
    if owner is None:
        return "not a field of a task (README: Writing tasks)"
    accepted = list(owner.model_fields)
    close = difflib.get_close_matches(str(loc[-1]), accepted, n=1)
    guess = f" (did you mean {close[0]!r}?)" if close else ""
    parent = ".".join(str(p) for p in loc[:-1] if p not in _UNION_MEMBERS)
    where = f"{parent!r}" if parent else "a task"
    return f"not a field of {where}{guess}; accepted: {', '.join(accepted)}"


def _model_at(loc: tuple[int | str, ...]) -> type[BaseModel] | None:
    """The model whose fields the object at `loc` of a task holds (None: none found)."""
    model: type[BaseModel] | None = Task
    for part in loc:
        if isinstance(part, int) or part in _UNION_MEMBERS or model is None:
            continue
        field = model.model_fields.get(part)
        model = _model_in(field.annotation) if field is not None else None
    return model


def _model_in(annotation: Any) -> type[BaseModel] | None:
    """The model an annotation holds (`Scenario`, `tuple[GoldCall, ...]`, `Fact | str`)."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    for arg in get_args(annotation):
        if (found := _model_in(arg)) is not None:
            return found
    return None


def _only_follows(error: Any, raw: list[Any]) -> bool:
    """Whether the error is a list's too_short that only follows its items' own errors: pydantic
    counts the items left after the bad ones are dropped ("Tuple should have at least 1 item
    after validation, not 0", beside the one item's error), though enough were given (fifth
    user trial)."""
    loc, given = error["loc"], error["input"]
    if error["type"] != "too_short" or not isinstance(given, list | tuple | dict):
        return False
    children = (e["loc"] for e in raw if len(e["loc"]) > len(loc))
    return len(given) >= error["ctx"]["min_length"] and any(
        child[: len(loc)] == loc for child in children
    )


def _parsed(line: str) -> Task | None:
    """A line validated straight from its JSON, or None: the caller reads it again to name the
    error (the two ways give equal tasks; tests/tasks/test_loader.py compares them)."""
    try:
        return Task.model_validate_json(line)
    except ValidationError:
        return None


def _unique(task: Task, seen: dict[str, int], path: Path, lineno: int) -> Task:
    """The task, once its id is known not to be used before in the file."""
    if task.task_id in seen:
        raise TaskFileError(
            f"{path}:{lineno}: task id {task.task_id!r} already used on line "
            f"{seen[task.task_id]} (task ids must be unique in a file)"
        )
    seen[task.task_id] = lineno
    return task


def task_lines(path: Path) -> list[tuple[int, str]]:
    """The file's non-blank lines with their numbers; TaskFileError when it is not a readable
    UTF-8 file."""
    if not path.is_file():
        what = "is a folder, not a task file" if path.is_dir() else "no such task file"
        raise TaskFileError(f"{path}: {what} (expected a .jsonl file, one task per line)")
    # Split on "\n" only: str.splitlines() would also cut at U+2028 and U+0085, which JSON
    # allows unescaped inside a string.
    lines = enumerate(_read_text(path).split("\n"), start=1)
    return [(lineno, line) for lineno, line in lines if line.strip()]


def _read_text(path: Path) -> str:
    """The file as text; bytes that are not UTF-8 raise TaskFileError naming the line."""
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise TaskFileError(f"{path}: cannot be read ({exc.strerror or exc})") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        lineno = raw.count(b"\n", 0, exc.start) + 1
        column = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
        raise TaskFileError(
            f"{path}:{lineno}: not UTF-8 text (byte 0x{raw[exc.start]:02x} at byte column "
            f"{column}); save the task file as UTF-8"
        ) from None
    # Editors on Windows write a byte order mark first; it is not part of the JSON.
    return text.removeprefix(_BOM)


def in_base_split(data: Any) -> Any:
    """A custom file's task, listed in the base split too (a custom file is run whole as it)."""
    if not isinstance(data, dict):
        return data
    splits = data.get("splits", [])
    if isinstance(splits, list) and "base" not in splits:
        # Appended, so an error in the file's own list keeps the index the author sees.
        return data | {"splits": [*splits, "base"]}
    return data


def _runnable(task: Task, where: str) -> Task:
    """The task with the change set its gold replay leaves, once nothing stops it from running
    (tasks/validate.py: its gold calls fit their tools, its customer exists, its chain replays);
    the first problem raises TaskFileError. The change set is kept so that no session replays
    the chain again (run/play.py)."""
    # Imported here: the bank is not needed to read the shipped file.
    from pytest_bankbench.tasks.validate import runnable_problems

    problems, gold = runnable_problems(task)
    if problems:
        field, why = problems[0]
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        raise TaskFileError(f"{where}: task {task.task_id!r}: field {field!r}: {why}{more}")
    if gold is None or task.expected_changes is not None:
        return task
    return task.model_copy(update={"expected_changes": gold.changes.rows})


@cache
def shipped_tasks() -> tuple[Task, ...]:
    """The 1,000 shipped tasks, in file order.

    They live as long as the process, so they are read with the collector paused and then
    frozen out of its reach: collections during the read and pytest's two at exit walked their
    ~100,000 objects, about half the cost of collecting the benchmark (issue 11, item 7).
    """
    collecting = gc.isenabled()
    gc.disable()
    try:
        tasks = tuple(load_tasks(data_dir() / TASKS_FILE, shipped=True))
    finally:
        if collecting:
            gc.enable()
    gc.freeze()
    return tasks


def select(tasks: tuple[Task, ...] | list[Task], split: str) -> list[Task]:
    """Tasks of a split, sorted by id (the same order on every xdist worker)."""
    if split not in SPLITS:
        raise TaskFileError(f"unknown split {split!r}; choose one of {', '.join(SPLITS)}")
    return sorted((t for t in tasks if split in t.splits), key=lambda t: t.task_id)


def select_from_file(tasks: list[Task], split: str | None, path: Path) -> list[Task]:
    """A task file's tasks in a split (`--bank-split` given with `--bank-tasks`), sorted by id,
    or all of them when no split is given; TaskFileError, naming the splits the file's tasks
    are in, when the split holds none of them (fifth user trial: the split was ignored)."""
    chosen = select(tasks, DEFAULT_SPLIT if split is None else split)
    if chosen:
        return chosen
    counts = {s: sum(s in t.splits for t in tasks) for s in SPLITS if s != DEFAULT_SPLIT}
    held = "".join(f", {s} ({n})" for s, n in counts.items() if n)
    raise TaskFileError(
        f"{path}: no task of the file is in split {split!r} (--bank-split {split}); its tasks "
        f"are in {DEFAULT_SPLIT} (all {len(tasks)}: every task of a file is){held}; give one of "
        "those, or leave out --bank-split to run every task"
    )
