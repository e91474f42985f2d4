"""The text of an agent turn as the customer reads it: what it says, cleaned and cut into sentences.

Real agents do not always write prose. Some write their reply as a JSON object ({"message": ...},
or a record with "reply", "questions", "next_steps" fields), some as a JSON string, some write a
tool call out as text, in JSON or XML (issue 16: tau2-bench's gpt-5.4, ToolOrchestra and grok-4
runs). The customer hears the strings such an object holds, in the order written, and nothing in a
tool call. Markdown is then stripped and the text cut into sentences for simulation/acts.py; a
sentence of courtesy or a heading (FILLER) carries no act.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator

# Sentences that carry none of these acts even where a rule of acts_rules.py matches a word of them.
# fmt: off
FILLER: tuple[str, ...] = (
    # Not "OK?": alone after a proposal it asks for the go-ahead (audit2).
    r"^(sure|certainly|of course|absolutely|no problem|got it|understood|great|perfect|okay|ok|alright|right|thanks|thank you|noted)(?![^?]*\?)\W*$",
    r"^(i'?d be|i'?m|i am|i would be) (happy|glad|delighted) to help( you)?( with (that|this))?\W*$",
    r"^i can (help|assist)( you)? with (that|this)\W*$",
    r"^thank(s| you) for (your patience|waiting|the (details|information|confirmation))\W*$",
    # "Check APN Settings:", "Flight Segments:": a heading in title case names what follows; it
    # asks or reports nothing itself (round 6, tuning-11). "Please confirm:" is no heading.
    r"^(?!(please|kindly|confirm)\b)(?-i:[A-Z][\w'/-]*)(\s+(?-i:[A-Z0-9][\w'/-]*|of|and|or|to|for|the|a|an|&)){1,5}\s*:\s*$",
)
# fmt: on

# A turn that is only a tool call the agent wrote out as text says nothing to the customer:
# {"name": ..., "arguments": ...}, and a function-call record ({"function_call": {"action": ...}},
# {"type": "function_call", "content": ...}, {"role": "assistant", "content": null,
# "function_call": ...}), also with "//" comments that keep it from parsing (round 13).
_TOOL_CALL = re.compile(
    r'^\s*\{\s*"(name|tool)"\s*:\s*"[\w.-]+"\s*,\s*"arguments"\s*:'
    r'|^\s*\{\s*(("role"\s*:\s*"assistant"|"content"\s*:\s*null)\s*,\s*)*'
    r'("function_call"\s*:|"type"\s*:\s*"function_call"\s*,)'
)
# The same call written in XML (<xai:function_call name="search_direct_flight"> <parameter ...>
# ... </xai:function_call>) says nothing either, alone or beside a message (round 14).
_XML_CALL = re.compile(
    r"<(\w+:)?(function_call|tool_call|invoke)\b[^<>]*>[\s\S]*?</(\w+:)?(function_call|tool_call|invoke)>"
)
_JSON_ENDS = re.compile(r'^\s*(\{[\s\S]*\}|"[\s\S]*")\s*$')
# A call written out beside the message, where a JSON call starts (its end found by parsing):
# "Let's fetch your FD details.\n\n{"name": "get_fd_details", ...}", also in a wrapper the model
# made up ("<tools> {...} </tools>", "<xml>", a ```json fence), says nothing (round 18).
_CALL_BESIDE = re.compile(r'\{\s*"(name|tool)"\s*:\s*"[\w.-]+"\s*,\s*"arguments"\s*:')
_WRAPPER = re.compile(r"</?(tools|xml|tool_call)>|```(json)?")
_DECODER = json.JSONDecoder(strict=False)
_TAG = re.compile(r"<[^<>]*>")
_ONE_WORD = re.compile(r"^[a-z][a-z_]*$")
_WORDS = re.compile(r"[a-z']+[ ,]+[a-z']+", re.IGNORECASE)

# Words a sentence may end on with a full stop that is not the end of the sentence.
_ABBREVIATIONS = frozenset(
    {"rs", "no", "nos", "mr", "mrs", "ms", "dr", "approx", "p.a", "e.g", "i.e", "etc", "vs"}
    | {"a/c", "st", "ltd", "pvt", "incl", "min", "max", "viz", "re", "inr"}
)

# Line starts match spaces and tabs only: `\s*` there would run over every following newline
# from every line start, the square of the number of lines.
_MARKUP = (
    # "<?xml version="1.0"?>" in a tool call written out as text: markup, not a question.
    (re.compile(r"<\?[^<>]*\?>"), ""),
    (re.compile(r"[*`]+|__"), ""),
    (re.compile(r"^[ \t]*#{1,6}[ \t]*", re.MULTILINE), ""),
    (re.compile(r"^[ \t]*>[ \t]?", re.MULTILINE), ""),
    (re.compile(r"^[ \t]*(?:[-•+]|\d{1,2}[.)])[ \t]+", re.MULTILINE), ""),
    (re.compile(r"\|"), " "),
    (re.compile(r"[‘’]"), "'"),
    (re.compile(r"[“”]"), '"'),
)
_TABLE_ROW = re.compile(r"^[ \t]*\|[^\n]*\|[ \t]*$", re.MULTILINE)


def clean(text: str) -> str:
    """The turn without markdown emphasis, headings, bullets, quotes or table bars; a table
    row's question marks head its columns ("| Cancellation possible? |") and ask nothing."""
    text = _TABLE_ROW.sub(lambda row: row.group(0).replace("?", ""), text)
    for pattern, replacement in _MARKUP:
        text = pattern.sub(replacement, text)
    return text


def split(text: str) -> list[str]:
    """The turn cut into sentences; "Rs. 5,000" and "p.a." do not end one."""
    out: list[str] = []
    for line in clean(text).splitlines():
        line = re.sub(r"^[^\w\"'(₹]+", "", line.strip())
        if not line or re.fullmatch(r"[-:=_ ]+", line):
            continue
        held = ""
        for piece in re.split(r"(?<=[.!?])\s+", line):
            held = f"{held} {piece}" if held else piece
            last = held.rsplit(None, 1)[-1].lower()
            if last.endswith(".") and last.rstrip(".").lstrip("(") in _ABBREVIATIONS:
                continue
            out.append(held)
            held = ""
        if held:
            out.append(held)
    return out


def said(text: str) -> str:
    """What the turn says to the customer: the strings of a JSON reply, one a line; nothing for a
    tool call; any other text as written."""
    text = _XML_CALL.sub("", text)
    if _JSON_ENDS.match(text):
        try:  # strict=False: a reply's strings may hold raw line breaks
            value = json.loads(text, strict=False)
        except ValueError:
            pass
        else:
            return "" if _TOOL_CALL.match(text) else "\n".join(_strings(value))
    if beside_a_call(text):
        return _WRAPPER.sub("", _without_calls(text))
    return "" if _TOOL_CALL.match(text) else text


def _strings(value: object) -> Iterator[str]:
    """The strings a JSON value holds, in the order written (keys name fields; they say nothing,
    nor does a tool call written beside the message)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            # a field's one-word value ("status": "processing", "stage": "confirm_return") is
            # data the record holds, not a sentence said to the customer (round 22, tuning-20)
            if key != "function_call" and not (isinstance(item, str) and _ONE_WORD.match(item)):
                yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def _calls(text: str) -> Iterator[tuple[int, int]]:
    """Where each JSON call written out in the text starts and ends (unparsed ones left)."""
    at = 0
    while found := _CALL_BESIDE.search(text, at):
        try:
            _, end = _DECODER.raw_decode(text, found.start())
        except ValueError:
            end = found.end()
        else:
            yield found.start(), end
        at = end


def _without_calls(text: str) -> str:
    kept, at = [], 0
    for start, end in _calls(text):
        kept.append(text[at:start])
        at = end
    return "".join(kept) + text[at:]


def beside_a_call(text: str) -> bool:
    """The turn writes a tool call out as text and says something beside it (words, not tags)."""
    return next(_calls(text), None) is not None and bool(
        _WORDS.search(_TAG.sub("", _without_calls(text)))
    )
