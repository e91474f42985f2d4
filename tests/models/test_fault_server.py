"""The real HTTP path (litellm -> openai SDK -> a loopback server) under every fault we know.

Each test scripts tests/models/fault_server.py and asserts the outcome class and how many
requests reached the wire: 1 + num_retries for transient faults (the SDK's own retries are off),
exactly 1 for everything that must not be retried.
"""

from __future__ import annotations

import logging
import time
from pathlib import Path
from typing import Any

import pytest

from pytest_bankbench.bank.store import Bank
from pytest_bankbench.models import llm
from pytest_bankbench.models.agent import LiteLLMAgent
from pytest_bankbench.models.customer import LiteLLMCustomer
from pytest_bankbench.models.errors import (
    ConfigurationError,
    ContextOverflow,
    DeadlineExceeded,
    InfraError,
    ModelFailure,
)
from pytest_bankbench.models.litellm_setup import prepare_litellm
from pytest_bankbench.models.llm import ModelClient
from pytest_bankbench.models.model_settings import ModelSettings
from pytest_bankbench.models.process_state import ANSWERED, shared_router
from pytest_bankbench.simulation.agents import GoldAgent
from pytest_bankbench.simulation.customer import Customer, ScriptedCustomer
from pytest_bankbench.simulation.session import run_session
from pytest_bankbench.simulation.trace import Trace
from pytest_bankbench.tasks.loader import shipped_tasks
from tests.models import fault_server as fs
from tests.models.fault_server import FaultServer

TASK = next(t for t in shipped_tasks() if t.family == "fd_closure")
KEY = "sk-test-planted-0123456789abcdef"
MESSAGES = [{"role": "user", "content": "hello"}]
TRANSIENT = {
    "429": fs.rate_limited,
    "500": fs.server_error,
    "503": lambda: fs.server_error(503),
    "hang": lambda: fs.hang(5.0),
    "dropped": fs.dropped,
    "malformed": fs.malformed,
}


def _settings(server: FaultServer | str, **overrides: Any) -> ModelSettings:
    base = server.api_base if isinstance(server, FaultServer) else server
    values: dict[str, Any] = {
        "model": "openai/fault-model",
        "api_bases": (base,),
        "params": {"api_key": KEY},
        "num_retries": 2,
        "backoff_s": 0.0,
        "timeout_s": 0.3,
    }
    values.update(overrides)
    return ModelSettings(**values)


def _client(server: FaultServer | str, trial: int = 0, **overrides: Any) -> ModelClient:
    return ModelClient(_settings(server, **overrides), trial=trial)


def _session(agent: LiteLLMAgent, customer: Customer | None = None) -> Trace:
    with Bank(TASK.customer_id, TASK.task_date, TASK.bank_seed) as bank:
        return run_session(TASK, agent, customer or ScriptedCustomer(TASK), bank)


# -- transient faults: retried by us alone, then infrastructure ----------------------------------


@pytest.mark.parametrize("retries", [0, 2])
@pytest.mark.parametrize("fault", sorted(TRANSIENT))
def test_transient_faults_take_exactly_one_request_per_attempt(
    fault_server: FaultServer, fault: str, retries: int
) -> None:
    fault_server.script(default=TRANSIENT[fault]())
    client = _client(fault_server, num_retries=retries)
    tries = "1 attempt" if retries == 0 else f"{retries + 1} attempts"
    with pytest.raises(InfraError, match=rf"after {tries}\)$"):
        client.complete(MESSAGES)
    assert fault_server.count == retries + 1 == client.attempts


def test_a_retry_that_reaches_an_answer_goes_on(fault_server: FaultServer) -> None:
    fault_server.script(fs.rate_limited(), fs.dropped(), fs.answer("at last"))
    response = _client(fault_server).complete(MESSAGES)
    assert response["choices"][0]["message"]["content"] == "at last"
    assert fault_server.count == 3


def test_the_timeout_option_bounds_each_attempt(fault_server: FaultServer) -> None:
    fault_server.script(default=fs.hang(5.0))
    started = time.perf_counter()
    with pytest.raises(InfraError, match="Timeout"):
        _client(fault_server, num_retries=1, timeout_s=0.25).complete(MESSAGES)
    assert time.perf_counter() - started < 2.0 and fault_server.count == 2


def test_an_infra_error_session_keeps_its_usage(fault_server: FaultServer) -> None:
    fault_server.script(fs.tool_call("list_accounts", "{}"), default=fs.server_error(503))
    trace = _session(LiteLLMAgent(_client(fault_server)))
    assert trace.end == "infra_error" and "after 3 attempts" in trace.end_detail
    assert trace.usage.model_calls == 1 and trace.usage.prompt_tokens == 100
    assert fault_server.count == 4


# -- the session deadline -------------------------------------------------------------------------


def test_a_session_past_its_deadline_is_the_agents_failure(fault_server: FaultServer) -> None:
    fault_server.script(default=fs.hang(10.0))
    agent = LiteLLMAgent(_client(fault_server, timeout_s=30.0, session_deadline_s=0.5))
    started = time.perf_counter()
    trace = _session(agent)
    assert time.perf_counter() - started < 3.0
    assert trace.end == "deadline_exceeded" and "--bank-session-deadline" in trace.end_detail


def test_the_deadline_is_checked_before_each_call(fault_server: FaultServer) -> None:
    client = _client(fault_server, session_deadline_s=0.05)
    client.start_clock()
    time.sleep(0.1)
    with pytest.raises(DeadlineExceeded):
        client.complete(MESSAGES)
    assert fault_server.count == 0


# -- the model's own failures: this session's agent_error, even at the run's first call ----------


@pytest.mark.parametrize(
    ("fault", "raised"),
    [(fs.content_filter, ModelFailure), (fs.context_overflow, ContextOverflow)],
    ids=["content-filter", "context-overflow"],
)
def test_a_content_400_at_the_first_call_is_the_sessions_agent_error(
    fault_server: FaultServer, fault: Any, raised: type[Exception]
) -> None:
    fault_server.script(fault())
    with pytest.raises(raised) as caught:
        _client(fault_server).complete(MESSAGES)
    assert not isinstance(caught.value, ConfigurationError)
    fault_server.script(fault())
    ANSWERED.clear()
    trace = _session(LiteLLMAgent(_client(fault_server)))
    assert trace.end == "agent_error" and fault_server.count == 2


def test_malformed_tool_call_arguments_are_a_tool_error_the_agent_reads(
    fault_server: FaultServer,
) -> None:
    fault_server.script(fs.tool_call("list_accounts", "{not json"), fs.answer("Sorry."))
    trace = _session(LiteLLMAgent(_client(fault_server)))
    first = trace.tool_events()[0]
    assert not first.ok and first.error_code == "invalid_arguments"
    assert first.call.raw_arguments == "{not json" and trace.failed_calls == 1
    assert trace.end not in ("agent_error", "infra_error")


# -- configuration: one short line that names the option, no key, no retry -----------------------


@pytest.mark.parametrize(
    ("fault", "option"),
    [(fs.unauthorized, "--bank-model-args"), (fs.model_not_found, "--bank-model")],
    ids=["401", "404"],
)
def test_configuration_faults_stop_with_one_short_redacted_line(
    fault_server: FaultServer, fault: Any, option: str, caplog: pytest.LogCaptureFixture
) -> None:
    fault_server.script(fault())
    caplog.set_level(logging.DEBUG)
    with pytest.raises(ConfigurationError) as caught:
        _client(fault_server).complete(MESSAGES)
    message = str(caught.value)
    assert option in message and "\n" not in message and len(message) < 400
    assert KEY not in message and KEY not in caplog.text
    assert caught.value.__cause__ is None and caught.value.__suppress_context__
    assert fault_server.count == 1


@pytest.mark.parametrize("role", ["agent", "customer"])
def test_missing_credentials_stop_the_run_before_any_request(
    monkeypatch: pytest.MonkeyPatch, role: str
) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_ADMIN_KEY", raising=False)
    settings = ModelSettings(model="openai/gpt-4o-mini", num_retries=3, backoff_s=0.0, role=role)  # type: ignore[arg-type]
    with pytest.raises(ConfigurationError, match="missing credentials") as caught:
        ModelClient(settings).complete(MESSAGES)
    assert ("--bank-user-model-args" in str(caught.value)) == (role == "customer")
    assert "OPENAI_API_KEY" in str(caught.value)


# -- several endpoints: one router per process, a dead endpoint cooled down ----------------------


def test_failover_to_the_live_endpoint_and_one_router_per_process(
    fault_server: FaultServer,
) -> None:
    settings = _settings(fault_server, api_bases=(fs.closed_port(), fault_server.api_base))
    clients = [ModelClient(settings) for _ in range(8)]  # a session each
    for client in clients:
        client.complete(MESSAGES)
    assert shared_router(settings) is shared_router(ModelSettings(**vars(settings)))
    failed = sum(c.attempts - c.calls for c in clients)
    assert failed <= 1  # the dead endpoint failed once, then stayed cooled down
    assert fault_server.count == 8


# -- the cache and trials --------------------------------------------------------------------------


def test_a_cached_trial_never_stands_in_for_another(
    fault_server: FaultServer, tmp_path: Path
) -> None:
    params = {"api_key": KEY, "temperature": 0.7}
    for trial in (0, 1, 2):
        _client(fault_server, trial, cache_dir=tmp_path, params=params).complete(MESSAGES)
    assert fault_server.count == 3
    again = _client(fault_server, 1, cache_dir=tmp_path, params=params)
    again.complete(MESSAGES)
    assert fault_server.count == 3 and again.usage.cache_hits == 1


# -- usage ---------------------------------------------------------------------------------------


def test_setup_is_not_counted_as_model_latency(
    fault_server: FaultServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = prepare_litellm

    def slow_setup(model: str) -> Any:
        time.sleep(0.5)  # the import and one-time setup of a fresh process
        return real(model)

    monkeypatch.setattr(llm, "prepare_litellm", slow_setup)
    client = _client(fault_server)
    client.complete(MESSAGES)
    assert client.usage.latencies_s[0] < 0.5


def test_the_customer_models_usage_is_recorded_apart(fault_server: FaultServer) -> None:
    fault_server.script(default=fs.answer("Yes, please go ahead."))
    customer = LiteLLMCustomer(_client(fault_server, role="customer"), TASK)
    trace = _session(GoldAgent(TASK), customer)  # type: ignore[arg-type]
    assert trace.customer_usage.model_calls == fault_server.count > 0
    assert trace.customer_usage.prompt_tokens == 100 * fault_server.count
    assert len(trace.customer_usage.latencies_s) == fault_server.count
    assert trace.usage.model_calls == 0
