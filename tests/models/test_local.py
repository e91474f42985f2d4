"""The managed llama.cpp server's command line: no logits kept for every position, cores shared.

Issue 10 item 11: with llama_cpp.server's defaults each server held 6.5-10 GB (logits_all) and
took every core, so the agent's and the customer's servers contended. No server is started here.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from pytest_bankbench.models import local
from pytest_bankbench.models.local import (
    LOCAL_MODELS,
    ROLES,
    LocalModelError,
    LocalServer,
    thread_share,
)

SPEC = LOCAL_MODELS["gemma3-270m"]


def _flags(command: list[str]) -> argparse.Namespace:
    """The command's flags as llama_cpp.server's argparse reads them (the last one wins)."""
    assert command[1:3] == ["-m", "llama_cpp.server"]
    parser = argparse.ArgumentParser()
    for flag in ("--logits_all", "--n_threads", "--n_threads_batch", "--model", "--n_ctx"):
        parser.add_argument(flag)
    flags, _ = parser.parse_known_args(command[3:])
    return flags


@pytest.mark.parametrize(
    ("cores", "servers", "threads"), [(2, 2, 1), (8, 2, 4), (7, 2, 3), (1, 2, 1), (8, 1, 8)]
)
def test_command_keeps_last_logits_only_and_shares_cores(
    monkeypatch: pytest.MonkeyPatch, cores: int, servers: int, threads: int
) -> None:
    monkeypatch.setattr(local, "available_cores", lambda: cores)
    command = LocalServer(SPEC, servers=servers).command(Path("/models/m.gguf"))
    flags = _flags(command)
    assert flags.logits_all == "false"
    assert (flags.n_threads, flags.n_threads_batch) == (str(threads), str(threads))
    assert (flags.model, flags.n_ctx) == ("/models/m.gguf", str(SPEC.context))


def test_the_plugins_servers_split_the_cores_between_the_roles(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The plugin starts one server per local role without saying how many: the default is both.
    monkeypatch.setattr(local, "available_cores", lambda: 4)
    for role in ROLES:
        assert _flags(LocalServer(SPEC, role=role).command(Path("m.gguf"))).n_threads == "2"


def test_logits_all_flag_is_spelled_as_llama_cpp_server_reads_it() -> None:
    # Parsed by the server's own parser (the `local` extra), as `python -m llama_cpp.server` does.
    settings = pytest.importorskip("llama_cpp.server.settings")
    cli = pytest.importorskip("llama_cpp.server.cli")
    parser = argparse.ArgumentParser()
    cli.add_args_from_model(parser, settings.Settings)
    command = LocalServer(SPEC).command(Path("m.gguf"))
    parsed = vars(parser.parse_args(command[3:]))
    assert parsed["logits_all"] is False
    assert parsed["n_threads"] == parsed["n_threads_batch"] == thread_share(len(ROLES))


def test_extra_args_come_last_so_they_win() -> None:
    command = LocalServer(SPEC, extra_args=("--logits_all", "true")).command(Path("m.gguf"))
    assert _flags(command).logits_all == "true"


def test_thread_share_is_at_least_one_and_servers_must_be_positive() -> None:
    assert thread_share(3, cores=2) == 1
    assert thread_share(1) >= 1
    with pytest.raises(LocalModelError, match=r"servers=0: expected a whole number >= 1"):
        LocalServer(SPEC, servers=0)
