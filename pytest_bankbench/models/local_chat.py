"""The managed local model's turn format: tool calling for a model that was never taught it.

Gemma 3 270M (the GGUF on the registry is the pretrained model) has no tool-call format of its
own, and left free it copies the policy back. So the managed server speaks OpenAI's chat API to
the harness and, to the model, plain text in Gemma's own turns (llama.cpp's built-in `gemma`
template): the tools are listed as one line each after the policy, every assistant turn is one
JSON object, `{"tool": NAME, "arguments": {...}}` or `{"reply": TEXT}`, and the output is held
to that shape by a JSON-schema grammar. Which tool, which arguments and what to say stay the
model's own choice; the grammar only makes the choice readable. Tool results come back as a user
turn: `Result of NAME: {...}`.

Pure functions, no model: `to_local_request` turns an OpenAI request into the one the engine
gets, `from_local_response` turns the engine's answer back into an OpenAI message.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

JSON = dict[str, Any]

TOOLS_HEADING = "## Tools"
TOOLS_HOWTO = (
    "Answer every turn with one JSON object and nothing else: "
    '{"tool": "NAME", "arguments": {...}} to call a tool, or {"reply": "TEXT"} to write to the '
    'customer. A tool\'s result comes back as a message starting with "Result of NAME:". '
    "An argument marked ? is optional."
)
# Request fields the engine would refuse beside a grammar, or that this module replaces.
_DROPPED = ("tools", "tool_choice", "parallel_tool_calls", "functions", "function_call")


def _kind(schema: Mapping[str, Any]) -> str:
    if "enum" in schema:
        return "|".join(str(value) for value in schema["enum"])
    kind = schema.get("type", "any")
    return "|".join(kind) if isinstance(kind, list) else str(kind)


def tool_line(function: Mapping[str, Any]) -> str:
    """`- name(arg: type, optional?: a|b): description`: one line per tool."""
    parameters = function.get("parameters") or {}
    required = set(parameters.get("required") or ())
    arguments = ", ".join(
        f"{name}{'' if name in required else '?'}: {_kind(schema)}"
        for name, schema in (parameters.get("properties") or {}).items()
    )
    description = " ".join(str(function.get("description") or "").split())
    return f"- {function.get('name', '')}({arguments}): {description}"


def _functions(tools: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    return [tool.get("function") or tool for tool in tools]


def tools_text(tools: Sequence[Mapping[str, Any]]) -> str:
    """The tools as plain text, appended to the system prompt."""
    lines = [tool_line(function) for function in _functions(tools)]
    return "\n".join([TOOLS_HEADING, "", TOOLS_HOWTO, "", *lines])


def turn_schema(tools: Sequence[Mapping[str, Any]], *, reply: bool = True) -> JSON:
    """The shape of one assistant turn: a call of one of the tools, or (unless a tool call is
    required) a reply."""
    shapes: list[JSON] = []
    for function in _functions(tools):
        parameters = dict(function.get("parameters") or {"type": "object", "properties": {}})
        shapes.append(
            {
                "type": "object",
                "properties": {
                    "tool": {"const": function.get("name", "")},
                    "arguments": parameters,
                },
                "required": ["tool", "arguments"],
                "additionalProperties": False,
            }
        )
    if reply or not shapes:
        shapes.append(
            {
                "type": "object",
                "properties": {"reply": {"type": "string"}},
                "required": ["reply"],
                "additionalProperties": False,
            }
        )
    # llguidance (llama.cpp's grammar engine here): one fixed separator, no free whitespace, so a
    # small model cannot spend its tokens on newlines and indentation.
    return {"anyOf": shapes, "x-guidance": {"whitespace_flexible": False}}


def _dump(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def _arguments(call: Mapping[str, Any]) -> Any:
    raw = (call.get("function") or {}).get("arguments")
    if isinstance(raw, str):
        try:
            return json.loads(raw)
        except json.JSONDecodeError:
            return raw
    return raw if raw is not None else {}


def _text(content: Any) -> str:
    """A message's text: a string, or the text parts of a list of content parts."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(str(p.get("text", "")) for p in content if isinstance(p, Mapping))
    return ""


def to_local_messages(messages: Sequence[Mapping[str, Any]], tools_block: str) -> list[JSON]:
    """OpenAI messages as plain turns: assistant turns in the JSON turn format, tool results as
    user turns, the tools after the (first) system message."""
    names: dict[str, str] = {}
    out: list[JSON] = []
    placed = not tools_block
    for message in messages:
        role = message.get("role")
        if role == "system":
            text = _text(message.get("content"))
            if not placed:
                text, placed = f"{text}\n\n{tools_block}", True
            out.append({"role": "system", "content": text})
        elif role == "assistant":
            calls = message.get("tool_calls") or []
            turns = []
            text = _text(message.get("content")).strip()
            if text and not calls:
                turns.append(_dump({"reply": text}) if tools_block else text)
            for call in calls:
                name = str((call.get("function") or {}).get("name", ""))
                names[str(call.get("id", ""))] = name
                turns.append(_dump({"tool": name, "arguments": _arguments(call)}))
            out.append({"role": "assistant", "content": "\n".join(turns)})
        elif role == "tool":
            name = names.get(str(message.get("tool_call_id", "")), "the tool")
            out.append(
                {"role": "user", "content": f"Result of {name}: {_text(message.get('content'))}"}
            )
        else:
            out.append({"role": "user", "content": _text(message.get("content"))})
    if not placed:
        out.insert(0, {"role": "system", "content": tools_block})
    return out


def to_local_request(body: Mapping[str, Any]) -> JSON:
    """The request the engine gets for an OpenAI chat request (with or without tools)."""
    tools = list(body.get("tools") or [])
    choice = body.get("tool_choice")
    if choice == "none":
        tools = []
    request = {k: v for k, v in body.items() if k not in _DROPPED}
    request["messages"] = to_local_messages(
        body.get("messages") or [], tools_text(tools) if tools else ""
    )
    if tools:
        schema = turn_schema(tools, reply=choice != "required")
        request["response_format"] = {
            "type": "json_schema",
            "json_schema": {"name": "assistant_turn", "schema": schema},
        }
    return request


def _salvaged_reply(content: str) -> str:
    """What a reply cut off by max_tokens said so far (`{"reply": "Your balan` -> `Your balan`)."""
    head = content.lstrip()
    for opening in ('{"reply": "', '{"reply":"'):
        if head.startswith(opening):
            rest = head[len(opening) :]
            for end in range(len(rest), 0, -1):
                try:
                    text: str = json.loads('"' + rest[:end] + '"')
                    return text
                except json.JSONDecodeError:
                    continue
            return ""
    return content


def from_local_response(response: Mapping[str, Any], *, tools: bool) -> JSON:
    """The engine's answer as an OpenAI response: a tool call, a reply, or (cut off, unreadable)
    the raw text as the reply."""
    out = dict(response)
    if not tools:
        return out
    choices = []
    for index, choice in enumerate(response.get("choices") or []):
        choice = dict(choice)
        content = _text((choice.get("message") or {}).get("content"))
        try:
            turn = json.loads(content)
        except json.JSONDecodeError:
            turn = None
        if isinstance(turn, dict) and isinstance(turn.get("tool"), str):
            call = {
                "id": f"call_{response.get('id', 'local')}_{index}",
                "type": "function",
                "function": {"name": turn["tool"], "arguments": _dump(turn.get("arguments", {}))},
            }
            choice["message"] = {"role": "assistant", "content": None, "tool_calls": [call]}
            choice["finish_reason"] = "tool_calls"
        elif isinstance(turn, dict) and isinstance(turn.get("reply"), str):
            choice["message"] = {"role": "assistant", "content": turn["reply"]}
        else:
            choice["message"] = {"role": "assistant", "content": _salvaged_reply(content)}
        choices.append(choice)
    out["choices"] = choices
    return out
