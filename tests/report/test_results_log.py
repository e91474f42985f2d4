"""The session log: its report's name, a torn last line cut, older logs still resumable."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

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


def test_each_line_is_written_at_once_and_synced_at_most_once_a_second(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pytest_bankbench.report import results_log
    from tests.report.test_compare import record

    synced: list[int] = []
    monkeypatch.setattr("os.fsync", synced.append)
    clock = [100.0]
    monkeypatch.setattr("time.monotonic", lambda: clock[0])
    log = results_log.ResultsLog(tmp_path / "r.sessions.jsonl", {"agent": "gold"}, append=False)
    assert len(synced) == 1  # the header
    for trial in range(5):
        log.append(record("a-001", trial, passed=True))
        # On the operating system's side at once: a killed process loses nothing written.
        assert len(read_log(log.path)[1]) == trial + 1
    assert len(synced) == 1  # within the same second: no fsync per session
    clock[0] += results_log.SYNC_EVERY_S
    log.append(record("a-001", 5, passed=True))
    assert len(synced) == 2
    log.sync()  # the run's end
    assert len(synced) == 3 and len(read_log(log.path)[1]) == 6
    log.close()


def test_a_resume_with_another_session_deadline_is_refused() -> None:
    """Past the deadline a session fails (issue 19): runs with different deadlines don't mix;
    a log from before the field was kept meant no deadline."""
    assert config_differences({"agent": "gold"}, {"agent": "gold", "session_deadline": None}) == []
    assert config_differences({"session_deadline": 30.0}, {"session_deadline": None}) == [
        "session_deadline: saved 30.0, now None"
    ]
