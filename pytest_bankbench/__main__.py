"""Entry point of `python -m pytest_bankbench` (the `bankbench` console script's twin)."""

from __future__ import annotations

from pytest_bankbench.cli import console_main

console_main("python -m pytest_bankbench")
