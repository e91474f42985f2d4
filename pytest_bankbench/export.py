"""Fine-tuning export: gold dialogues (gold agent x scripted customer) as chat JSONL."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from pytest_bankbench.bank.registry import tool_schemas
from pytest_bankbench.runner import builtin_agent, run_task
from pytest_bankbench.simulation.chat import Message, to_chat
from pytest_bankbench.tasks.loader import select, shipped_tasks


@dataclass(frozen=True)
class Exported:
    """What an export wrote: how many dialogues, and how varied the assistant's words are."""

    dialogues: int
    openings: int  # distinct first assistant messages
    turns: int  # distinct assistant messages with text

    def summary(self, split: str, out: Path) -> str:
        return (
            f"wrote {self.dialogues} gold dialogues of the {split} split to {out} "
            f"({self.openings} distinct openings, {self.turns} distinct assistant turns)"
        )


def _assistant_texts(messages: list[Message]) -> list[str]:
    return [m["content"] for m in messages if m["role"] == "assistant" and m.get("content")]


def export_sft(split: str, out: Path) -> Exported:
    """Write one conversation per line (messages + tools, OpenAI format)."""
    tasks = select(shipped_tasks(), split)
    tools = tool_schemas()
    lines = []
    openings: set[str] = set()
    turns: set[str] = set()
    for task in tasks:
        result = run_task(task, builtin_agent("gold", task))
        if not result.verdict.passed:  # pragma: no cover - the construction filter prevents it
            raise RuntimeError(f"{task.task_id}: the gold dialogue does not pass; not exported")
        messages = to_chat(result.trace.events)
        said = _assistant_texts(messages)
        openings.update(said[:1])
        turns.update(said)
        record = {"task_id": task.task_id, "messages": messages, "tools": tools}
        lines.append(json.dumps(record, ensure_ascii=False, sort_keys=True))
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return Exported(len(lines), len(openings), len(turns))
