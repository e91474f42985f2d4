"""Whose failure a provider error is, class by class, in real sessions.

The model's (a bad request once the model has answered, a content-filter refusal, a context
overflow): not retried, the session ends with `agent_error`, scored "ended with error".
The infrastructure's (timeouts, connection errors, 429, 5xx): retried, then `infra_error`.
The setup's (authentication, unknown model, a bad request before any answer from a second
task): the run stops (`run_session` raises ConfigurationError; the plugin sets `shouldstop`).
A first task's bad request before any answer is that session's harness error (issue 19).
Every test counts the calls the fake completion received.
"""

from __future__ import annotations

from typing import Any

import pytest

from pytest_bankbench.bank.store import Bank
from pytest_bankbench.models.agent import LiteLLMAgent
from pytest_bankbench.models.customer import LiteLLMCustomer
from pytest_bankbench.models.errors import (
    BAD_REQUEST,
    ERROR_TABLE,
    ConfigurationError,
    ContextOverflow,
    InfraError,
    ModelFailure,
    UnconfirmedBadRequest,
    error_outcome,
    rule_class,
)
from pytest_bankbench.models.llm import ModelClient
from pytest_bankbench.models.model_settings import ModelSettings
from pytest_bankbench.runner import expected_changes
from pytest_bankbench.scoring.scorer import score
from pytest_bankbench.simulation.customer import Customer, ScriptedCustomer
from pytest_bankbench.simulation.session import run_session
from pytest_bankbench.simulation.trace import Trace
from pytest_bankbench.tasks.loader import shipped_tasks
from tests.models.fakes import Scripted, ThroughLitellm, call, litellm_error, mocked

TASK = next(t for t in shipped_tasks() if t.family == "fd_closure")
RETRIES = 2
INFRA = [
    "RateLimitError",
    "Timeout",
    "APIConnectionError",
    "InternalServerError",
    "ServiceUnavailableError",
    "BadGatewayError",
    "APIError",
]
CONFIG = ["AuthenticationError", "NotFoundError", "PermissionDeniedError"]


def _agent(steps: list[Any]) -> tuple[LiteLLMAgent, Scripted]:
    fake = Scripted(steps)
    settings = ModelSettings(model="openai/fake", num_retries=RETRIES, backoff_s=0.0)
    return LiteLLMAgent(ModelClient(settings, completion=fake, sleep=lambda _s: None)), fake


def _session(agent: LiteLLMAgent, customer: Customer | None = None) -> Trace:
    with Bank(TASK.customer_id, TASK.task_date) as bank:
        return run_session(TASK, agent, customer or ScriptedCustomer(TASK), bank)


def _answered() -> Any:
    """A first successful call that asks for a tool, so the agent is called again at once."""
    return mocked(tool_calls=[call("list_accounts", {}, "t1")])


def _errors(name: str) -> list[Any]:
    return [litellm_error(name) for _ in range(RETRIES + 2)]


def _ended_with_error(trace: Trace) -> bool:
    return score(TASK, trace, expected_changes(TASK)).failure_type == "ended_with_error"


# -- bad requests --------------------------------------------------------------------------------


def test_bad_request_after_the_first_successful_call_ends_the_session_with_error() -> None:
    agent, fake = _agent([_answered(), *_errors("BadRequestError")])
    trace = _session(agent)
    assert len(fake.requests) == 2  # the bad request was not retried
    assert trace.end == "agent_error" and "BadRequestError" in trace.end_detail
    assert _ended_with_error(trace)


def test_bad_request_at_a_later_sessions_first_call_is_the_models_not_the_runs() -> None:
    working, _ = _agent([mocked("Your deposit is closed.")])
    assert _session(working).end != "agent_error"  # the run's first call was answered
    agent, fake = _agent(_errors("BadRequestError"))  # a new session, a new client
    trace = _session(agent)
    assert len(fake.requests) == 1
    assert trace.end == "agent_error" and _ended_with_error(trace)


def test_bad_request_at_the_first_call_of_the_run_is_that_sessions_harness_error() -> None:
    agent, fake = _agent(_errors("BadRequestError"))
    with pytest.raises(UnconfirmedBadRequest, match="BadRequestError") as caught:
        _session(agent)
    assert not isinstance(caught.value, ConfigurationError | ModelFailure | InfraError)
    assert len(fake.requests) == 1


# -- content filter and context window: the model's, at any call ---------------------------------


@pytest.mark.parametrize("error", ["ContentPolicyViolationError", "ContextWindowExceededError"])
def test_a_refusal_or_overflow_at_the_first_call_of_the_run_is_the_sessions_error(
    error: str,
) -> None:
    agent, fake = _agent(_errors(error))
    trace = _session(agent)
    assert len(fake.requests) == 1
    assert trace.end == "agent_error" and error in trace.end_detail
    assert _ended_with_error(trace)


@pytest.mark.parametrize("error", ["ContentPolicyViolationError", "ContextWindowExceededError"])
def test_a_refusal_or_overflow_after_a_successful_call_is_the_sessions_error(error: str) -> None:
    agent, fake = _agent([_answered(), *_errors(error)])
    trace = _session(agent)
    assert len(fake.requests) == 2
    assert trace.end == "agent_error" and error in trace.end_detail
    assert _ended_with_error(trace)


def test_overflow_says_so() -> None:
    agent, _ = _agent(_errors("ContextWindowExceededError"))
    assert "context window exceeded" in _session(agent).end_detail


# -- infrastructure: retried, then not the agent's failure ---------------------------------------


@pytest.mark.parametrize("answered", [False, True], ids=["first-call", "later-call"])
@pytest.mark.parametrize("error", INFRA)
def test_transport_rate_limit_and_server_errors_are_retried_then_infrastructure(
    error: str, answered: bool
) -> None:
    agent, fake = _agent([_answered()] * answered + _errors(error))
    trace = _session(agent)
    assert len(fake.requests) == answered + RETRIES + 1
    assert trace.end == "infra_error" and error in trace.end_detail
    assert f"after {RETRIES + 1} attempts" in trace.end_detail


@pytest.mark.parametrize("error", INFRA)
def test_a_retry_that_succeeds_continues_the_session(error: str) -> None:
    agent, fake = _agent([_answered(), litellm_error(error), mocked("All done.")])
    trace = _session(agent)
    assert len(fake.requests) >= 3 and trace.end not in ("infra_error", "agent_error")


# -- configuration: the run stops, whenever it happens -------------------------------------------


@pytest.mark.parametrize("answered", [False, True], ids=["first-call", "later-call"])
@pytest.mark.parametrize("error", CONFIG)
def test_configuration_errors_stop_the_run_without_a_retry(error: str, answered: bool) -> None:
    agent, fake = _agent([_answered()] * answered + _errors(error))
    with pytest.raises(ConfigurationError, match=error):
        _session(agent)
    assert len(fake.requests) == answered + 1


# -- the customer model: its own failures are no verdict on the agent (infra errors) ----------


def _customer(steps: list[Any]) -> tuple[LiteLLMCustomer, Scripted]:
    fake = Scripted(steps)
    settings = ModelSettings(model="openai/fake-customer", num_retries=RETRIES, backoff_s=0.0)
    client = ModelClient(settings, completion=fake, sleep=lambda _s: None)
    return LiteLLMCustomer(client, TASK), fake


def test_customer_bad_request_after_its_first_answer_is_no_verdict_on_the_agent() -> None:
    customer, fake = _customer([mocked("My deposit, please."), *_errors("BadRequestError")])
    agent, _ = _agent([mocked("How can I help?"), mocked("Which deposit?")])
    trace = _session(agent, customer)
    assert len(fake.requests) == 2
    assert trace.end == "infra_error" and "customer model failed" in trace.end_detail
    assert "BadRequestError" in trace.end_detail


def test_customer_content_filter_at_its_first_call_is_no_verdict_on_the_agent() -> None:
    customer, fake = _customer(_errors("ContentPolicyViolationError"))
    agent, _ = _agent([mocked("How can I help?")])
    trace = _session(agent, customer)
    assert len(fake.requests) == 1 and trace.end == "infra_error"


# -- the table itself, and litellm's own raising path --------------------------------------------


def test_the_table_names_real_classes_and_no_rule_is_shadowed_by_an_earlier_one() -> None:
    """A rule with no text pattern takes every instance: no later rule for a subclass (or for
    the same class) could ever match."""
    classes = [rule_class(rule.name) for rule in ERROR_TABLE]
    assert all(cls is not None for cls in classes), [r.name for r in ERROR_TABLE]
    for later, (rule, cls) in enumerate(zip(ERROR_TABLE, classes, strict=True)):
        for earlier, earlier_cls in zip(ERROR_TABLE[:later], classes[:later], strict=True):
            assert cls is not None and earlier_cls is not None
            shadowed = earlier.text is None and issubclass(cls, earlier_cls)
            assert not shadowed, f"{rule.name} is shadowed by {earlier.name}"


@pytest.mark.parametrize(
    ("status", "outcome"),
    [(400, BAD_REQUEST), (404, ConfigurationError), (429, InfraError), (503, InfraError)],
)
def test_an_error_outside_the_table_goes_by_its_status(status: int, outcome: object) -> None:
    assert error_outcome(litellm_error("APIError", status=status)) == outcome
    assert error_outcome(ValueError("a bug")) is None


def test_unprocessable_entity_is_a_bad_request() -> None:
    assert error_outcome(litellm_error("UnprocessableEntityError")) == BAD_REQUEST


@pytest.mark.parametrize(
    ("error", "raised", "attempts"),
    [
        ("BadRequestError", ModelFailure, 1),
        ("ContentPolicyViolationError", ModelFailure, 1),
        ("ContextWindowExceededError", ContextOverflow, 1),
        ("RateLimitError", InfraError, RETRIES + 1),
        ("Timeout", InfraError, RETRIES + 1),
        ("APIConnectionError", InfraError, RETRIES + 1),
        ("InternalServerError", InfraError, RETRIES + 1),
        ("ServiceUnavailableError", InfraError, RETRIES + 1),
        ("AuthenticationError", ConfigurationError, 1),
        ("NotFoundError", ConfigurationError, 1),
    ],
)
def test_errors_raised_by_litellm_itself_after_a_first_answer(
    error: str, raised: type[Exception], attempts: int
) -> None:
    """litellm's mock_response raises the exception on its own completion path, offline."""
    fake = ThroughLitellm(["Hello.", *[litellm_error(error) for _ in range(RETRIES + 1)]])
    settings = ModelSettings(model="openai/fake", num_retries=RETRIES, backoff_s=0.0)
    client = ModelClient(settings, completion=fake, sleep=lambda _s: None)
    assert client.complete([{"role": "user", "content": "hi"}])["choices"][0]["message"]["content"]
    with pytest.raises(raised, match=error):
        client.complete([{"role": "user", "content": "and then?"}])
    assert len(fake.requests) == 1 + attempts and client.attempts == 1 + attempts
