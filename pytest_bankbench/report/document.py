"""The typed run result: the summary, its group rows and the JSON report, with a version.

Every renderer (terminal, Markdown, HTML), `compare`, `--bank-baseline`, the gate and `merge`
read these models, never keys of a dict. The JSON field names are the report's public format
(`pass^1`, `pass^k` ...), kept through aliases; the Python names are plain identifiers.

Report versions:
  1  the format since the first release. Reports written before the run accounted for every
     session lack `accounting`, `unaccounted` and the customer's usage; they load with those
     left empty (`accounting` None, zero customer usage).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from pytest_bankbench.errors import BankBenchError
from pytest_bankbench.report.record import SessionRecord, foreign_session, load_json

REPORT_VERSION = 1
READABLE_VERSIONS = frozenset({1})


class ReportError(BankBenchError, ValueError):
    """A report file that cannot be used; the message names the file and what is wrong."""


class _Part(BaseModel):
    model_config = ConfigDict(
        extra="forbid", frozen=True, populate_by_name=True, serialize_by_alias=True
    )


class Rate(_Part):
    """One group's row (a category, a service area, a chain length, graded or control)."""

    sessions: int
    passed: int
    # None over no session (0 of 0 is no measured 0%); older reports wrote 0.0 there.
    pass_rate: float | None
    ci95: tuple[float, float] | None
    final_state_rate: float | None
    false_passes: int


class FalsePasses(_Part):
    count: int
    share_of_all: float | None  # None over no session, as every rate
    share_of_final_state_passes: float | None  # None when no session passed the final state


class Accounting(_Part):
    """Where every selected session went; `not_run` is what has no record at all."""

    selected: int
    scored: int
    infra_errors: int
    harness_errors: int
    lost: int
    not_run: int

    def line(self) -> str:
        """Where the selected sessions went, in one line (terminal and Markdown)."""
        return (
            f"{self.selected} selected: {self.scored} scored, {self.infra_errors} "
            f"infrastructure errors, {self.harness_errors} harness errors, {self.lost} lost, "
            f"{self.not_run} not run"
        )

    def short(self) -> str:
        """`4 selected, 0 scored, 4 infra errors`: where the sessions went, what is not none."""
        rest = (
            ("infra errors", self.infra_errors),
            ("harness errors", self.harness_errors),
            ("lost", self.lost),
            ("not run", self.not_run),
        )
        parts = [f"{self.selected} selected", f"{self.scored} scored"]
        return ", ".join(parts + [f"{count} {name}" for name, count in rest if count])


class Tokens(_Part):
    prompt: int
    completion: int
    customer_prompt: int = 0
    customer_completion: int = 0


def unfinished(k: int) -> str:
    """Why a summary has no pass^k: no task finished k trials (the terminal, the Markdown
    summary and the gate say so in these words)."""
    return f"no task has {k} finished trials"


class Summary(_Part):
    """The run's numbers; the same whatever order the sessions finished in."""

    sessions: int  # counted in pass^1: scored, harness errors and lost sessions
    tasks: int
    trials: int
    passed: int
    # None when no session was scored (every session an infrastructure error, say): the JSON
    # says null, not a measured 0.0 a dashboard would chart (a user trial).
    pass_1: float | None = Field(alias="pass^1")
    pass_1_ci95: tuple[float, float] | None = Field(alias="pass^1_ci95")
    final_state_only_rate: float | None
    false_passes: FalsePasses
    # k -> pass^k, for each k up to `trials` that some task finished k trials of (none: n/a).
    pass_k: dict[str, float] = Field(alias="pass^k")
    infra_errors: int
    accounting: Accounting | None = None  # None only in reports older than the accounting
    unaccounted: int = 0
    failure_types: dict[str, int]
    by_category: dict[str, Rate]
    by_service_area: dict[str, Rate]
    by_chain_length: dict[str, Rate]
    by_family: dict[str, Rate] = Field(default_factory=dict)  # absent in older reports
    graded: Rate
    control: Rate
    tokens: Tokens
    cost_usd: float | None
    customer_cost_usd: float | None = None
    model_latency_s: float = 0.0
    customer_latency_s: float = 0.0
    per_task_successes: dict[str, tuple[int, int]]

    def group(self, name: str) -> Rate | None:
        """A category's, a service area's or a family's row, by its name."""
        return (
            self.by_category.get(name) or self.by_service_area.get(name) or self.by_family.get(name)
        )


class Report(_Part):
    """The JSON report: provenance, configuration, summary and every session's verdict."""

    report_version: int
    provenance: dict[str, Any]
    run_config: dict[str, Any] = Field(default_factory=dict)
    summary: Summary
    wall_time_s: float
    sessions: list[SessionRecord]

    def label(self, fallback: str) -> str:
        """The agent's model name, for tables that compare two reports."""
        agent = self.provenance.get("agent")
        model = agent.get("model") if isinstance(agent, dict) else None
        return model if isinstance(model, str) and model else fallback

    def to_json(self) -> dict[str, Any]:
        """The report as JSON-able data, in the public field names."""
        return self.model_dump(mode="json")

    def dumps(self) -> str:
        return json.dumps(self.to_json(), indent=1, sort_keys=True, allow_nan=False) + "\n"


def build_report(
    provenance: dict[str, Any],
    summary: Summary,
    records: list[SessionRecord],
    wall_s: float,
    run_config: dict[str, Any],
) -> Report:
    """The report of a run; sessions sorted so that parallel runs write the same file."""
    return Report(
        report_version=REPORT_VERSION,
        provenance=provenance,
        run_config=run_config,
        summary=summary,
        wall_time_s=round(wall_s, 3),
        sessions=sorted(records, key=lambda r: (r.task_id, r.trial)),
    )


def parse_report(document: object, name: str) -> Report:
    """A report from decoded JSON, or a ReportError naming `name` and what is wrong."""
    if not isinstance(document, dict):
        raise ReportError(f"{name}: not a pytest-bankbench report (the JSON is not an object)")
    missing = [key for key in ("report_version", "sessions") if key not in document]
    if missing:
        raise ReportError(
            f"{name}: not a pytest-bankbench report (no {' or '.join(repr(k) for k in missing)})"
        )
    version = document["report_version"]
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise ReportError(f"{name}: 'report_version' {version!r} is not a report version")
    if version not in READABLE_VERSIONS:
        if version > REPORT_VERSION:
            raise ReportError(
                f"{name}: report_version {version} is newer than this pytest-bankbench reads "
                f"({REPORT_VERSION}); upgrade pytest-bankbench"
            )
        raise ReportError(f"{name}: report_version {version} is no longer read; re-run it")
    _check_sessions(document["sessions"], name)
    try:
        report = Report.model_validate(document)
    except ValidationError as exc:
        first = exc.errors()[0]
        problem = "is missing" if first["type"] == "missing" else first["msg"].lower()
        more = exc.error_count() - 1
        raise ReportError(
            f"{name}: {_where(first['loc'])} {problem}"
            + (f" (and {more} more problem{'s' if more > 1 else ''})" if more else "")
        ) from None
    foreign = foreign_session(
        report.sessions, report.run_config.get("trials"), report.provenance.get("task_ids")
    )
    if foreign is not None:
        raise ReportError(f"{name}: {foreign}")
    return report


def _where(loc: tuple[int | str, ...]) -> str:
    """A validation error's place in report words: "session 3: 'trial'", "'summary.pass^1'"."""
    parts = list(loc)
    head = ""
    if len(parts) >= 2 and parts[0] == "sessions" and isinstance(parts[1], int):
        head, parts = f"session {parts[1]}", parts[2:]
    field = ".".join(str(part) for part in parts)
    if head and field:
        return f"{head}: '{field}'"
    return head or f"'{field}'"


def _check_sessions(raw: object, name: str) -> None:
    """The sessions' identities: a list, each (task, trial) once. Fields are the model's."""
    if not isinstance(raw, list):
        raise ReportError(f"{name}: 'sessions' is missing or not a list")
    seen: set[tuple[object, object]] = set()
    for index, item in enumerate(raw):
        if not isinstance(item, dict):
            raise ReportError(f"{name}: session {index} is not an object")
        key = (item.get("task_id"), item.get("trial"))
        if key in seen:
            raise ReportError(
                f"{name}: session {index}: task {key[0]!r} trial {key[1]} appears twice"
            )
        seen.add(key)


def read_report(path: Path) -> Report:
    """Load a report file; every problem is a ReportError naming the file."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ReportError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise ReportError(f"{path}: is a directory, not a report file") from None
    except UnicodeDecodeError:
        raise ReportError(f"{path}: not a text file (not UTF-8)") from None
    except OSError as exc:
        raise ReportError(f"{path}: cannot be read ({exc.strerror or exc})") from None
    try:
        document = load_json(text)
    except json.JSONDecodeError as exc:
        raise ReportError(
            f"{path}: not valid JSON ({exc.msg.removesuffix(' at')} at line {exc.lineno} "
            f"column {exc.colno})"
        ) from None
    except (ValueError, RecursionError) as exc:
        raise ReportError(f"{path}: {str(exc)[:200]}") from None
    return parse_report(document, str(path))
