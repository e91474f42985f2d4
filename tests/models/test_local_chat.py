"""The managed local model's turn format: OpenAI requests in, plain Gemma turns and a JSON turn
grammar out, the model's JSON turn back as an OpenAI tool call or reply. No model runs here."""

from __future__ import annotations

import json
from typing import Any

import pytest

from pytest_bankbench.bank.registry import tool_schemas
from pytest_bankbench.models.local_chat import (
    TOOLS_HEADING,
    from_local_response,
    to_local_request,
    tool_line,
    tools_text,
    turn_schema,
)

TOOLS = tool_schemas()
NAMES = [tool["function"]["name"] for tool in TOOLS]


def _answer(content: str) -> dict[str, Any]:
    return {
        "id": "x1",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": content}}],
    }


def test_every_tool_is_one_line_with_its_arguments() -> None:
    text = tools_text(TOOLS)
    lines = [line for line in text.splitlines() if line.startswith("- ")]
    assert [line[2:].split("(")[0] for line in lines] == NAMES
    transfer = next(t["function"] for t in TOOLS if t["function"]["name"] == "transfer_funds")
    assert tool_line(transfer).startswith(
        "- transfer_funds(from_account: string, beneficiary_id: string, amount: number, "
        "mode: NEFT|IMPS|RTGS, remarks?: string): "
    )


def test_the_schema_offers_each_tool_and_a_reply_unless_a_call_is_required() -> None:
    shapes = turn_schema(TOOLS)["anyOf"]
    assert [s["properties"]["tool"]["const"] for s in shapes[:-1]] == NAMES
    assert shapes[-1]["required"] == ["reply"]
    required = turn_schema(TOOLS, reply=False)["anyOf"]
    assert len(required) == len(NAMES) and all("tool" in s["properties"] for s in required)


def test_a_request_with_tools_becomes_plain_turns_and_a_grammar() -> None:
    body = {
        "model": "gemma3-270m",
        "messages": [
            {"role": "system", "content": 'Policy: don\'t say "no" & <b>.'},
            {"role": "user", "content": "My balance?"},
            {
                "role": "assistant",
                "content": "",
                "tool_calls": [
                    {"id": "c1", "function": {"name": "list_accounts", "arguments": "{}"}}
                ],
            },
            {"role": "tool", "tool_call_id": "c1", "content": '{"accounts": []}'},
            {"role": "assistant", "content": "You have no accounts."},
        ],
        "tools": TOOLS,
        "tool_choice": "auto",
        "max_tokens": 9,
    }
    request = to_local_request(body)
    assert "tools" not in request and "tool_choice" not in request
    assert request["max_tokens"] == 9 and request["model"] == "gemma3-270m"
    system, user, call, result, reply = request["messages"]
    assert system["content"].startswith('Policy: don\'t say "no" & <b>.\n\n' + TOOLS_HEADING)
    assert user == {"role": "user", "content": "My balance?"}
    assert json.loads(call["content"]) == {"tool": "list_accounts", "arguments": {}}
    assert result == {"role": "user", "content": 'Result of list_accounts: {"accounts": []}'}
    assert json.loads(reply["content"]) == {"reply": "You have no accounts."}
    schema = request["response_format"]["json_schema"]["schema"]
    assert schema == turn_schema(TOOLS)


def test_a_request_without_tools_passes_through() -> None:
    body = {
        "messages": [
            {"role": "system", "content": "Be a customer."},
            {"role": "user", "content": "Hi"},
        ]
    }
    request = to_local_request(body)
    assert request["messages"] == body["messages"] and "response_format" not in request
    assert "response_format" not in to_local_request(
        {**body, "tools": TOOLS, "tool_choice": "none"}
    )


def test_a_tool_turn_becomes_a_tool_call() -> None:
    answer = from_local_response(
        _answer('{"tool": "get_account_balance", "arguments": {"account_number": "1"}}'), tools=True
    )
    choice = answer["choices"][0]
    assert choice["finish_reason"] == "tool_calls"
    (call,) = choice["message"]["tool_calls"]
    assert call["function"] == {
        "name": "get_account_balance",
        "arguments": '{"account_number": "1"}',
    }
    assert choice["message"]["content"] is None


@pytest.mark.parametrize(
    ("content", "said"),
    [
        ('{"reply": "Your balance is Rs 5,000."}', "Your balance is Rs 5,000."),
        ('{"reply": "Your bal', "Your bal"),  # cut off by max_tokens
        ('{"reply": "Tab\\tend\\', "Tab\tend"),  # cut inside an escape
        ("not json at all", "not json at all"),
    ],
)
def test_a_reply_turn_becomes_the_message(content: str, said: str) -> None:
    message = from_local_response(_answer(content), tools=True)["choices"][0]["message"]
    assert message == {"role": "assistant", "content": said}


def test_without_tools_the_answer_is_untouched() -> None:
    assert from_local_response(_answer('{"tool": "x"}'), tools=False) == _answer('{"tool": "x"}')
