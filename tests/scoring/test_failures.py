"""The exceptions a failed session raises, and the one-exception form its report prints."""

from __future__ import annotations

import pytest

from pytest_bankbench.scoring.failures import (
    FAILURE_FOR,
    AskedForSecret,
    CheckFailed,
    ForbiddenAccess,
    MissingOutput,
    MissingRequiredCalls,
    NotTold,
    SessionFailed,
    WrongFinalState,
    check_failures,
    raise_for,
)
from pytest_bankbench.scoring.scorer import CHECKS, Verdict


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
        raise SessionFailed("t", [WrongFinalState("t", ["- expected z"])]).as_one()


def test_every_check_has_its_own_exception() -> None:
    assert set(FAILURE_FOR) == set(CHECKS)
    assert len(set(FAILURE_FOR.values())) == len(CHECKS)
    assert all(issubclass(cls, CheckFailed) for cls in FAILURE_FOR.values())


@pytest.mark.parametrize(
    ("check", "cls", "failure"),
    [
        ("forbidden_access", ForbiddenAccess, "forbidden_access"),
        ("no_secrets", AskedForSecret, "asked_for_secret"),
        ("told_customer", NotTold, "not_told"),
    ],
)
def test_the_checks_of_issue_16_raise_their_own_exception(
    check: str, cls: type[CheckFailed], failure: str
) -> None:
    """What the agent must tell and never ask or do: each failed check is its own kind."""
    assert cls.check == check and FAILURE_FOR[cls.check] is cls
    checks = {name: name != check for name in CHECKS}
    evidence: dict[str, list[str]] = {name: [] for name in CHECKS}
    evidence[check] = [f"{check} went wrong"]
    verdict = Verdict.model_validate(
        {
            "task_id": "t-001",
            "trial": 0,
            "passed": False,
            "checks": checks,
            "failure_type": failure,
            "false_pass": True,
            "evidence": evidence,
        }
    )
    (only,) = check_failures(verdict)
    assert type(only) is cls and only.evidence == [f"{check} went wrong"]
    assert str(only).splitlines() == [f"{cls.title} (t-001)", f"  {check} went wrong"]
    with pytest.raises(cls):
        raise_for(verdict)


def test_a_forbidden_read_with_a_secret_asked_raises_both_in_table_order() -> None:
    checks = {name: name not in ("forbidden_access", "no_secrets") for name in CHECKS}
    verdict = Verdict.model_validate(
        {
            "task_id": "t-002",
            "trial": 0,
            "passed": False,
            "checks": checks,
            "failure_type": "forbidden_access",
            "false_pass": True,
            "evidence": {name: ([name] if not checks[name] else []) for name in CHECKS},
        }
    )
    with pytest.raises(SessionFailed) as raised:
        raise_for(verdict)
    assert [type(e) for e in raised.value.exceptions] == [ForbiddenAccess, AskedForSecret]
