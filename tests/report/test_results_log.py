"""The session log: its report's name, a torn last line cut, older logs still resumable."""

from __future__ import annotations

import json
from pathlib import Path

from pytest_bankbench.report.results_log import (
    config_differences,
    read_log,
    repair_log,
    report_path_for,
    resume_pair,
)

HEADER = json.dumps({"kind": "config", "config": {"agent": "gold"}}) + "\n"


def test_a_report_and_its_log_find_each_other() -> None:
    assert report_path_for(Path("out/r.sessions.jsonl")) == Path("out/r.json")
    assert resume_pair(Path("out/r.json")) == (Path("out/r.json"), Path("out/r.sessions.jsonl"))
    assert resume_pair(Path("out/r.sessions.jsonl"))[0] == Path("out/r.json")


def test_a_torn_last_line_is_cut(tmp_path: Path) -> None:
    log = tmp_path / "r.sessions.jsonl"
    log.write_text(HEADER + '{"kind": "sess')
    message = repair_log(log)
    assert message is not None and "r.sessions.jsonl:2: the last line was cut short" in message
    assert log.read_text() == HEADER
    assert repair_log(log) is None
    assert read_log(log) == ({"agent": "gold"}, [])


def test_a_whole_last_line_without_its_newline_is_kept(tmp_path: Path) -> None:
    log = tmp_path / "r.sessions.jsonl"
    log.write_text(HEADER.rstrip("\n"))
    assert repair_log(log) is None
    assert log.read_text() == HEADER


def test_a_log_from_before_a_field_existed_is_read_with_its_default() -> None:
    saved = {"agent": "gold"}
    assert (
        config_differences(saved, {"agent": "gold", "customer_parameters": {}, "shard": None}) == []
    )
    assert config_differences(saved, {"agent": "gold", "shard": "1/2"}) == [
        "shard: saved None, now '1/2'"
    ]
