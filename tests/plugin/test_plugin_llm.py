"""The model path through pytest: offline fakes at the completion seam, also under -n 2."""

from __future__ import annotations

import json
from collections.abc import Iterator
from importlib import metadata
from pathlib import Path
from typing import Any

import pytest

from tests.models import fault_server as fs
from tests.models.fault_server import FaultServer, closed_port
from tests.plugin.helpers import load_report, selected


def run_bench(pytester: pytest.Pytester, *args: str) -> pytest.RunResult:
    """A separate process per run: litellm keeps global state that must not leak between runs."""
    return pytester.runpytest_subprocess("-p", "no:cacheprovider", *args)


# The agent "model" replays the gold agent through litellm's mock responses; the seam is the
# bank_completion fixture. MODE selects a fault for chosen tasks.
CONFTEST = """
import os
import pytest
from pytest_bankbench.models.litellm_setup import import_litellm
from pytest_bankbench.simulation.agents import GoldAgent

def mocked(content=None, tool_calls=None):
    litellm = import_litellm()
    kwargs = {"model": "openai/fake", "messages": [{"role": "user", "content": "x"}]}
    if tool_calls:
        kwargs["mock_tool_calls"] = tool_calls
    else:
        kwargs["mock_response"] = content or ""
    return litellm.completion(**kwargs)

def error(name):
    cls = getattr(import_litellm().exceptions, name)
    return cls(message="simulated", model="fake", llm_provider="openai")

@pytest.fixture
def bank_completion(bank_case):
    gold = GoldAgent(bank_case.task)
    mode = os.environ.get("FAKE_MODE", "gold")
    counter = os.environ.get("FAKE_COUNTER")

    def complete(**kwargs):
        if counter:
            with open(counter, "a") as fh:
                fh.write("call\\n")
        if mode == "ratelimit" and bank_case.task.task_id.endswith("-001"):
            raise error("RateLimitError")
        if mode == "auth":
            raise error("AuthenticationError")
        from tests.models.fakes import history_events
        action = gold.act(history_events(kwargs.get("messages", [])))
        if action.tool_calls:
            return mocked(tool_calls=[{"id": c.call_id, "type": "function",
                                       "function": {"name": c.name,
                                                    "arguments": __import__("json").dumps(c.arguments)}}
                                      for c in action.tool_calls])
        return mocked(action.message)
    return complete
"""

FAST = ("--bank-num-retries", "2", "--bank-retry-backoff", "0")


def test_model_path_passes_gold_moves_under_xdist(pytester: pytest.Pytester) -> None:
    pytester.makeconftest(CONFTEST)
    report = pytester.path / "r.json"
    result = run_bench(
        pytester,
        "--bank-model",
        "openai/fake-agent",
        "-k",
        "fd_closure",
        "-n",
        "2",
        "--bank-report",
        str(report),
        *FAST,
    )
    result.assert_outcomes(passed=selected("fd_closure"))
    data = load_report(report)
    assert data["provenance"]["agent"]["model"] == "openai/fake-agent"
    assert data["provenance"]["litellm"] == metadata.version("litellm")
    assert data["summary"]["tokens"]["prompt"] > 0


def test_infra_errors_are_counted_apart(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytester.makeconftest(CONFTEST)
    monkeypatch.setenv("FAKE_MODE", "ratelimit")
    report = pytester.path / "r.json"
    result = run_bench(
        pytester,
        "--bank-model",
        "openai/fake-agent",
        "-k",
        "fd_closure",
        "--bank-report",
        str(report),
        *FAST,
    )
    result.assert_outcomes(passed=selected("fd_closure") - 2, failed=2)
    result.stdout.fnmatch_lines(
        [
            "*InfraError*RateLimitError*after 3 attempts*",
            "infrastructure errors (not task failures): 2",
        ]
    )
    # Each is reported by its one line of evidence, not a traceback through the harness.
    assert "plugin/bench.py" not in result.stdout.str()
    data = load_report(report)
    assert data["summary"]["infra_errors"] == 2
    assert data["summary"]["sessions"] == 38 and data["summary"]["pass^1"] == 1.0
    assert sorted(s["outcome"] for s in data["sessions"]).count("infra_error") == 2
    # ... and they can be re-run later: resume runs exactly those two.
    monkeypatch.setenv("FAKE_MODE", "gold")
    again = run_bench(
        pytester,
        "--bank-model",
        "openai/fake-agent",
        "-k",
        "fd_closure",
        "--bank-resume",
        str(report),
        *FAST,
    )
    again.assert_outcomes(passed=2)
    assert load_report(report)["summary"]["infra_errors"] == 0


def test_configuration_error_stops_the_run_at_once(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytester.makeconftest(CONFTEST)
    monkeypatch.setenv("FAKE_MODE", "auth")
    result = run_bench(pytester, "--bank-model", "openai/fake-agent", "-k", "fd_closure", *FAST)
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*configuration error, run stopped: AuthenticationError*"])


def test_cache_makes_a_rerun_call_no_model(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    pytester.makeconftest(CONFTEST)
    counter = tmp_path / "calls.txt"
    monkeypatch.setenv("FAKE_COUNTER", str(counter))
    args = (
        "--bank-model",
        "openai/fake-agent",
        "-k",
        "rd_opening",
        "-n",
        "2",
        "--bank-cache",
        str(tmp_path / "cache"),
        *FAST,
    )
    run_bench(pytester, *args).assert_outcomes(passed=selected("rd_opening"))
    first = len(counter.read_text().splitlines())
    assert first > 0
    run_bench(pytester, *args).assert_outcomes(passed=selected("rd_opening"))
    assert len(counter.read_text().splitlines()) == first


# -- the real HTTP path against tests/models/fault_server.py (no completion fixture) -------------


@pytest.fixture
def fault_server() -> Iterator[FaultServer]:
    server = FaultServer().start()
    yield server
    server.stop()


def _traces(folder: Path) -> list[dict[str, Any]]:
    lines = (folder / "traces.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


TWO = ("-k", "balance_enquiry-001 or balance_enquiry-002", "-p", "no:xdist")


def test_with_the_cache_each_trial_is_its_own_sample(
    pytester: pytest.Pytester, fault_server: FaultServer, tmp_path: Path
) -> None:
    """pass^k means k independent samples: a cached trial 1 must not answer for trial 2."""
    traces = tmp_path / "traces"
    result = run_bench(
        pytester,
        "--bank-model",
        "openai/fault-model",
        "--bank-api-base",
        fault_server.api_base,
        "--bank-model-args",
        '{"temperature": 0.7}',
        "--bank-trials",
        "2",
        "--bank-cache",
        str(tmp_path / "cache"),
        "--bank-traces",
        str(traces),
        "--bank-max-steps",
        "6",
        *TWO,
        *FAST,
    )
    result.assert_outcomes(failed=4)
    usage = [t["usage"] for t in _traces(traces)]
    assert len(usage) == 4 and all(u["cache_hits"] == 0 and u["model_calls"] > 0 for u in usage)
    assert fault_server.count == sum(u["model_calls"] for u in usage)


def test_timeout_and_deadline_options_with_one_request_per_attempt(
    pytester: pytest.Pytester,
    fault_server: FaultServer,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A hanging server: each attempt is one request (no SDK retries) cut at --bank-timeout,
    and the session ends deadline_exceeded at --bank-session-deadline: the agent's failure, its
    model too slow to answer in time (issue 19), not an infrastructure error to re-run."""
    from pytest_bankbench.simulation.deadline import METER

    # The session is charged its wall time here: on a machine busy with other processes the
    # stall meter's heartbeat wakes late and would credit that back (its own tests cover it),
    # letting more attempts fit in the deadline than the count below allows.
    monkeypatch.setattr(METER, "grace_s", float("inf"))
    fault_server.script(default=fs.hang(30.0))
    traces = tmp_path / "traces"
    result = run_bench(
        pytester,
        "--bank-model",
        "openai/fault-model",
        "--bank-api-base",
        fault_server.api_base,
        "--bank-timeout",
        "0.15",
        "--bank-session-deadline",
        "1.0",
        "--bank-num-retries",
        "20",
        "--bank-retry-backoff",
        "0",
        "--bank-max-transport-failures",
        "0",  # timeouts in a row would trip the breaker first (test_plugin_endpoints.py)
        "--bank-traces",
        str(traces),
        *TWO,
    )
    result.assert_outcomes(failed=2)
    ends = [(t["end"], t["end_detail"]) for t in _traces(traces)]
    assert all(end == "deadline_exceeded" and "--bank-session-deadline" in d for end, d in ends)
    # The timeout, not the deadline, cut the attempts short (more than one per session; with the
    # default 60 s timeout the deadline would cut the first), each attempt one request.
    assert 3 <= fault_server.count <= 2 * 8


def test_failover_across_endpoints_with_one_down(
    pytester: pytest.Pytester, fault_server: FaultServer, tmp_path: Path
) -> None:
    report = tmp_path / "r.json"
    result = run_bench(
        pytester,
        "--bank-model",
        "openai/fault-model",
        "--bank-api-base",
        closed_port(),
        "--bank-api-base",
        fault_server.api_base,
        "--bank-report",
        str(report),
        "--bank-max-steps",
        "6",
        "-k",
        "balance_enquiry-001 or balance_enquiry-002 or balance_enquiry-003",
        "-p",
        "no:xdist",
        *FAST,
    )
    data = load_report(report)
    assert data["summary"]["infra_errors"] == 0, result.stdout.str()
    assert len(data["sessions"]) == 3 and fault_server.count > 0
