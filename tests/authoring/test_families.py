"""The rules of the families package (its docstring): no family module imports another, the
reserved customers stay with their families, and the edge families' tasks vary, never say an
internal id and release a fallback only once the rule is stated."""

from __future__ import annotations

import ast
import random
import re
import sqlite3
from pathlib import Path

import pytest
from pydantic import ValidationError

import pytest_bankbench.authoring.families as families_package
from pytest_bankbench.authoring import base, generate
from pytest_bankbench.authoring.base import family_rows
from pytest_bankbench.authoring.generate import TASKS_PER_FAMILY, load_families
from pytest_bankbench.bank.seed import FROZEN_FOR, WEALTHY
from pytest_bankbench.tasks.loader import shipped_tasks
from tests.authoring.families.shipped import (
    CTX,
    customer_lines,
    tasks_of,
)
from tests.tasks.stated import stated

FAMILIES_DIR = Path(families_package.__file__).parent


def test_no_family_module_imports_another() -> None:
    """What families share lives in the authoring modules (base, calls, pickers), so a family
    module can be moved or split without touching another."""
    offenders = []
    modules = sorted(p for p in FAMILIES_DIR.rglob("*.py") if p.name != "__init__.py")
    assert modules, "no family module found"
    for path in modules:
        name = path.relative_to(FAMILIES_DIR)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module:
                if node.module.startswith(families_package.__name__):
                    offenders.append(f"{name} imports {node.module}")
            elif isinstance(node, ast.Import):
                offenders += [
                    f"{name} imports {alias.name}"
                    for alias in node.names
                    if alias.name.startswith(families_package.__name__)
                ]
    assert offenders == []


def test_every_family_is_written_in_the_package_of_its_area() -> None:
    """families.toml's `area` of a family is the package its maker is written in, so a
    contributor finds a family where its row says."""
    load_families()
    misplaced = {
        name: (made.make.__module__, row.area)
        for name, row in family_rows().items()
        if (made := base.FAMILIES[name]).make.__module__.split(".")[-2] != row.area
    }
    assert misplaced == {}


def test_every_family_has_one_row_in_the_registry_and_every_row_a_family() -> None:
    load_families()
    assert set(family_rows()) == set(base.FAMILIES)
    for name, row in family_rows().items():
        made = base.FAMILIES[name]
        assert (made.category, made.service_area, made.clause) == (
            row.category,
            row.area,
            row.clause,
        )
        assert row.clause, f"{name}: a family names the policy clause that decides its tasks"


def test_the_readme_table_of_families_is_the_registry() -> None:
    """The README's table (family, category, area, deciding clause) says what families.toml
    says, row for row: a family added, retired or re-claused there is so in the README."""
    readme = (FAMILIES_DIR.parents[2] / "README.md").read_text(encoding="utf-8")
    section = readme.split("| family | category | area | deciding clause |\n", 1)[1]
    lines = section.split("\n\n", 1)[0].splitlines()[1:]  # below the header's rule
    table = {}
    for line in lines:
        name, category, area, clause = (cell.strip() for cell in line.strip("|").split(" | "))
        table[name.strip("`")] = (category, area, clause)
    rows = {name: (row.category, row.area, row.clause) for name, row in family_rows().items()}
    assert table == rows


def test_a_maker_without_a_row_or_registered_twice_is_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def unlisted(ctx: base.Context, rng: random.Random, customer: sqlite3.Row) -> None:
        return None

    with pytest.raises(base.UnlistedFamily, match="unlisted has no row"):
        base.family("SELECT customer_id FROM customers")(unlisted)
    monkeypatch.setattr(base, "FAMILIES", dict(base.FAMILIES))
    with pytest.raises(base.UnlistedFamily, match="registered twice"):
        base.family("SELECT customer_id FROM customers")(base.FAMILIES["kb_answer"].make)


def test_a_registry_row_without_a_maker_stops_generation(monkeypatch: pytest.MonkeyPatch) -> None:
    rows = {**family_rows(), "ghost": family_rows()["kb_answer"]}
    monkeypatch.setattr(generate, "family_rows", lambda: rows)
    with pytest.raises(base.UnlistedFamily, match="ghost"):
        load_families()


def test_a_registry_row_with_an_unknown_category_is_refused() -> None:
    good = {"category": "control", "area": "cards", "clause": "J.36"}
    assert base.FamilyRow.model_validate(good).area == "cards"
    for bad in ({**good, "category": "easy"}, {**good, "areas": "cards"}):
        with pytest.raises(ValidationError):
            base.FamilyRow.model_validate(bad)


def test_family_modules_refer_to_gold_steps_by_name() -> None:
    """`as_step("quote", ...)` and `after=("quote",)`, not "c2": a call added to a chain then
    moves no reference (the task's ids are still numbered c1..cN)."""
    positional = re.compile(r"[ck]\d+")
    found = [
        f"{path.name}:{node.lineno} {node.value!r}"
        for path in sorted(FAMILIES_DIR.glob("*.py"))
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and positional.fullmatch(node.value)
    ]
    assert found == []


# The policy-edge families (issue 16): answers only the knowledge base has, a correction at the
# confirmation, an ambiguous FD, a changed tenure, a payment above the dues, a long statement.
FAMILIES = (
    "kb_answer",
    "transfer_correction",
    "ambiguous_fd_clarify",
    "fd_quote_redo_after_change",
    "pay_more_than_owed",
    "statement_over_twelve_months",
)


INTERNAL_ID = re.compile(r"\b(?:FD|RD|LN|CRD|BEN|SR|CUST|CTX)\d{3,}")


def test_late_accounts_belong_to_no_customer_of_an_older_family() -> None:
    """The frozen and large accounts were given to customers no older family used, so adding
    them moved no other family's tasks (other_customers_account draws any customer's account)."""
    late = set(FROZEN_FOR) | set(WEALTHY)
    new = {
        "deposit_outside_limits",
        "tax_saver_fixed_tenure",
        "refused_step_blocks_next",
    }
    clash = sorted(
        {t.task_id for t in shipped_tasks() if t.family not in new and t.customer_id in late}
    )
    assert not clash, clash
    frozen = CTX.all("SELECT customer_id FROM accounts WHERE status = 'frozen' ORDER BY 1")
    assert [r["customer_id"] for r in frozen] == sorted(FROZEN_FOR)


@pytest.mark.parametrize("name", FAMILIES)
def test_family_ships_all_its_varied_tasks(name: str) -> None:
    tasks = tasks_of(name)
    assert len(tasks) == TASKS_PER_FAMILY
    assert len({t.customer_id for t in tasks}) == TASKS_PER_FAMILY
    assert len({t.scenario.first_message for t in tasks}) >= 15
    assert all(t.clause for t in tasks)


@pytest.mark.parametrize("name", FAMILIES)
def test_customer_never_says_an_internal_id(name: str) -> None:
    for task in tasks_of(name):
        for line in customer_lines(task):
            assert not INTERNAL_ID.search(line), (task.task_id, line)


@pytest.mark.parametrize("name", FAMILIES)
def test_a_fallback_waits_for_the_rule_and_the_refusal_states_it(name: str) -> None:
    for task in tasks_of(name):
        gated = [f for f in task.scenario.structured_facts() if f.after]
        for fact in gated:
            assert fact.text not in task.scenario.first_message, task.task_id
            assert not any(stated(p, task.scenario.first_message) for p in fact.after), task.task_id
        for ins in task.scenario.instructions:
            if ins.explain:
                phrases = [p for f in gated for p in f.after]
                assert any(stated(p, ins.explain) for p in phrases), task.task_id
