"""The stats command reports the suite computed from the shipped files."""

from __future__ import annotations

import pytest

from pytest_bankbench.cli import main


def test_stats(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["stats"]) == 0
    out = capsys.readouterr().out
    for line in (
        "tasks (base): 1000",
        "families: 50",
        "categories: 4",
        "tools: 34 (read 20, write 13, human 1)",
        "customers: 944",
        "knowledge-base documents: 24",
        "train/test customers:",
    ):
        assert line in out
    assert "gold chain length: 1-8, mean 3." in out
