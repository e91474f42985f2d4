"""The README's options table and the commands of its "Using it" section hold for the code."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

import pytest_bankbench
from pytest_bankbench.plugin import options
from pytest_bankbench.tasks.loader import shipped_tasks

ROOT = Path(pytest_bankbench.__file__).parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
OPTION = re.compile(r"--bank-[a-z-]*[a-z]")
TEST_ID = re.compile(r"::test_task\[[a-z_]+-(?P<task>[a-z_]+-\d{3})\]")


def _usage_lines() -> list[str]:
    """The commands of the "Using it" section, one a line."""
    block = README.split("## Using it", 1)[1].split("\n\n", 2)[1]
    return [line.strip() for line in block.splitlines() if line.startswith("    ")]


def test_every_option_is_in_the_options_table() -> None:
    declared = set(OPTION.findall(Path(options.__file__).read_text(encoding="utf-8")))
    table = "\n".join(line for line in README.splitlines() if line.startswith("| `--bank-"))
    assert len(declared) >= 28  # the scan found the declarations
    assert declared - set(OPTION.findall(table)) == set()


def test_the_one_family_example_selects_one_family(pytester: pytest.Pytester) -> None:
    line = next(
        line
        for line in _usage_lines()
        if line.endswith("# one family (ids are category-family-nnn)")
    )
    command = shlex.split(line.split("#", 1)[0])
    result = pytester.runpytest("-p", "no:cacheprovider", "--collect-only", "-q", *command[1:])
    family = {t.task_id: t.family for t in shipped_tasks()}
    selected = [m["task"] for m in map(TEST_ID.search, result.outlines) if m]
    assert len(selected) > 1
    assert {family[task] for task in selected} == {"fd_closure"}
