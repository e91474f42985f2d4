"""Command-line options of the plugin: declared once, validated with messages that name the fix."""

from __future__ import annotations

import json
import math
import os
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from pytest_bankbench.vocabulary import (
    BUILTIN_NAMES,
    DEFAULT_MAX_ERRORS,
    DEFAULT_MAX_STEPS,
    DEFAULT_SPLIT,
    SPLITS,
)


def add_options(parser: pytest.Parser) -> None:
    group = parser.getgroup("bankbench", "bank benchmark (pytest-bankbench)")
    group.addoption(
        "--bank-model",
        dest="bank_model",
        metavar="MODEL",
        default=None,
        help="agent under test: a litellm model string or a built-in agent "
        f"({', '.join(BUILTIN_NAMES)}); without it no benchmark test is collected",
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
        default=DEFAULT_SPLIT,
        metavar="NAME",
        help=f"task split: {', '.join(SPLITS)} (default {DEFAULT_SPLIT})",
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
        help="wall-clock limit of one session; past it the session ends as an "
        "infrastructure error (default: none)",
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


@dataclass(frozen=True)
class BankOptions:
    """The validated options of one run."""

    model: str
    user_model: str
    split: str
    tasks_path: Path | None
    trials: int
    max_steps: int
    max_errors: int
    report: Path | None
    traces: Path | None
    model_args: dict[str, Any] = field(default_factory=dict)
    resume: Path | None = None
    regrade: Path | None = None
    html: Path | None = None
    gate: str | None = None
    baseline: Path | None = None
    tolerance: float | None = None
    summary_md: Path | None = None
    api_bases: tuple[str, ...] = ()
    user_api_bases: tuple[str, ...] = ()
    user_model_args: dict[str, Any] = field(default_factory=dict)
    num_retries: int = 3
    retry_backoff: float = 1.0
    cache: Path | None = None
    prices: dict[str, float] | None = None
    timeout: float = 60.0
    session_deadline: float | None = None
    concurrency: int = 1
    shard: tuple[int, int] | None = None  # (index from 1, count)

    @property
    def builtin(self) -> bool:
        return self.model in BUILTIN_NAMES


REGRADE_MODEL = "(regrade)"
REDACTED = "<redacted>"
# api_key, aws_secret_access_key, access_token, password, Authorization, X-Api-Key...;
# not max_tokens (a count, not a credential).
_SECRET = re.compile(
    r"(key|token|secret|password|passwd|authorization|credentials?|cookie|signature)$",
    re.IGNORECASE,
)
_NOT_SECRET = re.compile(r"(max|min)_\w*tokens?$|^(max_)?(completion_|prompt_)?tokens$", re.I)
# Credential-looking text inside any string, with its replacement: `name=value` pairs whose
# name says credential (api_key='...', "Authorization": "Bearer ..."), bearer tokens, and the
# shapes of provider keys.
_SECRET_TEXT = (
    (
        re.compile(
            r"(?i)((?:api[_-]?key|[\w-]*secret[\w-]*|[\w-]*token|password|authorization"
            r"|credentials?|(?<=[?&])key)[\"']?\s*[:=]\s*[\"']?(?:(?:bearer|basic)\s+)?)([^\s\"'<>,;}]{4,})"
        ),
        r"\1" + REDACTED,
    ),
    (re.compile(r"(://[^/\s:@]+:)[^/\s@]+@"), r"\1" + REDACTED + "@"),  # user:password@host
    (re.compile(r"(?i)\b(bearer|basic)\s+[A-Za-z0-9._~+/=\-]{6,}"), r"\1 " + REDACTED),
    (
        re.compile(
            r"\b(?:(?:sk|rk|pk)-[A-Za-z0-9_\-]{6,}"  # OpenAI, Anthropic (sk-ant-...), ...
            r"|AIza[0-9A-Za-z_\-]{20,}|gh[pousr]_[A-Za-z0-9]{16,}|xox[abpr]-[\w-]{8,}"
            r"|(?:AKIA|ASIA)[0-9A-Z]{12,})"  # AWS access key ids
        ),
        REDACTED,
    ),
)
# Environment variables whose values are credentials wherever they show up.
_SECRET_ENV = re.compile(
    r"(KEY|TOKEN|SECRET|PASSWORD|CREDENTIALS?)$|^(AZURE|AWS|OPENAI|ANTHROPIC|GEMINI|MISTRAL)_.*KEY",
    re.IGNORECASE,
)


def _secret_name(name: str) -> bool:
    return bool(_SECRET.search(name)) and not _NOT_SECRET.search(name)


def redacted(params: dict[str, Any]) -> dict[str, Any]:
    """Model parameters fit for a report: every credential at any depth replaced (by its name,
    e.g. api_key or extra_headers.Authorization, or by its look in any string)."""
    clean: dict[str, Any] = _redact(params)
    return clean


def _redact(value: Any) -> Any:
    if isinstance(value, dict):
        return {
            k: REDACTED
            if isinstance(k, str) and _secret_name(k) and v not in (None, "")
            else _redact(v)
            for k, v in value.items()
        }
    if isinstance(value, list | tuple):
        return type(value)(_redact(v) for v in value)
    if isinstance(value, str):
        return redact_text(value)
    return value


def _env_secrets() -> list[str]:
    """Values of credential-named environment variables (long enough not to be a plain word)."""
    import os

    return sorted(
        (v for k, v in os.environ.items() if _SECRET_ENV.search(k) and len(v) >= 8),
        key=len,
        reverse=True,
    )


def secret_values(params: Any) -> tuple[str, ...]:
    """The credentials in model parameters (at any depth, by name), to scrub from any text even
    where they have no recognisable shape; a bearer header's token counts on its own too."""
    found: list[str] = []
    if isinstance(params, dict):
        for k, v in params.items():
            if isinstance(k, str) and _secret_name(k) and isinstance(v, str) and len(v) >= 4:
                found += [v, re.sub(r"(?i)^(bearer|basic)\s+", "", v)]
            else:
                found += secret_values(v)
    elif isinstance(params, list | tuple):
        for v in params:
            found += secret_values(v)
    return tuple(sorted(set(found), key=len, reverse=True))


def redact_text(text: str, known: Iterable[str] = ()) -> str:
    """Text fit for any output: the `known` secrets (see secret_values), the values of key-ish
    environment variables (OPENAI_API_KEY, ...) and credential-looking substrings replaced by
    <redacted>."""
    for value in (*known, *_env_secrets()):
        text = text.replace(value, REDACTED)
    for pattern, replacement in _SECRET_TEXT:
        text = pattern.sub(replacement, text)
    return text


_PROVIDER_PREFIXES = ("gpt", "o1", "o3", "o4", "claude", "gemini", "mistral", "command")


def check_model(option: str, model: str) -> None:
    """A built-in agent or something litellm can route; else a UsageError naming both."""
    if model in BUILTIN_NAMES or "/" in model or model.startswith(_PROVIDER_PREFIXES):
        return
    raise pytest.UsageError(
        f"{option} {model!r}: not a built-in agent ({', '.join(BUILTIN_NAMES)}) and not a "
        "litellm model string (e.g. gpt-4o-mini, openai/<name>, hosted_vllm/<name>)"
    )


def _positive(name: str, raw: str, low: int = 1) -> int:
    try:
        value = int(raw)
    except ValueError:
        raise pytest.UsageError(f"{name} {raw!r}: expected a whole number >= {low}") from None
    if value < low:
        raise pytest.UsageError(f"{name} {value}: expected a whole number >= {low}")
    return value


def read_options(config: pytest.Config) -> BankOptions | None:
    """The run's options, or None when neither --bank-model nor --bank-regrade is given."""
    opt = config.option
    if not opt.bank_model and not opt.bank_regrade:
        return None
    model = (opt.bank_model or REGRADE_MODEL).strip()
    if opt.bank_model and not opt.bank_regrade:
        check_model("--bank-model", model)
    if opt.bank_user_model != "scripted":
        if opt.bank_user_model in BUILTIN_NAMES:
            raise pytest.UsageError(
                f"--bank-user-model {opt.bank_user_model!r}: built-in agents "
                "cannot play the customer; use 'scripted' or a litellm model"
            )
        check_model("--bank-user-model", opt.bank_user_model)
    if opt.bank_split not in SPLITS:
        raise pytest.UsageError(
            f"--bank-split {opt.bank_split!r}: choose one of {', '.join(SPLITS)}"
        )
    tasks_path = Path(opt.bank_tasks) if opt.bank_tasks else None
    if tasks_path is not None and not tasks_path.is_file():
        raise pytest.UsageError(
            f"--bank-tasks {opt.bank_tasks!r}: no such file; give a JSONL "
            "task file (one task per line)"
        )
    model_args = _json_object("--bank-model-args", opt.bank_model_args)
    traces = Path(opt.bank_traces) if opt.bank_traces else None
    if traces is not None and traces.exists() and not traces.is_dir():
        raise pytest.UsageError(
            f"--bank-traces {opt.bank_traces!r}: exists and is not a folder; give a folder path"
        )
    return BankOptions(
        model=model,
        user_model=opt.bank_user_model,
        split=opt.bank_split,
        tasks_path=tasks_path,
        trials=_positive("--bank-trials", opt.bank_trials),
        max_steps=_positive("--bank-max-steps", opt.bank_max_steps, 2),
        max_errors=_positive("--bank-max-errors", opt.bank_max_errors),
        report=_output_file("--bank-report", opt.bank_report),
        traces=traces,
        model_args=model_args,
        resume=_resumable(opt.bank_resume),
        regrade=_traces_file(opt.bank_regrade),
        html=_output_file("--bank-html", opt.bank_html),
        gate=opt.bank_gate,
        baseline=_existing("--bank-baseline", opt.bank_baseline),
        tolerance=_fraction("--bank-tolerance", opt.bank_tolerance),
        summary_md=_output_file("--bank-summary-md", opt.bank_summary_md),
        api_bases=tuple(opt.bank_api_base),
        user_api_bases=tuple(opt.bank_user_api_base),
        user_model_args=_json_object("--bank-user-model-args", opt.bank_user_model_args),
        num_retries=_positive("--bank-num-retries", opt.bank_num_retries, 0),
        retry_backoff=_seconds("--bank-retry-backoff", opt.bank_retry_backoff),
        cache=Path(opt.bank_cache) if opt.bank_cache else None,
        prices=_prices(opt.bank_prices),
        timeout=_seconds("--bank-timeout", opt.bank_timeout, positive=True),
        session_deadline=(
            _seconds("--bank-session-deadline", opt.bank_session_deadline, positive=True)
            if opt.bank_session_deadline is not None
            else None
        ),
        concurrency=_positive("--bank-concurrency", opt.bank_concurrency),
        shard=_shard(opt.bank_shard),
    )


def _output_file(name: str, raw: str | None) -> Path | None:
    """A file the run will write at its end, checked now so a typo costs no run."""
    if raw is None:
        return None
    path = Path(raw)
    if path.is_dir():
        raise pytest.UsageError(f"{name} {raw!r}: is a folder; give a file path")
    folder = path.parent
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    if not folder.is_dir() or not os.access(folder, os.W_OK):
        raise pytest.UsageError(
            f"{name} {raw!r}: cannot write there ({folder} is not a "
            "writable folder); give a path in a folder you can write to"
        )
    return path


def _json_object(name: str, raw: str) -> dict[str, Any]:
    try:
        value = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise pytest.UsageError(
            f"{name}: not valid JSON ({exc.msg}); give an object such as '{{\"temperature\": 0}}'"
        ) from None
    if not isinstance(value, dict):
        raise pytest.UsageError(f"{name}: give a JSON object such as '{{\"temperature\": 0}}'")
    return value


def _seconds(name: str, raw: str, positive: bool = False) -> float:
    bound = "> 0" if positive else ">= 0"
    try:
        value = float(raw)
    except ValueError:
        raise pytest.UsageError(f"{name} {raw!r}: expected seconds, e.g. 1.0") from None
    if not math.isfinite(value) or value < 0 or (positive and value == 0):
        raise pytest.UsageError(f"{name} {raw!r}: expected a finite number of seconds {bound}")
    return value


def _shard(raw: str | None) -> tuple[int, int] | None:
    if raw is None:
        return None
    match = re.fullmatch(r"\s*(\d+)\s*/\s*(\d+)\s*", raw)
    if match is None or not 1 <= int(match[1]) <= int(match[2]):
        raise pytest.UsageError(f"--bank-shard {raw!r}: expected I/N with 1 <= I <= N, e.g. 1/3")
    return int(match[1]), int(match[2])


def _prices(raw: str | None) -> dict[str, float] | None:
    if raw is None:
        return None
    value = _json_object("--bank-prices", raw)
    accepted = {"input_cost_per_token", "output_cost_per_token"}
    if (
        not value
        or set(value) - accepted
        or not all(isinstance(v, int | float) and v >= 0 for v in value.values())
    ):
        raise pytest.UsageError(
            "--bank-prices: give non-negative numbers for "
            "input_cost_per_token and/or output_cost_per_token"
        )
    return {k: float(v) for k, v in value.items()}


def _existing(name: str, raw: str | None) -> Path | None:
    if raw is None:
        return None
    path = Path(raw)
    if not path.is_file():
        raise pytest.UsageError(
            f"{name} {raw!r}: no such file; give a report JSON written by "
            "--bank-report (or its .sessions.jsonl log)"
        )
    return path


def _resumable(raw: str | None) -> Path | None:
    """A report or its session log; after a kill the report may be missing, its log is enough."""
    if raw is None:
        return None
    from pytest_bankbench.report.results_log import resume_pair

    path = Path(raw)
    report, log = resume_pair(path)
    if not (report.is_file() or log.is_file()):
        raise pytest.UsageError(
            f"--bank-resume {raw!r}: neither {report} nor its session log {log} exists; give "
            "the report JSON written by --bank-report (or its .sessions.jsonl log)"
        )
    return path


def _traces_file(raw: str | None) -> Path | None:
    if raw is None:
        return None
    path = Path(raw)
    if path.is_dir():
        path = path / "traces.jsonl"
    if not path.is_file():
        raise pytest.UsageError(
            f"--bank-regrade {raw!r}: no traces.jsonl there; give the folder "
            "written by --bank-traces or the traces.jsonl inside it"
        )
    return path


def _fraction(name: str, raw: str | None) -> float | None:
    if raw is None:
        return None
    try:
        value = float(raw)
    except ValueError:
        raise pytest.UsageError(f"{name} {raw!r}: expected a number between 0 and 1") from None
    if not 0 <= value <= 1:
        raise pytest.UsageError(f"{name} {raw!r}: expected a number between 0 and 1")
    return value
