"""No planted credential reaches any output: not the terminal, not JUnit, not one file.

Keys are planted in --bank-model-args (api_key; an Authorization header, and two headers whose
names say nothing, X-Gateway-Auth and Authentication, in extra_headers), in
--bank-user-model-args (the customer model's api_key) and in the environment
(OPENAI_API_KEY); none of the unnamed ones has a provider's shape, so only its position or
the run's memory of it can give it away. The loopback server echoes whatever it is shown into
its error messages, as careless providers do, and the agent's endpoint echoes the customer's
key, as a shared gateway may (issue 19: only the failing party's own secrets were scrubbed).
One run meets a 401 (a configuration stop); one runs to the end with every output switched
on; one meets a harness error whose traceback holds the keys, in the terminal and JUnit.
"""

from __future__ import annotations

import html
import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from pytest_bankbench.redaction import (
    forget_secrets,
    redact_text,
    redacted,
    remember_secrets,
    scrub,
    secret_values,
)
from tests.models import fault_server as fs
from tests.models.fault_server import FaultServer

ARGS_KEY = "sk-test-planted-args-5f4e3d2c1b0a"
HEADER_KEY = "hdr-planted-9a8b7c6d5e4f3a2b"
GATEWAY_KEY = "gwplanted3c2b1a09f8e7d6c5"  # under X-Gateway-Auth: a name the redactor never knew
AUTHN_KEY = "authnplanted71f0e9d8c7b6"  # under Authentication (not Authorization)
USER_KEY = "custplanted0a1b2c3d4e5f6071"  # the customer model's own key
ENV_KEY = "envplanted7e6d5c4b3a291807"  # no provider shape: only the environment gives it away
PLANTED = (ARGS_KEY, HEADER_KEY, GATEWAY_KEY, AUTHN_KEY, USER_KEY, ENV_KEY)
HEADERS = {
    "Authorization": f"Bearer {HEADER_KEY}",
    "X-Gateway-Auth": GATEWAY_KEY,
    "Authentication": AUTHN_KEY,
}
MODEL_ARGS = json.dumps({"api_key": ARGS_KEY, "extra_headers": HEADERS})
USER_ARGS = json.dumps({"api_key": USER_KEY})
UNNAMED = ("x-gateway-auth", "authentication")


@pytest.fixture(autouse=True)
def env_key(monkeypatch: pytest.MonkeyPatch) -> None:
    """The environment's key, which the customer model (or litellm) may read."""
    monkeypatch.setenv("OPENAI_API_KEY", ENV_KEY)


@pytest.fixture
def fault_server() -> Iterator[FaultServer]:
    server = FaultServer().start()
    yield server
    server.stop()


def run_bench(
    pytester: pytest.Pytester, server: FaultServer, *args: str, workers: int = 0
) -> pytest.RunResult:
    """A separate process per run: litellm keeps global state that must not leak between runs;
    with `workers`, the sessions run in xdist workers and their reports travel to the controller."""
    return pytester.runpytest_subprocess(
        "-p",
        "no:cacheprovider",
        *(("-n", str(workers)) if workers else ("-p", "no:xdist")),
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
    pytester: pytest.Pytester, fault_server: FaultServer
) -> None:
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
    tmp_path: Path,
) -> None:
    fault_server.script(
        fs.answer("How can I help you today?"),  # session 1: the agent speaks ...
        fs.server_error(503, echo_key=True),  # ... the customer model fails, echoing USER_KEY
        # Session 2: the agent fails, echoing its own keys, the unnamed headers included.
        fs.error(503, "Gateway error.", "server_error", echo_key=True, echo_headers=UNNAMED),
        # Session 3: the agent's endpoint fails, echoing the customer's key and the env's.
        fs.error(503, f"Upstream rejected {USER_KEY} (fallback {ENV_KEY}).", "server_error"),
    )
    out = tmp_path / "out"
    result = run_bench(
        pytester,
        fault_server,
        "--bank-user-model",
        "openai/fault-customer",
        "--bank-user-api-base",
        fault_server.api_base,
        "--bank-user-model-args",
        USER_ARGS,
        "--junitxml",
        str(out / "junit.xml"),
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
    assert f"Bearer {HEADER_KEY}" in presented and f"Bearer {USER_KEY}" in presented
    assert {h.get("x-gateway-auth") for h in fault_server.headers} >= {GATEWAY_KEY}
    details = [
        json.loads(line)["end_detail"]
        for line in (out / "traces" / "traces.jsonl").read_text().splitlines()
    ]
    assert len(details) == 3 and all(d.count("<redacted>") >= 1 for d in details), details
    assert max(d.count("<redacted>") for d in details) >= 3  # three headers in one echo
    files = sorted(p for p in out.rglob("*") if p.is_file())
    assert {p.name for p in files} >= {
        "report.json",
        "report.sessions.jsonl",
        "traces.jsonl",
        "provenance.json",
        "report.html",
        "summary.md",
        "junit.xml",
    }
    parameters = json.loads((out / "report.json").read_text())["provenance"]["agent"]
    assert parameters["parameters"]["extra_headers"] == dict.fromkeys(HEADERS, "<redacted>")
    for path in files:
        assert _leaks(path.read_text(encoding="utf-8")) == [], path
    assert _leaks(result.stdout.str() + result.stderr.str()) == []


# The agent adapter breaks (a bug, so a harness error) with the keys in its message and in
# its locals, which `-l` prints in the traceback.
BREAKS = """
import pytest

@pytest.hookimpl(trylast=True)
def pytest_configure(config):
    from pytest_bankbench.models.agent import LiteLLMAgent

    def act(self, events):
        params = self.client.settings.params
        headers = params["extra_headers"]
        raise RuntimeError(
            "adapter broke: " + headers["X-Gateway-Auth"] + " " + headers["Authentication"]
        )

    LiteLLMAgent.act = act
"""


@pytest.mark.parametrize("workers", [0, 1], ids=["one-process", "xdist"])
def test_a_harness_errors_traceback_is_redacted_in_the_terminal_and_junit(
    pytester: pytest.Pytester, fault_server: FaultServer, tmp_path: Path, workers: int
) -> None:
    pytester.makeconftest(BREAKS)
    junit = tmp_path / "junit.xml"
    report = tmp_path / "report.json"
    result = run_bench(
        pytester,
        fault_server,
        "-l",
        "--junitxml",
        str(junit),
        "--bank-report",
        str(report),
        "-k",
        "balance_enquiry-001",
        workers=workers,
    )
    output = result.stdout.str() + result.stderr.str()
    assert "adapter broke" in output and "RuntimeError" in output  # the traceback is shown
    assert "params " in output and "<redacted>" in output  # ... with its locals, redacted
    assert _leaks(output) == []
    xml = junit.read_text(encoding="utf-8")
    assert "adapter broke" in xml and _leaks(xml) == []
    sessions = json.loads(report.read_text())["sessions"]
    assert [s["outcome"] for s in sessions] == ["harness_error"]
    assert _leaks(report.read_text()) == []


def test_redaction_reaches_any_depth_and_any_text() -> None:
    params = {
        "api_key": ARGS_KEY,
        "temperature": 0.7,
        "max_tokens": 500,
        "extra_headers": {**HEADERS, "X-Trace": "run-1"},
        "fallbacks": [{"model": "b", "aws_secret_access_key": "abc123456"}],
        "api_base": "https://user:hunter22secret@proxy.example/v1",
        "note": f"the key is {ENV_KEY}",
    }
    clean = redacted(params)
    assert _leaks(json.dumps(clean)) == [] and "hunter22secret" not in json.dumps(clean)
    assert clean["temperature"] == 0.7 and clean["max_tokens"] == 500
    # Every header by its position: a gateway's header says nothing by its name.
    assert clean["extra_headers"] == dict.fromkeys([*HEADERS, "X-Trace"], "<redacted>")
    assert set(secret_values(params)) >= {ARGS_KEY, HEADER_KEY, GATEWAY_KEY, AUTHN_KEY}
    assert redacted({"api_key": [ARGS_KEY]}) == {"api_key": "<redacted>"}
    text = redact_text(
        f"Incorrect API key provided: {ARGS_KEY}. headers={{'Authorization': 'Bearer "
        f"{HEADER_KEY}'}} api_key='{ENV_KEY}' usage={{'total_tokens': 110}}"
    )
    assert _leaks(text) == [] and "'total_tokens': 110" in text


def test_a_remembered_secret_is_scrubbed_in_every_spelling() -> None:
    """Any party's key, remembered at start-up, is scrubbed from whole outputs: plain, as JSON
    writes it and as HTML escapes it; short values are not cut out of every text."""
    odd = 'q"uo\\te<&>' + USER_KEY
    remember_secrets([USER_KEY, odd, "EMPTY"])
    try:
        page = json.dumps({"said": f"key {odd}"}) + html.escape(odd) + " EMPTY"
        clean = scrub(page)
        assert USER_KEY not in clean and "EMPTY" in clean
        assert json.loads(scrub(json.dumps({"said": odd}))) == {"said": "<redacted>"}
        assert redact_text(f"the customer's key {USER_KEY}") == "the customer's key <redacted>"
    finally:
        forget_secrets()
    assert USER_KEY in redact_text(USER_KEY)  # forgotten: nothing shapes it as a secret


@pytest.mark.parametrize("name", ["AWS_BEARER_TOKEN_BEDROCK", "SNOWFLAKE_JWT", "WATSONX_APIKEY"])
def test_a_provider_key_litellm_reads_is_scrubbed_wherever_its_name_says_so(
    monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    """litellm reads provider keys whose credential word is not at the end of the name."""
    value = "provplanted6b5a4f3e2d1c0b9a"
    monkeypatch.setenv(name, value)
    monkeypatch.setenv("TOKENIZERS_PARALLELISM", "false-not-a-secret")
    assert value not in redact_text(f"the provider said {value}")
    remember_secrets([])  # the run's start-up: the environment's keys are remembered
    try:
        assert value not in scrub(json.dumps({"end_detail": value}))
        assert "false-not-a-secret" in scrub("false-not-a-secret")
    finally:
        forget_secrets()
