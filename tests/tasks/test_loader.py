"""Task files are validated; an error names the file, the line and the field."""

from __future__ import annotations

import gc
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from pytest_bankbench.paths import data_dir
from pytest_bankbench.tasks.loader import (
    TASKS_FILE,
    TaskFileError,
    field_errors,
    load_tasks,
    select,
    shipped_tasks,
)
from pytest_bankbench.tasks.model import Task
from pytest_bankbench.tasks.validate import validate_file


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


def test_a_task_written_over_several_lines_is_told_to_take_one(tmp_path: Path) -> None:
    """User trial: the README's example pasted as printed, over several lines."""
    path = tmp_path / "t.jsonl"
    path.write_text(json.dumps(_task_json(), indent=1) + "\n")
    hint = "the line ends inside its task: write each task as one JSON object on one line"
    with pytest.raises(TaskFileError, match=rf"t\.jsonl:1: not valid JSON \(.*\); {hint}$"):
        load_tasks(path)
    assert hint in validate_file(path).problems[0].message
    # A fault inside a line is no such ending.
    mid = _write(tmp_path / "m.jsonl", ['{"task_id": "x" "family": "y"}'])
    with pytest.raises(TaskFileError, match=r"column 17\)$"):
        load_tasks(mid)


def test_a_line_cut_short_reads_as_one_sentence(tmp_path: Path) -> None:
    """json's own message ends in "at": it read "Unterminated string starting at at column"."""
    path = _write(tmp_path / "t.jsonl", ['{"task_id": "cut'])
    expected = "not valid JSON (Unterminated string starting at column 13)"
    with pytest.raises(TaskFileError, match=rf"t\.jsonl:1: {re.escape(expected)}$"):
        load_tasks(path)
    assert [p.message for p in validate_file(path).problems] == [expected]


@pytest.mark.parametrize(
    ("hostile", "message"),
    [
        ('{"a": ' * 100_000 + "1" + "}" * 100_000, "not a task: JSON nested too deep to read"),
        ('{"task_id": ' + "7" * 5_000 + "}", "not a task: Exceeds the limit"),
    ],
    ids=["nested-100000-deep", "integer-of-5000-digits"],
)
def test_a_hostile_line_is_one_error_naming_the_line(
    tmp_path: Path, hostile: str, message: str
) -> None:
    """Issue 19: these lines were a pytest INTERNALERROR (RecursionError, ValueError)."""
    path = _write(tmp_path / "t.jsonl", [json.dumps(_task_json()), hostile])
    with pytest.raises(TaskFileError, match=rf"t\.jsonl:2: {message}"):
        load_tasks(path)


@pytest.mark.parametrize(
    ("change", "field", "why"),
    [
        (
            {"category": "chores"},
            "category",
            r"Input should be 'sequencing', .* or 'rare_tool' \(got 'chores'\)$",
        ),
        ({"surprise": 1}, "surprise", "not a field of a task; accepted: schema_version, "),
        ({"schema_version": 3}, "schema_version", r"Input should be 1 or 2 \(got 3\)$"),
        (
            {"task_date": "yesterday"},
            "task_date",
            r"Input .* \(got 'yesterday'\); a date is written ",
        ),
    ],
)
def test_bad_field_names_file_line_task_field_and_the_value_given(
    tmp_path: Path, change: dict[str, object], field: str, why: str
) -> None:
    """User trial: a value outside a fixed list (kind 'rupees') was not shown, nor the task."""
    data = _task_json() | change
    path = _write(tmp_path / "t.jsonl", [json.dumps(data)])
    where = rf"t\.jsonl:1: task '{data['task_id']}': field '{field}': "
    with pytest.raises(TaskFileError, match=where + why):
        load_tasks(path)


def test_an_instruction_out_of_range_names_its_field(tmp_path: Path) -> None:
    """User trial: "instruction 5 does not exist (0-0)" named no field."""
    data = _task_json()
    gold = data["gold"]
    assert isinstance(gold, list) and gold
    gold[-1] = {**gold[-1], "instruction": 5}
    path = _write(tmp_path / "t.jsonl", [json.dumps(data)])
    last = len(data["scenario"]["instructions"]) - 1  # type: ignore[index]
    where = rf"t\.jsonl:1: .*field 'gold\.{len(gold) - 1}\.instruction': instruction 5 does not"
    with pytest.raises(
        TaskFileError, match=where + rf" exist; scenario\.instructions holds 0 to {last}"
    ):
        load_tasks(path)


def test_a_folder_is_no_task_file(tmp_path: Path) -> None:
    with pytest.raises(TaskFileError, match="is a folder, not a task file"):
        load_tasks(tmp_path)


def _with_first_value(**change: object) -> dict[str, object]:
    """The first shipped task that asks for an amount, its first value changed."""
    task = next(
        t
        for t in shipped_tasks()
        if t.required_outputs[:1] and t.required_outputs[0].kind == "amount"
    )
    data: dict[str, object] = json.loads(task.to_line())
    outputs = data["required_outputs"]
    assert isinstance(outputs, list)
    outputs[0] |= change
    return data


def _source_of_call(call: str) -> dict[str, object]:
    return _with_first_value(source={"call": call, "field": "balance"})


def _first_value(value: object) -> dict[str, object]:
    return _with_first_value(value=value)


def _depends_on_a_later_call() -> dict[str, object]:
    data = _task_json()
    gold = data["gold"]
    assert isinstance(gold, list)
    gold[0]["after"] = ["c9"]
    return data


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


# Issue 10 item 8: a custom file's tasks are all used, gold calls are checked against the
# tool registry at load, and a file that is not UTF-8 is a TaskFileError, not a crash.


@pytest.mark.parametrize("splits", [None, [], ["train"], ["lite", "test"]])
def test_custom_file_task_without_base_split_is_still_used(
    tmp_path: Path, splits: list[str] | None
) -> None:
    data = _task_json()
    if splits is None:
        del data["splits"]
    else:
        data["splits"] = splits
    tasks = load_tasks(_write(tmp_path / "t.jsonl", [json.dumps(data)]))
    assert [t.task_id for t in select(tasks, "base")] == [data["task_id"]]
    assert set(splits or []) <= set(tasks[0].splits)


def test_custom_file_split_still_validated(tmp_path: Path) -> None:
    path = _write(tmp_path / "t.jsonl", [json.dumps(_task_json() | {"splits": ["dev"]})])
    with pytest.raises(
        TaskFileError, match=r"t\.jsonl:1: task '[^']+': field 'splits\.0': .*'dev'"
    ):
        load_tasks(path)


def _with_gold(tool: str, arguments: dict[str, object]) -> dict[str, object]:
    data = _task_json()
    gold = data["gold"]
    assert isinstance(gold, list)
    gold[0] = gold[0] | {"tool": tool, "arguments": arguments, "match": []}
    return data


def test_unknown_gold_tool_names_file_line_task_and_tools(tmp_path: Path) -> None:
    data = _with_gold("get_balanse", {})
    path = _write(tmp_path / "t.jsonl", [json.dumps(_task_json() | {"task_id": "a-001"}), ""])
    path.write_text(path.read_text() + json.dumps(data) + "\n")
    with pytest.raises(TaskFileError) as caught:
        load_tasks(path)
    message = str(caught.value)
    assert message.startswith(
        f"{path}:3: task {data['task_id']!r}: field 'gold.0': gold call c1 get_balanse: "
    )
    assert "unknown tool 'get_balanse'" in message
    assert "available tools: add_beneficiary, " in message
    assert "get_account_balance" in message


def test_gold_arguments_checked_against_tool_schema(tmp_path: Path) -> None:
    from pytest_bankbench.bank.registry import all_tools

    name = next(n for n, s in sorted(all_tools().items()) if "amount" in s.arguments.model_fields)
    args: dict[str, object] = {"amount": "lots", "colour": "blue"}
    path = _write(tmp_path / "t.jsonl", [json.dumps(_with_gold(name, args))])
    with pytest.raises(TaskFileError) as caught:
        load_tasks(path)
    message = str(caught.value)
    assert message.startswith(f"{path}:1: task ")
    assert f"field 'gold.0': gold call c1 {name}: invalid arguments for {name}:" in message
    assert "amount" in message and "colour" in message
    assert "Accepted arguments:" in message


def test_shipped_gold_calls_fit_their_tools() -> None:
    # shipped_tasks() skips the per-call check (the file is generated from the tools and
    # checked here once), so this test is what keeps the shipped file honest.
    from pytest_bankbench.bank.registry import all_tools

    tools = all_tools()
    for task in shipped_tasks():
        for call in task.gold:
            tools[call.tool].validate(call.arguments)


@pytest.mark.parametrize("encoding", ["latin-1", "utf-16"])
def test_not_utf8_names_file_and_line(tmp_path: Path, encoding: str) -> None:
    good = json.dumps(_task_json())
    path = tmp_path / "t.jsonl"
    if encoding == "latin-1":
        bad = json.dumps(_task_json() | {"task_id": "b-001", "family": "café"}, ensure_ascii=False)
        path.write_bytes((good + "\n" + bad + "\n").encode("latin-1"))
        line = 2
    else:
        path.write_bytes((good + "\n").encode("utf-16"))
        line = 1
    with pytest.raises(TaskFileError, match=rf"t\.jsonl:{line}: not UTF-8 text \(byte 0x"):
        load_tasks(path)


def test_utf8_byte_order_mark_is_accepted(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    path.write_bytes(json.dumps(_task_json()).encode("utf-8-sig"))
    assert len(load_tasks(path)) == 1


def test_duplicate_id_message_names_both_lines_and_task(tmp_path: Path) -> None:
    line = json.dumps(_task_json())
    other = json.dumps(_task_json() | {"task_id": "zz-999"})
    path = _write(tmp_path / "d.jsonl", [line, other, "", line])
    with pytest.raises(TaskFileError) as caught:
        load_tasks(path)
    task_id = _task_json()["task_id"]
    assert str(caught.value) == (
        f"{path}:4: task id {task_id!r} already used on line 1 (task ids must be unique in a file)"
    )


def test_shipped_lines_read_straight_from_json_equal_the_checked_reading() -> None:
    """The shipped file is validated from each line's JSON (issue 11, item 7); the tasks are
    the ones the step by step reading of a custom file gives, to the byte."""
    lines = (data_dir() / TASKS_FILE).read_text(encoding="utf-8").split("\n")
    slow = [Task.model_validate(json.loads(line)) for line in lines if line.strip()]
    assert list(shipped_tasks()) == slow
    assert [t.to_line() for t in shipped_tasks()] == [t.to_line() for t in slow]


@pytest.mark.parametrize(
    ("lines", "message"),
    [
        (["{not json"], r"s\.jsonl:1: not valid JSON"),
        ([json.dumps({"category": "chores"})], r"s\.jsonl:1: field 'schema_version'"),
        (["LINE", "", "LINE"], r"s\.jsonl:3: task id .* already used on line 1"),
    ],
)
def test_a_bad_line_in_shipped_mode_is_named_as_before(
    tmp_path: Path, lines: list[str], message: str
) -> None:
    line = json.dumps(_task_json())
    path = _write(tmp_path / "s.jsonl", [line if x == "LINE" else x for x in lines])
    with pytest.raises(TaskFileError, match=message):
        load_tasks(path, shipped=True)


def test_reading_the_shipped_tasks_leaves_the_collector_on() -> None:
    assert shipped_tasks.__wrapped__() == shipped_tasks()  # a read of its own, not the kept one
    assert gc.isenabled()


# Issue 17: a custom task that cannot run was found only in the run, as a harness error with a
# traceback (a customer the seed does not have, a gold call the bank refuses, a concept the
# vocabulary does not define); the load refuses it, naming line and field.


def _first_with_tell() -> dict[str, object]:
    task = next(t for t in shipped_tasks() if any(tell.concepts for tell in t.tells))
    data: dict[str, object] = json.loads(task.to_line())
    return data


def _gold_refused() -> dict[str, object]:
    data = _task_json()
    gold = data["gold"]
    assert isinstance(gold, list)
    index = next(i for i, c in enumerate(gold) if "deposit_id" in c["arguments"])
    gold[index]["arguments"] = gold[index]["arguments"] | {"deposit_id": "FD999999"}
    return data


@pytest.mark.parametrize(
    ("make", "field", "message"),
    [
        (
            lambda: _task_json() | {"customer_id": "CUST99999"},
            "customer_id",
            "no customer 'CUST99999' in the bank seeded with",
        ),
        (_gold_refused, r"gold\.\d", r"gold call c\d \w+ failed: .*FD999999"),
        (
            lambda: (
                _first_with_tell()
                | {"tells": [{"kind": "reason", "label": "why", "concepts": ["freezed"]}]}
            ),
            r"tells\.0\.concepts\.0",
            "unknown concept 'freezed'; the concepts are: .*frozen",
        ),
    ],
    ids=["unknown-customer", "gold-call-refused", "unknown-concept"],
)
def test_a_custom_task_that_cannot_run_is_refused_at_load(
    tmp_path: Path, make: Callable[[], dict[str, object]], field: str, message: str
) -> None:
    bad = make() | {"task_id": "bad-001"}
    path = _write(tmp_path / "t.jsonl", [json.dumps(_task_json()), json.dumps(bad)])
    with pytest.raises(TaskFileError, match=rf"t\.jsonl:2: task 'bad-001': field '{field}': "):
        load_tasks(path)
    with pytest.raises(TaskFileError, match=message):
        load_tasks(path)
    assert len(load_tasks(path, shipped=True)) == 2  # the shipped file's reading skips it


def test_a_custom_task_carries_its_replays_change_set(tmp_path: Path) -> None:
    """So no session replays the chain again (run/play.py reads the stored one)."""
    shipped = next(t for t in shipped_tasks() if t.expected_changes)
    data: dict[str, object] = json.loads(shipped.to_line())
    del data["expected_changes"]
    (loaded,) = load_tasks(_write(tmp_path / "t.jsonl", [json.dumps(data)]))
    assert loaded.expected_changes == shipped.expected_changes


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("[1, 2]", r"t\.jsonl:1: a task is one JSON object per line"),
        (
            json.dumps(_task_json() | {"task_date": 20260610}),
            r"""field 'task_date': 20260610 is not a date; a date is written "YYYY-MM-DD\"""",
        ),
        (
            json.dumps(_depends_on_a_later_call()),
            r"t\.jsonl:1: task '[^']+': gold call c1 depends on \['c9'\]",
        ),
        (
            json.dumps(_task_json() | {"task_id": "balance2-001"}),
            r"field 'task_id': 'balance2-001' is not name-NNN: lower-case letters and underscores, ",
        ),
        (
            json.dumps(_source_of_call("c9")),
            r"sources name gold calls that do not exist: c9; the chain's ids are c1",
        ),
        (
            json.dumps(_first_value("Rs 1,234.50")),
            r"field 'required_outputs\.0': amount 'Rs 1,234\.50' of '[\w ]+': write it as "
            r'"39388\.93" \(no Rs, %, commas\)',
        ),
        (
            json.dumps(_first_value(1234.5)),
            r"field 'required_outputs\.0\.value': 1234\.5 is not a string: a value is written in "
            r'quotes \("123650\.86"\)',
        ),
    ],
    ids=[
        "not-an-object",
        "date-as-number",
        "a-rule-of-the-task",
        "task-id",
        "source-call",
        "amount-with-rupees",
        "value-as-number",
    ],
)
def test_shape_errors_are_said_in_an_authors_words(tmp_path: Path, line: str, message: str) -> None:
    with pytest.raises(TaskFileError, match=message) as caught:
        load_tasks(_write(tmp_path / "t.jsonl", [line]))
    assert "Value error" not in str(caught.value) and "instance of Task" not in str(caught.value)


def test_a_fact_that_is_neither_text_nor_a_fact_is_named_by_its_field() -> None:
    data = _task_json()
    scenario = data["scenario"]
    assert isinstance(scenario, dict)
    scenario["facts"] = [{"text": "the FD", "about": ["acct"]}]
    with pytest.raises(ValidationError) as caught:
        Task.model_validate(data)
    (only,) = field_errors(caught.value)
    assert only[0] == "scenario.facts.0.about.0" and only[1].startswith("Input should be 'account'")


@pytest.mark.parametrize(
    ("container", "bad"),
    [
        ("instructions", {"volunteers": 482913}),
        ("gold", {"match": "account_number"}),
    ],
)
def test_a_bad_item_of_a_required_list_is_one_error_not_two(
    container: str, bad: dict[str, object]
) -> None:
    """Fifth user trial: a number as an instruction's `volunteers` gave a second line, "Tuple
    should have at least 1 item after validation, not 0", beside the real one; a list that was
    given empty is still too short."""
    data: dict[str, Any] = _task_json()
    place = "scenario." if container == "instructions" else ""
    holder = data["scenario"] if place else data
    holder[container] = [holder[container][0] | bad]
    with pytest.raises(ValidationError) as caught:
        Task.model_validate(data)
    ((field, _),) = field_errors(caught.value)
    assert field is not None and field.startswith(f"{place}{container}.0.")
    holder[container] = []
    with pytest.raises(ValidationError) as caught:
        Task.model_validate(data)
    assert [why for _, why in field_errors(caught.value)] == [
        "Tuple should have at least 1 item after validation, not 0"
    ]
