"""Every output path is checked before the first session (issue 19, item 3), end to end."""

from __future__ import annotations

import json
import os
import stat

import pytest

from tests.plugin.helpers import run_bench

GOLD = ("--bank-model", "gold", "--bank-split", "lite", "-k", "rd_opening")


@pytest.mark.parametrize(
    "option", ["--bank-report", "--bank-html", "--bank-summary-md", "--bank-traces"]
)
def test_a_device_output_is_refused_before_the_run(pytester: pytest.Pytester, option: str) -> None:
    """Through a symlink of our own: were the check broken, the run would replace the link,
    never /dev/null itself (the direct path is checked in tests/report/test_output_paths.py)."""
    before = os.stat("/dev/null")
    link = pytester.path / "out"
    link.symlink_to("/dev/null")
    result = run_bench(pytester, *GOLD, option, str(link))
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([f"*{option} '{link}'*"])
    result.stdout.no_fnmatch_line("*passed*")
    after = os.stat("/dev/null")
    assert link.is_symlink() and stat.S_ISCHR(after.st_mode) and after.st_ino == before.st_ino


def test_a_fifo_report_is_refused_before_the_run(pytester: pytest.Pytester) -> None:
    fifo = pytester.path / "r.json"
    os.mkfifo(fifo)
    result = run_bench(pytester, *GOLD, "--bank-report", str(fifo))
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([f"*--bank-report '{fifo}': exists and is a FIFO*"])
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)


@pytest.mark.parametrize(
    ("first", "second", "path"),
    [
        ("--bank-report", "--bank-html", "same.json"),
        ("--bank-report", "--bank-summary-md", "same.json"),
    ],
)
def test_two_outputs_on_one_path_are_refused(
    pytester: pytest.Pytester, first: str, second: str, path: str
) -> None:
    target = str(pytester.path / path)
    result = run_bench(pytester, *GOLD, first, target, second, target)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([f"*{second}*is the same file as {first}*"])
    assert not (pytester.path / path).exists()


def test_a_report_inside_the_traces_folder_clashes_with_its_traces(
    pytester: pytest.Pytester,
) -> None:
    traces = pytester.path / "t"
    report = traces / "traces.jsonl"
    result = run_bench(pytester, *GOLD, "--bank-report", str(report), "--bank-traces", str(traces))
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*the traces file of --bank-traces*is the same file as*"])


@pytest.mark.parametrize(
    ("outputs", "clash"),
    [
        # The traces' provenance, beside traces.jsonl, lost to a report written over it.
        (("--bank-traces", "t", "--bank-report", "t/provenance.json"), "the provenance file"),
        # pytest's own JUnit XML, overwritten by the report.
        (("--bank-report", "r.xml", "--junitxml", "r.xml"), "--junitxml"),
        # A lock file, deleted when the run ends: the summary announced, then gone.
        (("--bank-report", "r.json", "--bank-summary-md", "r.sessions.jsonl.lock"), "the lock"),
        (("--bank-traces", "t", "--bank-html", "t/traces.jsonl.lock"), "the lock"),
    ],
)
def test_an_output_on_a_file_the_run_writes_beside_it_is_refused(
    pytester: pytest.Pytester, outputs: tuple[str, ...], clash: str
) -> None:
    """The files a run writes that no option names (provenance, locks) and pytest's --junitxml
    are outputs too: no option may share their path."""
    named = [str(pytester.path / o) if i % 2 else o for i, o in enumerate(outputs)]
    result = run_bench(pytester, *GOLD, *named)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*same file as*; give each output its own path"])
    assert clash in result.stderr.str()
    result.stdout.no_fnmatch_line("*passed*")
    assert not any(p.is_file() for p in pytester.path.rglob("*") if p.suffix != ".py")


def test_a_symlinked_report_is_written_through(pytester: pytest.Pytester) -> None:
    target = pytester.path / "store" / "real.json"
    target.parent.mkdir()
    link = pytester.path / "r.json"
    link.symlink_to(target)
    result = run_bench(pytester, *GOLD, "--bank-report", str(link))
    assert result.ret == pytest.ExitCode.OK
    assert link.is_symlink() and target.is_file()


def test_a_report_over_the_task_file_is_refused_and_the_tasks_kept(
    pytester: pytest.Pytester,
) -> None:
    from pytest_bankbench.tasks.loader import shipped_tasks

    tasks = pytester.path / "mine.jsonl"
    tasks.write_text(shipped_tasks()[0].to_line() + "\n")
    before = tasks.read_text()
    result = run_bench(
        pytester, "--bank-model", "gold", "--bank-tasks", str(tasks), "--bank-report", str(tasks)
    )
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*--bank-report*same file as --bank-tasks*which is read here*"])
    assert tasks.read_text() == before


def test_a_file_of_the_users_at_the_session_logs_name_is_kept(pytester: pytest.Pytester) -> None:
    """The session log is a name the user never gave: an earlier run's log is written over, a
    file of anything else is refused before the run."""
    log = pytester.path / "r.sessions.jsonl"
    log.write_text("precious\n")
    report = str(pytester.path / "r.json")
    result = run_bench(pytester, *GOLD, "--bank-report", report)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*session log of --bank-report*already exists and is not a log*"])
    assert log.read_text() == "precious\n"
    log.unlink()
    for _ in range(2):  # the second run writes over the first's log
        assert run_bench(pytester, *GOLD, "--bank-report", report).ret == pytest.ExitCode.OK
    assert json.loads(log.read_text().splitlines()[0])["kind"] == "config"


def test_a_run_with_no_output_says_how_to_keep_one(pytester: pytest.Pytester) -> None:
    """Fourth user trial: a newcomer's first run wrote nothing and never said how to."""
    bare = run_bench(pytester, *GOLD)
    bare.stdout.fnmatch_lines(["no report written: add --bank-report r.json*"])
    kept = run_bench(pytester, *GOLD, "--bank-report", str(pytester.path / "r.json"))
    kept.stdout.no_fnmatch_line("no report written*")


@pytest.mark.parametrize(
    ("option", "example"),
    [
        ("--bank-report", "report.json"),
        ("--bank-html", "report.html"),
        ("--bank-summary-md", "summary.md"),
    ],
)
def test_a_file_option_given_a_folder_path_is_refused(
    pytester: pytest.Pytester, option: str, example: str
) -> None:
    """User trial: `--bank-report newdir/` wrote a file `newdir` (and `newdir.sessions.jsonl`),
    `--bank-html h2/` a file `h2`."""
    result = run_bench(pytester, *GOLD, option, "newdir/")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(
        [
            f"ERROR: {option} 'newdir/': ends in '/', so it names a folder; give a file path "
            f"(e.g. newdir/{example})"
        ]
    )
    assert not (pytester.path / "newdir").exists()
    assert not (pytester.path / "newdir.sessions.jsonl").exists()


def test_an_output_path_through_a_folder_that_does_not_exist_creates_none(
    pytester: pytest.Pytester,
) -> None:
    """User trial: `nosuch/../dd2/r.json` left an empty `nosuch/` beside `dd2/r.json`."""
    report, traces = "nosuch/../dd2/r.json", "gone/deeper/../../t"
    result = run_bench(pytester, *GOLD, "--bank-report", report, "--bank-traces", traces)
    assert result.ret == pytest.ExitCode.OK
    assert (pytester.path / "dd2" / "r.json").is_file()
    assert (pytester.path / "t" / "traces.jsonl").is_file()
    assert not (pytester.path / "nosuch").exists() and not (pytester.path / "gone").exists()
