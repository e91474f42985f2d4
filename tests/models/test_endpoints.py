"""The endpoint check before the first session (issue 18): one GET each, one line when dead."""

from __future__ import annotations

import socket
from typing import Any

import pytest

from pytest_bankbench.models import endpoints
from pytest_bankbench.models.endpoints import check_endpoints, probe
from pytest_bankbench.models.errors import ConfigurationError
from pytest_bankbench.models.model_settings import ModelSettings
from tests.models import fault_server as fs
from tests.models.fault_server import FaultServer, closed_port

KEY = "sk-test-planted-0123456789abcdef"


def _settings(*bases: str, **overrides: Any) -> ModelSettings:
    values: dict[str, Any] = {
        "model": "openai/fault-model",
        "api_bases": bases,
        "params": {"api_key": KEY},
        "timeout_s": 0.5,
    }
    values.update(overrides)
    return ModelSettings(**values)


def test_a_refused_connection_stops_naming_the_option_and_the_url() -> None:
    dead = closed_port()
    with pytest.raises(ConfigurationError) as raised:
        check_endpoints([_settings(dead)])
    message = str(raised.value)
    assert f"--bank-api-base {dead}: connection refused" in message
    assert "\n" not in message


def test_the_customer_endpoint_is_named_by_its_own_option() -> None:
    dead = closed_port()
    with pytest.raises(ConfigurationError, match=f"--bank-user-api-base {dead}: connection"):
        check_endpoints([_settings(dead, role="customer")])


def test_a_host_that_does_not_resolve_stops_naming_dns(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_such_host(*args: object, **kwargs: object) -> Any:
        raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")

    monkeypatch.setattr(socket, "getaddrinfo", no_such_host)  # no real DNS in a test
    with pytest.raises(ConfigurationError, match=r"no-such-host\.invalid/v1: cannot resolve.*DNS"):
        check_endpoints([_settings("http://no-such-host.invalid/v1")])


def test_a_listening_server_passes_with_one_get_of_its_models(fault_server: FaultServer) -> None:
    assert check_endpoints([_settings(fault_server.api_base)]) == []
    assert [path for path, _ in fault_server.gets] == ["/v1/models"]
    assert fault_server.gets[0][1]["authorization"] == f"Bearer {KEY}"
    assert fault_server.count == 0  # no chat request


@pytest.mark.parametrize("step", [fs.error(404, "no such route"), fs.server_error(500)])
def test_any_other_http_answer_proves_it_listens(fault_server: FaultServer, step: fs.Step) -> None:
    fault_server.models = step
    assert probe(_settings(fault_server.api_base), fault_server.api_base) is None


def test_a_connection_without_an_answer_within_the_timeout_stops_naming_it(
    fault_server: FaultServer,
) -> None:
    """Such a server passed as "listening", and the run then spent each process's first
    session's attempts waiting --bank-timeout each (about 5 minutes with the defaults)."""
    fault_server.models = fs.hang(30.0)
    with pytest.raises(ConfigurationError) as raised:
        check_endpoints([_settings(fault_server.api_base, timeout_s=0.3)])
    message = str(raised.value)
    assert (
        f"--bank-api-base {fault_server.api_base}: connected, but no answer to GET /models "
        "within 0.3 s (--bank-timeout); check the server, or raise --bank-timeout"
    ) in message
    assert fault_server.count == 0  # no chat request


def test_a_slow_answer_within_the_timeout_is_not_a_dead_endpoint(
    fault_server: FaultServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The connection is given CHECK_TIMEOUT_S, the answer the run's own --bank-timeout."""
    monkeypatch.setattr(endpoints, "CHECK_TIMEOUT_S", 0.2)
    fault_server.models = fs.late(1.0)
    assert probe(_settings(fault_server.api_base, timeout_s=30.0), fault_server.api_base) is None
    assert len(fault_server.gets) == 2  # asked again after the first 0.2 s


def test_a_dropped_connection_is_left_to_the_run(fault_server: FaultServer) -> None:
    fault_server.models = fs.dropped()
    assert probe(_settings(fault_server.api_base), fault_server.api_base) is None


def test_a_refused_key_stops_naming_authentication_without_the_key(
    fault_server: FaultServer,
) -> None:
    fault_server.models = fs.unauthorized()  # echoes the key it was shown
    with pytest.raises(ConfigurationError) as raised:
        check_endpoints([_settings(fault_server.api_base)])
    message = str(raised.value)
    assert f"{fault_server.api_base}: authentication failed (HTTP 401" in message
    assert "--bank-model-args" in message and KEY not in message


def test_a_403_is_an_authentication_failure_too(fault_server: FaultServer) -> None:
    fault_server.models = fs.error(403, "Forbidden")
    with pytest.raises(ConfigurationError, match=r"authentication failed \(HTTP 403: Forbidden"):
        check_endpoints([_settings(fault_server.api_base)])


def test_a_401_says_nothing_when_the_check_cannot_present_the_key(
    fault_server: FaultServer,
) -> None:
    """Another provider's key travels in its own header: the check judges the connection only."""
    fault_server.models = fs.unauthorized()
    assert check_endpoints([_settings(fault_server.api_base, model="anthropic/x")]) == []


def test_one_endpoint_down_among_several_is_a_warning(fault_server: FaultServer) -> None:
    dead = closed_port()
    warnings = check_endpoints([_settings(dead, fault_server.api_base)])
    assert len(warnings) == 1 and f"{dead}: connection refused" in warnings[0]


def test_every_endpoint_down_stops_naming_each() -> None:
    first, second = closed_port(), closed_port()
    with pytest.raises(ConfigurationError) as raised:
        check_endpoints([_settings(first, second)])
    assert f"{first}: connection refused" in str(raised.value)
    assert f"{second}: connection refused" in str(raised.value)


def test_a_hosted_provider_without_an_api_base_is_not_checked() -> None:
    assert check_endpoints([_settings(model="gpt-4o-mini")]) == []
