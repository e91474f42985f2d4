"""Where the shipped task data lives (the repository's task_data/, mapped into the wheel)."""

from __future__ import annotations

from pathlib import Path


def data_dir() -> Path:
    """The folder holding tasks, splits, the policy and the knowledge base."""
    repo_copy = Path(__file__).resolve().parent.parent / "task_data"
    if repo_copy.is_dir():
        return repo_copy
    from importlib.resources import files

    return Path(str(files("pytest_bankbench.task_data")))
