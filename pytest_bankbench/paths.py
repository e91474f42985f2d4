"""Where the shipped task data lives: pytest_bankbench/data/, package data in the wheel."""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path


def data_dir() -> Path:
    """The folder holding the tasks, the policy and the knowledge base."""
    # Inside the package, so a checkout, an editable install and a wheel all find it in the
    # same place; `python -m pytest_bankbench generate` writes here too.
    return Path(str(files("pytest_bankbench") / "data"))
