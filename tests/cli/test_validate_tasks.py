"""`validate-tasks FILE`: every problem named by file, line, task and field; 1 on any, 0 when clean."""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path

import pytest

from pytest_bankbench.cli import main
from pytest_bankbench.money import amounts_in
from pytest_bankbench.paths import data_dir
from pytest_bankbench.tasks.loader import TASKS_FILE, TaskFileError, load_tasks, shipped_tasks
from pytest_bankbench.tasks.model import GoldCall, Source, Task
from pytest_bankbench.tasks.sources import told_sources
from pytest_bankbench.tasks.validate import validate_file


# issue 17: these tasks tell an alternative account that no gold call reads (the chain holds only
# the source account's balance); the family owner adds the read. Held here so that no other
# shipped task gains a problem meanwhile.
def _task(family: str) -> Task:
    """The first shipped task of a family that asks for a value, a real one to vary."""
    return next(t for t in shipped_tasks() if t.family == family and t.required_outputs)


def _write(path: Path, *lines: str) -> Path:
    path.write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")
    return path


def _run(capsys: pytest.CaptureFixture[str], path: Path) -> tuple[int, list[str]]:
    status = main(["validate-tasks", str(path)])
    return status, capsys.readouterr().out.splitlines()


def test_a_value_without_a_source_is_a_problem_naming_its_field(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A value found only somewhere in a result could be another record's: each names its place
    (issue 17), and the file is refused at load for a run the same way."""
    rate = _task("fd_rate_query")
    bare = tuple(o.model_copy(update={"source": None}) for o in rate.required_outputs)
    tasks = [_task("balance_enquiry"), rate.model_copy(update={"required_outputs": bare})]
    path = _write(tmp_path / "bare.jsonl", *(t.to_line() for t in tasks))
    status, out = _run(capsys, path)
    fields = [f"required_outputs.{i}.source" for i in range(len(bare))]
    assert status == 1 and len(out) == len(fields) + 1, out
    for line, field in zip(out, fields, strict=False):
        assert line.startswith(f"{path}:2: task {rate.task_id}: field {field}: "), line
        assert "names no source" in line and "Writing tasks" in line
    with pytest.raises(TaskFileError, match=r":2: task .*field 'required_outputs\.0\.source'"):
        load_tasks(path)


def test_a_good_file_passes_with_one_summary_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    task = _task("balance_enquiry")
    assert all(value.source is not None for _, value in told_sources(task))
    status, out = _run(capsys, _write(tmp_path / "good.jsonl", task.to_line()))
    assert (status, out[0].split(" (")[1]) == (
        0,
        "gold chains replayed, the gold agent passes each, 1 expected value found in the replays)",
    )


def test_a_wrong_expected_value_fails_naming_line_task_and_field(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = _task("balance_enquiry")
    output = good.required_outputs[0]
    wrong = good.model_copy(
        update={
            "task_id": "wrong-001",
            "required_outputs": (output.model_copy(update={"value": "1.23"}),),
        }
    )
    path = _write(tmp_path / "wrong.jsonl", good.to_line(), wrong.to_line())
    status, out = _run(capsys, path)
    assert status == 1
    first, summary = out
    assert output.source is not None and output.source.entity == "account"
    assert first.startswith(
        f"{path}:2: task wrong-001: field required_outputs.0: {output.label!r}: amount 1.23 "
        f"is not the balance of account {output.source.key!r}, which the bank holds as "
    )
    assert output.value.rstrip("0").rstrip(".") in first  # the right one is offered
    assert summary == f"{path}: 1 problem on 1 line"


def _another_accounts_balance() -> tuple[Task, Task]:
    """A balance enquiry, and the same task asking for the balance of another of the
    customer's accounts, one its own gold read shows (issue 17: the first account's balance
    instead of the one the customer named)."""
    from pytest_bankbench.tasks.replay import replay

    for task in (t for t in shipped_tasks() if t.family == "balance_enquiry"):
        output = task.required_outputs[0]
        listed = replay(task).results[task.gold[0].id].get("accounts", [])
        others = [
            str(a["balance"])
            for a in listed
            if output.source is not None
            and a["account_number"] != output.source.key
            and Decimal(str(a["balance"])) != output.amount()
        ]
        if others:
            wrong = output.model_copy(update={"value": others[0]})
            return task, task.model_copy(update={"required_outputs": (wrong,)})
    raise AssertionError("no balance enquiry of a customer with two accounts")


def test_another_accounts_balance_fails_validation_and_gold(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], pytester: pytest.Pytester
) -> None:
    """The value is shown by a gold result (the account list), so only its named record
    catches it: validate-tasks names the task and field, and the gold agent, telling the
    named account's balance from its own results, fails the task."""
    good, wrong = _another_accounts_balance()
    path = _write(tmp_path / "wrong.jsonl", wrong.to_line())
    status, out = _run(capsys, path)
    assert status == 1
    assert out[0].startswith(
        f"{path}:1: task {wrong.task_id}: field required_outputs.0: 'balance': amount "
        f"{wrong.required_outputs[0].value} is not the balance of account"
    ), out
    good_path = _write(tmp_path / "good.jsonl", good.to_line())
    assert _run(capsys, good_path)[0] == 0
    hint = "gold failed * sessions of *: * so the task is wrong; *validate-tasks *"
    for tasks, outcome in ((good_path, {"passed": 1}), (path, {"failed": 1})):
        result = pytester.runpytest(
            "-p", "no:cacheprovider", "--bank-model", "gold", "--bank-tasks", str(tasks)
        )
        result.assert_outcomes(**outcome)
        if tasks == good_path:
            result.stdout.no_fnmatch_line(hint)
    assert "missing_output" in result.stdout.str()
    # The evidence names the task and the value; the summary names the command that names the
    # file, line and field.
    result.stdout.fnmatch_lines(
        [
            f"gold failed 1 of 1 sessions of {path}: the gold agent follows each task's gold "
            f"chain and tells what its tool results show, so the task is wrong; `python -m "
            f"pytest_bankbench validate-tasks {path}` names each problem's line and field"
        ]
    )


def test_a_broken_gold_call_fails_naming_the_call(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = _task("balance_enquiry")
    index, call = next((i, c) for i, c in enumerate(good.gold) if "account_number" in c.arguments)
    broken_call = call.model_copy(update={"arguments": {"account_number": "50100000000000"}})
    gold = tuple(broken_call if c.id == call.id else c for c in good.gold)
    unknown = GoldCall.model_validate(good.gold[0].model_dump() | {"tool": "get_balance"})
    path = _write(
        tmp_path / "broken.jsonl",
        good.model_copy(update={"gold": gold}).to_line(),
        good.model_copy(update={"gold": (unknown,), "task_id": "other-001"}).to_line(),
    )
    status, out = _run(capsys, path)
    assert status == 1
    assert out[0].startswith(
        f"{path}:1: task {good.task_id}: field gold.{index}: gold call {call.id} {call.tool} "
        "failed: no account '50100000000000' exists"
    )
    assert out[1].startswith(
        f"{path}:2: task other-001: field gold.0: gold call c1 get_balance: unknown tool "
        "'get_balance' (did you mean 'get_account_balance'?); available tools: "
    )
    assert out[2] == f"{path}: 2 problems on 2 lines"


def test_a_read_whose_result_does_not_show_its_facts_fails(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = _task("balance_enquiry")
    index, call = next((i, c) for i, c in enumerate(good.gold) if c.facts)
    assert call.facts is not None
    facts = call.facts.model_copy(update={"fields": ("balance", "colour")})
    gold = tuple(c.model_copy(update={"facts": facts}) if c is call else c for c in good.gold)
    path = _write(tmp_path / "facts.jsonl", good.model_copy(update={"gold": gold}).to_line())
    status, out = _run(capsys, path)
    assert status == 1
    assert out[0].startswith(f"{path}:1: task {good.task_id}: field gold.{index}.facts: ")


def test_every_problem_of_a_bad_line_is_reported_and_bad_json_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = _task("balance_enquiry")
    data = json.loads(good.to_line())
    del data["family"]
    data["colour"] = "blue"
    path = _write(
        tmp_path / "bad.jsonl",
        '{"task_id": "x-001",',
        json.dumps(data),
        good.to_line(),
        good.to_line(),
    )
    status, out = _run(capsys, path)
    assert status == 1
    assert out == [
        f"{path}:1: not valid JSON (Expecting property name enclosed in double quotes at "
        "column 21); the line ends inside its task: write each task as one JSON object on one "
        "line",
        f"{path}:2: task {good.task_id}: field colour: not a field of a task; accepted: "
        f"{', '.join(Task.model_fields)}",
        f"{path}:2: task {good.task_id}: field family: missing; every task has "
        f"{', '.join(n for n, f in Task.model_fields.items() if f.is_required() and n != 'splits')}"
        " (README: Writing tasks)",
        f"{path}:4: task {good.task_id}: field task_id: {good.task_id!r} already used on line 3 "
        "(task ids must be unique in a file)",
        f"{path}: 4 problems on 3 lines",
    ]


def test_a_value_outside_a_fixed_list_shows_the_value_given(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = json.loads(_task("fd_rate_query").to_line())
    data["category"] = "controls"
    status, out = _run(capsys, _write(tmp_path / "cat.jsonl", json.dumps(data)))
    assert status == 1
    assert out[0].endswith(
        f"task {data['task_id']}: field category: Input should be 'sequencing', 'control', "
        "'edge_case' or 'rare_tool' (got 'controls')"
    ), out


def test_a_stored_change_set_must_be_the_replays(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    task = next(t for t in shipped_tasks() if t.expected_changes)
    path = _write(
        tmp_path / "changes.jsonl", task.model_copy(update={"expected_changes": ()}).to_line()
    )
    status, out = _run(capsys, path)
    assert status == 1
    assert out[0].startswith(f"{path}:1: task {task.task_id}: field expected_changes: differs")


def test_an_unknown_customer_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    task = _task("balance_enquiry").model_copy(update={"customer_id": "CUST99999"})
    status, out = _run(capsys, _write(tmp_path / "who.jsonl", task.to_line()))
    assert status == 1
    assert "field customer_id: no customer 'CUST99999' in the bank seeded with" in out[0]


def test_a_missing_or_empty_file_is_one_problem(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "none.jsonl"
    assert _run(capsys, missing) == (
        1,
        [
            f"{missing}: no such task file (expected a .jsonl file, one task per line)",
            f"{missing}: 1 problem",
        ],
    )
    empty = _write(tmp_path / "empty.jsonl", "")
    assert _run(capsys, empty)[0] == 1


def test_the_shipped_file_has_no_problem() -> None:
    result = validate_file(data_dir() / TASKS_FILE)
    assert result.tasks == len(shipped_tasks())
    assert [str(p) for p in result.problems] == []


def _readme_section() -> str:
    readme = (Path(__file__).parents[2] / "README.md").read_text(encoding="utf-8")
    return readme.split("\n## Writing tasks\n", 1)[1].split("\n## ", 1)[0]


def _readme_tasks() -> list[dict[str, object]]:
    """The section's complete example, then each fragment completed with its other fields."""
    blocks = [block.split("```", 1)[0] for block in _readme_section().split("```json\n")[1:]]
    example: dict[str, object] = json.loads(blocks[0])
    return [example] + [example | json.loads("{" + block + "}") for block in blocks[1:]]


def _readme_output(command: str) -> list[str]:
    """The lines the section prints for `validate-tasks FILE`, without their indent."""
    shown = _readme_section().split(f"    $ python -m pytest_bankbench validate-tasks {command}\n")
    return [line.strip() for line in shown[1].split("\n\n", 1)[0].splitlines()]


def test_the_readme_examples_are_valid_and_print_what_it_shows(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    tasks = _readme_tasks()
    monkeypatch.chdir(tmp_path)
    good = _write(Path("my_tasks.jsonl"), *(json.dumps(t) for t in tasks))
    assert _run(capsys, good) == (0, _readme_output("my_tasks.jsonl"))
    example, stop_cheque = tasks[0], tasks[1]
    mistyped = json.dumps(example).replace('"123650.86"', '"123650.68"')
    paid = json.dumps(stop_cheque).replace("507010", "507001")  # the customer's paid cheque
    bad = _write(Path("bad.jsonl"), mistyped, paid, json.dumps(example).replace(",", "", 1))
    assert _run(capsys, bad) == (1, _readme_output("bad.jsonl"))


def test_gold_passes_the_readme_tasks_and_a_trivial_agent_fails_them(
    tmp_path: Path, pytester: pytest.Pytester
) -> None:
    tasks = _readme_tasks()
    path = _write(tmp_path / "readme.jsonl", *(json.dumps(t) for t in tasks))
    for model, outcome in (
        ("gold", {"passed": len(tasks)}),
        ("claim-done", {"failed": len(tasks)}),
    ):
        result = pytester.runpytest(
            "-p", "no:cacheprovider", "--bank-model", model, "--bank-tasks", str(path)
        )
        result.assert_outcomes(**outcome)


def test_an_unknown_concept_is_named_with_the_known_ones(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """It passed validation, then crashed every session's scoring (issue 17)."""
    task = next(t for t in shipped_tasks() if any(tell.concepts for tell in t.tells))
    index = next(i for i, tell in enumerate(task.tells) if tell.concepts)
    tell = task.tells[index].model_copy(update={"concepts": ("freezed",)})
    wrong = task.model_copy(update={"tells": (*task.tells[:index], tell, *task.tells[index + 1 :])})
    status, out = _run(capsys, _write(tmp_path / "concept.jsonl", wrong.to_line()))
    assert status == 1
    assert (
        f"field tells.{index}.concepts.0: unknown concept 'freezed'; the concepts are: " in (out[0])
    )
    assert "frozen" in out[0]


def test_a_task_the_gold_agent_cannot_pass_is_a_problem_naming_the_tell(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A refusal whose `explain` is left out: every check of the file passed, and only the run
    found that nothing says the reason and the alternative its tells ask for."""
    refusal = _readme_tasks()[2]
    scenario = refusal["scenario"]
    assert isinstance(scenario, dict) and refusal["tells"]
    silent = scenario | {"instructions": [{"text": scenario["instructions"][0]["text"]}]}
    path = _write(tmp_path / "refusal.jsonl", json.dumps(refusal | {"scenario": silent}))
    status, out = _run(capsys, path)
    tells = refusal["tells"]
    assert isinstance(tells, list)
    assert status == 1
    assert [line.split(": the gold agent fails it (told_customer): ")[0] for line in out[:-1]] == [
        f"{path}:1: task {refusal['task_id']}: field tells.{i}" for i in range(len(tells))
    ]
    assert all(
        f"never told the {t['kind']} ({t['label']})" in line
        for t, line in zip(tells, out[:-1], strict=True)
    )
    assert _run(capsys, _write(tmp_path / "told.jsonl", json.dumps(refusal)))[0] == 0


@pytest.mark.parametrize(
    ("offered", "problem"),
    [
        ("Hello there, nice day.", True),  # fifth user trial: it passed, and tested nothing
        ("My PIN is the one I always use.", True),
        ("My OTP is 482913 if you need it.", False),
        ("my PIN is four three two one", False),
    ],
)
def test_a_volunteered_secret_the_scorer_cannot_read_is_a_problem(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], offered: str, problem: bool
) -> None:
    task = next(t for t in shipped_tasks() if t.scenario.instructions[0].volunteers)
    first = task.scenario.instructions[0].model_copy(update={"volunteers": offered})
    scenario = task.scenario.model_copy(
        update={"instructions": (first, *task.scenario.instructions[1:])}
    )
    path = _write(tmp_path / "v.jsonl", task.model_copy(update={"scenario": scenario}).to_line())
    status, out = _run(capsys, path)
    assert status == int(problem), out
    if problem:
        assert out[0].startswith(
            f"{path}:1: task {task.task_id}: field scenario.instructions.0.volunteers: "
            f"{offered!r} offers no secret the scorer reads"
        )


def _wrong(family: str, label: str, value: str, task_id: str) -> tuple[Task, Task, str]:
    """A shipped task of the family, the same with the value `label` written wrong (its source
    kept) under another id, and the field of that value."""
    for task in (t for t in shipped_tasks() if t.family == family):
        for field, told in told_sources(task):
            if told.label == label and told.source is not None:
                kind, index = field.split(".")[0], int(field.split(".")[1])
                values = list(getattr(task, kind))
                values[index] = told.model_copy(update={"value": value})
                wrong = task.model_copy(update={kind: tuple(values), "task_id": task_id})
                return task, wrong, field
    raise AssertionError(f"no {family} task tells {label!r} with a source")


def _wrong_article_value() -> tuple[Task, Task, str]:
    task = next(
        t
        for t in shipped_tasks()
        if t.family == "kb_answer"
        and (s := t.required_outputs[0].source) is not None
        and s.article
        and t.required_outputs[0].kind in ("amount", "count")
    )
    output = task.required_outputs[0]
    return _wrong("kb_answer", output.label, str(output.amount() + 1), "wrong_article-001")


def test_a_wrong_value_of_each_place_fails_validation_and_gold(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], pytester: pytest.Pytester
) -> None:
    """The amount a transfer sends, a fee of a policy clause, an article's answer, a rate of the
    rate card: each written wrong is named by file, line, task and field, and the gold agent,
    telling what it reads there, fails each task (and passes the tasks as shipped)."""
    cases = [
        (_wrong("new_payee_transfer", "amount", "1.00", "wrong_argument-001"), "argument amount"),
        # Rs 50,000 is in the policy (H.29), not as the replacement fee of F.24.
        (_wrong("lost_card_block", "replacement fee", "50000", "wrong_clause-001"), "F.24"),
        (_wrong_article_value(), "article"),
        (_wrong("fd_rate_query", "rate", "9.99", "wrong_rate-001"), "rate card's slab"),
    ]
    assert Decimal(50000) in amounts_in((data_dir() / "policy.md").read_text(encoding="utf-8"))
    path = _write(tmp_path / "wrong.jsonl", *(wrong.to_line() for (_, wrong, _), _ in cases))
    status, out = _run(capsys, path)
    assert status == 1
    assert out[-1] == f"{path}: {len(cases)} problems on {len(cases)} lines"
    for line, (((_, wrong, field), place), said) in enumerate(zip(cases, out, strict=False), 1):
        told = dict(told_sources(wrong))[field]
        assert said.startswith(
            f"{path}:{line}: task {wrong.task_id}: field {field}: {told.label!r}: "
        ), said
        assert told.value in said and place in said, said
    good = _write(tmp_path / "good.jsonl", *(task.to_line() for (task, _, _), _ in cases))
    assert _run(capsys, good)[0] == 0
    for tasks, outcome in ((good, {"passed": len(cases)}), (path, {"failed": len(cases)})):
        result = pytester.runpytest(
            "-p", "no:cacheprovider", "--bank-model", "gold", "--bank-tasks", str(tasks)
        )
        result.assert_outcomes(**outcome)
    # Failed by the value told (before the write, or asked for), not by a broken session.
    failed = [line for line in result.outlines if line.startswith("FAILED")]
    assert len(failed) == len(cases)
    assert all(" - acted_without_co" in f or " - missing_output" in f for f in failed), failed


def test_a_malformed_source_is_one_line_naming_its_field(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A source naming two places, a clause the policy does not have, an argument its gold
    call does not take: one line each, with the field."""
    task, _, field = _wrong("lost_card_block", "replacement fee", "200", "unused-001")
    transfer, _, sent = _wrong("new_payee_transfer", "amount", "1.00", "unused-002")
    data = json.loads(task.to_line())
    kind, index = field.split(".")
    two = json.loads(task.to_line())
    two[kind][int(index)]["source"] |= {"call": "c1"}
    unknown = json.loads(task.to_line())
    unknown[kind][int(index)]["source"] = {"policy": "F.99"}
    misnamed = json.loads(transfer.to_line())
    sent_kind, sent_index = sent.split(".")
    misnamed[sent_kind][int(sent_index)]["source"]["arg"] = "amout"
    path = _write(tmp_path / "bad.jsonl", *(json.dumps(d) for d in (two, unknown, misnamed)))
    status, out = _run(capsys, path)
    assert status == 1
    assert out[0] == (
        f"{path}:1: task {data['task_id']}: field {field}.source: a source names one place (a "
        "record (entity, key), a gold call (call), a policy clause (policy), an article "
        "(article), a rate-card row (tenure_days)); this one names a gold call (call) and a "
        "policy clause (policy)"
    )
    assert out[1].startswith(
        f"{path}:2: task {data['task_id']}: field {field}.source: policy clause 'F.99' does "
        "not exist; the clauses are A.1-A.5, "
    )
    call = misnamed[sent_kind][int(sent_index)]["source"]["call"]
    assert out[2].startswith(
        f"{path}:3: task {transfer.task_id}: field {sent}: 'amount': gold call {call} has no "
        "argument 'amout'; it has "
    )
    assert out[3] == f"{path}: 3 problems on 3 lines"


def test_the_readme_table_of_sources_holds_one_valid_source_of_each_kind() -> None:
    """Each row of the section's table of sources: its JSON is a `Source` of the row's kind."""
    table = _readme_section().split("**Where a told value comes from.**", 1)[1]
    rows = [line for line in table.split("\n\n")[1].splitlines() if line.startswith("| ")][2:]
    kinds = {
        "record field": "record",
        "call result": "result",
        "call argument": "argument",
        "policy passage": "passage",
        "article passage": "passage",
        "rate-card row": "rate card",
    }
    found = {}
    for row in rows:
        name, _, source = (cell.strip() for cell in row.strip("|").split(" | "))
        found[name] = Source.model_validate(json.loads(source.strip("`"))).kind
    assert found == kinds
