"""A failed session's one line: the failure type and its own check's first evidence line."""

from __future__ import annotations

from pytest_bankbench.report.failure_line import Failure, failure_line, failure_of
from pytest_bankbench.report.record import SessionRecord
from pytest_bankbench.scoring.scorer import FAILURE_CHECKS, FAILURE_TYPES
from tests.report.test_compare import record


def _failed(**changes: object) -> SessionRecord:
    return record("fd_rate_query-005", passed=False).model_copy(update=changes)


def test_every_failure_type_names_one_check() -> None:
    assert tuple(failure for failure, _ in FAILURE_CHECKS) == FAILURE_TYPES


def test_the_line_reads_the_failure_types_check_not_the_first_failed_one() -> None:
    # required_calls comes first in the check table, but write_purity decides the type.
    session = _failed(
        failure_type="unrequested_write",
        evidence={
            "required_calls": ["missing c1 get_deposit_rate_card()"],
            "write_purity": ["", "  unrequested block_card(card_id='C1')  ", "second line"],
        },
    )
    assert failure_of(session) == Failure(
        "unrequested_write", "unrequested block_card(card_id='C1')"
    )
    assert failure_line(session) == "unrequested_write: unrequested block_card(card_id='C1')"


def test_without_evidence_the_line_is_the_failure_type() -> None:
    assert failure_line(_failed(failure_type="not_told", evidence={})) == "not_told"


def test_sessions_without_a_verdict_name_their_outcome_and_exception() -> None:
    traceback = (
        "def test_task(...):\n>       bank_run.play(...)\n"
        "E       RuntimeError: the bank lost a row\nE       (second line)\n\nsuite.py:21: RuntimeError"
    )
    harness = _failed(outcome="harness_error", failure_type=None, error=traceback)
    assert failure_line(harness) == "harness_error: RuntimeError: the bank lost a row"
    lost = _failed(outcome="lost", failure_type=None, error="worker 'gw1' crashed\nnode down")
    assert failure_line(lost) == "lost: node down"
    assert failure_line(_failed(outcome="lost", failure_type=None, error=None)) == "lost"


def test_an_infrastructure_error_is_not_named_a_task_failure() -> None:
    """Named by what the provider did, once: not `infra_error: ended by infra_error: ...`; a
    record written before infrastructure errors held no failure type and no checks (its error
    an `ended_normally` evidence line) reads the same."""
    old = _failed(
        outcome="infra_error",
        failure_type="ended_with_error",
        end="infra_error",
        evidence={"ended_normally": ["ended by infra_error: RateLimitError: slow down"]},
    ).model_dump()
    session = SessionRecord.model_validate(old)
    assert (session.failure_type, session.checks, session.evidence) == (None, {}, {})
    assert session.error == "RateLimitError: slow down"
    assert failure_line(session) == "infra_error: RateLimitError: slow down"
