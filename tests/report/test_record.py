"""Tampered reports and logs: a session beyond the run's trials or tasks is refused on load
(issue 19), by merge, compare, render and resume alike, in one line naming file and session."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pytest_bankbench.cli import main
from pytest_bankbench.report.document import ReportError, build_report, read_report
from pytest_bankbench.report.merge import MergeError, load_shard
from pytest_bankbench.report.metrics import summarize
from pytest_bankbench.report.record import foreign_session
from pytest_bankbench.report.results_log import ResultsLog, ResumeError, read_log
from tests.report.test_merge import CONFIG, record

TASKS = ["a-1", "b-1"]
TRIALS = 2
RUN = {**CONFIG, "trials": TRIALS, "shard": None}


def _report(folder: Path, **change: Any) -> Path:
    """A report of TASKS x TRIALS in `folder`, its first session altered by `change`."""
    records = [record(t, trial=k) for t in TASKS for k in range(TRIALS)]
    provenance = {"agent": {"model": "gold"}, "task_ids": TASKS, "version": "0.1.0"}
    report = build_report(provenance, summarize(records, TRIALS), records, 1.0, RUN)
    data = report.to_json()
    data["sessions"][0].update(change)
    folder.mkdir(exist_ok=True)
    path = folder / "r.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


ALTERED = [
    ({"trial": TRIALS}, r"session a-1 trial 2: the run played trials 0 to 1 \(--bank-trials 2\)"),
    ({"trial": -1}, r"session a-1 trial -1: the run played trials 0 to 1"),
    ({"task_id": "z-9"}, r"session z-9 trial 0: task 'z-9' is not in the run's task file"),
]


def test_an_unaltered_report_loads(tmp_path: Path) -> None:
    assert len(read_report(_report(tmp_path)).sessions) == len(TASKS) * TRIALS


@pytest.mark.parametrize(("change", "message"), ALTERED)
def test_an_altered_report_is_refused_by_merge_compare_and_render(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], change: dict[str, Any], message: str
) -> None:
    path = _report(tmp_path, **change)
    with pytest.raises(ReportError, match=rf"^{path}: {message}"):
        read_report(path)
    with pytest.raises(MergeError, match=rf"{path}: {message}"):
        load_shard(path)
    good = _report(tmp_path / "good")
    for argv in (["compare", str(good), str(path)], ["render", str(path), "--html", "x.html"]):
        assert main(argv) == 2
        err = capsys.readouterr().err.strip()
        assert len(err.splitlines()) == 1 and str(path) in err and "session" in err, err
    with pytest.raises(ResumeError, match=rf"{path}: {message}"):
        read_log(path)  # resuming from a report whose log is gone


def test_an_altered_session_log_is_refused_naming_its_line(tmp_path: Path) -> None:
    log = ResultsLog(tmp_path / "s.sessions.jsonl", RUN, append=False)
    log.append(record("a-1", trial=0))
    log.append(record("a-1", trial=TRIALS))
    log.close()
    with pytest.raises(ResumeError, match=r"s\.sessions\.jsonl:3: session a-1 trial 2: the run"):
        read_log(log.path)
    with pytest.raises(MergeError, match=r"s\.sessions\.jsonl:3: session a-1 trial 2"):
        load_shard(log.path)


def test_what_a_run_did_not_record_is_not_checked() -> None:
    """Reports from before the configuration was kept have no trials nor task ids."""
    assert foreign_session([record("a-1", trial=7)], None, None) is None
    assert foreign_session([record("a-1", trial=7)], True, "a-1") is None  # not a count/list


def test_an_infra_error_has_no_verdict_even_in_a_report_written_before_that_was_kept(
    tmp_path: Path,
) -> None:
    """Its unplayed session used to be scored: a task expecting no change claimed a final-state
    pass and a false pass. Older reports still load, their infrastructure errors without one."""
    path = _report(tmp_path, outcome="infra_error", passed=False, false_pass=True)
    first = read_report(path).sessions[0]
    assert (first.final_state_pass, first.false_pass) == (None, None)
    summary = summarize(read_report(path).sessions, TRIALS)
    assert summary.false_passes.count == 0 and summary.infra_errors == 1


@pytest.mark.parametrize("outcome", ["scored", "harness_error", "lost"])
def test_a_session_with_a_verdict_or_counted_as_failed_must_hold_one(outcome: str) -> None:
    with pytest.raises(ValueError, match=rf"has outcome '{outcome}' but no final_state_pass"):
        record("a-1", passed=False, outcome=outcome, final_state_pass=None)


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"passed": "yes"}, "passed"),
        ({"trial": "1"}, "trial"),
        ({"checks": {"final_state": 1}}, "checks"),
    ],
)
def test_a_verdict_of_the_wrong_type_is_refused_not_guessed(
    tmp_path: Path, change: dict[str, Any], field: str
) -> None:
    """User trial: '"passed": "yes"' was read as a pass (pydantic's lax bools), then reported as
    a session recorded as passed while its checks failed."""
    path = _report(tmp_path, **change)
    with pytest.raises(ReportError, match=rf"{path}: session 0: '{field}"):
        read_report(path)
