"""A task file of one's own (--bank-tasks): every task is run (those of a split with
--bank-split), and a bad file is a usage error.

Issue 10 item 8: tasks without the base split were dropped silently, gold calls were not
checked until a session scored them, and a file that is not UTF-8 crashed with INTERNALERROR."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.plugin.helpers import run_bench


def _task(**change: object) -> dict[str, object]:
    from pytest_bankbench.tasks.loader import shipped_tasks

    task = next(t for t in shipped_tasks() if t.family == "fd_closure")
    data: dict[str, object] = json.loads(task.to_line())
    return data | change


def _usage_error(pytester: pytest.Pytester, path: Path) -> pytest.RunResult:
    result = run_bench(pytester, "--bank-model", "gold", "--bank-tasks", str(path))
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert "INTERNALERROR" not in result.stdout.str() + result.stderr.str()
    return result


def test_not_utf8_file_is_a_usage_error_naming_file_and_line(pytester: pytest.Pytester) -> None:
    path = pytester.path / "bad.jsonl"
    good = json.dumps(_task())
    bad = json.dumps(_task(task_id="other-001", family="café"), ensure_ascii=False)
    path.write_bytes((good + "\n" + bad + "\n").encode("latin-1"))
    result = _usage_error(pytester, path)
    result.stderr.fnmatch_lines(["*--bank-tasks: *bad.jsonl:2: not UTF-8 text*"])


@pytest.mark.parametrize(
    ("where", "typo", "message"),
    [
        (
            "scenario",
            "instrucions",
            "field 'scenario.instrucions': not a field of 'scenario' (did you mean "
            "'instructions'?); accepted: persona, first_message, instructions, *(and 1 more)",
        ),
        (
            None,
            "clasue",
            "field 'clasue': not a field of a task (did you mean 'clause'?); accepted: "
            "schema_version, task_id, *",
        ),
    ],
)
def test_a_misspelt_field_is_named_with_the_nearest_accepted_one(
    pytester: pytest.Pytester, where: str | None, typo: str, message: str
) -> None:
    """User trial: `scenario.instrucions` was reported as `scenario.instructions: Field
    required (and 1 more)`, `clasue` as "Extra inputs are not permitted"."""
    data = _task()
    correct = "instructions" if where else "clause"
    owner = data[where] if where else data
    assert isinstance(owner, dict)
    owner[typo] = owner.pop(correct, "no fee is charged")
    path = pytester.path / "typo.jsonl"
    path.write_text(json.dumps(data) + "\n", encoding="utf-8")
    result = _usage_error(pytester, path)
    result.stderr.fnmatch_lines([f"*typo.jsonl:1: task '{data['task_id']}': {message}"])


def test_a_missing_field_is_not_said_to_include_splits(pytester: pytest.Pytester) -> None:
    """A task of one's own may leave `splits` out (it runs in the base split); the message
    for another missing field listed it among the fields every task has."""
    data = _task()
    del data["splits"], data["customer_id"]
    path = pytester.path / "mine.jsonl"
    path.write_text(json.dumps(data) + "\n", encoding="utf-8")
    result = _usage_error(pytester, path)
    result.stderr.fnmatch_lines(["*field 'customer_id': missing; every task has *"])
    assert "splits" not in result.stderr.str().split("every task has", 1)[1]


def test_unknown_gold_tool_is_a_usage_error(pytester: pytest.Pytester) -> None:
    data = _task()
    gold = data["gold"]
    assert isinstance(gold, list)
    gold[0]["tool"] = "close_fd"
    path = pytester.path / "bad.jsonl"
    path.write_text(json.dumps(data) + "\n", encoding="utf-8")
    result = _usage_error(pytester, path)
    result.stderr.fnmatch_lines(
        [
            f"*bad.jsonl:1: task '{data['task_id']}': field 'gold.0': gold call c1 close_fd: "
            "unknown tool 'close_fd'*"
        ]
    )


def test_every_task_of_a_custom_file_is_run(pytester: pytest.Pytester) -> None:
    first, second, third = _task(splits=["train"]), _task(task_id="mine-002"), _task()
    del second["splits"]
    third |= {"task_id": "mine-003", "splits": ["base", "lite"]}
    path = pytester.path / "mine.jsonl"
    path.write_text("\n".join(json.dumps(t) for t in (first, second, third)) + "\n")
    result = run_bench(pytester, "--bank-model", "gold", "--bank-tasks", str(path))
    result.assert_outcomes(passed=3)


def test_a_split_given_with_a_custom_file_runs_its_tasks_in_that_split(
    pytester: pytest.Pytester,
) -> None:
    """Fifth user trial: --bank-split was ignored with --bank-tasks (every task ran, whatever
    the split); given, it selects the file's tasks in it, and one that holds none is refused."""
    splits = (["train"], ["lite"], ["base"], ["train", "lite"])
    tasks = [_task(task_id=f"mine-00{n}", splits=s) for n, s in enumerate(splits, start=1)]
    path = pytester.path / "mine.jsonl"
    path.write_text("".join(json.dumps(t) + "\n" for t in tasks), encoding="utf-8")
    everything = run_bench(pytester, "--bank-model", "gold", "--bank-tasks", str(path))
    everything.assert_outcomes(passed=len(tasks))
    everything.stdout.fnmatch_lines(["*split: custom *"])
    for split in ("train", "lite", "base"):
        result = run_bench(
            pytester, "--bank-model", "gold", "--bank-split", split, "--bank-tasks", str(path)
        )
        result.assert_outcomes(passed=sum(split in s or split == "base" for s in splits))
        result.stdout.fnmatch_lines([f"*split: {split} of {path} *"])
    result = run_bench(
        pytester, "--bank-model", "gold", "--bank-split", "test", "--bank-tasks", str(path)
    )
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(
        [
            f"ERROR: --bank-tasks: {path}: no task of the file is in split 'test' (--bank-split "
            f"test); its tasks are in base (all {len(tasks)}: every task of a file is), lite (2), "
            "train (2); *"
        ]
    )


def test_a_task_that_cannot_run_is_a_usage_error_not_a_harness_error(
    pytester: pytest.Pytester,
) -> None:
    """Issue 17: a customer the seed does not have was found only by the session, as a harness
    error with the gold replay's traceback, lowering pass^1."""
    path = pytester.path / "bad.jsonl"
    lines = (_task(), _task(task_id="mine-002", customer_id="CUST99999"))
    path.write_text("".join(json.dumps(t) + "\n" for t in lines), encoding="utf-8")
    result = _usage_error(pytester, path)
    result.stderr.fnmatch_lines(
        ["*bad.jsonl:2: task 'mine-002': field 'customer_id': no customer 'CUST99999' in the *"]
    )
    assert "Traceback" not in result.stdout.str() + result.stderr.str()


def test_a_value_outside_a_fixed_list_is_named_with_the_task(pytester: pytest.Pytester) -> None:
    """User trial: `field 'required_outputs.0.kind': Input should be 'amount', ...` named
    neither the kind given ('rupees') nor the task, which every later check names."""
    task = _task()
    outputs = [dict(output) for output in task["required_outputs"]]  # type: ignore[attr-defined]
    outputs[0]["kind"] = "rupees"
    path = pytester.path / "mixed.jsonl"
    lines = (_task(task_id="mine-001"), _task(task_id="mine-002", required_outputs=outputs))
    path.write_text("".join(json.dumps(t) + "\n" for t in lines), encoding="utf-8")
    result = _usage_error(pytester, path)
    result.stderr.fnmatch_lines(
        [
            "ERROR: --bank-tasks: *mixed.jsonl:2: task 'mine-002': field "
            "'required_outputs.0.kind': Input should be 'amount', * (got 'rupees')"
        ]
    )
