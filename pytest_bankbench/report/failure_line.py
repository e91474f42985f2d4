"""A failed session in one line: its failure type and the first line of its evidence.

The short test summary (`-rf`), the JUnit XML failure message and the Markdown job summary all
show it, so a CI log names what failed and why without the full report (issue 18, item 3).
"""

from __future__ import annotations

from typing import NamedTuple

from pytest_bankbench.report.record import SessionRecord
from pytest_bankbench.scoring.scorer import FAILURE_CHECKS


class Failure(NamedTuple):
    """A failed session as its summary line tells it: the kind and the first evidence line."""

    kind: str
    evidence: str

    def line(self) -> str:
        return f"{self.kind}: {self.evidence}" if self.evidence else self.kind


def failure_of(record: SessionRecord) -> Failure:
    """The failure type and its check's first evidence line; a session without a verdict
    (harness error, lost) names its outcome and the exception of its error text, an
    infrastructure error what the provider did."""
    if record.outcome in ("harness_error", "lost"):
        return Failure(record.outcome, _raised_line(record.error or ""))
    if record.outcome == "infra_error":
        # Not a task failure: named by what the provider did
        # (`infra_error: RateLimitError: ... (after 3 attempts)`).
        return Failure("infra_error", (record.error or "").strip())
    check = next((c for f, c in FAILURE_CHECKS if f == record.failure_type), None)
    evidence = record.evidence.get(check, []) if check is not None else []
    first = next((line.strip() for line in evidence if line.strip()), "")
    return Failure(record.failure_type or "passed", first)


def failure_line(record: SessionRecord) -> str:
    """`not_told: never told rate: 7.25`: the line a CI log shows for a failed session."""
    return failure_of(record).line()


def _raised_line(error: str) -> str:
    """The first line of the last exception in a pytest failure text (`E   ValueError: ...`),
    else the text's last non-empty line."""
    lines = [line.strip() for line in error.splitlines() if line.strip()]
    raised = [i for i, line in enumerate(lines) if line.startswith("E ")]
    if not raised:
        return lines[-1] if lines else ""
    start = raised[-1]
    while start - 1 in raised:
        start -= 1
    return lines[start][1:].strip()
