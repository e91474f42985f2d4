"""Task files are validated; an error names the file, the line and the field."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pytest_bankbench.tasks.loader import TaskFileError, load_tasks, select, shipped_tasks


def _write(path: Path, lines: list[str]) -> Path:
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _task_json() -> dict[str, object]:
    data: dict[str, object] = json.loads(shipped_tasks()[0].to_line())
    return data


def test_valid_file_loads(tmp_path: Path) -> None:
    path = _write(tmp_path / "t.jsonl", [json.dumps(_task_json())])
    assert [t.task_id for t in load_tasks(path)] == [shipped_tasks()[0].task_id]


def test_not_json_names_line(tmp_path: Path) -> None:
    path = _write(tmp_path / "t.jsonl", [json.dumps(_task_json()), "{not json"])
    with pytest.raises(TaskFileError, match=r"t\.jsonl:2: not valid JSON"):
        load_tasks(path)


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"category": "chores"}, "category"),
        ({"surprise": 1}, "surprise"),
        ({"schema_version": 3}, "schema_version"),
        ({"task_date": "yesterday"}, "task_date"),
    ],
)
def test_bad_field_names_file_line_field(
    tmp_path: Path, change: dict[str, object], field: str
) -> None:
    path = _write(tmp_path / "t.jsonl", [json.dumps(_task_json() | change)])
    with pytest.raises(TaskFileError, match=rf"t\.jsonl:1: field '{field}'"):
        load_tasks(path)


def test_gold_dependency_on_later_call_is_rejected(tmp_path: Path) -> None:
    data = _task_json()
    gold = data["gold"]
    assert isinstance(gold, list)
    gold[0]["after"] = ["c9"]
    path = _write(tmp_path / "t.jsonl", [json.dumps(data)])
    with pytest.raises(TaskFileError, match=r"t\.jsonl:1: .*depends on \['c9'\]"):
        load_tasks(path)


def test_duplicate_ids_and_empty_files(tmp_path: Path) -> None:
    line = json.dumps(_task_json())
    with pytest.raises(TaskFileError, match=r":2: task id .* already used on line 1"):
        load_tasks(_write(tmp_path / "d.jsonl", [line, line]))
    with pytest.raises(TaskFileError, match="holds no tasks"):
        load_tasks(_write(tmp_path / "e.jsonl", [""]))
    with pytest.raises(TaskFileError, match="no such task file"):
        load_tasks(tmp_path / "absent.jsonl")


def test_unknown_split() -> None:
    with pytest.raises(TaskFileError, match="unknown split 'dev'; choose one of base, lite"):
        select(shipped_tasks(), "dev")
