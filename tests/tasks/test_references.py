"""What a task's fields refer to (tasks/references.py, fifth user trial): each wrong one is one
`validate-tasks` problem naming its field, and `--bank-tasks` refuses the file at load."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from pytest_bankbench.bank.customer_view import held_records
from pytest_bankbench.bank.registry import get_tool
from pytest_bankbench.bank.store import Bank
from pytest_bankbench.cli import main
from pytest_bankbench.tasks.loader import TaskFileError, load_tasks, shipped_tasks
from pytest_bankbench.tasks.model import Task
from pytest_bankbench.tasks.validate import runnable_problems


def _first(found: Callable[[Task], bool]) -> Task:
    return next(t for t in shipped_tasks() if found(t))


def _problems(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], task: Task, field: str
) -> list[str]:
    """The task's `validate-tasks` lines, checked to be one problem on `field`; the same task is
    refused at load (`--bank-tasks`) naming the field."""
    path = tmp_path / "mine.jsonl"
    path.write_text(task.to_line() + "\n", encoding="utf-8")
    status = main(["validate-tasks", str(path)])
    out = capsys.readouterr().out.splitlines()
    assert status == 1 and len(out) == 2, out
    assert out[0].startswith(f"{path}:1: task {task.task_id}: field {field}: "), out[0]
    with pytest.raises(TaskFileError, match=f"field '{field}'"):
        load_tasks(path)
    return out


def _reads_before_a_disclosed_write(task: Task) -> bool:
    return bool(task.disclosures) and get_tool(task.gold[0].tool).kind == "read"


def test_a_disclosure_naming_a_read_names_its_field_and_the_chains_writes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """It read only "the gold agent fails it (disclosure_consent): c1 ... was made without the
    customer's agreement before it", with no field to fix."""
    task = _first(_reads_before_a_disclosed_write)
    read = task.gold[0]
    disclosures = (task.disclosures[0].model_copy(update={"write": read.id}),)
    bad = task.model_copy(update={"disclosures": (*disclosures, *task.disclosures[1:])})
    (line, _) = _problems(tmp_path, capsys, bad, "disclosures.0.write")
    writes = [c.id for c in task.gold if get_tool(c.tool).kind == "write"]
    assert f"{read.id} {read.tool} is a read, not a write" in line
    assert line.endswith(f"the chain's writes are {', '.join(writes)}")
    assert "disclosure_consent" not in line


def test_an_allowed_value_the_tool_refuses_names_its_field_and_the_accepted_values(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`allowed: {"mode": ["CASH"]}` was accepted, although the transfer takes none."""
    task = _first(lambda t: any(c.allowed.get("mode") for c in t.gold))
    index, call = next((i, c) for i, c in enumerate(task.gold) if c.allowed.get("mode"))
    gold = list(task.gold)
    gold[index] = call.model_copy(update={"allowed": {"mode": ("CASH",)}})
    bad = task.model_copy(update={"gold": tuple(gold)})
    (line, _) = _problems(tmp_path, capsys, bad, f"gold.{index}.allowed.mode.0")
    schema = get_tool(call.tool).schema()["function"]["parameters"]["properties"]["mode"]
    assert f"'CASH' is not a value {call.tool} takes for mode" in line
    assert all(f"'{mode}'" in line for mode in schema["enum"])


def test_a_tell_about_a_record_the_customer_does_not_have_names_their_records(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A made-up account ("99999999999999") was accepted and the gold passed."""
    task = _first(lambda t: t.family == "dormant_source_account")
    tells = list(task.tells)
    tells[0] = tells[0].model_copy(update={"record": "99999999999999"})
    bad = task.model_copy(update={"tells": tuple(tells)})
    (line, _) = _problems(tmp_path, capsys, bad, "tells.0.record")
    with Bank(task.customer_id, task.task_date, task.bank_seed) as bank:
        accounts = sorted(held_records(bank)["account"])
    assert f"'99999999999999' is neither a record of customer {task.customer_id}" in line
    assert f"their account ids are {', '.join(accounts)};" in line
    assert f"customer {task.customer_id} --date {task.task_date.isoformat()}" in line


def test_a_tell_about_another_customers_record_the_customer_names_is_accepted() -> None:
    """The refusal to show a wife's account is about a record the customer asks about."""
    task = _first(lambda t: t.family == "other_customers_account")
    with Bank(task.customer_id, task.task_date, task.bank_seed) as bank:
        held = {key for keys in held_records(bank).values() for key in keys}
    assert any(t.record and t.record not in held for t in task.tells)
    assert runnable_problems(task)[0] == []
