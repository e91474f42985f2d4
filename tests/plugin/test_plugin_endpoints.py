"""Fail fast, say where (issue 18): a dead endpoint, a refused key, a server dying mid-run."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.models import fault_server as fs
from tests.models.fault_server import FaultServer, closed_port
from tests.plugin.helpers import load_report

KEY = "sk-test-planted-0123456789abcdef"
FAST = ("--bank-num-retries", "2", "--bank-retry-backoff", "0")


def run_bench(pytester: pytest.Pytester, *args: str, timeout: float = 120.0) -> pytest.RunResult:
    """A separate process per run: litellm keeps global state that must not leak between runs;
    cut off at `timeout` (retrying every session against a dead endpoint would take hours)."""
    return pytester.runpytest_subprocess("-p", "no:cacheprovider", *args, timeout=timeout)


@pytest.fixture
def fault_server() -> Iterator[FaultServer]:
    server = FaultServer().start()
    yield server
    server.stop()


@pytest.mark.parametrize("spread", [("-p", "no:xdist"), ("-n", "2")])
def test_a_dead_endpoint_stops_the_whole_split_at_once_naming_the_url(
    pytester: pytest.Pytester, spread: tuple[str, str]
) -> None:
    dead = closed_port()
    started = time.perf_counter()
    result = run_bench(
        pytester, "--bank-model", "openai/m", "--bank-api-base", dead, *spread, timeout=30.0
    )
    elapsed = time.perf_counter() - started
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    errors = [line for line in result.errlines if line.strip()]
    assert len(errors) == 1, result.errlines
    assert f"--bank-api-base {dead}: connection refused" in errors[0]
    assert "Traceback" not in result.stdout.str() + result.stderr.str()
    assert elapsed < 15.0  # the 1,000 sessions of the default split never start


def test_a_server_that_connects_but_never_answers_stops_the_run_at_start(
    pytester: pytest.Pytester, fault_server: FaultServer
) -> None:
    """It used to pass the check (something listens); each process's first session then spent
    all its attempts waiting --bank-timeout (about 5 minutes with the defaults)."""
    fault_server.models = fs.hang(60.0)
    fault_server.script(default=fs.hang(60.0))
    result = run_bench(
        pytester,
        "--bank-model",
        "openai/m",
        "--bank-api-base",
        fault_server.api_base,
        "--bank-timeout",
        "0.5",
        "-k",
        "balance_enquiry",
        timeout=60.0,
    )
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    errors = [line for line in result.errlines if line.strip()]
    assert errors == [
        f"ERROR: endpoint check failed, run not started: --bank-api-base {fault_server.api_base}:"
        " connected, but no answer to GET /models within 0.5 s (--bank-timeout); check the"
        " server, or raise --bank-timeout"
    ]
    assert fault_server.count == 0  # no session sent a chat request


def test_a_built_in_agent_and_the_scripted_customer_check_no_endpoint(
    pytester: pytest.Pytester,
) -> None:
    result = run_bench(
        pytester, "--bank-model", "gold", "--bank-api-base", closed_port(), "-k", "rd_opening-001"
    )
    result.assert_outcomes(passed=1)


def test_a_refused_key_stops_the_run_naming_authentication(
    pytester: pytest.Pytester, fault_server: FaultServer
) -> None:
    fault_server.models = fs.unauthorized()  # it echoes the key: nothing may print it
    result = run_bench(
        pytester,
        "--bank-model",
        "openai/m",
        "--bank-api-base",
        fault_server.api_base,
        "--bank-model-args",
        json.dumps({"api_key": KEY}),
    )
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(
        [f"ERROR: *--bank-api-base {fault_server.api_base}: authentication failed (HTTP 401*"]
    )
    assert KEY not in result.stdout.str() + result.stderr.str()
    assert fault_server.count == 0 and len(fault_server.gets) == 1  # one GET, no chat


def test_a_server_that_dies_mid_run_trips_the_breaker(
    pytester: pytest.Pytester, fault_server: FaultServer, tmp_path: Path
) -> None:
    """The first session is played; the server then goes away; once its breaker trips, every
    session left is an infrastructure error (which --bank-resume re-runs) at once, each
    reported in one line of evidence, not a traceback through the harness."""
    fault_server.script(fs.answer(), fs.answer(), fs.answer(), fs.die())
    report, traces = tmp_path / "r.json", tmp_path / "traces"
    ids = [f"balance_enquiry-00{n}" for n in range(1, 7)]
    result = run_bench(
        pytester,
        "--bank-model",
        "openai/m",
        "--bank-api-base",
        fault_server.api_base,
        "--bank-max-steps",
        "6",
        "--bank-max-transport-failures",
        "3",
        "--bank-report",
        str(report),
        "--bank-traces",
        str(traces),
        "-k",
        " or ".join(ids),
        "-p",
        "no:xdist",
        *FAST,
    )
    sessions = sorted(load_report(report)["sessions"], key=lambda s: str(s["task_id"]))
    assert len(sessions) == 6 and sessions[0]["outcome"] == "scored", result.stdout.str()
    assert sessions[-1]["outcome"] == "infra_error"
    details = [
        json.loads(line)["end_detail"]
        for line in (traces / "traces.jsonl").read_text(encoding="utf-8").splitlines()
    ]
    tripped = [d for d in details if "transport failures in a row" in d]
    assert len(tripped) >= 4, details  # the session it died in may be one of them
    assert all(f"--bank-api-base {fault_server.api_base}" in d for d in tripped)
    assert all("--bank-max-transport-failures 3" in d for d in tripped)
    output = result.stdout.str()
    # Each infrastructure error's report is its one line of evidence.
    result.stdout.fnmatch_lines(
        [
            "*_ test_task[[]control-balance_enquiry-006[]] _*",
            "balance_enquiry-006: InfraError (not a task failure; re-run it later with"
            f" --bank-resume): --bank-api-base {fault_server.api_base}: 3 transport failures"
            " in a row (*); no more requests go to it from this process"
            " (--bank-max-transport-failures 3)",
            "=*= bank benchmark summary =*=",
        ],
        consecutive=True,
    )
    for harness in ("Traceback", "plugin/bench.py", "plugin/suite.py", "bank_case ="):
        assert harness not in output
