"""The fine-tuning export: gold dialogues in the OpenAI chat format, deterministic."""

from __future__ import annotations

import json
from pathlib import Path

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
    assert len(tool_names) >= 30


def test_export_is_deterministic_and_train_only(tmp_path: Path) -> None:
    one, two = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    main(["export-sft", "--split", "train", "--out", str(one)])
    main(["export-sft", "--split", "train", "--out", str(two)])
    assert one.read_bytes() == two.read_bytes()
    exported = {json.loads(line)["task_id"] for line in one.read_text().splitlines()}
    assert exported == {t.task_id for t in select(shipped_tasks(), "train")}
