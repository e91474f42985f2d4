"""`bankbench` (or `python -m pytest_bankbench`): generate the task data, report statistics of a
task file, show a seeded customer's records, check a task file, compare two reports, merge the
shards of a run."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any, NoReturn

from pytest_bankbench.paths import data_dir
from pytest_bankbench.vocabulary import SPLITS


def stats_command(tasks_path: Path | None) -> int:
    """`stats [--tasks FILE]`: 0, or 2 with a one-line error when the file cannot be used."""
    from pytest_bankbench.tasks.loader import TaskFileError
    from pytest_bankbench.tasks.stats import stats_lines

    try:
        lines = stats_lines(tasks_path)
    except TaskFileError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print("\n".join(lines))
    return 0


def customer_command(customer_id: str, today: date | None, seed: int | None, as_json: bool) -> int:
    """`customer ID`: the customer's records as the list tools show them; 2 for an unknown id."""
    import json

    from pytest_bankbench.bank.customer_view import (
        DEFAULT_DAY,
        UnknownCustomer,
        customer_records,
        render,
    )
    from pytest_bankbench.bank.store import DEFAULT_SEED

    today = DEFAULT_DAY if today is None else today
    seed = DEFAULT_SEED if seed is None else seed
    try:
        records = customer_records(customer_id, today, seed)
    except UnknownCustomer as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if as_json:
        print(json.dumps(records, indent=2, ensure_ascii=False))
    else:
        print("\n".join(render(customer_id, today, seed, records)))
    return 0


def tools_command(names: list[str]) -> int:
    """`tools [NAME...]`: the tools' arguments and the facts they show; 2 for an unknown name."""
    from pytest_bankbench.bank.catalogue import catalogue
    from pytest_bankbench.bank.errors import UnknownTool

    try:
        print("\n".join(catalogue(names)))
    except UnknownTool as exc:
        print(f"error: {exc.message}", file=sys.stderr)
        return 2
    return 0


def validate_command(path: Path) -> int:
    """`validate-tasks FILE`: every problem on its own line, then a summary; 1 on any problem."""
    from pytest_bankbench.runner import gold_problems
    from pytest_bankbench.tasks.validate import validate_file

    result = validate_file(path, play=gold_problems)
    for problem in result.problems:
        print(problem)
    print(result.summary())
    return 1 if result.problems else 0


def _day(text: str) -> date:
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a date; give it as YYYY-MM-DD, e.g. 2026-05-01"
        ) from None


def _traces_or_error(paths: Sequence[Path]) -> list[dict[str, Any]] | None:
    """The traces of --traces folders/files, or None after printing which one is missing."""
    from pytest_bankbench.report.html_traces import TraceFileError, load_trace_files

    for path in paths:
        if not (path.is_file() or (path / "traces.jsonl").is_file()):
            print(
                f"error: --traces {path}: no traces.jsonl there; give a folder written by "
                "--bank-traces or the traces.jsonl inside it",
                file=sys.stderr,
            )
            return None
    try:
        return load_trace_files(paths)
    except TraceFileError as exc:
        print(f"error: --traces {exc}", file=sys.stderr)
        return None


def render_command(report_path: Path, html: Path, traces: Sequence[Path]) -> int:
    """`render REPORT --html OUT`: the HTML page of an existing JSON report (2 on bad input)."""
    from pytest_bankbench.report.document import ReportError, read_report
    from pytest_bankbench.report.html import write_html
    from pytest_bankbench.report.html_traces import foreign_traces

    try:
        report = read_report(report_path)
    except ReportError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    loaded = _traces_or_error(traces)
    if loaded is None:
        return 2
    foreign = foreign_traces(report, loaded)
    if foreign is not None:
        print(f"error: --traces: {foreign}", file=sys.stderr)
        return 2
    # The page's date is the report's: the file was written when its run (or merge) ended.
    written = datetime.fromtimestamp(report_path.stat().st_mtime, UTC)
    try:
        write_html(html, report, loaded, written)
    except OSError as exc:
        print(f"error: {exc.filename}: cannot be written ({exc.strerror or exc})", file=sys.stderr)
        return 2
    print(f"HTML report: {html} ({len(report.sessions)} sessions)")
    return 0


def merge_command(
    out: Path,
    inputs: Sequence[Path],
    html: Path | None,
    summary_md: Path | None,
    gate_expr: str | None,
    allow_missing: bool,
    traces: Sequence[Path] = (),
) -> int:
    """`merge OUT.json SHARD...`: 0, or 1 when the gate fails, 2 when the shards do not fit."""
    from pytest_bankbench.report.gate import GateResult, evaluate_gate, parse_gate
    from pytest_bankbench.report.markdown import summary_markdown
    from pytest_bankbench.report.merge import MergeError, load_shard, merge_shards
    from pytest_bankbench.report.output import write_atomic, write_report
    from pytest_bankbench.report.terminal import render

    try:
        # Any family name is accepted: the shards' sessions say which families the run has.
        gate = parse_gate(gate_expr, None) if gate_expr is not None else None
    except ValueError as exc:
        print(f"error: --gate: {exc}", file=sys.stderr)
        return 2
    shard_traces = _traces_or_error(traces)
    if shard_traces is None:
        return 2
    try:
        merged = merge_shards([load_shard(path) for path in inputs])
    except MergeError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if merged.missing and not allow_missing:
        print(
            f"error: shard {', '.join(merged.missing)} not given; merge every shard, or pass "
            "--allow-missing to merge a part of the run",
            file=sys.stderr,
        )
        return 2
    if merged.missing:  # allowed: said, since no shard's report knows the others' sessions
        print(
            f"warning: shard {', '.join(merged.missing)} not given (--allow-missing): its "
            "sessions are in no count of this report, nor seen by --gate",
            file=sys.stderr,
        )
    from pytest_bankbench.report.html_traces import foreign_traces

    foreign = foreign_traces(merged.report, shard_traces)  # checked before anything is written
    if foreign is not None:
        print(f"error: --traces: {foreign}", file=sys.stderr)
        return 2
    try:
        report = merged.report
        write_report(out, report)
        outputs = [f"JSON report: {out}"]
        if html is not None:
            from pytest_bankbench.report.html import write_html

            write_html(html, report, shard_traces)
            outputs.append(f"HTML report: {html}")
        result: GateResult | None = None
        if gate is not None:
            result = evaluate_gate(gate, report.summary)
        if summary_md is not None:
            write_atomic(summary_md, summary_markdown(report, result))
            outputs.append(f"Markdown summary: {summary_md}")
    except OSError as exc:
        print(f"error: {exc.filename}: cannot be written ({exc.strerror or exc})", file=sys.stderr)
        return 2
    report = merged.report
    print(f"merged {len(inputs)} shards, {report.summary.sessions} sessions")
    print("\n".join(render(report.summary, report.provenance, report.wall_time_s, outputs)))
    if result is None:
        return 0
    print(f"gate: {'PASSED' if result.passed else 'FAILED'}")
    print("\n".join(f"  {reason}" for reason in result.reasons))
    return 0 if result.passed else 1


def main(argv: Sequence[str] | None = None, prog: str = "python -m pytest_bankbench") -> int:
    parser = argparse.ArgumentParser(prog=prog)
    sub = parser.add_subparsers(dest="command", required=True)
    gen = sub.add_parser("generate", help="write tasks.jsonl (deterministic)")
    gen.add_argument(
        "--out",
        type=Path,
        default=data_dir(),
        help="folder to write into (default: the shipped task data, %(default)s)",
    )
    st = sub.add_parser("stats", help="statistics of the shipped task data")
    st.add_argument("--tasks", type=Path, default=None, help="a task file instead of the shipped")
    cus = sub.add_parser(
        "customer", help="a seeded customer's profile, accounts, deposits, loans and cards"
    )
    cus.add_argument("customer_id", metavar="CUSTOMER_ID", help="e.g. CUST00905")
    cus.add_argument(
        "--date",
        type=_day,
        default=None,
        help="the day the bank is seen on: a task's task_date (default: the first day the "
        "generated tasks are dated)",
    )
    cus.add_argument("--seed", type=int, default=None, help="bank seed (default: the shipped)")
    cus.add_argument("--json", action="store_true", help="one JSON object, by tool name")
    tls = sub.add_parser("tools", help="the bank's tools: arguments and the facts they show")
    tls.add_argument("names", nargs="*", metavar="NAME", help="only these tools")
    val = sub.add_parser(
        "validate-tasks", help="check a task file: load, replay each gold chain, check values"
    )
    val.add_argument("file", type=Path, metavar="FILE", help="a JSONL task file")
    cmp = sub.add_parser("compare", help="paired comparison of two JSON reports (B against A)")
    cmp.add_argument("a", type=Path, metavar="A.json", help="reference report (baseline)")
    cmp.add_argument("b", type=Path, metavar="B.json", help="candidate report")
    cmp.add_argument(
        "--json", type=_output_file, default=None, metavar="OUT", help="write it as JSON"
    )
    sft = sub.add_parser("export-sft", help="gold dialogues as chat JSONL for fine-tuning")
    sft.add_argument("--split", default="train", choices=SPLITS)
    sft.add_argument(
        "--out", type=_output_file, default=Path("sft.jsonl"), help="JSONL file to write"
    )
    mrg = sub.add_parser(
        "merge",
        help="combine the shards of one run (--bank-shard I/N) into one JSON report",
    )
    mrg.add_argument("out", type=_output_file, metavar="OUT.json", help="merged report to write")
    mrg.add_argument(
        "shards",
        type=Path,
        nargs="+",
        metavar="SHARD",
        help="the shards' JSON reports or .sessions.jsonl logs",
    )
    mrg.add_argument(
        "--html", type=_output_file, default=None, metavar="PATH", help="also write HTML"
    )
    mrg.add_argument(
        "--traces",
        type=Path,
        action="append",
        default=[],
        metavar="DIR",
        help="a shard's --bank-traces folder, for the HTML page (repeat per shard)",
    )
    mrg.add_argument(
        "--summary-md",
        type=_output_file,
        default=None,
        metavar="PATH",
        help="Markdown summary (CI)",
    )
    mrg.add_argument(
        "--gate", default=None, metavar="EXPR", help="e.g. 'pass^1>=0.6'; the exit status follows"
    )
    mrg.add_argument(
        "--allow-missing",
        action="store_true",
        help="merge even when some shards of the count are not given",
    )
    ren = sub.add_parser("render", help="the HTML page of an existing JSON report")
    ren.add_argument("report", type=Path, metavar="REPORT", help="a JSON report (--bank-report)")
    ren.add_argument(
        "--html", type=_output_file, required=True, metavar="OUT", help="page to write"
    )
    ren.add_argument(
        "--traces",
        type=Path,
        action="append",
        default=[],
        metavar="DIR",
        help="a --bank-traces folder or traces.jsonl (repeatable: one per shard)",
    )
    args = parser.parse_args(argv)
    if _destroys_an_input(args):
        return 2
    if args.command == "merge":
        return merge_command(
            args.out,
            args.shards,
            args.html,
            args.summary_md,
            args.gate,
            args.allow_missing,
            args.traces,
        )
    if args.command == "render":
        return render_command(args.report, args.html, args.traces)
    if args.command == "export-sft":
        from pytest_bankbench.export import export_sft

        print(export_sft(args.split, args.out).summary(args.split, args.out))
        return 0
    if args.command == "compare":
        from pytest_bankbench.report.compare import compare_command

        return compare_command(args.a, args.b, args.json)
    if args.command == "generate":
        from pytest_bankbench.authoring.generate import write

        written, rejected = write(args.out)
        print(
            f"wrote {written} tasks to {args.out} ({rejected} drafts rejected by the "
            "construction filter)"
        )
        return 0
    if args.command == "customer":
        return customer_command(args.customer_id, args.date, args.seed, args.json)
    if args.command == "tools":
        return tools_command(args.names)
    if args.command == "validate-tasks":
        return validate_command(args.file)
    return stats_command(args.tasks)


def _output_file(raw: str) -> Path:
    """A command's output file, as the plugin's output options take one (a path ending in
    '/' names a folder: refused, where a Path would drop the '/' and write a file so named)."""
    from pytest_bankbench.report.output_paths import OutputPathError, output_path

    try:
        return output_path("", raw)
    except OutputPathError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _destroys_an_input(args: argparse.Namespace) -> bool:
    """Whether a command's output is refused (said on stderr) before any work: one that is no
    regular file, or that would write over the command's own input or the shipped task data
    (user trial: `merge shard1.json shard1.json ...` replaced a shard, `export-sft --out` the
    package's tasks.jsonl). `generate` writes the task data on purpose."""
    from pytest_bankbench.report.output_paths import (
        OutputPathError,
        check_inputs_kept,
        check_output,
    )

    outputs: list[tuple[str, Path | None]] = []
    inputs: list[tuple[str, Path | None]] = []
    if args.command == "merge":
        outputs = [("OUT", args.out), ("--html", args.html), ("--summary-md", args.summary_md)]
        inputs = [("a shard", p) for p in args.shards] + [("--traces", p) for p in args.traces]
    elif args.command == "render":
        outputs = [("--html", args.html)]
        inputs = [("REPORT", args.report)] + [("--traces", p) for p in args.traces]
    elif args.command == "compare":
        outputs, inputs = [("--json", args.json)], [("A", args.a), ("B", args.b)]
    elif args.command == "export-sft":
        outputs = [("--out", args.out)]
    try:
        for name, path in outputs:
            if path is not None:
                check_output(name, path)
        check_inputs_kept(outputs, inputs)
    except OutputPathError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return True
    return False


def console_main(prog: str = "bankbench") -> NoReturn:
    """The `bankbench` console script ([project.scripts]) and `python -m pytest_bankbench`."""
    try:
        sys.exit(main(prog=prog))
    except BrokenPipeError:
        # The reader went away (`bankbench customer ID | head`): no traceback. Python's own
        # advice: point stdout at devnull so the interpreter's final flush does not raise again.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(1)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
