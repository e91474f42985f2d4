"""`customer ID`: a seeded customer's records, exactly as the agent's list tools return them."""

from __future__ import annotations

import json
from datetime import date

import pytest

from pytest_bankbench.bank.customer_view import DEFAULT_DAY, VIEW_TOOLS
from pytest_bankbench.bank.registry import get_tool
from pytest_bankbench.bank.store import DEFAULT_SEED, Bank
from pytest_bankbench.cli import main
from pytest_bankbench.tasks.loader import shipped_tasks


def test_the_json_is_what_the_tools_return(capsys: pytest.CaptureFixture[str]) -> None:
    task = shipped_tasks()[0]
    day = task.task_date.isoformat()
    assert main(["customer", task.customer_id, "--date", day, "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    with Bank(task.customer_id, task.task_date, task.bank_seed) as bank:
        direct = {name: get_tool(name).invoke(bank, {}) for name in VIEW_TOOLS}
    assert shown == json.loads(json.dumps(direct))
    assert shown["get_customer_profile"]["today"] == day


def test_the_text_has_a_heading_per_tool(capsys: pytest.CaptureFixture[str]) -> None:
    customer = shipped_tasks()[0].customer_id
    assert main(["customer", customer]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == f"customer {customer} on {DEFAULT_DAY} (bank seed {DEFAULT_SEED})"
    assert [line for line in lines if line.startswith("== ")] == [
        f"== {name}() ==" for name in VIEW_TOOLS
    ]


def test_the_date_is_the_banks_today(capsys: pytest.CaptureFixture[str]) -> None:
    customer = shipped_tasks()[0].customer_id
    main(["customer", customer, "--date", "2026-06-30", "--json"])
    assert json.loads(capsys.readouterr().out)["get_customer_profile"]["today"] == str(
        date(2026, 6, 30)
    )


def test_an_unknown_customer_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["customer", "CUST99999"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("error: no customer 'CUST99999' in the bank seeded with ")
    assert len(captured.err.splitlines()) == 1


def test_a_bad_date_names_the_format(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as raised:
        main(["customer", "CUST00001", "--date", "1 May"])
    assert raised.value.code == 2
    assert "'1 May' is not a date; give it as YYYY-MM-DD" in capsys.readouterr().err
