"""vocabulary.py is the one definition of the names and limits; the code and the data agree with it."""

from __future__ import annotations

import argparse
import subprocess
import sys
from typing import get_args

import pytest

from pytest_bankbench.run.settings import read_settings
from pytest_bankbench.simulation.agents import (
    BUILTIN_AGENTS,
    PROCEDURE_AGENTS,
    TELLING_AGENTS,
    TRIVIAL_AGENTS,
)
from pytest_bankbench.simulation.session import Limits
from pytest_bankbench.tasks.loader import shipped_tasks
from pytest_bankbench.tasks.model import Task
from pytest_bankbench.vocabulary import (
    BUILTIN_NAMES,
    CATEGORIES,
    DEFAULT_MAX_ERRORS,
    DEFAULT_MAX_STEPS,
    DEFAULT_SPLIT,
    MARKERS,
    SERVICE_AREAS,
    SPLITS,
)


def test_the_task_model_reads_its_kinds_from_the_vocabulary() -> None:
    fields = Task.model_fields
    assert get_args(fields["category"].annotation) == CATEGORIES
    assert get_args(fields["service_area"].annotation) == SERVICE_AREAS
    splits = fields["splits"].annotation
    assert get_args(get_args(splits)[0]) == SPLITS


def test_the_shipped_tasks_use_every_name_and_no_other() -> None:
    tasks = shipped_tasks()
    assert {s for t in tasks for s in t.splits} == set(SPLITS)
    assert {t.category for t in tasks} == set(CATEGORIES)
    assert {t.service_area for t in tasks} == set(SERVICE_AREAS)
    assert all(DEFAULT_SPLIT in t.splits for t in tasks)  # the default split is every task


def test_builtin_agents_are_the_vocabulary_names() -> None:
    assert list(BUILTIN_AGENTS) == list(BUILTIN_NAMES)
    for name, make in BUILTIN_AGENTS.items():
        assert getattr(make, "name", None) == name  # each class names itself the same way
    assert set(TRIVIAL_AGENTS) | set(PROCEDURE_AGENTS) | set(TELLING_AGENTS) < set(BUILTIN_NAMES)


def test_every_category_and_service_area_is_a_marker() -> None:
    assert list(MARKERS) == [*CATEGORIES, *SERVICE_AREAS]


def test_limit_defaults_are_the_same_for_the_session_and_the_options(
    pytestconfig: pytest.Config,
) -> None:
    assert Limits() == Limits(max_steps=DEFAULT_MAX_STEPS, max_errors=DEFAULT_MAX_ERRORS)
    parser = pytestconfig._parser  # the options as declared, whatever this run was given
    defaults = {
        opt.dest: opt.default for group in parser._groups for opt in group.options if opt.dest
    }
    assert defaults["bank_max_steps"] == str(DEFAULT_MAX_STEPS)
    assert defaults["bank_max_errors"] == str(DEFAULT_MAX_ERRORS)
    # None: with --bank-tasks, no split given runs every task of the file (fifth user trial)
    assert defaults["bank_split"] is None
    settings = read_settings(argparse.Namespace(**defaults | {"bank_model": "gold"}))
    assert settings is not None and settings.split == DEFAULT_SPLIT


def test_the_entry_module_stays_cheap_to_import() -> None:
    """The plugin package loads in every pytest run: the vocabulary must not pull in pydantic or tasks."""
    code = (
        "import sys, pytest_bankbench.plugin; "
        "print(' '.join(m for m in sys.modules if m.startswith(('pydantic', 'litellm', "
        "'pytest_bankbench.tasks', 'pytest_bankbench.simulation', 'pytest_bankbench.models'))))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == []
