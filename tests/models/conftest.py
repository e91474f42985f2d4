"""Each test starts a fresh run: no model settings have answered a live call yet."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from pytest_bankbench.models.llm import ANSWERED


@pytest.fixture(autouse=True)
def fresh_run() -> Iterator[None]:
    ANSWERED.clear()
    yield
    ANSWERED.clear()
