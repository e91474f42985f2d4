"""`tools [NAME...]`: every tool's arguments and the facts its result shows, from the registry."""

from __future__ import annotations

import pytest

from pytest_bankbench.bank.registry import all_tools
from pytest_bankbench.cli import main


def test_every_tool_is_listed_once(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tools"]) == 0
    headings = [
        line.split(" ")[0] for line in capsys.readouterr().out.splitlines() if line[:1].strip()
    ]
    assert headings == sorted(all_tools())


def test_a_tool_shows_its_arguments_and_facts(capsys: pytest.CaptureFixture[str]) -> None:
    spec = all_tools()["get_account_balance"]
    assert main(["tools", spec.name]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == f"{spec.name} ({spec.kind})"
    assert any(line.startswith("  - account_number: string (required)") for line in lines)
    (reveal,) = spec.reveals
    assert f"  shows account (key: account_number): {', '.join(reveal.field_map())}" in lines


def test_an_unknown_tool_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tools", "get_balance"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(
        "error: unknown tool 'get_balance' (did you mean 'get_account_balance'?); available tools: "
    )
    assert len(err.splitlines()) == 1


def test_every_argument_says_what_it_takes(capsys: pytest.CaptureFixture[str]) -> None:
    """An optional amount (a union with null) read "any" (issue 17, tried as a task author)."""
    assert main(["tools"]) == 0
    arguments = [line for line in capsys.readouterr().out.splitlines() if line.startswith("  - ")]
    assert arguments and not [line for line in arguments if ": any (" in line]
    assert (
        "  - daily_limit: number or null (default None), new daily limit in rupees; omit to keep"
        in (arguments)
    )
