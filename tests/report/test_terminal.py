"""The run's last line: the gate's verdict and the exit status it gave."""

from __future__ import annotations

from pytest_bankbench.report.gate import GateResult
from pytest_bankbench.report.terminal import gate_verdict


def test_the_last_line_says_what_decided_the_exit_status() -> None:
    held = GateResult(passed=True, reasons=["pass^1 = 0.70 >= 0.60: ok"])
    failed = GateResult(passed=False, reasons=["pass^1 = 0.50 < 0.60: FAILED"])
    assert gate_verdict(held, 0, applied=True) == (
        "bank benchmark gate: PASSED, exit status 0 (the gate decides, not individual test failures)"
    )
    assert gate_verdict(failed, 1, applied=True) == (
        "bank benchmark gate: FAILED, exit status 1 (the gate decides, not individual test failures)"
    )
    # Ctrl-C or an internal error: the exit status is pytest's, whatever the gate would say.
    assert gate_verdict(held, 2, applied=False) == (
        "bank benchmark gate: not applied, the run did not finish (exit status 2)"
    )
