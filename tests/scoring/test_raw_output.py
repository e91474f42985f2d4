"""scoring/raw_output.py: raw tool output pasted into a message is taken out, prose is kept."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pytest_bankbench.scoring.raw_output import strip_raw


@pytest.mark.parametrize(
    ("text", "kept", "gone"),
    [
        ('Due: Rs. 500 {"minimum_due": "1258.05"}', "Rs. 500", "1258.05"),
        ('Due: Rs. 500 [{"due": 1258.05}, {"due": 7}]', "Rs. 500", "1258.05"),
        ("Due: Rs. 500 [1258.05, 7]", "Rs. 500", "1258.05"),
        ("Due: Rs. 500\n```\nminimum_due: 1258.05\n```\nbye", "bye", "1258.05"),
        ("Due: Rs. 500\n```json\n{}\n", "Rs. 500", "json"),
        ('Due: Rs. 500\n  "minimum_due": "1258.05",\n  "status": "ok"\nbye', "bye", "1258.05"),
        ('Due: Rs. 500 {"a": {"b": [1, {"c": "}"}]}} end', "end", '"c"'),
        ('Rs. 500 {"note": "a \\" quote", "due": 1258.05} end', "end", "1258.05"),
    ],
)
def test_strip_raw_drops_tool_output(text: str, kept: str, gone: str) -> None:
    out = strip_raw(text)
    assert kept in out
    assert gone not in out


@pytest.mark.parametrize(
    "text",
    [
        "Your minimum due is Rs. 1,258.05 [as of today].",
        "Options: {open an FD, close it}",
        "Unbalanced [ bracket and { brace",
        'She said "yes": fine.',
        "Wrong nesting [like {this] } here",
    ],
)
def test_strip_raw_keeps_prose(text: str) -> None:
    assert strip_raw(text) == text


@given(st.text(st.characters(blacklist_characters='{}[]`"'), max_size=200))
def test_strip_raw_leaves_text_without_raw_markers(text: str) -> None:
    assert strip_raw(text) == text


@given(st.text(st.sampled_from('{}[]"`:,\\ \nab1'), max_size=60))
def test_strip_raw_is_idempotent(text: str) -> None:
    once = strip_raw(text)
    assert strip_raw(once) == once
