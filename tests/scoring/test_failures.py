"""The exceptions a failed session raises, and the one-exception form its report prints."""

from __future__ import annotations

import pytest

from pytest_bankbench.scoring.failures import (
    MissingOutput,
    MissingRequiredCalls,
    SessionFailed,
    WrongFinalState,
)


def test_a_failed_session_reads_as_one_exception_with_every_check() -> None:
    group = SessionFailed(
        "t-001: 2 checks failed (stopped_short)",
        [MissingRequiredCalls("t-001", ["missing c1 x"]), MissingOutput("t-001", ["never told y"])],
    )
    one = group.as_one()
    assert not isinstance(one, BaseExceptionGroup)
    assert isinstance(one, AssertionError)  # a test failure, like the group
    assert type(one).__name__ == type(one).__qualname__ == "SessionFailed"
    assert str(one).splitlines() == [
        "t-001: 2 checks failed (stopped_short)",
        "MissingRequiredCalls: required calls missing or out of order (t-001)",
        "  missing c1 x",
        "MissingOutput: required output not told to the customer (t-001)",
        "  never told y",
    ]
    with pytest.raises(AssertionError, match="WrongFinalState"):
        raise SessionFailed("t: 1", [WrongFinalState("t", ["- expected z"])]).as_one()
