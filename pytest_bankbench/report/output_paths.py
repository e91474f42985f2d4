"""Output paths that cannot damage the machine: checked before the first session, and again
when written (issue 19, item 3).

Rules: an output path that exists must be a regular file (a device, a FIFO, a socket or a
folder is refused with its name); a symlink is written through to its target, which must obey
the same rule, and is never replaced by a plain file; nothing is written under /proc, /sys or
/dev; two outputs of one run never share a path, nor one with a file the run reads (its task
file, the traces it re-grades, its response cache); a file the run writes beside a named one (a
session log, a lock) is never written over when it holds something else.
"""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Callable, Iterable
from pathlib import Path

from pytest_bankbench.errors import BankBenchError

# Kernel and device trees: a write there is never a report, whatever the file is.
SYSTEM_TREES = (Path("/proc"), Path("/sys"), Path("/dev"))


class OutputPathError(BankBenchError, ValueError):
    """An output path the run refuses to write; the message names it and why."""


def target_of(path: Path) -> Path:
    """The file a write to `path` lands in: a symlink's final target, else the path itself."""
    return Path(os.path.realpath(path)) if path.is_symlink() else path


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def output_problem(path: Path) -> str | None:
    """Why the run must not write `path` (None when it may)."""
    target = target_of(path)
    shown = f" (a symlink to {target})" if target != path else ""
    for absolute in {Path(os.path.abspath(path)), Path(os.path.abspath(target))}:
        for tree in SYSTEM_TREES:
            if absolute == tree or tree in absolute.parents:
                return f"lies under {tree}{shown}, a system tree; write the outputs elsewhere"
    try:
        mode = target.stat().st_mode
    except (FileNotFoundError, NotADirectoryError):  # checked through its folder below
        mode = None
    except OSError as exc:
        return f"cannot be inspected{shown} ({exc.strerror or exc}); give another path"
    if mode is not None and not stat.S_ISREG(mode):
        return f"exists and is {_kind(mode)}{shown}; give a regular file path"
    if mode is not None and not os.access(target, os.W_OK):
        return f"is not writable{shown}; give a file you can write"
    folder = target.parent
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    if not folder.is_dir() or not os.access(folder, os.W_OK):
        return (
            f"cannot be written ({folder} is not a writable folder){shown}; give a path in a "
            "folder you can write to"
        )
    return None


def output_path(name: str, raw: str, *, folder: bool = False, example: str = "out") -> Path:
    """The path an output option names, with every `..` after a folder that does not exist
    taken out, so writing it creates no folder outside the named file's own folder chain
    (user trial: `nosuch/../dd2/r.json` left an empty `nosuch/`); a `..` after a folder that
    exists stays (the folder may be a symlink). A file option given a path that ends in a
    separator (`newdir/`, which a Path drops and then wrote a file `newdir`) is refused,
    naming the option, the path and what is accepted."""
    ends = tuple(sep for sep in (os.sep, os.altsep) if sep)
    if not folder and raw.endswith(ends):
        named = f"{name} {raw!r}".lstrip()
        raise OutputPathError(
            f"{named}: ends in {raw[-1]!r}, so it names a folder; give a file path "
            f"(e.g. {raw.rstrip(''.join(ends)) or '.'}{os.sep}{example})"
        )
    path = Path(raw)
    parts: list[str] = []
    for part in path.parts:
        made_up = parts and parts[-1] not in ("..", path.anchor) and not Path(*parts).exists()
        if part == ".." and made_up:
            parts.pop()
        else:
            parts.append(part)
    return Path(*parts) if parts else Path(".")


def check_output(name: str, path: Path) -> Path:
    """`path` if the run may write it, else OutputPathError naming the option and the path."""
    problem = output_problem(path)
    if problem is not None:
        raise OutputPathError(f"{name} {str(path)!r}: {problem}")
    return path


def check_clashes(outputs: Iterable[tuple[str, Path]]) -> None:
    """Refuse two outputs of one run on the same file (symlinks and '..' resolved)."""
    seen: dict[Path, str] = {}
    for name, path in outputs:
        key = Path(os.path.realpath(path))
        if key in seen:
            raise OutputPathError(
                f"{name} {str(path)!r} is the same file as {seen[key]}; give each output its own path"
            )
        seen[key] = f"{name} {str(path)!r}"


def check_inputs_kept(
    outputs: Iterable[tuple[str, Path | None]], inputs: Iterable[tuple[str, Path | None]]
) -> None:
    """Refuse an output on a file the run reads, or in the shipped task data (policy, knowledge
    base, tasks): written at the end, it would destroy the run's own input (`--bank-report
    tasks.jsonl --bank-tasks tasks.jsonl`, `merge shard1.json shard1.json shard2.json`)."""
    from pytest_bankbench.paths import DataDirError, data_dir

    read = {Path(os.path.realpath(p)): f"{name} {str(p)!r}" for name, p in inputs if p}
    try:
        shipped: Path | None = Path(os.path.realpath(data_dir()))
    except DataDirError:  # no task data to keep (and the run says so where it reads them)
        shipped = None
    for name, path in outputs:
        if path is None:
            continue
        written = Path(os.path.realpath(path))
        source = read.get(written)
        if source is not None:
            raise OutputPathError(
                f"{name} {str(path)!r} is the same file as {source}, which is read here; "
                "writing it would destroy it: give the output its own path"
            )
        if shipped is not None and shipped in written.parents:
            raise OutputPathError(
                f"{name} {str(path)!r} lies in the shipped task data ({shipped}), which every "
                "run reads: write the output elsewhere"
            )


def is_session_log(first_line: str) -> bool:
    """A session log opens with the run's configuration (report/results_log.py)."""
    try:
        head = json.loads(first_line)
    except ValueError:
        return False
    return isinstance(head, dict) and head.get("kind") == "config"


def is_lock(first_line: str) -> bool:
    """A lock holds its writer's pid (report/run_guard.py)."""
    return first_line.isdigit()


def check_beside(
    name: str, path: Path, ours: Callable[[str], bool], what: str, option: str
) -> None:
    """A file the run writes beside the one `option` names, a name the user never gave: refused
    when it already holds something (its first line) this plugin does not write there."""
    try:
        with target_of(path).open("rb") as fh:
            head = fh.read(1 << 20)
    except OSError:  # absent (what else is wrong with it, output_problem says)
        return
    lines = (line.strip() for line in head.decode("utf-8", "replace").splitlines())
    first = next((line for line in lines if line), "")
    if first and not ours(first):
        raise OutputPathError(
            f"{name} {str(path)!r} already exists and is not {what}; the run would write over "
            f"it: move it away, or give {option} another name"
        )
