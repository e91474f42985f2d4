"""Re-grading saved traces with the current scorer gives the run's report, with no agent call."""

from __future__ import annotations

import json

import pytest

from pytest_bankbench.tasks.loader import shipped_tasks
from tests.plugin.helpers import load_report, run_bench, without_timings

NO_AGENT = """
import json

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


def test_a_torn_last_trace_is_dropped_and_a_torn_middle_one_refused(
    pytester: pytest.Pytester,
) -> None:
    """Issue 19: a traces file whose last line a crash cut short was refused as a whole."""
    traces = pytester.path / "traces"
    run_bench(pytester, "--bank-model", "gold", "-k", "rd_opening", "--bank-traces", str(traces))
    file = traces / "traces.jsonl"
    lines = file.read_text(encoding="utf-8").splitlines()
    assert len(lines) >= 2
    # A crash cuts the line before its newline.
    file.write_text("\n".join([*lines[:-1], lines[-1][:80]]), encoding="utf-8")
    pytester.makeconftest(NO_AGENT)
    result = run_bench(pytester, "--bank-regrade", str(traces), "-k", "rd_opening")
    result.assert_outcomes(passed=len(lines) - 1)
    result.stdout.fnmatch_lines([f"*traces.jsonl:{len(lines)}: the last line was cut short*"])
    # User trial: a whole last line of garbage, newline and all, was no crash: it is refused.
    file.write_text("\n".join([*lines, "xyz"]) + "\n", encoding="utf-8")
    garbage = run_bench(pytester, "--bank-regrade", str(traces), "-k", "rd_opening")
    assert garbage.ret == pytest.ExitCode.USAGE_ERROR
    garbage.stderr.fnmatch_lines([f"*traces.jsonl:{len(lines) + 1}: not a trace*"])
    file.write_text("\n".join([lines[0][:80], *lines[1:]]) + "\n", encoding="utf-8")
    refused = run_bench(pytester, "--bank-regrade", str(traces), "-k", "rd_opening")
    assert refused.ret == pytest.ExitCode.USAGE_ERROR
    refused.stderr.fnmatch_lines(["*--bank-regrade*traces.jsonl:1: not a trace (not valid JSON*"])
    # User trial: a task file given for traces got two dozen pydantic errors; now the fields in
    # a line, and what a traces file is.
    file.write_text(shipped_tasks()[0].to_line() + "\n", encoding="utf-8")
    tasks = run_bench(pytester, "--bank-regrade", str(traces), "-k", "rd_opening")
    assert tasks.ret == pytest.ExitCode.USAGE_ERROR
    tasks.stderr.fnmatch_lines(
        ["*traces.jsonl:1: not a trace (* problem(s), e.g. *: field required;*--bank-traces DIR"]
    )
    assert len(tasks.stderr.str()) < 600 and "pydantic.dev" not in tasks.stderr.str()


def test_traces_the_run_cannot_place_or_of_two_agents_are_refused(
    pytester: pytest.Pytester,
) -> None:
    """User trial: a trace of a task outside the task set was dropped with no word (the run's
    count shrank with it, and `unaccounted==0` passed), and a session saved twice by two agents
    was graded from whichever came last."""
    traces = pytester.path / "traces"
    run_bench(pytester, "--bank-model", "gold", "-k", "rd_opening", "--bank-traces", str(traces))
    file = traces / "traces.jsonl"
    lines = file.read_text(encoding="utf-8").splitlines()
    pytester.makeconftest(NO_AGENT)
    stray = json.loads(lines[0]) | {"task_id": "nosuch-001"}
    file.write_text("\n".join([*lines, json.dumps(stray)]) + "\n", encoding="utf-8")
    refused = run_bench(pytester, "--bank-regrade", str(traces))
    assert refused.ret == pytest.ExitCode.USAGE_ERROR
    refused.stderr.fnmatch_lines(["*1 trace(s) of tasks not in the task set (nosuch-001 trial 0)*"])
    other = json.loads(lines[0]) | {"agent": "claim-done"}
    file.write_text("\n".join([*lines, json.dumps(other)]) + "\n", encoding="utf-8")
    refused = run_bench(pytester, "--bank-regrade", str(traces))
    assert refused.ret == pytest.ExitCode.USAGE_ERROR
    refused.stderr.fnmatch_lines(
        [f"*traces.jsonl:{len(lines) + 1}: a trace of agent 'claim-done', line 1 one of 'gold'*"]
    )
    # The same agent's session twice (a resumed run appends what it plays again): the later one.
    file.write_text("\n".join([*lines, lines[0]]) + "\n", encoding="utf-8")
    again = run_bench(pytester, "--bank-regrade", str(traces), "-k", "rd_opening")
    again.assert_outcomes(passed=len(lines))
    again.stdout.fnmatch_lines([f"*1 session(s) saved twice*lines 1 and {len(lines) + 1}*"])
    # Trials past the run's: named, with the option that grades them.
    later = json.loads(lines[0]) | {"trial": 2}
    file.write_text("\n".join([*lines, json.dumps(later)]) + "\n", encoding="utf-8")
    refused = run_bench(pytester, "--bank-regrade", str(traces), "-k", "rd_opening")
    refused.stderr.fnmatch_lines(["*traces of up to 3 trials; re-grade them with --bank-trials 3*"])
