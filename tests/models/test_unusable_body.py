"""A 200 response whose body the provider library cannot convert is the model's failure.

Issue 19: tool arguments nested 100,000 deep, a 5,000-digit number or content of the wrong
type in an HTTP 200 were retried and then counted as infrastructure, so `pass^1>=0.5` passed
with 2 of 4 sessions taken out of it. Over real HTTP (tests/models/fault_server.py) each is
one request, a ModelFailure, and a session that meets it ends with agent_error; a body cut
short (not JSON at all) stays a transport fault, retried.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from pytest_bankbench.bank.store import Bank
from pytest_bankbench.models.agent import LiteLLMAgent
from pytest_bankbench.models.errors import InfraError, ModelFailure
from pytest_bankbench.models.llm import ModelClient
from pytest_bankbench.models.model_settings import ModelSettings
from pytest_bankbench.simulation.customer import ScriptedCustomer
from pytest_bankbench.simulation.session import run_session
from pytest_bankbench.tasks.loader import shipped_tasks
from tests.models import fault_server as fs
from tests.models.fault_server import FaultServer, Step

TASK = next(t for t in shipped_tasks() if t.family == "fd_closure")
MESSAGES = [{"role": "user", "content": "hello"}]
DEEP = 100_000
DIGITS = "9" * 5_000


def _body(message: dict[str, Any]) -> str:
    return json.dumps(
        {
            "id": "chatcmpl-x",
            "object": "chat.completion",
            "created": 0,
            "model": "m",
            "choices": [{"index": 0, "message": message, "finish_reason": "stop"}],
            "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
        }
    )


def _tool_call(arguments: str) -> dict[str, Any]:
    function = {"name": "list_accounts", "arguments": arguments}
    return {
        "role": "assistant",
        "content": None,
        "tool_calls": [{"id": "c1", "function": function}],
    }


UNUSABLE = {
    "arguments-nested-as-an-object": _body(_tool_call("@")).replace('"@"', "[" * DEEP + "]" * DEEP),
    "arguments-nested-in-the-string": _body(_tool_call("[" * DEEP + "]" * DEEP)),
    "a-5000-digit-number": _body({"role": "assistant", "content": "x"}).replace(
        '"created": 0', f'"created": {DIGITS}'
    ),
    "content-a-number": _body({"role": "assistant", "content": 123}),
    "content-an-object": _body({"role": "assistant", "content": {"a": 1}}),
    "tool-calls-a-string": _body({"role": "assistant", "content": None, "tool_calls": "oops"}),
}


def _client(server: FaultServer, retries: int = 2) -> ModelClient:
    settings = ModelSettings(
        model="openai/fault-model",
        api_bases=(server.api_base,),
        params={"api_key": "sk-test-unusable-0123456789"},
        num_retries=retries,
        backoff_s=0.0,
        timeout_s=5.0,
    )
    return ModelClient(settings, task=TASK.task_id)


@pytest.mark.filterwarnings("ignore::UserWarning")  # pydantic's serializer warnings
@pytest.mark.parametrize("body", sorted(UNUSABLE))
def test_an_unusable_200_body_is_the_models_failure_and_not_retried(
    fault_server: FaultServer, body: str
) -> None:
    fault_server.script(default=Step("malformed", text=UNUSABLE[body]))
    with pytest.raises(ModelFailure, match="body that cannot be used") as caught:
        _client(fault_server).complete(MESSAGES)
    assert not isinstance(caught.value, InfraError)
    assert fault_server.count == 1 and len(str(caught.value)) < 400


@pytest.mark.filterwarnings("ignore::UserWarning")
def test_a_session_that_meets_one_ends_with_the_agents_error(fault_server: FaultServer) -> None:
    fault_server.script(default=Step("malformed", text=UNUSABLE["content-an-object"]))
    agent = LiteLLMAgent(_client(fault_server))
    with Bank(TASK.customer_id, TASK.task_date, TASK.bank_seed) as bank:
        trace = run_session(TASK, agent, ScriptedCustomer(TASK), bank)
    assert trace.end == "agent_error" and "cannot be used" in trace.end_detail


def test_a_body_cut_short_is_still_a_transport_fault(fault_server: FaultServer) -> None:
    fault_server.script(default=fs.malformed())
    with pytest.raises(InfraError, match="after 3 attempts"):
        _client(fault_server).complete(MESSAGES)
    assert fault_server.count == 3


@pytest.mark.filterwarnings("ignore::UserWarning")
def test_in_a_run_it_is_a_scored_failure_in_pass_1_not_infrastructure(
    pytester: pytest.Pytester, fault_server: FaultServer
) -> None:
    """The issue's case: with the body counted as infrastructure, `pass^1>=0.5` passed with 2
    of 4 sessions taken out of its denominator."""
    fault_server.script(
        Step("malformed", text=UNUSABLE["a-5000-digit-number"]),
        default=fs.answer("I am sorry, I cannot help with that."),
    )
    report = pytester.path / "report.json"
    pytester.runpytest_subprocess(
        "-p",
        "no:cacheprovider",
        "-p",
        "no:xdist",
        "--bank-model",
        "openai/fault-agent",
        "--bank-api-base",
        fault_server.api_base,
        "--bank-num-retries",
        "2",
        "--bank-retry-backoff",
        "0",
        "--bank-report",
        str(report),
        "-k",
        "balance_enquiry-001 or balance_enquiry-002",
    )
    data = json.loads(report.read_text(encoding="utf-8"))
    first = next(s for s in data["sessions"] if s["task_id"].endswith("-001"))
    assert first["outcome"] == "scored" and first["end"] == "agent_error"
    assert first["failure_type"] == "ended_with_error" and not first["passed"]
    assert data["summary"]["infra_errors"] == 0 and data["summary"]["sessions"] == 2
    assert fault_server.count >= 2  # the body was not retried: the next request is session 2's
    assert fault_server.requests[1]["messages"] != fault_server.requests[0]["messages"]
