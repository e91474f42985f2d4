"""`render REPORT --html OUT` and `merge --html --traces`: pages of finished runs, with traces.

Two real shards of a small run (a built-in agent, a few families) are made once by pytest in a
subprocess; the merged page is opened in headless Chromium (helpers of test_html.py).
"""

from __future__ import annotations

import os
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest

from pytest_bankbench.cli import main
from pytest_bankbench.report.document import read_report
from pytest_bankbench.report.html_traces import unpack_trace
from tests.report.test_html import _embedded, _selftest, needs_chromium

SHARDS = 2


@pytest.fixture(scope="module")
def shards(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """s1.json, s2.json with their --bank-traces folders t1, t2: two shards of one run."""
    where = tmp_path_factory.mktemp("shards")
    for i in range(1, SHARDS + 1):
        command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"]
        command += ["--bank-model", "claim-done", "--bank-split", "lite"]
        command += ["--bank-shard", f"{i}/{SHARDS}", "--bank-report", f"s{i}.json"]
        command += ["--bank-traces", f"t{i}", "-k", "fd_closure or card_block"]
        done = subprocess.run(
            command,
            cwd=where,
            capture_output=True,
            text=True,
            env=os.environ.copy(),
            timeout=300,
            check=False,
        )
        assert (where / f"s{i}.json").is_file(), done.stdout[-2000:] + done.stderr[-2000:]
    return where


def _keys(report: Path) -> set[str]:
    return {f"{s.task_id}#{s.trial}" for s in read_report(report).sessions}


def test_render_writes_the_page_with_its_traces(
    shards: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "page.html"
    assert main(["render", str(shards / "s1.json"), "--html", str(out), "--traces", str(shards / "t1")]) == 0  # fmt: skip
    data = _embedded(out.read_text(encoding="utf-8"))
    assert data["report"] == read_report(shards / "s1.json").to_json()
    assert set(data["traces"]) == _keys(shards / "s1.json")
    first = unpack_trace(next(iter(data["traces"].values())))
    assert f"{first['task_id']}#{first['trial']}" in data["traces"]
    # The page's date is the report file's, not the moment it was re-rendered.
    mtime = datetime.fromtimestamp((shards / "s1.json").stat().st_mtime, UTC)
    assert data["written"] == mtime.strftime("%Y-%m-%d %H:%M UTC")
    assert str(out) in capsys.readouterr().out


def test_render_keeps_only_the_reports_traces(shards: Path, tmp_path: Path) -> None:
    out = tmp_path / "page.html"
    traces = ["--traces", str(shards / "t1"), "--traces", str(shards / "t2" / "traces.jsonl")]
    assert main(["render", str(shards / "s2.json"), "--html", str(out), *traces]) == 0
    assert set(_embedded(out.read_text(encoding="utf-8"))["traces"]) == _keys(shards / "s2.json")


def test_render_without_traces_still_renders(shards: Path, tmp_path: Path) -> None:
    out = tmp_path / "page.html"
    assert main(["render", str(shards / "s1.json"), "--html", str(out)]) == 0
    assert _embedded(out.read_text(encoding="utf-8"))["traces"] == {}


@pytest.mark.parametrize("bad", ["report", "traces"])
def test_render_names_bad_input(
    bad: str, shards: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "nowhere"
    report = missing if bad == "report" else shards / "s1.json"
    args = ["render", str(report), "--html", str(tmp_path / "p.html")]
    if bad == "traces":
        args += ["--traces", str(missing)]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and str(missing) in err and len(err.splitlines()) == 1
    assert not (tmp_path / "p.html").exists()


def test_render_refuses_another_agents_traces_and_a_line_that_is_no_trace(
    shards: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """User trial: gold's dialogues were shown under claim-done's verdicts, and a garbage line
    in a traces file was passed over in silence."""
    lines = (shards / "t1" / "traces.jsonl").read_text(encoding="utf-8").splitlines()
    other = tmp_path / "other.jsonl"
    other.write_text("\n".join(line.replace('"claim-done"', '"gold"') for line in lines) + "\n")
    out = tmp_path / "page.html"
    for traces, said in (
        (other, "is agent 'gold'"),
        (tmp_path / "garbage.jsonl", "garbage.jsonl:2: not a trace"),
    ):
        if traces.name == "garbage.jsonl":
            traces.write_text(f"{lines[0]}\nxyz\n{lines[1]}\n")
        args = ["render", str(shards / "s1.json"), "--html", str(out), "--traces", str(traces)]
        assert main(args) == 2
        err = capsys.readouterr().err
        assert err.startswith("error: --traces") and said in err
        assert not out.exists()
    # A last line a crash cut short (no newline after it) is still passed over.
    torn = tmp_path / "torn.jsonl"
    torn.write_text("\n".join([*lines, lines[0][:50]]))
    assert main(["render", str(shards / "s1.json"), "--html", str(out), "--traces", str(torn)]) == 0


def _merged(shards: Path, out: Path) -> Path:
    page = out / "merged.html"
    args = ["merge", str(out / "all.json"), *(str(shards / f"s{i}.json") for i in (1, 2))]
    args += ["--html", str(page), "--traces", str(shards / "t1"), "--traces", str(shards / "t2")]
    assert main(args) == 0
    return page


def test_merged_page_has_every_shards_traces(shards: Path, tmp_path: Path) -> None:
    page = _merged(shards, tmp_path)
    keys = _keys(shards / "s1.json") | _keys(shards / "s2.json")
    assert (
        set(_embedded(page.read_text(encoding="utf-8"))["traces"])
        == keys
        == _keys(tmp_path / "all.json")
    )


@needs_chromium
def test_browser_opens_a_merged_pages_traces(shards: Path, tmp_path: Path) -> None:
    page = _merged(shards, tmp_path)
    dom, result, _ = _selftest(page, tmp_path / "profile")
    assert result["ok"] is True and result["errors"] == [], result
    # Every row has its trace: the failing session opened shows its events, none says "missing".
    assert result["checks"]["trace_tools"] and result["checks"]["trace_messages"]
    assert "no_trace_opens" not in result["checks"]
    assert dom.count('data-trace="1"') == dom.count('class="srow"') > 0
    assert 'class="note trace-missing"' not in dom
    assert result["checks"]["provenance"]
