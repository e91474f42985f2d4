"""The fine-tuning export: gold dialogues in the OpenAI chat format, deterministic."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from pytest_bankbench.bank.registry import all_tools
from pytest_bankbench.cli import main
from pytest_bankbench.tasks.loader import select, shipped_tasks


def test_export_lite_split(tmp_path: Path) -> None:
    out = tmp_path / "sft.jsonl"
    assert main(["export-sft", "--split", "lite", "--out", str(out)]) == 0
    lines = out.read_text().splitlines()
    assert len(lines) == len(select(shipped_tasks(), "lite"))
    tool_names = set()
    for line in lines:
        record = json.loads(line)
        messages = record["messages"]
        assert messages[0]["role"] == "system" and "Suvarna" in messages[0]["content"]
        assert messages[1]["role"] == "user"
        for index, message in enumerate(messages):
            if message.get("tool_calls"):
                ids = [c["id"] for c in message["tool_calls"]]
                answers = messages[index + 1 : index + 1 + len(ids)]
                assert [m["role"] for m in answers] == ["tool"] * len(ids)
                assert [m["tool_call_id"] for m in answers] == ids
                for call in message["tool_calls"]:
                    json.loads(call["function"]["arguments"])
                    tool_names.add(call["function"]["name"])
        assert len(record["tools"]) == len(all_tools())
    # Every tool the lite split's gold chains call is in the dialogues (derived, not pinned).
    assert tool_names == {c.tool for t in select(shipped_tasks(), "lite") for c in t.gold}


def test_export_is_deterministic_and_train_only(tmp_path: Path) -> None:
    one, two = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    main(["export-sft", "--split", "train", "--out", str(one)])
    main(["export-sft", "--split", "train", "--out", str(two)])
    assert one.read_bytes() == two.read_bytes()
    exported = {json.loads(line)["task_id"] for line in one.read_text().splitlines()}
    assert exported == {t.task_id for t in select(shipped_tasks(), "train")}


def test_the_summary_counts_distinct_openings_and_turns(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "sft.jsonl"
    assert main(["export-sft", "--split", "train", "--out", str(out)]) == 0
    records = [json.loads(line) for line in out.read_text().splitlines()]
    said = [
        [m["content"] for m in r["messages"] if m["role"] == "assistant" and m.get("content")]
        for r in records
    ]
    openings = {turns[0] for turns in said}
    turns = {text for texts in said for text in texts}
    summary = capsys.readouterr().out
    assert f"wrote {len(records)} gold dialogues" in summary
    assert f"{len(openings)} distinct openings, {len(turns)} distinct assistant turns" in summary
    # Issue 17: 475 of 480 train dialogues opened with one sentence.
    assert 3 * len(openings) >= len(records)
    first_sentences = {re.split(r"(?<=[.!?])\s", turns[0])[0] for turns in said}
    assert len(first_sentences) > 3


@pytest.mark.parametrize("where", ["folder", "/proc/x.jsonl"])
def test_an_unwritable_out_is_refused_before_any_dialogue_is_played(
    where: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """User trial: a folder or a system path ended in a raw traceback after the work was done."""
    out = tmp_path if where == "folder" else Path(where)
    assert main(["export-sft", "--split", "lite", "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: --out '{out}'") and len(err.splitlines()) == 1
