"""Command-line options of the plugin: declared once, read into the run's settings.

The values are validated by the pytest-free run core (run/settings.py); its messages name the
fix, and reach the user as pytest's usage error. The run core is imported only when a run asks
for the benchmark: every pytest run in the environment imports this module.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import pytest

from pytest_bankbench.vocabulary import (
    BUILTIN_NAMES,
    DEFAULT_MAX_ERRORS,
    DEFAULT_MAX_STEPS,
    DEFAULT_SPLIT,
    SPLITS,
)

if TYPE_CHECKING:
    from pytest_bankbench.run.settings import RunSettings

OPTION_PREFIX = "--bank-"


class _Once(argparse.Action):
    """Store the option's value and refuse a second one: pytest's usual "the last wins" would run
    an agent other than the one meant, with nothing said (issue 18)."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: str | Sequence[Any] | None,
        option_string: str | None = None,
    ) -> None:
        before = getattr(namespace, self.dest, None)
        if before is not None:
            raise argparse.ArgumentError(
                self, f"given twice ({before!r}, then {values!r}); give one agent per run"
            )
        setattr(namespace, self.dest, values)


def add_options(parser: pytest.Parser) -> None:
    group = parser.getgroup("bankbench", "bank benchmark (pytest-bankbench)")
    group.addoption(
        "--bank-model",
        dest="bank_model",
        metavar="MODEL",
        action=_Once,
        default=None,
        help="agent under test: a litellm model string or a built-in agent "
        f"({', '.join(BUILTIN_NAMES)}); without it no benchmark test is collected",
    )
    group.addoption(
        "--bank-agent",
        dest="bank_agent",
        metavar="MODULE:FACTORY",
        action=_Once,
        default=None,
        help="agent under test: your own, made per session by FACTORY(context) from MODULE "
        "(importable from the current folder); instead of --bank-model",
    )
    group.addoption(
        "--bank-user-model",
        dest="bank_user_model",
        metavar="MODEL",
        default="scripted",
        help="customer simulator: 'scripted' (default, no model) or a litellm model",
    )
    group.addoption(
        "--bank-split",
        dest="bank_split",
        # None, not the default split: with --bank-tasks, a split given selects the file's
        # tasks in it, and none given runs every task of the file (fifth user trial).
        default=None,
        metavar="NAME",
        help=f"task split: {', '.join(SPLITS)} (default {DEFAULT_SPLIT}; with --bank-tasks, "
        "the file's tasks in that split, default every task of the file)",
    )
    group.addoption(
        "--bank-tasks",
        dest="bank_tasks",
        metavar="PATH",
        default=None,
        help="a JSONL task file to run instead of the shipped tasks",
    )
    group.addoption(
        "--bank-trials",
        dest="bank_trials",
        metavar="K",
        default="1",
        help="run each task K times and report pass^1..pass^K (default 1)",
    )
    group.addoption(
        "--bank-max-steps",
        dest="bank_max_steps",
        metavar="N",
        default=str(DEFAULT_MAX_STEPS),
        help=f"steps before a session ends with error (default {DEFAULT_MAX_STEPS})",
    )
    group.addoption(
        "--bank-max-errors",
        dest="bank_max_errors",
        metavar="N",
        default=str(DEFAULT_MAX_ERRORS),
        help=f"failed tool calls before a session ends with error (default {DEFAULT_MAX_ERRORS})",
    )
    group.addoption(
        "--bank-report",
        dest="bank_report",
        metavar="PATH",
        default=None,
        help="write the JSON report (verdicts, failure types, provenance) here",
    )
    group.addoption(
        "--bank-traces",
        dest="bank_traces",
        metavar="DIR",
        default=None,
        help="write every session's full trace into this folder (traces.jsonl)",
    )
    group.addoption(
        "--bank-api-base",
        dest="bank_api_base",
        metavar="URL",
        action="append",
        default=[],
        help="OpenAI-compatible endpoint of the agent model; repeat to load-balance several",
    )
    group.addoption(
        "--bank-user-api-base",
        dest="bank_user_api_base",
        metavar="URL",
        action="append",
        default=[],
        help="endpoint of the customer model (--bank-user-model)",
    )
    group.addoption(
        "--bank-user-model-args",
        dest="bank_user_model_args",
        metavar="JSON",
        default="{}",
        help="customer model parameters as a JSON object",
    )
    group.addoption(
        "--bank-num-retries",
        dest="bank_num_retries",
        metavar="N",
        default="3",
        help="retries of a transient provider error (rate limit, timeout, connection, 5xx)",
    )
    group.addoption(
        "--bank-retry-backoff",
        dest="bank_retry_backoff",
        metavar="SECONDS",
        default="1.0",
        help="first retry delay; doubles on each retry (default 1.0)",
    )
    group.addoption(
        "--bank-cache",
        dest="bank_cache",
        metavar="DIR",
        default=None,
        help="response cache keyed on the whole request: a rerun makes no model calls",
    )
    group.addoption(
        "--bank-prices",
        dest="bank_prices",
        metavar="JSON",
        default=None,
        help="prices of a self-hosted model, e.g. "
        '\'{"input_cost_per_token": 1e-7, "output_cost_per_token": 2e-7}\'',
    )
    group.addoption(
        "--bank-resume",
        dest="bank_resume",
        metavar="PATH",
        default=None,
        help="run only the sessions not yet finished in this report or session log "
        "(same configuration required); new sessions are appended to it",
    )
    group.addoption(
        "--bank-regrade",
        dest="bank_regrade",
        metavar="TRACES",
        default=None,
        help="score saved traces (a traces.jsonl or its folder) with the current scorer; "
        "no agent is run",
    )
    group.addoption(
        "--bank-html",
        dest="bank_html",
        metavar="PATH",
        default=None,
        help="write a self-contained HTML report (charts, sessions, traces)",
    )
    group.addoption(
        "--bank-gate",
        dest="bank_gate",
        metavar="EXPR",
        default=None,
        help="CI gate, e.g. 'pass^1>=0.6, false_pass<=0.05': the exit status follows the gate",
    )
    group.addoption(
        "--bank-baseline",
        dest="bank_baseline",
        metavar="REPORT",
        default=None,
        help="fail on a significant paired regression against this saved report",
    )
    group.addoption(
        "--bank-tolerance",
        dest="bank_tolerance",
        metavar="DROP",
        default=None,
        help="with --bank-baseline: also fail when pass^1 drops by more than DROP (e.g. 0.02)",
    )
    group.addoption(
        "--bank-summary-md",
        dest="bank_summary_md",
        metavar="PATH",
        default=None,
        help="write a Markdown summary (for a CI job summary)",
    )
    group.addoption(
        "--bank-timeout",
        dest="bank_timeout",
        metavar="SECONDS",
        default="60",
        help="per-call timeout of a model request, each attempt (default 60)",
    )
    group.addoption(
        "--bank-session-deadline",
        dest="bank_session_deadline",
        metavar="SECONDS",
        default=None,
        help="time limit of one whole session (agent turns, tool calls, customer, scoring); "
        "past it the session ends deadline_exceeded, the agent's failure (default: none)",
    )
    group.addoption(
        "--bank-max-transport-failures",
        dest="bank_max_transport_failures",
        metavar="N",
        default="5",
        help="after N transport failures in a row (refused, reset, timed out) against an "
        "endpoint, a process sends it no more requests: the sessions left are infrastructure "
        "errors (0: never; default 5)",
    )
    group.addoption(
        "--bank-concurrency",
        dest="bank_concurrency",
        metavar="K",
        default="1",
        help="sessions each process plays at once (model calls overlap); each task "
        "stays one test (default 1)",
    )
    group.addoption(
        "--bank-shard",
        dest="bank_shard",
        metavar="I/N",
        default=None,
        help="run only shard I of N (1-based, deterministic by task and trial); "
        "combine the shards' reports with `python -m pytest_bankbench merge`",
    )
    group.addoption(
        "--bank-model-args",
        dest="bank_model_args",
        metavar="JSON",
        default="{}",
        help="extra model parameters as a JSON object, e.g. '{\"temperature\": 0}'",
    )


# The options that make a run the benchmark's, and what each takes: given empty (CI's
# `--bank-model "$MODEL"` with the variable unset), each is a usage error, not an idle plugin
# and "no tests ran".
REQUESTING = (
    (
        "--bank-model",
        "bank_model",
        f"a built-in agent ({', '.join(BUILTIN_NAMES)}) or a litellm model string "
        "(e.g. gpt-4o-mini, openai/<name>)",
    ),
    ("--bank-agent", "bank_agent", "MODULE:FACTORY"),
    ("--bank-regrade", "bank_regrade", "a traces.jsonl or its folder"),
)
# Paths: empty, each was read as the current folder, or (--bank-tasks) as not given at all.
PATHS = tuple(
    (f"--bank-{name}", f"bank_{name.replace('-', '_')}", "a path, or leave the option out")
    for name in ("tasks", "report", "traces", "cache", "resume", "html", "baseline", "summary-md")
)


def refuse_empty(config: pytest.Config) -> None:
    """UsageError naming the first of REQUESTING or PATHS given as an empty (or blank) value."""
    for option, dest, accepted in (*REQUESTING, *PATHS):
        value = getattr(config.option, dest, None)
        if value is not None and not str(value).strip():
            raise pytest.UsageError(f"{option} {value!r}: empty; give {accepted}")


def requested(config: pytest.Config) -> bool:
    """Whether this run is the benchmark's: --bank-model, --bank-agent or --bank-regrade is
    given. Without one the plugin stays idle (no marker, fixture or hook of the run is
    registered)."""
    option = config.option
    return bool(option.bank_model or option.bank_agent or option.bank_regrade)


def read_options(config: pytest.Config) -> RunSettings | None:
    """The run's settings, or None when none of --bank-model, --bank-agent, --bank-regrade
    is given."""
    refuse_empty(config)
    if not requested(config):
        return None
    from pytest_bankbench.run.settings import SettingsError, read_settings

    try:
        return read_settings(config.option)
    except SettingsError as exc:
        raise pytest.UsageError(str(exc)) from None
