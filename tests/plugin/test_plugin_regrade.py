"""Re-grading saved traces with the current scorer gives the run's report, with no agent call."""

from __future__ import annotations

import pytest

from tests.plugin.helpers import load_report, run_bench, without_timings

NO_AGENT = """
import pytest

class Refuses:
    name = "refuses"

    def act(self, events):
        raise AssertionError("re-grading must not run an agent")

@pytest.fixture
def bank_agent():
    return Refuses()
"""


def test_regrade_reproduces_the_report(pytester: pytest.Pytester) -> None:
    first, second = pytester.path / "run.json", pytester.path / "regraded.json"
    traces = pytester.path / "traces"
    run_bench(
        pytester,
        "--bank-model",
        "write-everything",
        "-k",
        "fd_closure",
        "--tb=no",
        "--bank-report",
        str(first),
        "--bank-traces",
        str(traces),
    )
    pytester.makeconftest(NO_AGENT)
    result = run_bench(
        pytester,
        "--bank-regrade",
        str(traces),
        "-k",
        "fd_closure",
        "--tb=no",
        "--bank-report",
        str(second),
    )
    a, b = load_report(first), load_report(second)
    result.assert_outcomes(failed=len(a["sessions"]))
    assert without_timings(a["sessions"]) == without_timings(b["sessions"])
    assert without_timings(a["summary"]) == without_timings(b["summary"])


def test_regrade_needs_a_traces_file(pytester: pytest.Pytester) -> None:
    result = run_bench(pytester, "--bank-regrade", str(pytester.path / "nothing"))
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*--bank-regrade*no traces.jsonl there*"])
