"""Merging shards: one configuration, no conflicting or repeated shard, the combined summary."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pytest_bankbench.report.merge import MergeError, Shard, load_shard, merge_shards
from pytest_bankbench.report.metrics import SessionRecord, summarize
from pytest_bankbench.report.results_log import ResultsLog

CONFIG: dict[str, Any] = {
    "agent": "gold",
    "agent_parameters": {},
    "customer": "scripted",
    "customer_parameters": {},
    "split": "lite",
    "tasks_file": "shipped",
    "task_data_sha256": "abc",
    "max_steps": 200,
    "max_errors": 10,
    "trials": 1,
    "regrade": None,
}


def record(task_id: str, passed: bool = True, **changes: Any) -> SessionRecord:
    fields: dict[str, Any] = {
        "task_id": task_id,
        "trial": 0,
        "seed": 1,
        "family": task_id.split("-")[0],
        "category": "control",
        "service_area": "everyday",
        "chain_length": 1,
        "graded": True,
        "outcome": "scored",
        "passed": passed,
        "final_state_pass": passed,
        "false_pass": False,
        "failure_type": None if passed else "wrong_final_state",
        "checks": {},
        "evidence": {},
        "end": "customer_stop",
        "steps": 3,
        "failed_calls": 0,
    }
    fields.update(changes)
    return SessionRecord(**fields)


def shard(name: str, shard_of: str | None, *records: SessionRecord, **config: Any) -> Shard:
    return Shard(Path(name), {**CONFIG, "shard": shard_of, **config}, None, list(records), 1.0)


def test_the_merged_summary_is_the_summary_of_all_sessions() -> None:
    a, b, c = record("a-1"), record("b-1", passed=False), record("c-1")
    merged = merge_shards([shard("1.json", "1/2", a, c), shard("2.json", "2/2", b)])
    assert merged.report.summary == summarize([a, b, c], 1)
    assert merged.missing == []
    assert merged.report.run_config["shard"] is None
    assert [s.task_id for s in merged.report.sessions] == ["a-1", "b-1", "c-1"]
    assert merged.report.provenance["agent"]["model"] == "gold"


def test_a_different_configuration_is_refused_naming_the_field_and_both_values() -> None:
    with pytest.raises(
        MergeError,
        match=r"agent_parameters is \{\} in 1.json and "
        r"\{'temperature': 1\} in 2.json",
    ):
        merge_shards(
            [shard("1.json", "1/2"), shard("2.json", "2/2", agent_parameters={"temperature": 1})]
        )


def test_the_same_session_with_another_result_is_refused() -> None:
    with pytest.raises(
        MergeError, match=r"a-1 trial 0 is in 1\.json and in 2\.json with different"
    ):
        merge_shards(
            [shard("1.json", "1/2", record("a-1")), shard("2.json", "2/2", record("a-1", False))]
        )
    # Timings are not results: the same verdict from two machines merges.
    same = merge_shards(
        [shard("1.json", None, record("a-1")), shard("2.json", None, record("a-1", duration_s=9))]
    )
    assert same.report.summary.sessions == 1


def test_a_shard_given_twice_and_missing_shards() -> None:
    with pytest.raises(MergeError, match=r"1\.json and 3\.json are both shard 1/3"):
        merge_shards([shard("1.json", "1/3"), shard("2.json", "2/3"), shard("3.json", "1/3")])
    assert merge_shards([shard("1.json", "1/3")]).missing == ["2/3", "3/3"]
    with pytest.raises(MergeError, match="no shards given"):
        merge_shards([])


def test_shards_of_different_counts_are_refused() -> None:
    """User trial: 1/3, 2/4 and 3/3 merged into 16 of 20 sessions, 3 of them twice, "0 not run"
    and a passed gate."""
    with pytest.raises(MergeError, match=r"2\.json a shard of 4: .* one N"):
        merge_shards(
            [shard("1.json", "1/3", record("a-1")), shard("2.json", "2/4"), shard("3.json", "3/3")]
        )


def test_a_session_log_counts_a_rerun_session_once(tmp_path: Path) -> None:
    log = ResultsLog(tmp_path / "s.sessions.jsonl", {**CONFIG, "shard": "1/1"}, append=False)
    log.append(record("a-1", outcome="infra_error", passed=False, final_state_pass=False))
    log.append(record("a-1"))
    log.append(record("b-1", outcome="infra_error", passed=False, final_state_pass=False))
    log.close()
    loaded = load_shard(log.path)
    assert sorted((r.task_id, r.outcome) for r in loaded.records) == [
        ("a-1", "scored"),
        ("b-1", "infra_error"),
    ]


def test_a_file_that_is_not_a_report_is_named(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"hello": 1}))
    with pytest.raises(MergeError, match=r"bad\.json: not a pytest-bankbench report"):
        load_shard(bad)


def test_a_report_holding_nan_or_infinity_is_refused_naming_the_file(tmp_path: Path) -> None:
    log = ResultsLog(tmp_path / "s.sessions.jsonl", {**CONFIG, "shard": "1/1"}, append=False)
    log.append(record("a-1"))
    log.close()
    text = log.path.read_text(encoding="utf-8").replace('"duration_s":0.0', '"duration_s":NaN')
    assert "NaN" in text
    log.path.write_text(text, encoding="utf-8")
    with pytest.raises(MergeError, match=r"s\.sessions\.jsonl:2: NaN is not a number a report"):
        load_shard(log.path)
    report = tmp_path / "r.json"
    report.write_text('{"report_version": 1, "summary": {"pass_hat": Infinity}}')
    with pytest.raises(MergeError, match=r"r\.json: Infinity is not a number a report"):
        load_shard(report)


def test_a_session_recorded_as_passed_with_a_failed_check_is_refused(tmp_path: Path) -> None:
    log = ResultsLog(tmp_path / "t.sessions.jsonl", {**CONFIG, "shard": "1/1"}, append=False)
    log.append(record("a-1"))
    log.close()
    good = json.loads(log.path.read_text(encoding="utf-8").splitlines()[1])
    checks = good["record"]["checks"] or {"consent": True}
    good["record"]["checks"] = {**checks, next(iter(checks)): False}
    lines = log.path.read_text(encoding="utf-8").splitlines()
    log.path.write_text(lines[0] + "\n" + json.dumps(good) + "\n", encoding="utf-8")
    with pytest.raises(MergeError, match=r"t\.sessions\.jsonl:2: .*recorded as passed while"):
        load_shard(log.path)


def test_a_killed_shards_log_counts_its_unplayed_sessions_as_not_run(tmp_path: Path) -> None:
    from pytest_bankbench.report.gate import evaluate_gate, parse_gate

    log = ResultsLog(tmp_path / "k.sessions.jsonl", {**CONFIG, "shard": "1/1"}, append=False)
    log.note_selected([("a-1", 0), ("b-1", 0), ("c-1", 0)])
    log.append(record("a-1"))
    log.close()  # killed before b-1 and c-1
    loaded = load_shard(log.path)
    assert loaded.not_run == 2
    summary = merge_shards([loaded]).report.summary
    assert summary.accounting is not None and summary.accounting.not_run == 2
    assert not evaluate_gate(parse_gate("unaccounted==0"), summary).passed


def test_an_emptied_shard_report_counts_what_it_selected(tmp_path: Path) -> None:
    full = merge_shards([shard("1.json", None, record("a-1"), record("b-1"))]).report
    emptied = full.to_json()
    emptied["sessions"] = []
    path = tmp_path / "emptied.json"
    path.write_text(json.dumps(emptied), encoding="utf-8")
    assert load_shard(path).not_run == 2


def test_shards_of_another_package_version_are_refused() -> None:
    """Issue 19: resume and merge ignored the package version that scored the sessions."""
    with pytest.raises(MergeError, match=r"package_version is '0.1.0' in 1.json and '9.9' in 2"):
        merge_shards(
            [
                shard("1.json", "1/2", package_version="0.1.0"),
                shard("2.json", "2/2", package_version="9.9"),
            ]
        )


def test_a_merged_run_started_when_its_first_shard_did() -> None:
    starts = ["2026-05-18T09:31:07Z", "2026-05-18T09:30:58Z"]
    shards = [
        Shard(Path(f"{i}.json"), {**CONFIG, "shard": f"{i}/2"}, {"run_started": start}, [r], 1.0)
        for i, (start, r) in enumerate(zip(starts, [record("a-1"), record("b-1")], strict=True), 1)
    ]
    assert merge_shards(shards).report.provenance["run_started"] == min(starts)
    # Session logs carry no provenance: the start is not known.
    logs = [shard("1.log", "1/2", record("a-1")), shard("2.log", "2/2", record("b-1"))]
    assert merge_shards(logs).report.provenance["run_started"] is None
