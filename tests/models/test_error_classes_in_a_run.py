"""Provider errors through pytest: the model's errors are scored, a setup error stops the run.

A content-filter refusal at the very first call of the run, and a bad request after a session's
first answer, each end only their own session with error; they count in pass^1 (not as
infrastructure) and the run goes on. A bad request before any answer is its session's harness
error; a second task's stops the run (issue 19).
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from tests.plugin.helpers import load_report, selected

CONFTEST = """
import json, os
import pytest
from pytest_bankbench.models.litellm_setup import import_litellm
from pytest_bankbench.simulation.agents import GoldAgent

def mocked(content=None, tool_calls=None):
    kwargs = {"model": "openai/fake", "messages": [{"role": "user", "content": "x"}]}
    if tool_calls:
        kwargs["mock_tool_calls"] = tool_calls
    else:
        kwargs["mock_response"] = content or ""
    return import_litellm().completion(**kwargs)

def error(name):
    cls = getattr(import_litellm().exceptions, name)
    return cls(message="simulated", model="fake", llm_provider="openai")

@pytest.fixture
def bank_completion(bank_case):
    task = bank_case.task.task_id
    gold = GoldAgent(bank_case.task)
    mode = os.environ["FAKE_MODE"]
    calls = []

    def complete(**kwargs):
        calls.append(1)
        with open(os.environ["FAKE_COUNTER"], "a") as fh:
            fh.write(task + "\\n")
        if mode == "bad_request_first":
            raise error("BadRequestError")
        if task.endswith("-001"):
            raise error("ContentPolicyViolationError")  # at its first call, the run's first too
        if task.endswith("-002") and len(calls) == 2:
            raise error("BadRequestError")  # after the session's first answer
        from tests.models.fakes import history_events
        action = gold.act(history_events(kwargs.get("messages", [])))
        if action.tool_calls:
            return mocked(tool_calls=[{"id": c.call_id, "type": "function",
                                       "function": {"name": c.name,
                                                    "arguments": json.dumps(c.arguments)}}
                                      for c in action.tool_calls])
        return mocked(action.message)
    return complete
"""

ARGS = ("--bank-model", "openai/fake-agent", "-k", "fd_closure", "-p", "no:xdist")
FAST = ("--bank-num-retries", "2", "--bank-retry-backoff", "0")


def run_bench(pytester: pytest.Pytester, *args: str) -> pytest.RunResult:
    """A separate process per run: litellm keeps global state that must not leak between runs."""
    return pytester.runpytest_subprocess("-p", "no:cacheprovider", *ARGS, *FAST, *args)


def test_model_errors_are_scored_and_the_run_goes_on(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    pytester.makeconftest(CONFTEST)
    counter = tmp_path / "calls.txt"
    monkeypatch.setenv("FAKE_MODE", "model_errors")
    monkeypatch.setenv("FAKE_COUNTER", str(counter))
    report = pytester.path / "r.json"
    result = run_bench(pytester, "--bank-report", str(report))
    data = load_report(report)
    broken = [s for s in data["sessions"] if s["task_id"][-4:] in ("-001", "-002")]
    assert broken and all(
        s["outcome"] == "scored"
        and s["end"] == "agent_error"
        and s["failure_type"] == "ended_with_error"
        for s in broken
    )
    result.assert_outcomes(passed=selected("fd_closure") - len(broken), failed=len(broken))
    assert "run stopped" not in result.stdout.str()
    summary = data["summary"]
    assert summary["infra_errors"] == 0 and summary["sessions"] == selected("fd_closure")
    assert summary["pass^1"] == round((40 - len(broken)) / 40, 4)
    assert summary["failure_types"]["ended_with_error"] == len(broken)
    calls = Counter(counter.read_text().split())
    sessions = Counter(s["task_id"] for s in broken)
    for task, n in sessions.items():
        # A refusal (-001) is not retried; nor is the bad request after one answer (-002).
        assert calls[task] == n * (1 if task.endswith("-001") else 2), task


def test_a_bad_request_before_any_answer_stops_the_run_at_the_second_task(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Issue 19: a bad request tied to one task stopped the whole run when it was a worker's
    first call. The first task's session is a harness error; the second task's stops the run."""
    pytester.makeconftest(CONFTEST)
    counter = tmp_path / "calls.txt"
    monkeypatch.setenv("FAKE_MODE", "bad_request_first")
    monkeypatch.setenv("FAKE_COUNTER", str(counter))
    report = pytester.path / "r.json"
    result = run_bench(pytester, "--bank-report", str(report))
    result.assert_outcomes(failed=2)
    result.stdout.fnmatch_lines(["*configuration error, run stopped: BadRequestError*"])
    calls = counter.read_text().split()
    assert len(calls) == 2 and len(set(calls)) == 2  # two tasks, one request each
    sessions = load_report(report)["sessions"]
    assert [s["outcome"] for s in sessions] == ["harness_error"]
    assert "a bad request before" in sessions[0]["error"]
    assert "Traceback" not in result.stdout.str()
