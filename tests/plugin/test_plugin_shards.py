"""A run split with --bank-shard across machines, merged, is the run one machine would make."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pytest_bankbench.cli import main
from tests.plugin.helpers import load_report, run_bench, without_timings

# Three families of the lite split: 12 sessions.
SELECTION = ("-k", "rd_opening or kb_answer or balance_enquiry")
GOLD_LITE = ("--bank-model", "gold", "--bank-split", "lite", *SELECTION)


def _ran(report: Path) -> set[tuple[str, int]]:
    return {(s["task_id"], s["trial"]) for s in load_report(report)["sessions"]}


def _shards(pytester: pytest.Pytester, count: int, *extra: str) -> list[Path]:
    paths = []
    for index in range(1, count + 1):
        path = pytester.path / f"shard{index}.json"
        result = run_bench(
            pytester,
            *GOLD_LITE,
            *extra,
            "--bank-shard",
            f"{index}/{count}",
            "--bank-report",
            str(path),
        )
        assert result.ret == pytest.ExitCode.OK
        paths.append(path)
    return paths


def test_shards_merge_into_the_single_run(
    pytester: pytest.Pytester, capsys: pytest.CaptureFixture[str]
) -> None:
    whole = pytester.path / "whole.json"
    run_bench(pytester, *GOLD_LITE, "--bank-report", str(whole))
    shards = _shards(pytester, 3)
    parts = [_ran(path) for path in shards]
    assert all(parts) and sum(len(p) for p in parts) == len(_ran(whole)) == 12
    assert set().union(*parts) == _ran(whole)
    assert load_report(shards[1])["run_config"]["shard"] == "2/3"
    assert load_report(shards[1])["provenance"]["shard"] == "2/3"

    merged = pytester.path / "merged.json"
    md = pytester.path / "summary.md"
    html = pytester.path / "merged.html"
    # A shard may be given as its session log as well as its report.
    inputs = [str(shards[0]), str(shards[1].with_name("shard2.sessions.jsonl")), str(shards[2])]
    status = main(
        [
            "merge",
            str(merged),
            *inputs,
            "--gate",
            "pass^1>=0.9",
            "--summary-md",
            str(md),
            "--html",
            str(html),
        ]
    )
    out = capsys.readouterr().out
    assert status == 0
    assert "gate: PASSED" in out and "pass^1: 100.0%" in out
    a, b = load_report(whole), load_report(merged)
    assert without_timings(a["sessions"]) == without_timings(b["sessions"])
    assert [json.dumps(s, sort_keys=True) for s in without_timings(b["sessions"])] == [
        json.dumps(s, sort_keys=True) for s in without_timings(a["sessions"])
    ]
    assert a["summary"] == b["summary"]
    assert a["run_config"] == b["run_config"]
    assert b["provenance"]["agent"]["model"] == "gold"
    assert [m["shard"] for m in b["provenance"]["merged_from"]] == ["1/3", "2/3", "3/3"]
    assert md.read_text().startswith("## pytest-bankbench: gold on lite - gate PASSED")
    assert html.is_file()
    # The gate decides the exit status.
    assert main(["merge", str(merged), *map(str, shards), "--gate", "pass^1<0.5"]) == 1


def test_a_shard_is_the_same_whatever_else_is_selected(pytester: pytest.Pytester) -> None:
    """Decided by (task, trial) over the whole case list: -k only narrows a shard down."""
    narrow = pytester.path / "narrow.json"
    wide = pytester.path / "wide.json"
    run_bench(pytester, *GOLD_LITE, "--bank-shard", "2/3", "--bank-report", str(narrow))
    run_bench(
        pytester,
        "--bank-model",
        "gold",
        "--bank-split",
        "lite",
        "-k",
        "rd_opening or kb_answer or balance_enquiry or fd_closure",
        "--bank-shard",
        "2/3",
        "--bank-report",
        str(wide),
    )
    assert 0 < len(_ran(narrow)) < 12 and _ran(narrow) < _ran(wide)
    assert _ran(narrow) == {k for k in _ran(wide) if not k[0].startswith("fd_closure")}


def test_merge_refuses_what_is_not_one_run(
    pytester: pytest.Pytester, capsys: pytest.CaptureFixture[str]
) -> None:
    shards = _shards(pytester, 2)
    other = pytester.path / "other.json"
    run_bench(
        pytester,
        *GOLD_LITE,
        "--bank-max-steps",
        "50",
        "--bank-shard",
        "2/2",
        "--bank-report",
        str(other),
    )
    out = str(pytester.path / "m.json")
    assert main(["merge", out, str(shards[0]), str(other)]) == 2
    assert "max_steps is 200 in" in capsys.readouterr().err
    assert main(["merge", out, str(shards[0]), str(shards[0])]) == 2
    assert "given more than once" in capsys.readouterr().err
    copy = pytester.path / "copy.json"
    copy.write_text(shards[0].read_text())
    assert main(["merge", out, str(shards[0]), str(copy)]) == 2
    assert "are both shard 1/2" in capsys.readouterr().err
    assert main(["merge", out, str(shards[0])]) == 2
    assert "shard 2/2 not given" in capsys.readouterr().err
    assert main(["merge", out, str(shards[0]), "--allow-missing"]) == 0
    assert "shard 2/2 not given (--allow-missing): its sessions are in no count" in (
        capsys.readouterr().err
    )
    assert not [p.name for p in pytester.path.glob("*m.json*.tmp")]  # no temporary file left
