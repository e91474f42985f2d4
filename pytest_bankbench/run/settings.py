"""The settings of one run: every option's value validated, with a message that names the fix.

Pytest-free: the plugin declares the options (plugin/options.py) and turns a SettingsError into
pytest's usage error. Imported at every pytest start (by the entry module), so it imports only
the standard library and the vocabulary.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from pytest_bankbench import __version__
from pytest_bankbench.errors import BankBenchError
from pytest_bankbench.redaction import redacted
from pytest_bankbench.vocabulary import BUILTIN_NAMES, DEFAULT_SPLIT, LOCAL_MODEL_PREFIX, SPLITS

REGRADE_MODEL = "(regrade)"


class SettingsError(BankBenchError, ValueError):
    """An option value that cannot be used; the message names the option and what it accepts."""


@dataclass(frozen=True)
class RunSettings:
    """The validated settings of one run (from the command line, or from any other front end)."""

    model: str
    user_model: str
    # The split run, of the shipped tasks or of the --bank-tasks file; None: every task of
    # that file (no --bank-split given with it).
    split: str | None
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
    max_transport_failures: int = 5
    concurrency: int = 1
    shard: tuple[int, int] | None = None  # (index from 1, count)
    # --bank-agent module:factory (then `model` is the same string, so the reports, the
    # provenance, resume and merge name it as they name a model).
    agent: str | None = None
    # The agent model's options given to an agent that is no litellm model (a built-in one, or
    # --bank-agent): ignored, so neither held nor recorded; the plugin warns of them once.
    ignored_options: tuple[str, ...] = ()

    @property
    def builtin(self) -> bool:
        return self.model in BUILTIN_NAMES

    @property
    def tasks_file(self) -> Path:
        """The task file the run reads: --bank-tasks, else the shipped one."""
        from pytest_bankbench.paths import data_dir
        from pytest_bankbench.tasks.loader import TASKS_FILE  # not at import: it loads pydantic

        return self.tasks_path or data_dir() / TASKS_FILE

    @property
    def split_name(self) -> str:
        """The split as the reports name it: `lite`; `custom` for every task of a --bank-tasks
        file (as before a split could be given with one), `train of FILE` for its train tasks."""
        if self.tasks_path is None:
            return str(self.split)
        return "custom" if self.split is None else f"{self.split} of {self.tasks_path}"

    @cached_property
    def run_config(self) -> dict[str, Any]:
        """What must match for two runs' sessions to be interchangeable (--bank-resume, merge).

        Computed once: it hashes the task file, which every report, log line and resume reads.
        """
        return {
            "agent": self.model,
            "agent_parameters": redacted(self.model_args),
            "customer_parameters": redacted(self.user_model_args),
            "customer": self.user_model,
            "split": self.split_name,
            "tasks_file": "shipped" if self.tasks_path is None else str(self.tasks_path),
            "task_data_sha256": hashlib.sha256(self.tasks_file.read_bytes()).hexdigest(),
            "max_steps": self.max_steps,
            "max_errors": self.max_errors,
            "trials": self.trials,
            "regrade": str(self.regrade) if self.regrade else None,
            "shard": f"{self.shard[0]}/{self.shard[1]}" if self.shard else None,
            # Another release may score the same trace otherwise: resume and merge refuse it.
            "package_version": __version__,
            # Past it a session fails (deadline_exceeded): the deadline changes verdicts.
            "session_deadline": self.session_deadline,
        }


_PROVIDER_PREFIXES = ("gpt", "o1", "o3", "o4", "claude", "gemini", "mistral", "command")


def check_model(option: str, model: str) -> None:
    """A built-in agent, or something litellm can route with litellm installed; else a
    UsageError naming the option, the value and what to do."""
    if model in BUILTIN_NAMES:
        return
    if not ("/" in model or model.startswith(_PROVIDER_PREFIXES)):
        raise SettingsError(
            f"{option} {model!r}: not a built-in agent ({', '.join(BUILTIN_NAMES)}) and not a "
            "litellm model string (e.g. gpt-4o-mini, openai/<name>, hosted_vllm/<name>)"
        )
    if importlib.util.find_spec("litellm") is None:  # looked up, not imported (4 s)
        extra = "local" if model.startswith(LOCAL_MODEL_PREFIX) else "llm"
        raise SettingsError(
            f"{option} {model!r}: a model is called through litellm, which is not installed; "
            f"pip install 'pytest-bankbench[{extra}]' (the built-in agents need nothing more)"
        )


# The most each count option accepts (issue 19): beyond these a run is a typo or a resource
# exhaustion (10,000 trials of 1,000 tasks is 10 million cases, several GB before one session),
# never a benchmark anyone meant. pass^k beyond 100 trials tells nothing pass^100 does not.
COUNT_BOUNDS = {
    "--bank-trials": 100,
    "--bank-max-steps": 1_000,
    "--bank-max-errors": 1_000,
    "--bank-num-retries": 20,
    "--bank-concurrency": 256,
    "--bank-max-transport-failures": 10_000,
}


def _positive(name: str, raw: str, low: int = 1) -> int:
    high = COUNT_BOUNDS[name]
    accepted = f"expected a whole number from {low} to {high}"
    if len(str(raw)) > 20:
        raise SettingsError(f"{name} {str(raw)[:20]!r}...: {accepted}")
    try:
        value = int(raw)
    except ValueError:
        raise SettingsError(f"{name} {raw!r}: {accepted}") from None
    if not low <= value <= high:
        raise SettingsError(f"{name} {value}: {accepted}")
    return value


def read_settings(opt: Any) -> RunSettings | None:
    """The run's settings from the option values (pytest's `config.option`, by dest), or None
    when none of --bank-model, --bank-agent and --bank-regrade is given."""
    agent = _agent_spec(opt)
    if not opt.bank_model and not opt.bank_regrade and agent is None:
        return None
    model = (agent or opt.bank_model or REGRADE_MODEL).strip()
    if opt.bank_model and not opt.bank_regrade:
        check_model("--bank-model", model)
    if opt.bank_user_model != "scripted":
        if opt.bank_user_model in BUILTIN_NAMES:
            raise SettingsError(
                f"--bank-user-model {opt.bank_user_model!r}: built-in agents "
                "cannot play the customer; use 'scripted' or a litellm model"
            )
        check_model("--bank-user-model", opt.bank_user_model)
    if opt.bank_split is not None and opt.bank_split not in SPLITS:
        raise SettingsError(f"--bank-split {opt.bank_split!r}: choose one of {', '.join(SPLITS)}")
    tasks_path = _existing("--bank-tasks", opt.bank_tasks, "a JSONL task file (one task per line)")
    split = opt.bank_split if opt.bank_split is not None or tasks_path else DEFAULT_SPLIT
    model_args = _json_object("--bank-model-args", opt.bank_model_args)
    api_bases = tuple(opt.bank_api_base)
    ignored: tuple[str, ...] = ()
    if model in BUILTIN_NAMES or agent is not None:  # user trial: gold "ran" at temperature 0.5
        given = (("--bank-model-args", model_args), ("--bank-api-base", api_bases))
        ignored = tuple(name for name, value in given if value)
        model_args, api_bases = {}, ()
    traces = _output_folder("--bank-traces", opt.bank_traces)
    if traces is not None and traces.exists() and not traces.is_dir():
        raise SettingsError(
            f"--bank-traces {opt.bank_traces!r}: exists and is not a folder; give a folder path"
        )
    return _check_outputs(
        RunSettings(
            model=model,
            user_model=opt.bank_user_model,
            split=split,
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
            api_bases=api_bases,
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
            max_transport_failures=_positive(
                "--bank-max-transport-failures", opt.bank_max_transport_failures, 0
            ),
            shard=_shard(opt.bank_shard),
            agent=agent,
            ignored_options=ignored,
        ),
        # pytest's own report file: a bank output on it would be overwritten, or overwrite it.
        [("--junitxml", Path(opt.xmlpath))] if getattr(opt, "xmlpath", None) else [],
    )


def _agent_spec(opt: Any) -> str | None:
    """--bank-agent module:factory, checked: the factory imports and is callable (what it
    returns is checked on the first case, once the tasks are read: run/parties.py)."""
    raw = getattr(opt, "bank_agent", None)  # a front end without the option has no agent
    if raw is None:
        return None
    spec = str(raw).strip()
    for other, given in (("--bank-model", opt.bank_model), ("--bank-regrade", opt.bank_regrade)):
        if given:
            raise SettingsError(
                f"--bank-agent {spec!r} and {other} {given!r}: give one agent under test; "
                "--bank-agent runs your own agent, --bank-model a model or a built-in one"
                + (", and a re-grade runs no agent" if other == "--bank-regrade" else "")
            )
    from pytest_bankbench.run.parties import load_factory

    load_factory(spec)
    return spec


# What each file option is given as, in its error for a folder path.
_EXAMPLE_FILES = {"--bank-report": "report.json", "--bank-html": "report.html"}


def _output_file(name: str, raw: str | None) -> Path | None:
    """A file the run will write at its end, checked now so a typo costs no run."""
    if raw is None:
        return None
    from pytest_bankbench.report.output_paths import OutputPathError, check_output, output_path

    try:
        example = _EXAMPLE_FILES.get(name, "summary.md")
        return check_output(name, output_path(name, raw, example=example))
    except OutputPathError as exc:
        raise SettingsError(str(exc)) from None


def _output_folder(name: str, raw: str | None) -> Path | None:
    """A folder the run writes into (its `..` after made-up folders taken out, as a file's)."""
    if not raw:
        return None
    from pytest_bankbench.report.output_paths import output_path

    return output_path(name, raw, folder=True)


def _check_outputs(settings: RunSettings, others: Sequence[tuple[str, Path]] = ()) -> RunSettings:
    """Every file the run writes, its session log, traces, provenance and locks included, and
    the files other plugins write (`others`: --junitxml), checked before the first session:
    each writable and no two on one path (issue 19)."""
    from pytest_bankbench.report.output_paths import (
        OutputPathError,
        check_beside,
        check_clashes,
        check_inputs_kept,
        check_output,
        is_lock,
        is_session_log,
    )
    from pytest_bankbench.report.results_log import log_path_for
    from pytest_bankbench.report.run_guard import lock_of, lock_path_for
    from pytest_bankbench.run.provenance import PROVENANCE_FILE

    outputs: list[tuple[str, Path]] = []
    beside: list[tuple[str, Path, Callable[[str], bool], str]] = []  # files no option names
    if settings.report is not None:
        log = ("the session log of --bank-report", log_path_for(settings.report))
        lock = ("the lock file of --bank-report", lock_path_for(settings.report))
        outputs += [("--bank-report", settings.report), log, lock]
        beside = [(*log, is_session_log, "a log"), (*lock, is_lock, "a lock")]
    if settings.html is not None:
        outputs.append(("--bank-html", settings.html))
    if settings.summary_md is not None:
        outputs.append(("--bank-summary-md", settings.summary_md))
    if settings.traces is not None:
        outputs += [("--bank-traces", settings.traces)]
        traces_file = settings.traces / "traces.jsonl"
        outputs += [
            ("the traces file of --bank-traces", traces_file),
            ("the provenance file of --bank-traces", settings.traces / PROVENANCE_FILE),
            ("the lock file of --bank-traces", lock_of(traces_file)),
        ]
    outputs += others
    try:
        for name, path in outputs:
            # The options' own files were checked as read; the traces folder is a folder.
            if name.startswith("the "):
                check_output(name, path)
        check_clashes(outputs)
        tasks = "--bank-tasks" if settings.tasks_path else "the shipped task file"
        inputs: list[tuple[str, Path | None]] = [(tasks, settings.tasks_file)]
        inputs.append(("--bank-regrade", settings.regrade))
        inputs.append(("--bank-cache", settings.cache))
        check_inputs_kept(outputs, inputs)
        for name, path, ours, what in beside:
            check_beside(name, path, ours, f"{what} of this plugin", "--bank-report")
    except OutputPathError as exc:
        raise SettingsError(str(exc)) from None
    return settings


def _json_object(name: str, raw: str) -> dict[str, Any]:
    try:
        value = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise SettingsError(
            f"{name}: not valid JSON ({exc.msg.removesuffix(' at')} at column {exc.colno}); "
            "give an object such as '{\"temperature\": 0}'"
        ) from None
    if not isinstance(value, dict):
        raise SettingsError(f"{name}: give a JSON object such as '{{\"temperature\": 0}}'")
    return value


def _seconds(name: str, raw: str, positive: bool = False) -> float:
    bound = "> 0" if positive else ">= 0"
    try:
        value = float(raw)
    except ValueError:
        raise SettingsError(f"{name} {raw!r}: expected seconds, e.g. 1.0") from None
    if not math.isfinite(value) or value < 0 or (positive and value == 0):
        raise SettingsError(f"{name} {raw!r}: expected a finite number of seconds {bound}")
    return value


def _shard(raw: str | None) -> tuple[int, int] | None:
    if raw is None:
        return None
    match = re.fullmatch(r"\s*(\d+)\s*/\s*(\d+)\s*", raw)
    if match is None or not 1 <= int(match[1]) <= int(match[2]):
        raise SettingsError(f"--bank-shard {raw!r}: expected I/N with 1 <= I <= N, e.g. 1/3")
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
        raise SettingsError(
            "--bank-prices: give non-negative numbers for "
            "input_cost_per_token and/or output_cost_per_token"
        )
    return {k: float(v) for k, v in value.items()}


REPORT_FILE = "the report JSON written by --bank-report (or its .sessions.jsonl log)"


def _existing(name: str, raw: str | None, give: str = REPORT_FILE) -> Path | None:
    """The file an option names; a folder is said to be one (it read "no such file")."""
    path = None if raw is None else Path(raw)
    if path is not None and not path.is_file():
        found = "exists and is a folder" if path.is_dir() else "no such file"
        raise SettingsError(f"{name} {raw!r}: {found}; give {give}")
    return path


def _resumable(raw: str | None) -> Path | None:
    """A report or its session log; after a kill the report may be missing, its log is enough."""
    if raw is None:
        return None
    from pytest_bankbench.report.results_log import resume_pair

    path = Path(raw)
    if path.is_dir():
        raise SettingsError(f"--bank-resume {raw!r}: exists and is a folder; give {REPORT_FILE}")
    report, log = resume_pair(path)
    if not (report.is_file() or log.is_file()):
        raise SettingsError(
            f"--bank-resume {raw!r}: neither {report} nor its session log {log} exists; give "
            f"{REPORT_FILE}"
        )
    return path


def _traces_file(raw: str | None) -> Path | None:
    if raw is None:
        return None
    path = Path(raw)
    if path.is_dir():
        path = path / "traces.jsonl"
    if not path.is_file():
        raise SettingsError(
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
        raise SettingsError(f"{name} {raw!r}: expected a number between 0 and 1") from None
    if not 0 <= value <= 1:
        raise SettingsError(f"{name} {raw!r}: expected a number between 0 and 1")
    return value
