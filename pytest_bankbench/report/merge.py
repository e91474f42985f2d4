"""Combine the shards of one run (`--bank-shard I/N` on several machines) into one report.

Each shard is a JSON report or a session log. The shards must share every configuration field
but the shard itself; a session in two shards must have the same result in both; a shard may
be given once. The merged report is the report one machine would have written.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from pytest_bankbench import __version__
from pytest_bankbench.errors import BankBenchError
from pytest_bankbench.report.document import Report, ReportError, build_report, read_report
from pytest_bankbench.report.metrics import SessionRecord, summarize
from pytest_bankbench.report.results_log import (
    CONFIG_FIELDS,
    ResumeError,
    config_value,
    read_log,
    read_selected,
)

# Fields of a record that vary between two runs of the same session.
TIMING_FIELDS = frozenset({"duration_s", "model_latency_s", "customer_latency_s"})


class MergeError(BankBenchError, ValueError):
    """The shards cannot be merged; the message names the files and what differs."""


@dataclass(frozen=True)
class Shard:
    """One input of a merge: its configuration, provenance (reports only) and sessions."""

    source: Path
    config: dict[str, Any]
    provenance: dict[str, Any] | None
    records: list[SessionRecord]
    wall_s: float
    not_run: int = 0  # sessions the shard selected but never played (Ctrl-C, -x)

    @property
    def shard(self) -> str | None:
        value = config_value(self.config, "shard")
        return None if value is None else str(value)


@dataclass(frozen=True)
class Merged:
    report: Report
    missing: list[str]  # shards of the same count that were not given, e.g. ["3/3"]


def _latest(records: list[SessionRecord]) -> list[SessionRecord]:
    """One record per session, as a resumed run counts them: a scored record wins, else the last."""
    chosen: dict[tuple[str, int], SessionRecord] = {}
    for record in records:
        key = (record.task_id, record.trial)
        held = chosen.get(key)
        if held is None or record.outcome == "scored" or held.outcome != "scored":
            chosen[key] = record
    return list(chosen.values())


def load_shard(path: Path) -> Shard:
    """Read a JSON report or a `.sessions.jsonl` log; MergeError says what is wrong with it."""
    if path.suffix == ".jsonl":
        try:
            config, records = read_log(path)
            selected = read_selected(path)
        except (ResumeError, OSError, ValidationError) as exc:
            raise MergeError(f"{path}: {exc}") from None
        # A killed shard's log: what it selected and never recorded was not run (issue 19).
        latest = _latest(records)
        unplayed = selected - {(r.task_id, r.trial) for r in latest}
        return Shard(path, config, None, latest, 0.0, len(unplayed))
    try:
        report = read_report(path)
    except ReportError as exc:
        raise MergeError(str(exc)) from None
    if not report.run_config:
        raise MergeError(f"{path}: not a complete pytest-bankbench report (no 'run_config')")
    counts = report.summary.accounting
    return Shard(
        path,
        report.run_config,
        report.provenance,
        list(report.sessions),
        report.wall_time_s,
        # An emptied or cut report still says how many sessions it selected.
        max(counts.not_run, counts.selected - len(report.sessions)) if counts is not None else 0,
    )


def _check_configs(shards: list[Shard]) -> None:
    first = shards[0]
    for other in shards[1:]:
        for name in CONFIG_FIELDS:
            if name == "shard":
                continue
            a, b = config_value(first.config, name), config_value(other.config, name)
            if a != b:
                raise MergeError(
                    f"{other.source} is not a shard of the same run as {first.source}: "
                    f"{name} is {a!r} in {first.source} and {b!r} in {other.source}; "
                    "merge only shards run with the same options"
                )


def _check_shards(shards: list[Shard]) -> list[str]:
    """Refuse a shard given twice; return the shards of the same count that are missing."""
    sources = [s.source.resolve() for s in shards]
    twice = [
        str(s.source) for s, path in zip(shards, sources, strict=True) if sources.count(path) > 1
    ]
    if twice:
        raise MergeError(f"{twice[0]} is given more than once; give each shard once")
    seen: dict[str, Path] = {}
    for item in shards:
        if item.shard is None:
            continue
        if item.shard in seen:
            raise MergeError(
                f"{seen[item.shard]} and {item.source} are both shard {item.shard}; "
                "give each shard once"
            )
        seen[item.shard] = item.source
    counts = {name.split("/")[1]: path for name, path in seen.items()}
    if len(counts) > 1:  # 1/3 beside 2/4: some sessions in two shards, others in none
        (a, first), (b, second) = list(counts.items())[:2]
        raise MergeError(
            f"{first} is a shard of {a} and {second} a shard of {b}: the shards of one run "
            "split it the same way (--bank-shard I/N with one N); merge shards of one count"
        )
    if not counts or any(s.shard is None for s in shards):
        return []
    count = int(next(iter(counts)))
    return [f"{i}/{count}" for i in range(1, count + 1) if f"{i}/{count}" not in seen]


def _result(record: SessionRecord) -> dict[str, Any]:
    return {k: v for k, v in record.model_dump(mode="json").items() if k not in TIMING_FIELDS}


def _combine(shards: list[Shard]) -> list[SessionRecord]:
    combined: dict[tuple[str, int], tuple[SessionRecord, Path]] = {}
    for item in shards:
        for record in item.records:
            key = (record.task_id, record.trial)
            if key not in combined:
                combined[key] = (record, item.source)
                continue
            held, source = combined[key]
            a, b = _result(held), _result(record)
            if a != b:
                fields = ", ".join(f"{k}: {a.get(k)!r} vs {b.get(k)!r}" for k in a if a[k] != b[k])
                raise MergeError(
                    f"session {record.task_id} trial {record.trial} is in {source} and in "
                    f"{item.source} with different results ({fields}); shards of one run never "
                    "share a session, so these are not shards of one run"
                )
    return [record for record, _ in combined.values()]


def _provenance(shards: list[Shard], config: dict[str, Any]) -> dict[str, Any]:
    reports = [s for s in shards if s.provenance is not None]
    if reports and reports[0].provenance is not None:
        prov = dict(reports[0].provenance)
    else:
        # Session logs only: what their shared configuration says.
        prov = {
            "package": "pytest-bankbench",
            "version": __version__,
            "task_data_sha256": config.get("task_data_sha256"),
            "tasks_file": config.get("tasks_file"),
            "split": config.get("split"),
            "agent": {"model": config.get("agent"), "parameters": config.get("agent_parameters")},
            "customer": {
                "model": config.get("customer"),
                "parameters": config_value(config, "customer_parameters"),
            },
            "max_steps": config.get("max_steps"),
            "max_errors": config.get("max_errors"),
            "trials": config.get("trials"),
        }
    # The whole run started when its first shard did (ISO UTC strings sort as times).
    starts = [s.provenance.get("run_started") for s in reports if s.provenance is not None]
    known = sorted(start for start in starts if isinstance(start, str))
    prov["run_started"] = known[0] if known else None
    prov["shard"] = None
    prov["merged_from"] = [{"source": str(s.source), "shard": s.shard} for s in shards]
    return prov


def merge_shards(shards: list[Shard]) -> Merged:
    """The report of the whole run from its shards; MergeError when they do not fit together."""
    if not shards:
        raise MergeError("no shards given; give the reports or session logs of the shards")
    _check_configs(shards)
    missing = _check_shards(shards)
    records = _combine(shards)
    config = dict(shards[0].config)
    config["shard"] = None
    trials = config_value(config, "trials")
    # What the shards set out to play: every session they recorded, and those they never ran.
    selected = len(records) + sum(s.not_run for s in shards)
    summary = summarize(records, int(trials) if isinstance(trials, int) else 1, selected)
    prov = _provenance(shards, config)
    # The shards ran side by side: the whole run took as long as its slowest shard.
    wall = max(s.wall_s for s in shards)
    return Merged(build_report(prov, summary, records, wall, config), missing)
