"""The page's traces, packed to be decoded on demand, and the trace events gold ids name.

A 1,000-session run of a baseline agent carried 36 MB of trace JSON inline (issue 18): the
browser parsed all of it before the first paint. Each trace is now deflated and base64-encoded on
its own (about a tenth of the size) and decoded in the browser only when its session is opened,
with `DecompressionStream`. The page stays one file: a sidecar folder of scripts would also work
from file:// (fetch() of file:// is blocked in Chromium, a <script src> is not), but a CI artifact
or a mail attachment of the page alone would lose its traces.

Evidence names gold calls by id (`missing c3 ... after c2`); the scorer placed each gold id on
the first successful call that satisfies it. The same placement is recomputed here from the task
data so the page can link an id to that event and badge the event with the id.
"""

from __future__ import annotations

import base64
import json
import re
import zlib
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pytest_bankbench.errors import BankBenchError
from pytest_bankbench.report.document import Report
from pytest_bankbench.report.results_log import cut_short

if TYPE_CHECKING:
    from pytest_bankbench.tasks.model import Task

__all__ = [
    "TraceFileError",
    "foreign_traces",
    "gold_events",
    "load_trace_files",
    "pack_trace",
    "pack_traces",
    "unpack_trace",
]

GOLD_ID = re.compile(r"\bc\d+\b")


def trace_key(trace: Mapping[str, Any]) -> str:
    return f"{trace['task_id']}#{trace['trial']}"


def pack_trace(trace: Mapping[str, Any]) -> str:
    """One trace as base64 of its deflated (zlib-wrapped) compact JSON."""
    text = json.dumps(trace, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    return base64.b64encode(zlib.compress(text.encode("utf-8"), 9)).decode("ascii")


def unpack_trace(blob: str) -> Any:
    return json.loads(zlib.decompress(base64.b64decode(blob)).decode("utf-8"))


def pack_traces(traces: Iterable[Mapping[str, Any]]) -> dict[str, str]:
    """Packed traces by "task#trial"; a later trace of the same session replaces an earlier one."""
    return {trace_key(t): pack_trace(t) for t in traces}


class TraceFileError(BankBenchError, ValueError):
    """A traces file the page cannot take; the message names the file and the line."""


def load_trace_files(paths: Iterable[Path]) -> list[dict[str, Any]]:
    """Traces from --bank-traces folders or traces.jsonl files. A last line a crash cut short
    (no newline after it) is skipped; any other line that is no trace is a TraceFileError."""
    traces: list[dict[str, Any]] = []
    for path in paths:
        file = path / "traces.jsonl" if path.is_dir() else path
        text = file.read_text(encoding="utf-8")
        lines = text.splitlines()
        last = max((n for n, line in enumerate(lines, start=1) if line.strip()), default=0)
        for lineno, line in enumerate(lines, start=1):
            if not line.strip():
                continue
            try:
                item = json.loads(line)
            except json.JSONDecodeError:
                if cut_short(text, lineno, last):
                    continue  # a run killed mid-write leaves half a line; the rest is good
                item = None
            if not (isinstance(item, dict) and "task_id" in item and "trial" in item):
                raise TraceFileError(
                    f"{file}:{lineno}: not a trace; give the traces.jsonl written by --bank-traces"
                )
            traces.append(item)
    return traces


def foreign_traces(report: Report, traces: Iterable[Mapping[str, Any]]) -> str | None:
    """Why traces do not belong to the report (a session of it played by another agent), or
    None: the page would show one agent's dialogues under another's verdicts."""
    agent = (report.provenance.get("agent") or {}).get("model")
    mine = {(s.task_id, s.trial) for s in report.sessions}
    for trace in traces:
        other = trace.get("agent")
        if (trace["task_id"], trace["trial"]) in mine and other and agent and other != agent:
            return (
                f"the trace of {trace['task_id']} trial {trace['trial']} is agent {other!r}'s, "
                f"the report is agent {agent!r}'s; give the --bank-traces folder of this run"
            )
    return None


def _tasks(report: Report) -> dict[str, Task]:
    """The report's tasks when their data is at hand (shipped, or the file still exists)."""
    from pytest_bankbench.tasks.loader import load_tasks, shipped_tasks

    source = report.provenance.get("tasks_file", "shipped")
    try:
        if source in (None, "shipped"):
            tasks: Iterable[Task] = shipped_tasks()
        else:
            tasks = load_tasks(Path(str(source)))
    except (OSError, ValueError):
        return {}  # a report moved away from its task file: the ids stay plain text
    return {t.task_id: t for t in tasks}


def gold_events(report: Report, traces: Iterable[Mapping[str, Any]]) -> dict[str, dict[str, int]]:
    """For sessions whose evidence names gold ids: id -> index of the event that satisfied it."""
    from pytest_bankbench.scoring.scorer import assign_required
    from pytest_bankbench.simulation.trace import ToolEvent, Trace

    named: dict[str, set[str]] = {}
    for s in report.sessions:
        ids = {m for lines in s.evidence.values() for line in lines for m in GOLD_ID.findall(line)}
        if ids:
            named[f"{s.task_id}#{s.trial}"] = ids
    wanted = [t for t in traces if trace_key(t) in named]
    if not wanted:
        return {}
    tasks = _tasks(report)
    links: dict[str, dict[str, int]] = {}
    for raw in wanted:
        task = tasks.get(str(raw["task_id"]))
        if task is None:
            continue
        trace = Trace.model_validate(raw)
        ok = [(i, e) for i, e in enumerate(trace.events) if isinstance(e, ToolEvent) and e.ok]
        placed = assign_required(task, [e for _, e in ok])
        ids = named[trace_key(raw)]
        found = {g: ok[at][0] for g, at in placed.items() if at is not None and g in ids}
        if found:
            links[trace_key(raw)] = found
    return links
