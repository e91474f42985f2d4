"""Shared helpers of the plugin's end-to-end tests."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

# Timings, and the wall-clock dates of the provenance: the only fields two runs may differ in.
TIMING_KEYS = frozenset({"wall_time_s", "duration_s", "run_started", "traces_run_started"})
RESULT_LINE = re.compile(r"^\d+ (passed|failed)")


def selected(keyword: str) -> int:
    """How many shipped tasks `-k KEYWORD` selects (a test's name is category-task_id), so a
    test counts from the data instead of pinning a family's size."""
    from pytest_bankbench.tasks.loader import shipped_tasks

    return sum(keyword in f"{t.category}-{t.task_id}" for t in shipped_tasks())


def run_bench(pytester: pytest.Pytester, *args: str) -> pytest.RunResult:
    """Run pytest with the plugin in the pytester folder (in process, caches shared)."""
    return pytester.runpytest("-p", "no:cacheprovider", *args)


def load_report(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def without_timings(value: Any) -> Any:
    """The report with every timing removed (the only fields allowed to differ between runs)."""
    if isinstance(value, dict):
        return {k: without_timings(v) for k, v in value.items() if k not in TIMING_KEYS}
    if isinstance(value, list):
        return [without_timings(v) for v in value]
    return value


def summary_block(lines: list[str]) -> list[str]:
    """The benchmark summary's lines, minus the wall-time line."""
    start = next(i for i, line in enumerate(lines) if "bank benchmark summary" in line)
    block: list[str] = []
    for line in lines[start:]:
        if block and (line.startswith("=") or RESULT_LINE.match(line)):
            break
        if "wall time" not in line and not line.startswith(
            ("JSON report:", "traces:", "session log:", "no report written:")
        ):
            block.append(line)
    return block
