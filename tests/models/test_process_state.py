"""The transport breaker of models/process_state.py (issue 18): a dead endpoint stops costing retries."""

from __future__ import annotations

import time
from typing import Any

import pytest

from pytest_bankbench.bank.store import Bank
from pytest_bankbench.models.agent import LiteLLMAgent
from pytest_bankbench.models.errors import EndpointDown, InfraError
from pytest_bankbench.models.llm import ModelClient
from pytest_bankbench.models.model_settings import ModelSettings
from pytest_bankbench.models.process_state import TransportBreaker
from pytest_bankbench.simulation.customer import ScriptedCustomer
from pytest_bankbench.simulation.session import run_session
from pytest_bankbench.tasks.loader import shipped_tasks
from tests.models import fault_server as fs
from tests.models.fault_server import FaultServer, closed_port

MESSAGES = [{"role": "user", "content": "hello"}]
TASK = next(t for t in shipped_tasks() if t.family == "balance_enquiry")


def _client(base: str, **overrides: Any) -> ModelClient:
    values: dict[str, Any] = {
        "model": "openai/fault-model",
        "api_bases": (base,),
        "num_retries": 10,
        "backoff_s": 0.0,
        "timeout_s": 0.3,
        "max_transport_failures": 3,
    }
    values.update(overrides)
    return ModelClient(ModelSettings(**values))


def test_a_dead_endpoint_trips_after_the_limit_and_names_the_url() -> None:
    dead = closed_port()
    client = _client(dead)
    with pytest.raises(EndpointDown) as raised:
        client.complete(MESSAGES)
    assert client.attempts == 3  # not the 11 the retries allow
    message = str(raised.value)
    assert f"--bank-api-base {dead}: 3 transport failures in a row" in message
    assert "connection refused" in message and "--bank-max-transport-failures 3" in message


def test_after_it_trips_no_request_is_made() -> None:
    dead = closed_port()
    with pytest.raises(EndpointDown):
        _client(dead).complete(MESSAGES)
    again = _client(dead)
    started = time.perf_counter()
    with pytest.raises(EndpointDown):
        again.complete(MESSAGES)
    assert again.attempts == 0 and time.perf_counter() - started < 0.1


def test_a_session_against_a_tripped_endpoint_is_an_infra_error_without_a_request(
    fault_server: FaultServer,
) -> None:
    fault_server.script(default=fs.dropped())
    with pytest.raises(EndpointDown):
        _client(fault_server.api_base).complete(MESSAGES)
    requests = fault_server.count
    agent = LiteLLMAgent(_client(fault_server.api_base))
    with Bank(TASK.customer_id, TASK.task_date, TASK.bank_seed) as bank:
        trace = run_session(TASK, agent, ScriptedCustomer(TASK), bank)
    assert trace.end == "infra_error" and "transport failures in a row" in trace.end_detail
    assert fault_server.count == requests == 3


def test_an_answer_resets_the_count(fault_server: FaultServer) -> None:
    fault_server.script(fs.dropped(), fs.dropped(), fs.answer(), fs.dropped(), fs.dropped())
    client = _client(fault_server.api_base)
    client.complete(MESSAGES)
    client.complete(MESSAGES)  # two more failures, then the default answer: never three
    assert fault_server.count == 6


def test_a_server_error_neither_counts_nor_resets(fault_server: FaultServer) -> None:
    fault_server.script(fs.dropped(), fs.server_error(), fs.dropped(), fs.dropped())
    with pytest.raises(EndpointDown):
        _client(fault_server.api_base).complete(MESSAGES)
    assert fault_server.count == 4


def test_a_limit_of_zero_never_trips_and_the_error_names_cause_and_url() -> None:
    dead = closed_port()
    client = _client(dead, num_retries=5, max_transport_failures=0)
    with pytest.raises(InfraError) as raised:
        client.complete(MESSAGES)
    assert not isinstance(raised.value, EndpointDown) and client.attempts == 6
    assert f"connection refused: --bank-api-base {dead}; after 6 attempts" in str(raised.value)


def test_timeouts_count_as_transport_failures(fault_server: FaultServer) -> None:
    fault_server.script(default=fs.hang(5.0))
    with pytest.raises(EndpointDown, match=r"3 transport failures in a row \(timed out\); "):
        _client(fault_server.api_base, timeout_s=0.1).complete(MESSAGES)
    assert fault_server.count == 3


def test_the_breaker_names_every_cause_of_the_streak_not_only_the_last() -> None:
    """Time-outs, then the server went away: the message named only "connection refused"."""
    breaker, endpoint = TransportBreaker(), "--bank-api-base http://x/v1"
    for cause in ("timed out", "timed out", "connection reset", "connection refused"):
        breaker.failed(endpoint, time.monotonic(), cause, 4)
    with pytest.raises(EndpointDown) as raised:
        breaker.check(endpoint)
    assert (
        "4 transport failures in a row (2 timed out, 1 connection reset, 1 connection refused)"
    ) in str(raised.value)


def test_an_answer_forgets_the_causes_of_the_streak_it_ends() -> None:
    breaker, endpoint = TransportBreaker(), "--bank-api-base http://x/v1"
    breaker.failed(endpoint, time.monotonic(), "timed out", 2)
    breaker.answered(endpoint)
    for _ in range(2):
        breaker.failed(endpoint, time.monotonic(), "connection refused", 2)
    with pytest.raises(EndpointDown, match=r"in a row \(connection refused\); "):
        breaker.check(endpoint)


def test_a_session_that_runs_out_of_retries_names_every_transport_cause(
    fault_server: FaultServer,
) -> None:
    fault_server.script(fs.hang(5.0), fs.hang(5.0), fs.dropped())
    client = _client(fault_server.api_base, num_retries=2, max_transport_failures=0)
    with pytest.raises(InfraError) as raised:
        client.complete(MESSAGES)
    assert (
        f"(2 timed out, 1 connection dropped: --bank-api-base {fault_server.api_base}; after 3"
    ) in str(raised.value)


def test_calls_in_flight_when_a_failure_is_seen_count_with_it_as_one() -> None:
    breaker = TransportBreaker()
    started = time.monotonic()
    for _ in range(5):  # five calls of one outage, all sent before the first failed
        breaker.failed("--bank-api-base http://x/v1", started, "connection reset", 3)
    breaker.check("--bank-api-base http://x/v1")  # one failure so far: still closed
    for _ in range(2):
        breaker.failed("--bank-api-base http://x/v1", time.monotonic(), "connection reset", 3)
    with pytest.raises(EndpointDown):
        breaker.check("--bank-api-base http://x/v1")
    breaker.check("--bank-api-base http://y/v1")  # each endpoint has its own


def test_without_an_api_base_the_model_names_the_endpoint() -> None:
    assert ModelSettings(model="gpt-4o-mini").endpoint == "--bank-model gpt-4o-mini"
    customer = ModelSettings(model="openai/m", api_bases=("http://a/v1",), role="customer")
    assert customer.endpoint == "--bank-user-api-base http://a/v1"
