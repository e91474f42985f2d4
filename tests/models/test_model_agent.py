"""The litellm agent in real sessions: the tool-calling loop, parallel calls, malformed calls,
overflow and infrastructure errors, and the LLM customer's typed stop."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from pytest_bankbench.bank.registry import all_tools
from pytest_bankbench.bank.store import Bank
from pytest_bankbench.models.agent import LiteLLMAgent, action_of
from pytest_bankbench.models.customer import LiteLLMCustomer
from pytest_bankbench.models.llm import ModelClient
from pytest_bankbench.models.model_settings import ModelSettings
from pytest_bankbench.runner import expected_changes
from pytest_bankbench.scoring.scorer import score
from pytest_bankbench.simulation.customer import Customer, ScriptedCustomer
from pytest_bankbench.simulation.session import Limits, run_session
from pytest_bankbench.simulation.trace import MessageEvent, Trace
from pytest_bankbench.tasks.loader import select, shipped_tasks
from pytest_bankbench.tasks.model import Task
from tests.models.fakes import (
    GoldThroughLitellm,
    Scripted,
    ScriptedCustomerThroughLitellm,
    call,
    litellm_error,
    mocked,
)

TASK = next(t for t in shipped_tasks() if t.family == "fd_closure")


def _agent(completion: Callable[..., Any], retries: int = 2) -> LiteLLMAgent:
    settings = ModelSettings(model="openai/fake", num_retries=retries, backoff_s=0.0)
    return LiteLLMAgent(ModelClient(settings, completion=completion, sleep=lambda _s: None))


def _session(
    task: Task, agent: LiteLLMAgent, customer: Customer | None = None, limits: Limits = Limits()
) -> Trace:
    with Bank(task.customer_id, task.task_date) as bank:
        return run_session(task, agent, customer or ScriptedCustomer(task), bank, limits)


def test_parallel_tool_calls_run_in_order_and_come_back_as_tool_messages() -> None:
    fake = Scripted(
        [
            mocked(
                tool_calls=[
                    call("list_accounts", {}, "a1"),
                    call("list_deposits", {}, "a2"),
                    call("get_customer_profile", {}, "a3"),
                ]
            ),
            mocked("Here is what I found."),
        ]
    )
    trace = _session(TASK, _agent(fake))
    tools = trace.tool_events()
    assert [e.call.name for e in tools] == [
        "list_accounts",
        "list_deposits",
        "get_customer_profile",
    ]
    assert len({e.batch for e in tools}) == 1 and all(e.ok for e in tools)
    second = fake.requests[1]["messages"]
    assert second[0]["role"] == "system" and "Suvarna" in second[0]["content"]
    assert [m["tool_call_id"] for m in second if m["role"] == "tool"] == ["a1", "a2", "a3"]
    assert len(fake.requests[0]["tools"]) == len(all_tools())  # every tool, from the registry


def test_malformed_calls_are_answered_and_counted() -> None:
    fake = Scripted(
        [
            mocked(
                tool_calls=[
                    call("open_sesame", {}, "m1"),
                    call("list_accounts", "{not json", "m2"),
                    call("get_account_balance", {"acct": "1"}, "m3"),
                ]
            ),
            mocked("Sorry about that."),
        ]
    )
    trace = _session(TASK, _agent(fake))
    codes = [e.error_code for e in trace.tool_events()]
    assert codes == ["unknown_tool", "invalid_arguments", "invalid_arguments"]
    assert trace.failed_calls == 3
    answers = [m for m in fake.requests[1]["messages"] if m["role"] == "tool"]
    assert all(json.loads(m["content"])["error"] for m in answers)
    assert "available tools" in json.loads(answers[0]["content"])["message"]


def test_failed_calls_reach_the_error_limit() -> None:
    bad = mocked(tool_calls=[call("get_account_balance", {"account_number": "1"}, "x")])
    trace = _session(TASK, _agent(Scripted([bad] * 20)), limits=Limits(200, 4))
    assert trace.end == "max_errors"


def test_context_overflow_is_the_agents_failure() -> None:
    trace = _session(TASK, _agent(Scripted([litellm_error("ContextWindowExceededError")])))
    assert trace.end == "agent_error" and "context window" in trace.end_detail
    verdict = score(TASK, trace, expected_changes(TASK))
    assert verdict.failure_type == "ended_with_error"


def test_exhausted_retries_end_as_an_infrastructure_error() -> None:
    fake = Scripted([litellm_error("RateLimitError")] * 5)
    trace = _session(TASK, _agent(fake, retries=2))
    assert trace.end == "infra_error" and len(fake.requests) == 3


def test_usage_is_recorded_in_the_trace() -> None:
    trace = _session(TASK, _agent(Scripted([mocked("Noted.")] * 5)))
    assert trace.usage.model_calls >= 1 and trace.usage.prompt_tokens > 0


@pytest.mark.parametrize("task", select(shipped_tasks(), "lite")[::10], ids=lambda t: t.task_id)
def test_gold_moves_through_litellm_pass(task: Task) -> None:
    trace = _session(task, _agent(GoldThroughLitellm(task)))
    verdict = score(task, trace, expected_changes(task))
    assert verdict.passed, verdict.evidence


def test_llm_customer_stop_token_becomes_the_typed_stop() -> None:
    settings = ModelSettings(model="openai/fake-customer", backoff_s=0.0)
    customer = LiteLLMCustomer(ModelClient(settings, ScriptedCustomerThroughLitellm(TASK)), TASK)
    trace = _session(TASK, _agent(GoldThroughLitellm(TASK)), customer=customer)
    assert trace.end == "customer_stop" and trace.customer == "llm:openai/fake-customer"
    assert score(TASK, trace, expected_changes(TASK)).passed


def test_llm_customer_provider_failure_is_infrastructure() -> None:
    settings = ModelSettings(model="openai/fake-customer", num_retries=1, backoff_s=0.0)
    broken = Scripted([litellm_error("ServiceUnavailableError")] * 3)
    customer = LiteLLMCustomer(ModelClient(settings, broken, sleep=lambda _s: None), TASK)
    trace = _session(TASK, _agent(Scripted([mocked("How can I help?")])), customer=customer)
    assert trace.end == "infra_error"


@pytest.mark.parametrize(
    ("content", "said"),
    [
        (
            "<think>The FD is FD001219; ask for the OTP?</think>\n\nShall I close it?",
            "Shall I close it?",
        ),
        (
            "<THINK>plan</THINK>Done.<thinking>check</thinking> Anything else?",
            "Done. Anything else?",
        ),
        ("Your balance is Rs 5,000.", "Your balance is Rs 5,000."),
        ("Use the <b>NEFT</b> form, 2 < 3.", "Use the <b>NEFT</b> form, 2 < 3."),
        ("Sure.<think>left open, never closed", "Sure."),
        ("<think>only thinking, no reply</think>", None),
    ],
)
def test_a_reasoning_block_is_not_said_to_the_customer(content: str, said: str | None) -> None:
    """Models served without a reasoning parser write their thinking into the content: the
    customer hears, and the scorer reads, only the reply (nothing at all ends the session, as an
    empty reply does)."""
    action = action_of({"role": "assistant", "content": content}, 1)
    assert action.message == said
    assert action.end is (said is None)


def test_reasoning_in_a_session_never_reaches_the_trace() -> None:
    fake = Scripted(
        [
            mocked(
                "<think>The customer wants the OTP; I must not ask.</think>Hello! How can I help?"
            ),
            mocked("<think>Done thinking.</think>"),
        ]
    )
    trace = _session(TASK, _agent(fake))
    said = [e.text for e in trace.events if isinstance(e, MessageEvent) and e.role == "agent"]
    assert said == ["Hello! How can I help?"]
    assert "<think>" not in json.dumps(fake.requests[-1]["messages"])
