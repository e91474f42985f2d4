"""The Markdown job summary lists the failing sessions, each with its failure and evidence."""

from __future__ import annotations

from pytest_bankbench.report.markdown import FAILING_SHOWN, summary_markdown
from pytest_bankbench.report.record import SessionRecord
from tests.report.test_compare import document, record


def _failing(task: str, trial: int = 0) -> SessionRecord:
    return record(task, trial, passed=False, category="control").model_copy(
        update={
            "evidence": {"told_customer": [f"never told the rate of {task}"]},
            "failure_type": "not_told",
        }
    )


def _section(text: str) -> list[str]:
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("### Failing sessions"))
    return lines[start:]


def test_failing_sessions_are_listed_with_failure_type_and_first_evidence() -> None:
    records = [
        record("fd_closure-001", passed=True),
        _failing("fd_rate_query-005"),
        _failing("fd_rate_query-002", trial=1),
        record("fd_closure-002", passed=False, outcome="lost").model_copy(
            update={"failure_type": None, "error": "worker 'gw0' crashed"}
        ),
        record("rd_opening-001", passed=False).model_copy(
            update={"failure_type": "unrequested_write", "evidence": {"write_purity": ["x"]}}
        ),
    ]
    section = _section(summary_markdown(document(records, trials=2), None))
    assert section[:4] == [
        "### Failing sessions (4)",
        "",
        "| session | failure type | first evidence |",
        "|---|---|---|",
    ]
    # A crash first, then by failure type in its order of precedence, by task within one.
    assert section[4:8] == [
        "| `sequencing-fd_closure-002` | lost | worker 'gw0' crashed |",
        "| `sequencing-rd_opening-001` | unrequested_write | x |",
        "| `control-fd_rate_query-002-t2` | not_told | never told the rate of fd_rate_query-002 |",
        "| `control-fd_rate_query-005` | not_told | never told the rate of fd_rate_query-005 |",
    ]
    assert "fd_closure-001" not in "\n".join(section)


def test_the_list_is_capped_with_a_count_of_the_rest() -> None:
    records = [_failing(f"fd_rate_query-{n:03d}") for n in range(FAILING_SHOWN + 5)]
    section = _section(summary_markdown(document(records), None))
    rows = [line for line in section if line.startswith("| `")]
    assert len(rows) == FAILING_SHOWN
    assert rows[-1].startswith(f"| `control-fd_rate_query-{FAILING_SHOWN - 1:03d}` |")
    assert "... and 5 more (the JSON report, --bank-report, holds every one)." in section


def test_a_run_without_failures_has_no_list() -> None:
    text = summary_markdown(document([record("fd_closure-001", passed=True)]), None)
    assert "Failing sessions" not in text


def test_a_run_where_no_session_was_scored_has_no_rate() -> None:
    infra = [record(f"t-{n}", 0, passed=False, outcome="infra_error") for n in (1, 2)]
    text = summary_markdown(document(infra, trials=1), None)
    assert "| **pass^1** | **n/a** (no session was scored) |" in text
    assert "| final-state-only rate | n/a |" in text and "| false passes | n/a |" in text
    assert "0.0000" not in text and "0.0%" not in text
    # User trial: "| sessions | 0 (0 tasks x 1 trial) |" beside 2 selected.
    assert "| sessions | 2 selected, 0 scored, 2 infra errors |" in text
    assert "0 tasks" not in text
