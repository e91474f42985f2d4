"""Where the shipped task data lives: task_data/ at the repository's top level (issue 17).

The folder sits beside the package in a checkout and inside it in a built wheel: pyproject.toml
maps the top-level folder to the package data `pytest_bankbench/task_data/`. A wheel install
finds it there; a checkout and an editable install (whose package is the checkout's own folder)
find it beside the package. Either way one folder, read by `data_dir()` alone.
"""

from __future__ import annotations

from functools import cache
from importlib.resources import files
from pathlib import Path

from pytest_bankbench.errors import BankBenchError

DATA_FOLDER = "task_data"


class DataDirError(BankBenchError, FileNotFoundError):
    """The shipped task data is in neither place an install puts it."""


@cache
def data_dir() -> Path:
    """The folder holding the tasks, the policy, the knowledge base and the concepts."""
    return locate(Path(str(files("pytest_bankbench"))))


def locate(package: Path) -> Path:
    """The task data of the package installed at `package`: inside it (a wheel), else beside it
    (a checkout or an editable install)."""
    places = (package / DATA_FOLDER, package.parent / DATA_FOLDER)
    for place in places:
        if (place / "policy.md").is_file():
            return place
    raise DataDirError(
        f"pytest_bankbench's task data is missing: looked for {places[0]}/policy.md (a wheel "
        f"install) and {places[1]}/policy.md (a checkout or editable install); reinstall the "
        "package, or restore task_data/ in the checkout"
    )
