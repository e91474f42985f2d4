"""Fine-tuning export: gold dialogues (gold agent x scripted customer) as chat JSONL."""

from __future__ import annotations

import json
from pathlib import Path

from pytest_bankbench.bank.registry import tool_schemas
from pytest_bankbench.runner import builtin_agent, run_task
from pytest_bankbench.simulation.chat import to_chat
from pytest_bankbench.tasks.loader import select, shipped_tasks


def export_sft(split: str, out: Path) -> int:
    """Write one conversation per line (messages + tools, OpenAI format); returns the count."""
    tasks = select(shipped_tasks(), split)
    tools = tool_schemas()
    lines = []
    for task in tasks:
        result = run_task(task, builtin_agent("gold", task))
        if not result.verdict.passed:  # pragma: no cover - the construction filter prevents it
            raise RuntimeError(f"{task.task_id}: the gold dialogue does not pass; not exported")
        record = {"task_id": task.task_id, "messages": to_chat(result.trace.events), "tools": tools}
        lines.append(json.dumps(record, ensure_ascii=False, sort_keys=True))
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return len(lines)
