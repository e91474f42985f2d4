"""The self-contained HTML report: offline, escaped, round-tripping data; and in headless Chromium.

The browser tests use Debian's `chromium` package (/usr/bin/chromium) through its command line
only: `--dump-dom` of the page opened with `#selftest` at 1,280 px (the page sorts, opens the
first failing session, follows an evidence link, reads the provenance panel and the filters
itself, then writes the outcome into the DOM), and `--screenshot`. A virtual-time budget lets
the asynchronous trace decoding finish before the dump. They are skipped, with the reason, when
the binary is absent.
"""

from __future__ import annotations

import html
import json
import re
import shutil
import struct
import subprocess
import zlib
from datetime import UTC, datetime
from importlib.resources import files
from pathlib import Path
from typing import Any

import pytest

from pytest_bankbench import __version__
from pytest_bankbench.bank.diff import FieldChange, RowChange
from pytest_bankbench.report.document import Report, build_report
from pytest_bankbench.report.html import embed_json, render_html, write_html
from pytest_bankbench.report.html_traces import pack_trace, unpack_trace
from pytest_bankbench.report.metrics import SessionRecord, summarize
from pytest_bankbench.run.cases import BankCase, session_seed
from pytest_bankbench.run.play import record_of
from pytest_bankbench.runner import builtin_agent, run_task
from pytest_bankbench.simulation.trace import MessageEvent, ToolCall, ToolEvent, Trace
from pytest_bankbench.tasks.loader import select, shipped_tasks

RUN_STARTED = "2026-05-18T09:30:00Z"
PAISE_DIFF = "- expected update accounts[501] balance: 9564819 -> 13086797, status: 1 -> 2"
NASTY = "</script><b>bold</b> <!-- & \"double\" 'single' </SCRIPT > \u2028 ₹5,000"
DATA_TAG = re.compile(r'<script type="application/json" id="bank-data">(.*?)</script>', re.S)


def _record(task: str, *, passed: bool, evidence: dict[str, list[str]]) -> SessionRecord:
    checks = {
        "ended_normally": True,
        "required_calls": True,
        "write_purity": True,
        "final_state": passed,
        "required_outputs": True,
    }
    return SessionRecord(
        task_id=task,
        trial=0,
        seed=1,
        family=task.rsplit("-", 1)[0],
        category="sequencing",
        service_area="deposits",
        chain_length=3,
        graded=True,
        outcome="scored",
        passed=passed,
        final_state_pass=passed,
        false_pass=False,
        failure_type=None if passed else "wrong_final_state",
        checks=checks,
        evidence=evidence,
        end="customer_stop",
        steps=3,
        failed_calls=1,
    )


def _report(records: list[SessionRecord], trials: int = 1, agent: str = "gold") -> Report:
    """A report of these records with a small provenance."""
    provenance = {
        "package": "pytest-bankbench",
        "version": __version__,
        "split": "lite",
        "agent": {"model": agent, "builtin": True, "parameters": {}},
        "customer": {"model": "scripted"},
        "trials": trials,
        "run_started": RUN_STARTED,
    }
    return build_report(provenance, summarize(records, trials), records, 1.234, {})


def _trace(task: str) -> dict[str, Any]:
    trace = Trace(
        task_id=task,
        trial=0,
        seed=1,
        agent="gold",
        customer="scripted",
        events=(
            MessageEvent(role="customer", text=f"Close my FD {NASTY}"),
            ToolEvent(
                call=ToolCall(call_id="c1", name="close_fd", arguments={"note": NASTY}),
                tool_kind="write",
                ok=False,
                error_code="policy_violation",
                error=NASTY,
            ),
            MessageEvent(role="agent", text="Done."),
        ),
        end="customer_stop",
        steps=3,
        failed_calls=1,
        changes=(
            RowChange(
                table="deposits",
                key="FD1",
                op="update",
                fields=(FieldChange(field="status", before="open", after=NASTY),),
            ),
        ),
    )
    return trace.model_dump(mode="json")


def _embedded(page: str) -> Any:
    match = DATA_TAG.search(page)
    assert match is not None
    return json.loads(match.group(1))


@pytest.fixture
def small() -> tuple[Report, list[dict[str, Any]]]:
    records = [
        _record("fd_closure-001", passed=True, evidence={}),
        _record("fd_closure-002", passed=False, evidence={"final_state": [NASTY, "- expected x"]}),
    ]
    return _report(records), [_trace("fd_closure-002")]


# -- unit tests -----------------------------------------------------------------------------------
def test_page_needs_no_network(small: tuple[Report, list[dict[str, Any]]]) -> None:
    page = render_html(*small)
    assert "http://" not in page and "https://" not in page
    assert not re.search(
        r"<link\b|<img\b|<iframe\b|<script[^>]*\bsrc\s*=|@import|url\(", page, re.I
    )
    assert page.count("<script") == 3  # the error hook, the data, the code: all inline


def test_embedded_json_round_trips(small: tuple[Report, list[dict[str, Any]]]) -> None:
    report, traces = small
    data = _embedded(render_html(report, traces))
    assert data["report"] == report.to_json()
    assert {k: unpack_trace(v) for k, v in data["traces"].items()} == {
        f"{t['task_id']}#{t['trial']}": t for t in traces
    }


def test_traces_of_other_sessions_are_left_out(small: tuple[Report, list[dict[str, Any]]]) -> None:
    report, traces = small
    stray = _trace("not_in_this_report-001")
    assert _embedded(render_html(report, [*traces, stray]))["traces"].keys() == {"fd_closure-002#0"}


def test_packed_trace_is_smaller_and_round_trips() -> None:
    trace = _trace("fd_closure-002")
    trace["events"] = trace["events"] * 40  # a long session repeats its tool's JSON
    blob = pack_trace(trace)
    assert unpack_trace(blob) == trace
    assert len(blob) * 4 < len(json.dumps(trace))


def test_a_baselines_traces_add_under_a_quarter_of_their_json_to_the_page() -> None:
    """Issue 18's size bound on a real baseline: the page before embedded each trace as JSON;
    packed, the traces of paste-everything's sessions (the largest: every read pasted back)
    add under a quarter of that to the page."""
    tasks = select(shipped_tasks(), "lite")[::5]
    records: list[SessionRecord] = []
    traces: list[dict[str, Any]] = []
    for task in tasks:
        case = BankCase(task, 0, session_seed(task.task_id, 0))
        result = run_task(task, builtin_agent("paste-everything", task), trial=0, seed=case.seed)
        records.append(record_of(case, result))
        traces.append(result.trace.model_dump(mode="json"))
    report = _report(records, agent="paste-everything")
    added = len(render_html(report, traces).encode()) - len(render_html(report, []).encode())
    as_json = len(json.dumps(traces).encode())
    assert 0 < added * 4 < as_json, (added, as_json)


def test_special_characters_are_escaped(small: tuple[Report, list[dict[str, Any]]]) -> None:
    page = render_html(*small)
    data = DATA_TAG.search(page)
    assert data is not None
    # Inside the data block no markup-significant character survives literally ...
    assert not set(data.group(1)) & {"<", ">", "&", "\u2028", "\u2029"}
    # ... so the evidence cannot close the script element or open a tag anywhere in the page.
    assert "<b>bold</b>" not in page and "<!--" not in page
    assert len(re.findall(r"</script", page, re.I)) == 3
    assert json.loads(embed_json(NASTY)) == NASTY


def test_title_is_escaped() -> None:
    page = render_html(_report([], agent="<i>x</i> & __DATA__"), [])
    assert "<title>Bank benchmark — &lt;i&gt;x&lt;/i&gt; &amp; __DATA__ (lite)</title>" in page


def test_empty_run_renders() -> None:
    report = _report([])
    page = render_html(report, [])
    assert page.startswith("<!DOCTYPE html>") and page.rstrip().endswith("</html>")
    data = _embedded(page)
    assert data["report"] == report.to_json() and data["traces"] == {}


def test_assets_are_package_data_filled_once() -> None:
    # The page, CSS and JS ship as files in report/assets/; each placeholder appears once, and
    # neither the CSS nor the JS can end its own element early.
    assets = files("pytest_bankbench.report") / "assets"
    page = (assets / "report.html").read_text(encoding="utf-8")
    for name in ("TITLE", "CSS", "JS", "DATA"):
        assert page.count(f"__{name}__") == 1, name
    assert not re.search(r"</style", (assets / "report.css").read_text(encoding="utf-8"), re.I)
    assert not re.search(r"</script", (assets / "report.js").read_text(encoding="utf-8"), re.I)


def test_write_html_is_atomic(tmp_path: Path, small: tuple[Report, list[dict[str, Any]]]) -> None:
    target = tmp_path / "out" / "report.html"
    when = datetime(2026, 5, 1, 9, 30, tzinfo=UTC)
    write_html(target, _report([]), [])
    write_html(target, *small, when)  # replaces the previous page
    assert target.read_text(encoding="utf-8") == render_html(*small, when)
    assert _embedded(render_html(*small, when))["written"] == "2026-05-01 09:30 UTC"
    assert [p.name for p in target.parent.iterdir()] == ["report.html"]


# -- headless Chromium ----------------------------------------------------------------------------
CHROMIUM = Path("/usr/bin/chromium")
needs_chromium = pytest.mark.skipif(
    not CHROMIUM.exists(),
    reason="/usr/bin/chromium not installed (Debian: apt-get install -y chromium)",
)
AGENTS = ("gold", "claim-done", "write-everything", "lookup-only")
TRIALS = 2


@pytest.fixture(scope="module")
def real_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Report]:
    """20 shipped lite tasks, 2 trials, built-in agents in rotation; one trace left out."""
    tasks = select(shipped_tasks(), "lite")[::10]
    records: list[SessionRecord] = []
    traces: list[dict[str, Any]] = []
    for i, task in enumerate(tasks):
        for trial in range(TRIALS):
            case = BankCase(task, trial, session_seed(task.task_id, trial))
            agent = builtin_agent(AGENTS[(i + trial) % len(AGENTS)], task)
            result = run_task(task, agent, trial=trial, seed=case.seed)
            records.append(record_of(case, result))
            traces.append(result.trace.model_dump(mode="json"))
    report = _report(records, TRIALS, agent="mixed built-ins")
    failing = next(s for s in report.sessions if not s.passed)
    failing.evidence.setdefault("final_state", []).extend([NASTY, PAISE_DIFF])
    last = [s for s in report.sessions if not s.passed][-1]  # opens without its trace
    traces = [t for t in traces if (t["task_id"], t["trial"]) != (last.task_id, last.trial)]
    page = tmp_path_factory.mktemp("html") / "report.html"
    write_html(page, report, traces)
    return page, report


def _chromium(profile: Path, *args: str) -> subprocess.CompletedProcess[str]:
    command = [
        str(CHROMIUM),
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--hide-scrollbars",
        f"--user-data-dir={profile}",
        "--enable-logging=stderr",
        "--v=0",
        *args,
    ]
    return subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)


def _selftest(page: Path, profile: Path) -> tuple[str, dict[str, Any], str]:
    done = _chromium(
        profile,
        "--window-size=1280,900",
        "--virtual-time-budget=20000",
        "--dump-dom",
        page.as_uri() + "#selftest",
    )
    assert done.returncode == 0, done.stderr[-2000:]
    dom = done.stdout
    match = re.search(r'<pre id="selftest-result"[^>]*>(.*?)</pre>', dom, re.S)
    assert match is not None, dom[:2000]
    return dom, json.loads(html.unescape(match.group(1))), done.stderr


@needs_chromium
def test_browser_renders_charts_rows_and_opens_a_trace(
    real_run: tuple[Path, Report], tmp_path: Path
) -> None:
    page, report = real_run
    dom, result, stderr = _selftest(page, tmp_path / "profile")
    assert "<title>selftest:ok</title>" in dom, result
    assert result["errors"] == [] and "Uncaught" not in stderr
    assert result["ok"] is True
    expected = {
        "charts_have_bars", "rows_rendered", "detail_open", "evidence_shown", "failing_check_first",
        "evidence_is_text", "trace_tools", "trace_messages", "trace_end", "changes",
        "detail_closes", "no_trace_opens", "chart_click_filters", "filter_status", "filter_search",
        "no_overflow", "provenance", "sort_ascending", "sort_descending",
        "sort_status_failed_first", "trials_view", "evidence_links", "evidence_link_flashes",
    }  # fmt: skip
    assert set(result["checks"]) == expected and all(result["checks"].values())
    summary = report.summary
    groups = len(summary.by_category) + len(summary.by_service_area)
    groups += len(summary.by_chain_length)
    assert dom.count('class="bar bar-pass"') == groups == dom.count('class="bar bar-final"')
    assert dom.count('class="bar bar-fail"') == len(summary.failure_types)
    assert dom.count('class="bar bar-k"') == TRIALS
    assert dom.count('class="srow"') == len(report.sessions)
    # The first failing session is left open: its evidence is text, not markup.
    first = next(s for s in report.sessions if not s.passed)
    assert result["failing_key"] == f"{first.task_id}#{first.trial}"
    assert "&lt;/script&gt;&lt;b&gt;bold&lt;/b&gt;" in dom and "<b>bold</b>" not in dom
    # A paise field of a row diff reads in rupees (Indian grouping); other integers stay as is.
    assert "balance: Rs 95,648.19 -&gt; Rs 1,30,867.97, status: 1 -&gt; 2" in dom
    assert result["evidence_links"] > 0
    # The provenance panel: when the run started, apart from when the page was written.
    assert f'data-prov="Run started">{RUN_STARTED}</dd>' in dom
    assert 'data-prov="Report written">' in dom


@needs_chromium
def test_browser_renders_an_empty_run(tmp_path: Path) -> None:
    page = tmp_path / "empty.html"
    write_html(page, _report([]), [])
    dom, result, _ = _selftest(page, tmp_path / "profile")
    assert result["ok"] is True and result["errors"] == [], result
    assert "This run has no sessions." in dom


@needs_chromium
def test_browser_handles_a_thousand_sessions_lazily(tmp_path: Path) -> None:
    """1,000 sessions without traces: rows come in chunks, every session still opens."""
    areas, categories = ("cards", "deposits", "everyday", "loans"), ("control", "edge_case")
    longest = max((t.task_id for t in shipped_tasks()), key=len)
    records = [
        _record(
            f"{longest[:-4]}-{i:03d}", passed=i % 3 == 0, evidence={"final_state": ["x"]}
        ).model_copy(
            update={
                "service_area": areas[i % 4],
                "category": categories[i % 2],
                "false_pass": i % 3 == 1,
                "end": "customer_error",
                "failure_type": None if i % 3 == 0 else "acted_without_consent",
                "trial": i // 500,
            }
        )
        for i in range(1000)
    ]
    page = tmp_path / "big.html"
    write_html(page, _report(records, trials=2), [])
    dom, result, _ = _selftest(page, tmp_path / "profile")
    assert result["ok"] is True and result["errors"] == [], result
    assert result["checks"]["more_rows"] and result["checks"]["no_trace_opens"]
    assert result["checks"]["no_overflow"] and result["width"] == 1280
    assert dom.count('class="srow"') == 150  # the first chunk only, after the filters reset
    # A false pass is a failed session, and its badge says so first.
    badges = re.findall(
        r'data-status="false_pass"[^>]*><td><span class="badge[^"]*"[^>]*>([^<]*)', dom
    )
    assert badges and all(b.startswith("failed") for b in badges)


@needs_chromium
def test_browser_overflow_check_can_fail(tmp_path: Path) -> None:
    """The 1,280 px check sees a row wider than the page (an unbreakable 400-character id)."""
    page = tmp_path / "wide.html"
    write_html(page, _report([_record("x" * 400 + "-001", passed=False, evidence={})]), [])
    _, result, _ = _selftest(page, tmp_path / "profile")
    assert result["checks"]["no_overflow"] is False


@needs_chromium
def test_screenshot_is_a_full_non_blank_page(real_run: tuple[Path, Report], tmp_path: Path) -> None:
    page, _ = real_run
    png = tmp_path / "report.png"
    done = _chromium(
        tmp_path / "profile", f"--screenshot={png}", "--window-size=1280,1600", page.as_uri()
    )
    assert done.returncode == 0 and png.exists(), done.stderr[-2000:]
    width, height, rows = _png_rows(png.read_bytes())
    assert (width, height) == (1280, 1600)
    assert png.stat().st_size > 40_000
    assert len(set(rows)) > 300  # a blank page has a handful of distinct scanlines


def _png_rows(data: bytes) -> tuple[int, int, list[bytes]]:
    """Width, height and the (filtered) scanlines of an 8-bit RGB/RGBA PNG."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, header = 8, b"", b""
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos : pos + 4])
        kind, body = data[pos + 4 : pos + 8], data[pos + 8 : pos + 8 + length]
        if kind == b"IHDR":
            header = body
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    width, height, depth, colour = struct.unpack(">IIBB", header[:10])
    assert depth == 8 and colour in (2, 6)
    stride = 1 + width * (3 if colour == 2 else 4)
    raw = zlib.decompress(idat)
    assert len(raw) == stride * height
    return width, height, [raw[i : i + stride] for i in range(0, len(raw), stride)]


@pytest.mark.skipif(shutil.which("node") is None, reason="needs node to run the page's script")
def test_the_sessions_card_says_where_the_selected_sessions_went() -> None:
    """User trial: "Sessions 0 · 0 tasks × 1 trial(s)" beside 4 selected, all infra errors."""
    js = (files("pytest_bankbench.report") / "assets" / "report.js").read_text(encoding="utf-8")
    script = js[js.index("function sessionsLine") :]
    script = script[: script.index("\n}\n") + 3]
    for summary, shown in (
        (
            {
                "sessions": 0,
                "tasks": 0,
                "trials": 1,
                "accounting": {
                    "selected": 4,
                    "scored": 0,
                    "infra_errors": 4,
                    "harness_errors": 0,
                    "lost": 0,
                    "not_run": 0,
                },
            },
            "4 selected, 0 scored, 4 infra errors",
        ),
        (
            {"sessions": 2, "tasks": 2, "trials": 1, "accounting": {"selected": 2}},
            "2 tasks × 1 trial(s)",
        ),
    ):
        program = f"const num = (n) => String(n);\n{script}\nconsole.log(sessionsLine({json.dumps(summary)}));"
        ran = subprocess.run(["node", "-e", program], capture_output=True, text=True, check=True)
        assert ran.stdout.strip() == shown
