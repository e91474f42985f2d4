"""Output paths that cannot damage the machine (issue 19, item 3): refused up front, written
through symlinks, never replacing a device, a FIFO or a folder."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from pytest_bankbench.report.output import write_atomic
from pytest_bankbench.report.output_paths import (
    OutputPathError,
    check_beside,
    check_clashes,
    check_inputs_kept,
    check_output,
    is_lock,
    is_session_log,
    output_problem,
)

DEVNULL = Path("/dev/null")


def test_a_device_is_refused_and_left_a_device() -> None:
    before = os.stat(DEVNULL)
    assert stat.S_ISCHR(before.st_mode)
    with pytest.raises(OutputPathError, match=r"--bank-report '/dev/null': lies under /dev"):
        check_output("--bank-report", DEVNULL)
    # write_atomic is never pointed at the real device: were the check broken, the test would
    # replace /dev/null for the whole machine. A symlink to it proves the write refuses it.
    after = os.stat(DEVNULL)
    assert stat.S_ISCHR(after.st_mode) and after.st_ino == before.st_ino


def test_a_fifo_and_a_folder_are_refused_by_kind(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    folder = tmp_path / "folder"
    folder.mkdir()
    assert output_problem(fifo) == "exists and is a FIFO; give a regular file path"
    assert output_problem(folder) == "exists and is a folder; give a regular file path"
    with pytest.raises(OutputPathError, match="is a FIFO"):
        write_atomic(fifo, "x")  # refused without opening it (opening a FIFO would block)
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)
    assert output_problem(tmp_path / "new" / "r.json") is None


def test_a_symlink_to_a_device_is_refused(tmp_path: Path) -> None:
    link = tmp_path / "r.json"
    link.symlink_to(DEVNULL)
    problem = output_problem(link)
    assert problem is not None and "a symlink to /dev/null" in problem
    with pytest.raises(OutputPathError):
        write_atomic(link, "{}")
    assert link.is_symlink() and stat.S_ISCHR(os.stat(DEVNULL).st_mode)


def test_a_symlink_is_written_through_and_stays_a_symlink(tmp_path: Path) -> None:
    target = tmp_path / "store" / "real.json"
    target.parent.mkdir()
    target.write_text("old")
    link = tmp_path / "r.json"
    link.symlink_to(target)
    write_atomic(link, "new")
    assert link.is_symlink() and target.read_text() == "new"
    assert sorted(p.name for p in target.parent.iterdir()) == ["real.json"]


def test_proc_and_sys_are_refused() -> None:
    for path in (Path("/proc/self/fd/1"), Path("/sys/kernel/x"), Path("/proc")):
        problem = output_problem(path)
        assert problem is not None and "system tree" in problem


def test_two_outputs_on_one_file_clash(tmp_path: Path) -> None:
    report = tmp_path / "r.json"
    check_clashes([("--bank-report", report), ("--bank-html", tmp_path / "r.html")])
    with pytest.raises(OutputPathError, match=r"--bank-html .* is the same file as --bank-report"):
        check_clashes(
            [("--bank-report", report), ("--bank-html", tmp_path / "x" / ".." / "r.json")]
        )


def test_an_output_on_a_file_the_run_reads_is_refused(tmp_path: Path) -> None:
    tasks = tmp_path / "tasks.jsonl"
    tasks.write_text("{}\n")
    link = tmp_path / "link.json"
    link.symlink_to(tasks)
    inputs = [("--bank-tasks", tasks)]
    for output in (tasks, link, tmp_path / "sub" / ".." / "tasks.jsonl"):
        with pytest.raises(
            OutputPathError, match=r"same file as --bank-tasks .*which is read here"
        ):
            check_inputs_kept([("--bank-report", output)], inputs)
    check_inputs_kept([("--bank-report", tmp_path / "r.json")], inputs)


@pytest.mark.parametrize(
    ("content", "ours", "refused"),
    [
        ('{"kind": "config", "config": {}}\n{"kind": "session"}\n', is_session_log, False),
        ("\n\n", is_session_log, False),  # nothing to lose
        ("precious notes\n", is_session_log, True),
        ('{"kind": "session"}\n', is_session_log, True),  # no log opens without its config
        ("4242\n", is_lock, False),
        ("", is_lock, False),
        ("my notes\n", is_lock, True),
    ],
)
def test_a_file_beside_the_report_is_written_over_only_when_the_plugin_wrote_it(
    tmp_path: Path, content: str, ours: object, refused: bool
) -> None:
    beside = tmp_path / "r.sessions.jsonl"
    beside.write_text(content)
    if refused:
        with pytest.raises(OutputPathError, match="already exists and is not a log; the run"):
            check_beside("the session log", beside, ours, "a log", "--bank-report")  # type: ignore[arg-type]
    else:
        check_beside("the session log", beside, ours, "a log", "--bank-report")  # type: ignore[arg-type]
    check_beside("the session log", tmp_path / "absent", ours, "a log", "--bank-report")  # type: ignore[arg-type]
    assert beside.read_text() == content
