"""Raw tool output pasted into a message: JSON blocks, fenced code and JSON-looking lines.

A value counts as told only in the agent's own words (SCORING.md): what a tool returned and the
agent pasted back is taken out before any reader sees the message (scoring/outputs.py `clean`).
"""

from __future__ import annotations

import json
import re

_FENCE = re.compile(r"```.*?(?:```|\Z)", re.DOTALL)
_JSON_LINE = re.compile(r'^[ \t]*"[^"\n]*"[ \t]*:.*$', re.MULTILINE)
_JSON_KEY = re.compile(r'"[^"\n]*"\s*:')
_CLOSER = {"{": "}", "[": "]"}
_OPENING = re.compile(r"[{\[]")


def _balanced_spans(text: str) -> dict[int, int]:
    """Each opening bracket that a later bracket balances -> the index just past that bracket,
    found in one pass (a string counts inside brackets only; a wrong closer voids the brackets
    open at that point). Linear in the text, however many brackets it holds."""
    spans: dict[int, int] = {}
    stack: list[tuple[int, str]] = []
    in_string = escaped = False
    for i, ch in enumerate(text):
        if in_string:
            in_string = escaped or ch != '"'
            escaped = not escaped and ch == "\\"
        elif ch == '"':
            in_string = bool(stack)
        elif ch in _CLOSER:
            stack.append((i, _CLOSER[ch]))
        elif ch in "}]" and stack:
            start, closer = stack.pop()
            if closer != ch:
                stack.clear()
            else:
                spans[start] = i + 1
    return spans


def _is_json(chunk: str) -> bool:
    """A bracketed chunk that holds a `"key":` pair or parses as JSON."""
    if _JSON_KEY.search(chunk):
        return True
    try:
        json.loads(chunk)
    except (ValueError, RecursionError):
        return False
    return True


# The keys of a reply written as a JSON object: {"message": "Your FD has been closed ..."} is the
# agent's words in an envelope, as real models write them (tau-bench's gpt-5-nano, many turns;
# the customer hears them: simulation/acts_text.py), and so are a record of what it did and what
# comes next ({"confirmation": ...}, {"status": "actions_completed", "summary": {"message": ...}},
# {"next_steps": [...], "security_note": ...}: tau-bench transcripts; hunt round 5). No tool's
# result has these keys at its top (a knowledge-base search's "note" and a service request's
# "details" are tool fields: not read as words).
_ENVELOPE_KEYS = frozenset(
    {"message", "response", "reply", "content", "text", "answer", "answers", "confirmation"}
    | {"summary", "notes", "next_steps", "what_happens_next", "important_note", "security_note"}
    | {"action_taken", "greeting"}
)
_ONE_WORD = re.compile(r"\S*")  # a field's one-word value ("status": "done") is data, not words


def _envelope(text: str) -> str | None:
    """The words of a reply written as one JSON object with a message-like key, or None."""
    stripped = text.strip()
    if not (stripped.startswith("{") and stripped.endswith("}")):
        return None
    try:
        value = json.loads(stripped, strict=False)
    except (ValueError, RecursionError):
        return None
    if not isinstance(value, dict):
        return None
    words = [w for k, v in value.items() if k.lower() in _ENVELOPE_KEYS for w in _strings(v)]
    return "\n".join(words) if words else None


def _strings(value: object) -> list[str]:
    """The sentences a reply's field holds: itself, or the strings of its items and fields (a
    nested field's one-word value is data)."""
    if isinstance(value, str):
        return [value]
    items = value.values() if isinstance(value, dict) else value if isinstance(value, list) else ()
    return [
        s
        for item in items
        for s in _strings(item)
        if not (isinstance(item, str) and _ONE_WORD.fullmatch(item))
    ]


def strip_raw(text: str) -> str:
    """The message without pasted raw tool output: JSON blocks, fenced code, JSON-looking lines."""
    # Every removal needs a fence's backtick, a bracket or a JSON line's quote: most messages
    # hold none (each looked for on its own: four scans for a character cost less than one for
    # a class of four).
    if "`" not in text and "{" not in text and "[" not in text and '"' not in text:
        return text
    said = _envelope(text)
    if said is not None:
        text = said
    while (stripped := _strip_once(text)) != text:  # a removal can expose another block
        text = stripped
    return text


def _strip_once(text: str) -> str:
    text = _FENCE.sub(" ", text)
    kept: list[str] = []
    last = 0
    opening = _OPENING.search(text)
    # One pass: a rescan per bracket costs the square of the text; none without a bracket.
    spans = _balanced_spans(text) if opening is not None else {}
    while opening is not None:  # from one opening bracket to the next, not char by char
        i = opening.start()
        if (end := spans.get(i, -1)) > 0 and _is_json(text[i:end]):
            kept.append(text[last:i] + " ")
            last = end
            opening = _OPENING.search(text, end)
        else:
            opening = _OPENING.search(text, i + 1)
    kept.append(text[last:])
    return _JSON_LINE.sub("", "".join(kept))
