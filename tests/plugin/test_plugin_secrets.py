"""No planted credential reaches any output: not the terminal, not one file the run writes.

Keys are planted in --bank-model-args (api_key, and an Authorization header in extra_headers)
and in the environment (OPENAI_API_KEY, which the customer model uses); the loopback server
echoes whatever key it is shown into its error messages, as careless providers do. One run
meets a 401 (a configuration stop); one runs to the end with every output switched on, one
session ending on an agent-side error and one on a customer-side error that echo their keys.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from pytest_bankbench.redaction import redact_text, redacted
from tests.models import fault_server as fs
from tests.models.fault_server import FaultServer

ARGS_KEY = "sk-test-planted-args-5f4e3d2c1b0a"
HEADER_KEY = "hdr-planted-9a8b7c6d5e4f3a2b"
ENV_KEY = "envplanted7e6d5c4b3a291807"  # no provider shape: only the environment gives it away
PLANTED = (ARGS_KEY, HEADER_KEY, ENV_KEY)
MODEL_ARGS = json.dumps(
    {"api_key": ARGS_KEY, "extra_headers": {"Authorization": f"Bearer {HEADER_KEY}"}}
)


@pytest.fixture
def fault_server() -> Iterator[FaultServer]:
    server = FaultServer().start()
    yield server
    server.stop()


def run_bench(pytester: pytest.Pytester, server: FaultServer, *args: str) -> pytest.RunResult:
    """A separate process per run: litellm keeps global state that must not leak between runs."""
    return pytester.runpytest_subprocess(
        "-p",
        "no:cacheprovider",
        "-p",
        "no:xdist",
        "--bank-model",
        "openai/fault-agent",
        "--bank-api-base",
        server.api_base,
        "--bank-model-args",
        MODEL_ARGS,
        "--bank-num-retries",
        "0",
        "--bank-max-steps",
        "6",
        *args,
    )


def _leaks(text: str) -> list[str]:
    return [key for key in PLANTED if key in text]


def test_a_401_stops_the_run_with_one_short_line_and_no_key(
    pytester: pytest.Pytester, fault_server: FaultServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", ENV_KEY)
    fault_server.script(default=fs.unauthorized())
    result = run_bench(pytester, fault_server, "-k", "balance_enquiry")
    assert fault_server.headers and HEADER_KEY in fault_server.headers[0]["authorization"]
    output = result.stdout.str() + result.stderr.str()
    assert _leaks(output) == []
    result.assert_outcomes(failed=1)
    stop = [line for line in result.stdout.lines if "configuration error, run stopped" in line]
    assert stop and "--bank-model-args" in stop[0] and len(stop[0]) < 500
    assert "Traceback" not in output and fault_server.count == 1


def test_no_output_of_a_full_run_holds_a_planted_key(
    pytester: pytest.Pytester,
    fault_server: FaultServer,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", ENV_KEY)
    fault_server.script(
        fs.answer("How can I help you today?"),  # session 1: the agent speaks ...
        fs.server_error(503, echo_key=True),  # ... the customer model fails, echoing ENV_KEY
        fs.server_error(503, echo_key=True),  # session 2: the agent fails, echoing HEADER_KEY
    )
    out = tmp_path / "out"
    result = run_bench(
        pytester,
        fault_server,
        "--bank-user-model",
        "openai/fault-customer",
        "--bank-user-api-base",
        fault_server.api_base,
        "--bank-report",
        str(out / "report.json"),
        "--bank-traces",
        str(out / "traces"),
        "--bank-html",
        str(out / "report.html"),
        "--bank-summary-md",
        str(out / "summary.md"),
        "-k",
        "balance_enquiry-001 or balance_enquiry-002 or balance_enquiry-003",
    )
    presented = {h.get("authorization", "") for h in fault_server.headers}
    assert f"Bearer {HEADER_KEY}" in presented and f"Bearer {ENV_KEY}" in presented
    details = [
        json.loads(line)["end_detail"]
        for line in (out / "traces" / "traces.jsonl").read_text().splitlines()
    ]
    assert sum("<redacted>" in d for d in details) == 2, details  # the echoes, scrubbed
    files = sorted(p for p in out.rglob("*") if p.is_file())
    assert {p.name for p in files} >= {
        "report.json",
        "report.sessions.jsonl",
        "traces.jsonl",
        "report.html",
        "summary.md",
    }
    for path in files:
        assert _leaks(path.read_text(encoding="utf-8")) == [], path
    assert _leaks(result.stdout.str() + result.stderr.str()) == []


def test_redaction_reaches_any_depth_and_any_text(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", ENV_KEY)
    params = {
        "api_key": ARGS_KEY,
        "temperature": 0.7,
        "max_tokens": 500,
        "extra_headers": {"Authorization": f"Bearer {HEADER_KEY}", "X-Trace": "run-1"},
        "fallbacks": [{"model": "b", "aws_secret_access_key": "abc123456"}],
        "api_base": "https://user:hunter22secret@proxy.example/v1",
        "note": f"the key is {ENV_KEY}",
    }
    clean = redacted(params)
    assert _leaks(json.dumps(clean)) == [] and "hunter22secret" not in json.dumps(clean)
    assert clean["temperature"] == 0.7 and clean["max_tokens"] == 500
    assert clean["extra_headers"]["X-Trace"] == "run-1"
    text = redact_text(
        f"Incorrect API key provided: {ARGS_KEY}. headers={{'Authorization': 'Bearer "
        f"{HEADER_KEY}'}} api_key='{ENV_KEY}' usage={{'total_tokens': 110}}"
    )
    assert _leaks(text) == [] and "'total_tokens': 110" in text
