"""The model path through pytest: offline fakes at the completion seam, also under -n 2."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.plugin.helpers import load_report


def run_bench(pytester: pytest.Pytester, *args: str) -> pytest.RunResult:
    """A separate process per run: litellm keeps global state that must not leak between runs."""
    return pytester.runpytest_subprocess("-p", "no:cacheprovider", *args)


# The agent "model" replays the gold agent through litellm's mock responses; the seam is the
# bank_completion fixture. MODE selects a fault for chosen tasks.
CONFTEST = """
import os
import pytest
from pytest_bankbench.models.llm import import_litellm
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
        from tests.models.fakes import last_customer_turn
        action = gold.act(last_customer_turn(kwargs.get("messages", [])))
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
    result.assert_outcomes(passed=40)
    data = load_report(report)
    assert data["provenance"]["agent"]["model"] == "openai/fake-agent"
    assert data["provenance"]["litellm"] is None or isinstance(data["provenance"]["litellm"], str)
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
    result.assert_outcomes(passed=38, failed=2)
    result.stdout.fnmatch_lines(
        [
            "*InfrastructureError*RateLimitError*after 3 attempts*",
            "infrastructure errors (not task failures): 2",
        ]
    )
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
    run_bench(pytester, *args).assert_outcomes(passed=20)
    first = len(counter.read_text().splitlines())
    assert first > 0
    run_bench(pytester, *args).assert_outcomes(passed=20)
    assert len(counter.read_text().splitlines()) == first
