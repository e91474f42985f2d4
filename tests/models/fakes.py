"""Offline stand-ins for a provider: litellm's own mock responses and exceptions, scripted."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from pytest_bankbench.models.litellm_setup import import_litellm


def litellm_error(name: str, message: str = "simulated", status: int = 500) -> Exception:
    """A litellm exception instance by class name, as the provider layer would raise it."""
    litellm = import_litellm()
    cls = getattr(litellm.exceptions, name)
    if name in ("PermissionDeniedError", "UnprocessableEntityError"):
        import httpx

        code = 403 if name == "PermissionDeniedError" else 422
        response = httpx.Response(code, request=httpx.Request("POST", "http://fake.invalid/v1"))
        error: Exception = cls(
            message=message, llm_provider="openai", model="fake", response=response
        )
    elif name == "Timeout":
        error = cls(message=message, model="fake", llm_provider="openai")
    elif name in (
        "APIConnectionError",
        "InternalServerError",
        "ServiceUnavailableError",
        "BadGatewayError",
    ):
        error = cls(message=message, llm_provider="openai", model="fake")
    elif name == "APIError":
        error = cls(status_code=status, message=message, llm_provider="openai", model="fake")
    else:
        error = cls(message=message, model="fake", llm_provider="openai")
    return error


def mocked(content: str | None = None, tool_calls: list[dict[str, Any]] | None = None) -> Any:
    """A genuine litellm ModelResponse, made offline by litellm's mock_response."""
    litellm = import_litellm()
    kwargs: dict[str, Any] = {
        "model": "openai/fake",
        "messages": [{"role": "user", "content": "x"}],
    }
    if tool_calls:
        kwargs["mock_tool_calls"] = tool_calls
    else:
        kwargs["mock_response"] = content or ""
    return litellm.completion(**kwargs)


def call(name: str, arguments: Any, call_id: str) -> dict[str, Any]:
    text = arguments if isinstance(arguments, str) else json.dumps(arguments)
    return {"id": call_id, "type": "function", "function": {"name": name, "arguments": text}}


class Scripted:
    """A completion function that plays a list of steps: a response, or an exception to raise."""

    def __init__(self, steps: list[Any]) -> None:
        self.steps = list(steps)
        self.requests: list[dict[str, Any]] = []

    def __call__(self, **kwargs: Any) -> Any:
        self.requests.append(kwargs)
        step = self.steps.pop(0) if self.steps else mocked("Thank you, that is all done.")
        if isinstance(step, Exception):
            raise step
        if isinstance(step, Callable):  # type: ignore[arg-type]
            return step(kwargs)
        return step


class ThroughLitellm:
    """A completion function that is litellm itself: each step goes in as its `mock_response`
    (text, or an exception that litellm raises as a provider's would), offline."""

    def __init__(self, steps: list[str | Exception]) -> None:
        self.steps = list(steps)
        self.requests: list[dict[str, Any]] = []

    def __call__(self, **kwargs: Any) -> Any:
        self.requests.append(kwargs)
        step = self.steps.pop(0) if self.steps else "ok"
        return import_litellm().completion(**kwargs, mock_response=step)


class GoldThroughLitellm:
    """A 'model' that plays the gold agent, answering through litellm's mock responses.

    It proves the whole model path (chat history, tool-call parsing, several calls in one turn,
    tool results fed back) can pass tasks: the oracle's moves travel as real ModelResponses.
    """

    def __init__(self, task: Any) -> None:
        from pytest_bankbench.simulation.agents import GoldAgent

        self.gold = GoldAgent(task)
        self.requests: list[dict[str, Any]] = []

    def __call__(self, **kwargs: Any) -> Any:
        self.requests.append(kwargs)
        action = self.gold.act(history_events(kwargs.get("messages", [])))
        if action.tool_calls:
            return mocked(
                tool_calls=[call(c.name, c.arguments, c.call_id) for c in action.tool_calls]
            )
        return mocked(action.message or "")


class ScriptedCustomerThroughLitellm:
    """A 'customer model' that plays the scripted customer and says the stop token at the end."""

    def __init__(self, task: Any) -> None:
        from pytest_bankbench.simulation.customer import ScriptedCustomer

        self.customer = ScriptedCustomer(task)

    def __call__(self, **kwargs: Any) -> Any:
        from pytest_bankbench.models.customer import STOP_TOKEN
        from pytest_bankbench.simulation.customer import Say

        turn = self.customer.respond(kwargs["messages"][-1]["content"])
        return mocked(turn.text if isinstance(turn, Say) else STOP_TOKEN)


def history_events(messages: list[dict[str, Any]]) -> list[Any]:
    """The chat the model is sent, read back as the session's events: the gold agent reads
    the yes from the customer's turns and each write's result from the tool messages."""
    from pytest_bankbench.bank.registry import all_tools
    from pytest_bankbench.scoring.consent import reads_as_agreement
    from pytest_bankbench.simulation.trace import MessageEvent, ToolCall, ToolEvent

    events: list[Any] = []
    calls: dict[str, ToolCall] = {}
    for message in messages:
        role, content = message.get("role"), message.get("content")
        if role == "user" and isinstance(content, str):
            events.append(
                MessageEvent(role="customer", text=content, agrees=reads_as_agreement(content))
            )
        elif role == "assistant":
            if isinstance(content, str) and content:
                events.append(MessageEvent(role="agent", text=content))
            for c in message.get("tool_calls") or []:
                function = c["function"]
                calls[c["id"]] = ToolCall(
                    call_id=c["id"],
                    name=function["name"],
                    arguments=json.loads(function["arguments"] or "{}"),
                )
        elif role == "tool":
            call_ = calls[message["tool_call_id"]]
            output = json.loads(message["content"])
            spec = all_tools().get(call_.name)
            kind = spec.kind if spec else "unknown"
            ok = not (isinstance(output, dict) and set(output) == {"error", "message"})
            events.append(
                ToolEvent(
                    call=call_,
                    tool_kind=kind,
                    ok=ok,
                    output=output if ok else None,
                    took_effect=ok and kind == "write",
                )
            )
    return events
