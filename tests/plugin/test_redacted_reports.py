"""A failed report's traceback, crash line, locals and captured output, redacted in place."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from pytest_bankbench.plugin.redacted_reports import redact_report
from pytest_bankbench.redaction import forget_secrets, remember_secrets

KEY = "remembered5e4d3c2b1a0f9e8d"  # no shape: only the run's memory knows it


@pytest.fixture(autouse=True)
def remembered() -> Iterator[None]:
    remember_secrets([KEY])
    yield
    forget_secrets()


def _failed_report() -> pytest.TestReport:
    def adapter(token: str) -> None:
        raise RuntimeError(f"gateway said {token}")

    try:
        adapter(KEY)
    except RuntimeError as exc:
        info = pytest.ExceptionInfo.from_exception(exc)
    longrepr = info.getrepr(showlocals=True, style="long")
    return pytest.TestReport(
        "bankbench::test_task[x]",
        ("bankbench", 1, "test_task[x]"),
        {},
        "failed",
        longrepr,
        "call",
        sections=[("Captured stderr call", f"key={KEY}\n")],
    )


def test_every_place_a_traceback_shows_a_key_is_redacted() -> None:
    report = _failed_report()
    assert KEY in str(report.longrepr)  # the repr as pytest made it
    redact_report(report)
    text = str(report.longrepr)
    assert KEY not in text and "gateway said <redacted>" in text
    assert "token" in text  # the locals are still shown, their values redacted
    crash = getattr(report.longrepr, "reprcrash", None)
    assert crash is not None and KEY not in crash.message  # the short summary's line
    assert all(KEY not in body for _, body in report.sections)


def test_the_structure_survives_for_xdist_and_junit() -> None:
    report = _failed_report()
    redact_report(report)
    serialized = str(report._to_json())
    assert KEY not in serialized and "reprtraceback" in serialized
