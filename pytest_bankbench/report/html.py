"""A self-contained HTML report: headline numbers, charts, and every session with its trace.

One file, no network: the page, its CSS and its vanilla JS (package data in
``report/assets/``: ``report.html``, ``report.css``, ``report.js``) are put inline, with the
report embedded as JSON in a ``<script type="application/json">`` tag and each trace packed
on its own, decoded only when its session is opened (report/html_traces.py says why). Charts are
inline SVG drawn in the browser; all data reaches the page through ``textContent``/attributes,
never through markup, so evidence or tool output containing ``<``, ``&`` or ``</script>`` is
shown as text.

Opening the file with ``#selftest`` appended to the URL runs a small in-page check (used by
the headless-Chromium tests): it checks the 1,280 px fit, the provenance panel and column
sorting, opens the first failing session (its decoded trace, evidence and trials), follows an
evidence link to its trace event, checks the filters, and writes the outcome to
``#selftest-result`` and ``document.title``.
"""

from __future__ import annotations

import html
import json
import re
from datetime import UTC, datetime
from functools import cache
from importlib.resources import files
from pathlib import Path
from typing import Any

from pytest_bankbench.money import PAISE_FIELDS
from pytest_bankbench.report.document import Report
from pytest_bankbench.report.html_traces import gold_events, pack_traces
from pytest_bankbench.report.output import write_atomic

__all__ = ["embed_json", "page_data", "render_html", "write_html"]


def embed_json(value: Any) -> str:
    """JSON that is safe inside a script element: no ``<``, ``>`` or ``&`` appears literally.

    The characters only occur inside JSON strings, where ``\\u003c`` etc. mean the same thing,
    so ``JSON.parse`` (and ``json.loads``) return the original value.
    """
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    for raw, escaped in (
        ("&", "\\u0026"),
        ("<", "\\u003c"),
        (">", "\\u003e"),
        ("\u2028", "\\u2028"),
        ("\u2029", "\\u2029"),
    ):
        text = text.replace(raw, escaped)
    return text


@cache
def _asset(name: str) -> str:
    """A file of report/assets/, read once per process."""
    return (files("pytest_bankbench.report") / "assets" / name).read_text(encoding="utf-8")


def page_data(
    report: Report, traces: list[dict[str, Any]], written: datetime | None = None
) -> dict[str, Any]:
    """What the page embeds: the report, packed traces, gold-id links and the page's date."""
    when = written or datetime.now(UTC)
    # Only the report's own sessions: a shard's or an earlier run's traces would only add bytes.
    keys = {(s.task_id, s.trial) for s in report.sessions}
    traces = [t for t in traces if (t.get("task_id"), t.get("trial")) in keys]
    return {
        "report": report.to_json(),
        "traces": pack_traces(traces),
        "gold_events": gold_events(report, traces),
        "money_fields": sorted(PAISE_FIELDS),
        "written": when.strftime("%Y-%m-%d %H:%M UTC"),
    }


def render_html(
    report: Report, traces: list[dict[str, Any]], written: datetime | None = None
) -> str:
    """The whole page as a string; `traces` are ``Trace.model_dump(mode="json")`` dicts;
    `written` is the date the provenance panel shows (now, unless the report names one)."""
    agent = report.label("unknown agent")
    split = report.provenance.get("split") or ""
    title = f"Bank benchmark — {agent}" + (f" ({split})" if split else "")
    parts = {
        "TITLE": html.escape(str(title)),
        "CSS": _asset("report.css"),
        "JS": _asset("report.js"),
        "DATA": embed_json(page_data(report, traces, written)),
    }
    # One pass over the template: text put in is never scanned for placeholders again.
    return re.sub(r"__(TITLE|CSS|JS|DATA)__", lambda m: parts[m.group(1)], _asset("report.html"))


def write_html(
    path: Path, report: Report, traces: list[dict[str, Any]], written: datetime | None = None
) -> None:
    """Write the page atomically (report/output.py)."""
    write_atomic(path, render_html(report, traces, written))
