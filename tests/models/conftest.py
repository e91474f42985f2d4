"""Each test starts a fresh run: no model settings have answered a live call yet, and no
endpoint's transport breaker has counted a failure."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from pytest_bankbench.models.process_state import ANSWERED, BREAKER
from tests.models.fault_server import FaultServer


@pytest.fixture(autouse=True)
def fresh_run() -> Iterator[None]:
    ANSWERED.clear()
    BREAKER.clear()
    yield
    ANSWERED.clear()
    BREAKER.clear()


@pytest.fixture
def fault_server() -> Iterator[FaultServer]:
    """A scripted OpenAI-compatible server on 127.0.0.1 (see tests/models/fault_server.py)."""
    server = FaultServer().start()
    yield server
    server.stop()
