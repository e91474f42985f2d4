"""The managed local model's server process: its command line and how it shares the cores.

No server is started here (tests/e2e/test_local_model.py starts one).
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from pytest_bankbench.models import local
from pytest_bankbench.models.local import (
    LOCAL_MODELS,
    LocalModelError,
    LocalServer,
    resolve,
    thread_share,
)
from pytest_bankbench.models.local_server import parse_args

SPEC = LOCAL_MODELS["gemma3-270m"]


def _flags(server: LocalServer) -> object:
    """The command's flags as the server process parses them."""
    command = server.command(Path("/models/m.gguf"))
    assert command[1:3] == ["-m", "pytest_bankbench.models.local_server"]
    return parse_args(command[3:])


@pytest.mark.parametrize(
    ("cores", "servers", "threads"), [(2, 1, 2), (8, 2, 4), (7, 2, 3), (1, 2, 1), (8, 1, 8)]
)
def test_command_shares_the_cores_between_the_servers(
    monkeypatch: pytest.MonkeyPatch, cores: int, servers: int, threads: int
) -> None:
    monkeypatch.setattr(local, "available_cores", lambda: cores)
    flags = _flags(LocalServer(SPEC, servers=servers))
    assert flags.threads == threads  # type: ignore[attr-defined]
    assert flags.model == "/models/m.gguf"  # type: ignore[attr-defined]
    assert flags.ctx == SPEC.context  # type: ignore[attr-defined]
    assert flags.parallel == SPEC.slots  # type: ignore[attr-defined]
    assert flags.chat_template == "gemma"  # type: ignore[attr-defined]


def test_one_server_takes_every_core_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    # The agent and the customer share one server when they name the same model.
    monkeypatch.setattr(local, "available_cores", lambda: 4)
    assert _flags(LocalServer(SPEC)).threads == 4  # type: ignore[attr-defined]


def test_extra_args_come_last_so_they_win() -> None:
    flags = _flags(LocalServer(SPEC, extra_args=("--threads", "1", "--parallel", "1")))
    assert (flags.threads, flags.parallel) == (1, 1)  # type: ignore[attr-defined]


def test_thread_share_is_at_least_one_and_servers_must_be_positive() -> None:
    assert thread_share(3, cores=2) == 1
    assert thread_share(1) >= 1
    with pytest.raises(LocalModelError, match=r"servers=0: expected a whole number >= 1"):
        LocalServer(SPEC, servers=0)


def test_an_unknown_local_model_names_the_known_ones() -> None:
    with pytest.raises(LocalModelError, match=r"'local/nope': unknown local model; available: "):
        resolve("local/nope")


def test_a_missing_engine_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(importlib.util, "find_spec", lambda name: None)
    with pytest.raises(LocalModelError, match=r"pip install -e '\.\[local\]' \(xllamacpp"):
        LocalServer(SPEC).start()
