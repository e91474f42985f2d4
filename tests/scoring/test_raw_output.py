"""scoring/raw_output.py: raw tool output pasted into a message is taken out, prose is kept."""

from __future__ import annotations

from collections.abc import Callable

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


@pytest.mark.parametrize(
    ("text", "kept", "gone"),
    [
        # A reply written as a JSON object: its message is the agent's words (tau-bench's
        # gpt-5-nano wrote most turns so; tests/scoring/real_sentences.txt round19:97).
        ('{"message": "Your balance is Rs. 5,000."}', "Rs. 5,000", '"message"'),
        ('{\n  "response": "Your FD has been closed."\n}', "has been closed", "{"),
        ('{"message": "Done.", "status": "done"}', "Done.", "status"),
        # A tool's result stays raw, in an envelope or not (no tool's result has such a key).
        ('{"balance": "322072.01", "status": "active"}', "", "322072.01"),
        ('{"message": "Here: {\\"balance\\": \\"322072.01\\"}"}', "Here:", "322072.01"),
        ('{"results": [{"title": "T", "text": "Rs 50,000 a day"}]}', "", "50,000"),
        # Records of what was done and what comes next (tau-bench transcripts; hunt round 5).
        ('{"confirmation": "Your FD has been closed."}', "has been closed", "confirmation"),
        (
            '{"status": "actions_completed", "summary": {"message": "Sent Rs 5,000."}}',
            "Sent Rs 5,000.",
            "actions_completed",
        ),
        ('{"next_steps": ["Visit the branch.", "Carry your PAN."]}', "Carry your PAN.", "["),
        # Tool fields are no words: a search's note, a request's details, a call written out.
        ('{"results": [], "note": "no article matches; try other keywords"}', "", "article"),
        ('{"kind": "complaint", "details": "ATM cash not dispensed"}', "", "dispensed"),
        (
            '{"name": "transfer_to_human_agent", "arguments": {"summary": "Disputed Rs 500"}}',
            "",
            "Disputed",
        ),
    ],
)
def test_a_reply_in_a_json_envelope_is_read_as_said(text: str, kept: str, gone: str) -> None:
    out = strip_raw(text)
    assert kept in out
    assert gone not in out


def _message(text: str) -> dict[str, object]:
    return {"message": text}


def _confirmation(text: str) -> dict[str, object]:
    return {"confirmation": text}


def _summary(text: str) -> dict[str, object]:
    return {"status": "actions_completed", "summary": {"message": text}}


@pytest.mark.parametrize("wrap", [_message, _confirmation, _summary])
def test_gold_written_as_json_objects_passes_in_every_family(
    wrap: Callable[[str], dict[str, object]],
) -> None:
    """Every agent turn of one gold session per family wrapped as {"message": ...} (or as a
    record of what was done: {"confirmation": ...}, {"status": ..., "summary": {"message":
    ...}}): the verdict is gold's (before, 100 of 100 sampled sessions failed: the whole reply
    was taken for raw output; the two records, every write family, hunt round 5)."""
    import json

    from pytest_bankbench.tasks.loader import shipped_tasks
    from tests.scoring.sessions import agent_turns, failed, gold, say, text_at

    seen: set[str] = set()
    for task in shipped_tasks():
        if task.family in seen:
            continue
        seen.add(task.family)
        trace = gold(task.task_id)
        for at in agent_turns(trace):
            trace = say(trace, at, json.dumps(wrap(text_at(trace, at)), indent=2))
        assert failed(task, trace) == {}, task.task_id
