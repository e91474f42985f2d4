"""The run summary as text: rates over no session, what became of sessions without a verdict,
and the last line (the gate's verdict and the exit status it gave)."""

from __future__ import annotations

from pytest_bankbench.report.document import Accounting
from pytest_bankbench.report.gate import GateResult
from pytest_bankbench.report.metrics import summarize
from pytest_bankbench.report.terminal import (
    gate_lines,
    gate_unapplied,
    gate_verdict,
    render,
    without_verdict,
)
from tests.report.test_compare import record

PROVENANCE = {"agent": {"model": "openai/x"}, "customer": {"model": "scripted"}, "split": "base"}


def test_the_last_line_says_what_decided_the_exit_status() -> None:
    held = GateResult(passed=True, reasons=["pass^1 = 0.70 >= 0.60: ok"])
    failed = GateResult(passed=False, reasons=["pass^1 = 0.50 < 0.60: FAILED"])
    assert gate_verdict(held, 0, None) == (
        "bank benchmark gate: PASSED, exit status 0 (the gate decides, not individual test failures)"
    )
    assert gate_verdict(failed, 1, None) == (
        "bank benchmark gate: FAILED, exit status 1 (the gate decides, not individual test failures)"
    )
    # Ctrl-C or an internal error: the exit status is pytest's, whatever the gate would say.
    assert gate_verdict(held, 2, gate_unapplied(2, 7)) == (
        "bank benchmark gate: not applied, the run did not finish (exit status 2)"
    )


def test_a_gate_is_applied_to_a_finished_run_only_and_its_reason_is_the_right_one() -> None:
    """User trial: a run where -k matched nothing was said not to have finished."""
    assert gate_unapplied(0, 3) is None and gate_unapplied(1, 3) is None
    assert gate_unapplied(5, 3) is None  # resumed sessions only: nothing left to play
    assert gate_unapplied(5, 0) == "no benchmark session was selected (exit status 5)"
    assert gate_unapplied(2, 3) == "the run did not finish (exit status 2)"
    failed = GateResult(passed=False, reasons=["pass^1 = 0.50 < 0.60: FAILED"])
    assert gate_lines(failed, "the run did not finish (exit status 2)") == [
        "gate: not applied, the run did not finish (exit status 2)"
    ]
    assert gate_lines(failed, None)[0].startswith("gate: FAILED")


def test_a_run_where_no_session_was_scored_prints_no_rate() -> None:
    """User trial: beside `pass^1: n/a` it printed 0.0% rates, and `graded: 0.0% of 0`."""
    infra = [
        record(task, trial, passed=False, category=category, outcome="infra_error")
        for task, category in (("t-1", "sequencing"), ("t-2", "control"))
        for trial in (0, 1)
    ]
    lines = render(summarize(infra, trials=2), PROVENANCE, 1.0, [])
    assert lines[1:4] == [
        "pass^1: n/a (no session was scored)",
        "final-state-only rate: n/a",
        "false passes: n/a",
    ]
    assert "pass^k: k=1: n/a  k=2: n/a" in lines
    assert "graded: n/a of 0   control: n/a of 0" in lines
    assert not any("0.0%" in line for line in lines), lines


def test_only_a_group_without_sessions_has_no_rate() -> None:
    summary = summarize([record("t-1", passed=True, category="control")], trials=1)
    lines = render(summary, PROVENANCE, 1.0, [])
    assert "final-state-only rate: 100.0%" in lines
    assert "false passes: 0  (0.0% of all, 0.0% of final-state passes)" in lines
    assert "graded: n/a of 0   control: 100.0% of 1" in lines


def _accounting(harness: int = 0, lost: int = 0, not_run: int = 0) -> Accounting:
    return Accounting(
        selected=10,
        scored=10 - harness - lost - not_run,
        infra_errors=0,
        harness_errors=harness,
        lost=lost,
        not_run=not_run,
    )


def test_sessions_without_a_verdict_are_told_only_what_applies() -> None:
    assert without_verdict(_accounting(not_run=7), None) == "  7 without a verdict: 7 not run"
    assert without_verdict(_accounting(not_run=7), "out/r.json") == (
        "  7 without a verdict: 7 not run; re-run them with --bank-resume out/r.json"
    )
    assert without_verdict(_accounting(harness=1), None) == (
        "  1 without a verdict: 1 harness error counts as failed in pass^1"
    )
    assert without_verdict(_accounting(lost=2, not_run=1), "r.json") == (
        "  3 without a verdict: 2 lost sessions count as failed in pass^1, 1 not run; "
        "re-run them with --bank-resume r.json"
    )
    assert without_verdict(_accounting(harness=2, lost=1), None) == (
        "  3 without a verdict: 2 harness errors and 1 lost session count as failed in pass^1"
    )
