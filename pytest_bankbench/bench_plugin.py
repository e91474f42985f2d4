"""The active benchmark run: one test per (task, trial), durable results, summary and report."""

from __future__ import annotations

import hashlib
import json
import re
import time
from collections.abc import Generator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, cast

import pytest

from pytest_bankbench.bank.store import Bank
from pytest_bankbench.options import BankOptions, redact_text, redacted
from pytest_bankbench.paths import data_dir
from pytest_bankbench.report.metrics import SessionRecord
from pytest_bankbench.report.results_log import (
    ResultsLog,
    ResumeError,
    config_differences,
    finished,
    log_path_for,
    read_log,
    repair_log,
    resume_pair,
)
from pytest_bankbench.runner import SessionResult, builtin_agent, expected_changes
from pytest_bankbench.scoring.failures import CheckFailed, SessionFailed, raise_for
from pytest_bankbench.scoring.scorer import score
from pytest_bankbench.simulation.agents import Agent
from pytest_bankbench.simulation.customer import Customer, ScriptedCustomer
from pytest_bankbench.simulation.session import Limits, run_session
from pytest_bankbench.simulation.trace import Trace
from pytest_bankbench.tasks.loader import (
    TASKS_FILE,
    TaskFileError,
    load_tasks,
    select,
    shipped_tasks,
)
from pytest_bankbench.tasks.model import Task

PROPERTY = "bankbench"
TRACE_ATTR = "bankbench_trace"


@dataclass(frozen=True)
class BankCase:
    """One session to run: a task and a trial number with its recorded seed."""

    task: Task
    trial: int
    seed: int

    @property
    def id(self) -> str:
        base = f"{self.task.category}-{self.task.task_id}"
        return base if self.trial == 0 else f"{base}-t{self.trial + 1}"


def session_seed(task_id: str, trial: int) -> int:
    """A per-session seed, the same in every process (hashlib, never hash())."""
    return int.from_bytes(hashlib.sha256(f"{task_id}|{trial}".encode()).digest()[:4], "big")


def _identity(case: BankCase) -> dict[str, Any]:
    """The fields of a record that say which session it is, whatever became of it."""
    task = case.task
    return {
        "task_id": task.task_id,
        "trial": case.trial,
        "seed": case.seed,
        "family": task.family,
        "category": task.category,
        "service_area": task.service_area,
        "chain_length": len(task.gold),
        "graded": task.graded,
    }


def record_of(case: BankCase, result: SessionResult) -> SessionRecord:
    verdict, trace = result.verdict, result.trace
    return SessionRecord(
        **_identity(case),
        outcome="infra_error" if trace.end == "infra_error" else "scored",
        passed=verdict.passed,
        final_state_pass=verdict.final_state_pass,
        false_pass=verdict.false_pass,
        failure_type=verdict.failure_type,
        checks=dict(verdict.checks),
        evidence={k: v for k, v in verdict.evidence.items() if v},
        end=trace.end,
        steps=trace.steps,
        failed_calls=trace.failed_calls,
        prompt_tokens=trace.usage.prompt_tokens,
        completion_tokens=trace.usage.completion_tokens,
        cost_usd=trace.usage.cost_usd,
        duration_s=trace.duration_s,
        customer_prompt_tokens=trace.customer_usage.prompt_tokens,
        customer_completion_tokens=trace.customer_usage.completion_tokens,
        customer_cost_usd=trace.customer_usage.cost_usd,
        model_latency_s=round(sum(trace.usage.latencies_s), 4),
        customer_latency_s=round(sum(trace.customer_usage.latencies_s), 4),
    )


# A traceback kept in a record is cut to its end (where the error is) at this many characters.
ERROR_CHARS = 8000


def stand_in(
    case: BankCase, outcome: Literal["harness_error", "lost"], error: str
) -> SessionRecord:
    """The record of a session that produced no verdict: it counts as failed, never vanishes."""
    return SessionRecord(
        **_identity(case),
        outcome=outcome,
        passed=False,
        final_state_pass=False,
        false_pass=False,
        failure_type=None,
        checks={},
        evidence={},
        end=outcome,
        steps=0,
        failed_calls=0,
        error=error[-ERROR_CHARS:],
    )


class BankTest(pytest.Function):
    """One benchmark session's test: a failed check is reported by its evidence alone.

    Its traceback would only run through the harness (suite, play, raise_for), never through
    the model's work, and formatting it cost ~3 ms of the reporting thread per failed session
    (a tenth of a session's CPU at 64 in flight). Any other exception (a harness error) and
    every failure under --fulltrace keep pytest's full traceback.
    """

    def repr_failure(  # type: ignore[override]  # Function's own has no style argument
        self, excinfo: pytest.ExceptionInfo[BaseException]
    ) -> Any:
        value = excinfo.value
        full = self.config.getoption("fulltrace")
        if isinstance(value, CheckFailed | SessionFailed) and not full:
            # The message carries each check's title and evidence; the crash line (the
            # summary's "FAILED ... - <check>: ...") keeps the exception's class.
            raised = value.__traceback__
            while raised is not None and raised.tb_next is not None:
                raised = raised.tb_next  # the raise alone, no harness frames above it
            if raised is not None:
                if isinstance(value, SessionFailed):  # a group prints its own __traceback__
                    value = SessionFailed(
                        value.message, cast(list[CheckFailed], list(value.exceptions))
                    )
                value = value.with_traceback(raised)  # (a copy for a group, else the one)
                alone = pytest.ExceptionInfo.from_exc_info((type(value), value, raised))
                return alone.getrepr(style="value", tbfilter=False)
        return super().repr_failure(excinfo)


_CASE_ID = re.compile(r"::test_task\[(?P<id>.+)\]$")


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _load_traces(path: Path) -> dict[tuple[str, int], Trace]:
    traces = {}
    for lineno, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if line.strip():
            try:
                trace = Trace.model_validate_json(line)
            except ValueError as exc:
                raise pytest.UsageError(
                    f"--bank-regrade {path}:{lineno}: not a trace ({exc})"
                ) from None
            traces[(trace.task_id, trace.trial)] = trace
    return traces


class BankBench:
    """Registered only when --bank-model (or --bank-regrade) is given."""

    def __init__(self, config: pytest.Config, options: BankOptions) -> None:
        self.config = config
        self.options = options
        self.limits = Limits(options.max_steps, options.max_errors)
        self.is_worker = hasattr(config, "workerinput")
        try:
            pool = load_tasks(options.tasks_path) if options.tasks_path else shipped_tasks()
            self.tasks = select(pool, "base" if options.tasks_path else options.split)
        except TaskFileError as exc:
            raise pytest.UsageError(f"--bank-tasks: {exc}") from None
        self.tasks_file = options.tasks_path or data_dir() / TASKS_FILE
        self.cases = [
            BankCase(t, k, session_seed(t.task_id, k))
            for t in self.tasks
            for k in range(options.trials)
        ]
        self.case_by_id = {case.id: case for case in self.cases}
        self.selected: set[tuple[str, int]] = set()
        self.saved_traces = _load_traces(options.regrade) if options.regrade else {}
        self.records: list[SessionRecord] = []
        self.traces: list[dict[str, Any]] = []
        self.previous: dict[tuple[str, int], SessionRecord] = {}
        self.log: ResultsLog | None = None
        self.started = time.perf_counter()
        self.summary_lines: list[str] = []
        # role ("agent" or "user") -> (litellm model, api base) of a managed local model
        self.local: dict[str, tuple[str, str]] = {}
        self.servers: list[Any] = []
        self._start_local_model()
        self.report_path: Path | None = None
        self._resume_and_log()
        from pytest_bankbench.report.finish import validate_gate_options

        validate_gate_options(self)
        if options.traces is not None and not self.is_worker:
            self._open_traces(options.traces)
        # The benchmark replaces the default test paths; explicit paths are still collected.
        if config.args_source != pytest.Config.ArgsSource.ARGS:
            config.args[:] = []
        if options.concurrency > 1 and options.regrade is None:
            # --bank-concurrency K: sessions played ahead in K background threads (prefetch.py).
            from pytest_bankbench.prefetch import Prefetch

            config.pluginmanager.register(Prefetch(self), Prefetch.NAME)

    # -- configuration and durable results ------------------------------------------------------
    def run_config(self) -> dict[str, Any]:
        """What must match for two runs' sessions to be interchangeable (--bank-resume, merge)."""
        o = self.options
        return {
            "agent": o.model,
            "agent_parameters": redacted(o.model_args),
            "customer_parameters": redacted(o.user_model_args),
            "customer": o.user_model,
            "split": o.split if o.tasks_path is None else "custom",
            "tasks_file": "shipped" if o.tasks_path is None else str(o.tasks_path),
            "task_data_sha256": _sha256(self.tasks_file),
            "max_steps": o.max_steps,
            "max_errors": o.max_errors,
            "trials": o.trials,
            "regrade": str(o.regrade) if o.regrade else None,
            "shard": f"{o.shard[0]}/{o.shard[1]}" if o.shard else None,
        }

    def _warn(self, message: str) -> None:
        self.config.issue_config_time_warning(pytest.PytestWarning(message), stacklevel=2)

    def _resume_and_log(self) -> None:
        from pytest_bankbench.report.run_guard import ReportLock, ReportLocked, end_on_sigterm

        o = self.options
        resumed_log: Path | None = None
        report = o.report
        if o.resume is not None:
            resumed_report, resumed_log = resume_pair(o.resume)
            if not self.is_worker and resumed_log.is_file():
                # A crash mid-write leaves a torn last line: cut it before anything is appended.
                torn = repair_log(resumed_log)
                if torn:
                    self._warn(f"--bank-resume {torn}")
            try:
                saved, records = read_log(resumed_log if resumed_log.is_file() else resumed_report)
            except ResumeError as exc:
                raise pytest.UsageError(f"--bank-resume: {exc}") from None
            differences = config_differences(saved, self.run_config())
            if differences:
                raise pytest.UsageError(
                    f"--bank-resume {o.resume}: the saved run has a different configuration; "
                    "resume it with the same options, or start a new report. Differences: "
                    + "; ".join(differences)
                )
            self.previous = finished(records)
            report = report or resumed_report
        if self.is_worker:
            return
        restore = end_on_sigterm()
        self.config.add_cleanup(restore)
        if report is None:
            return
        lock = ReportLock(report)
        try:
            lock.acquire()
        except ReportLocked as exc:
            raise pytest.UsageError(f"--bank-report: {exc}") from None
        self.config.add_cleanup(lock.release)
        self.report_path = report
        log_file = log_path_for(report)
        if resumed_log is not None and log_file == resumed_log and log_file.is_file():
            self.log = ResultsLog(log_file, self.run_config(), append=True)
        else:
            # A new log (or a resume into another report): it starts with what was resumed,
            # so that it alone can resume this run later.
            self.log = ResultsLog(log_file, self.run_config(), append=False)
            for record in self.previous.values():
                self.log.append(record)

    def _open_traces(self, folder: Path) -> None:
        """Start traces.jsonl (kept on resume), with the run's provenance beside it for regrade."""
        from pytest_bankbench.report.output import PROVENANCE_FILE, provenance

        folder.mkdir(parents=True, exist_ok=True)
        traces_file = folder / "traces.jsonl"
        if not (self.options.resume and traces_file.exists()):
            traces_file.write_text("", encoding="utf-8")
        elif self.options.resume:
            torn = repair_log(traces_file)
            if torn:
                self._warn(f"--bank-traces {torn}")
            if self.options.html is not None:
                self.traces.extend(self._earlier_traces(traces_file))
        if self.options.regrade is None:
            (folder / PROVENANCE_FILE).write_text(
                json.dumps(provenance(self, []), indent=1, sort_keys=True) + "\n",
                encoding="utf-8",
            )

    def _earlier_traces(self, traces_file: Path) -> list[dict[str, Any]]:
        """Traces of the resumed sessions, so the HTML of a resumed run shows every session."""
        found: dict[tuple[str, int], dict[str, Any]] = {}
        for line in traces_file.read_text(encoding="utf-8").splitlines():
            if not line.strip():
                continue
            try:
                trace = Trace.model_validate_json(line)
            except ValueError:
                continue  # an unreadable trace only costs the HTML that one trace
            if (trace.task_id, trace.trial) in self.previous:
                found[(trace.task_id, trace.trial)] = trace.model_dump(mode="json")
        return list(found.values())

    # -- the managed local model ------------------------------------------------------------------
    def _start_local_model(self) -> None:
        """Start llama.cpp's server on the controller, one per role; workers get the addresses.

        The agent and the customer each get their own server process (same model file): each
        keeps its own prompt prefix warm, so a turn evaluates only the new messages instead of
        the 3,500-token policy and tool schemas again.
        """
        from pytest_bankbench.models.local import LocalModelError, LocalServer, is_local, resolve

        o = self.options
        roles = {role: m for role, m in (("agent", o.model), ("user", o.user_model)) if is_local(m)}
        if not roles or o.regrade is not None:
            return
        if self.is_worker:
            shared = self.config.workerinput.get("bankbench_local")  # type: ignore[attr-defined]
            if shared:
                self.local = {role: (pair[0], pair[1]) for role, pair in shared.items()}
                return
        try:
            for role, model in roles.items():
                server = LocalServer(resolve(model), role=role, servers=len(roles))
                self.servers.append(server)
                server.start()
                self.local[role] = (server.litellm_model, server.api_base)
        except LocalModelError as exc:
            self._stop_servers()
            raise pytest.UsageError(str(exc)) from None

    def _stop_servers(self) -> None:
        for server in self.servers:
            server.stop()

    @pytest.hookimpl(optionalhook=True)
    def pytest_configure_node(self, node: Any) -> None:
        """xdist: hand the local servers' addresses to each worker (they never start their own)."""
        if self.local:
            node.workerinput["bankbench_local"] = {k: list(v) for k, v in self.local.items()}

    def pytest_unconfigure(self, config: pytest.Config) -> None:
        self._stop_servers()

    # -- agents and simulators ------------------------------------------------------------------
    def settings(self, user: bool) -> Any:
        """Model settings of the agent (or of the LLM customer) from the options."""
        from pytest_bankbench.models.llm import ModelSettings

        o = self.options
        model, bases = (o.user_model, o.user_api_bases) if user else (o.model, o.api_bases)
        role = "user" if user else "agent"
        if model.startswith("local/") and role in self.local:
            model, bases = self.local[role][0], (self.local[role][1],)
        return ModelSettings(
            model=model,
            api_bases=tuple(bases),
            params=o.user_model_args if user else o.model_args,
            num_retries=o.num_retries,
            backoff_s=o.retry_backoff,
            cache_dir=o.cache,
            prices=o.prices,
            timeout_s=o.timeout,
            session_deadline_s=o.session_deadline,
            role="customer" if user else "agent",
        )

    def make_agent(self, case: BankCase, completion: Any = None) -> Agent:
        if self.options.builtin or self.options.regrade is not None:
            name = self.options.model if self.options.builtin else "gold"
            return builtin_agent(name, case.task)
        from pytest_bankbench.models.agent import LiteLLMAgent
        from pytest_bankbench.models.llm import ModelClient

        return LiteLLMAgent(ModelClient(self.settings(user=False), completion, trial=case.trial))

    def make_customer(self, case: BankCase, completion: Any = None) -> Customer:
        if self.options.user_model == "scripted":
            return ScriptedCustomer(case.task)
        from pytest_bankbench.models.customer import LiteLLMCustomer
        from pytest_bankbench.models.llm import ModelClient

        client = ModelClient(self.settings(user=True), completion, trial=case.trial)
        return LiteLLMCustomer(client, case.task)

    def play(
        self, item: pytest.Item, case: BankCase, bank: Bank, agent: Agent, customer: Customer
    ) -> None:
        """Run (or re-grade) one session, keep its result on the item, raise failed checks."""
        from pytest_bankbench.models.errors import ConfigurationError, InfraError
        from pytest_bankbench.prefetch import prefetch_of

        task = case.task
        if self.options.regrade is not None:
            trace = self.saved_traces[(task.task_id, case.trial)]
        else:
            try:
                prefetch = prefetch_of(self.config)
                if prefetch is not None and prefetch.holds(item):
                    trace = prefetch.take(item)  # played in a background thread (prefetch.py)
                else:
                    trace = run_session(
                        task, agent, customer, bank, self.limits, trial=case.trial, seed=case.seed
                    )
            except ConfigurationError as exc:
                # One clear stop instead of a thousand failures (each xdist worker stops too);
                # one short line, no traceback (it would carry the request's arguments).
                item.session.shouldstop = f"configuration error, run stopped: {exc}"
                item.stash[CONFIG_STOP_KEY] = True
                pytest.fail(f"configuration error, run stopped: {exc}", pytrace=False)
        verdict = score(task, trace, expected_changes(task))
        item.stash[RESULT_KEY] = SessionResult(trace, verdict)
        if trace.end == "infra_error":
            # The provider's own error class (pytest_bankbench/errors.py traces the path).
            raise InfraError(
                f"{task.task_id}: {trace.end_detail}; not a task failure: "
                "re-run it later with --bank-resume"
            )
        raise_for(verdict)

    # -- collection ----------------------------------------------------------------------------
    @pytest.hookimpl(tryfirst=True)
    def pytest_collection_modifyitems(
        self, session: pytest.Session, config: pytest.Config, items: list[pytest.Item]
    ) -> None:
        from pytest_bankbench import suite

        module = pytest.Module.from_parent(session, path=Path(suite.__file__), nodeid="bankbench")
        collected = [node for node in module.collect() if isinstance(node, pytest.Item)]
        for node in collected:
            if type(node) is pytest.Function:
                node.__class__ = BankTest  # the same item; only its failure report differs
        items[:0] = collected
        # Report the module's collection like any other, so "collected N items" counts it.
        config.hook.pytest_collectreport(
            report=pytest.CollectReport(module.nodeid, "passed", None, list(collected))
        )

    def _selected_cases(self) -> list[BankCase]:
        cases = [c for c in self.cases if (c.task.task_id, c.trial) not in self.previous]
        if self.options.regrade is not None:
            cases = [c for c in cases if (c.task.task_id, c.trial) in self.saved_traces]
        if self.options.shard is not None:
            mine = self._shard_keys(*self.options.shard)
            cases = [c for c in cases if (c.task.task_id, c.trial) in mine]
        return cases

    def _shard_keys(self, index: int, count: int) -> set[tuple[str, int]]:
        """Shard I of N: every N-th session of the whole sorted case list, starting at the I-th.

        Decided before -k, resume and xdist, so the shards of one configuration never overlap
        and together hold every session, on any machine.
        """
        keys = sorted((c.task.task_id, c.trial) for c in self.cases)
        return {key for position, key in enumerate(keys) if position % count == index - 1}

    @pytest.hookimpl(wrapper=True)
    def pytest_runtestloop(self, session: pytest.Session) -> Generator[None, object, object]:
        result = yield
        if self.previous and session.testscollected == 0:
            # A resume with nothing left to run (all done, or -k picked only finished sessions)
            # still reports every resumed session: it must not end as "no tests collected".
            session.testscollected = len(self.previous)
        return result

    def pytest_generate_tests(self, metafunc: pytest.Metafunc) -> None:
        if "bank_case" not in metafunc.fixturenames:
            return
        params = [
            pytest.param(
                case,
                id=case.id,
                marks=[
                    getattr(pytest.mark, case.task.category),
                    getattr(pytest.mark, case.task.service_area),
                ],
            )
            for case in self._selected_cases()
        ]
        metafunc.parametrize("bank_case", params)

    # -- results -------------------------------------------------------------------------------
    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_makereport(
        self, item: pytest.Item, call: pytest.CallInfo[None]
    ) -> Generator[None, Any, Any]:
        report = yield
        params = getattr(item, "callspec", None)
        case = params.params.get("bank_case") if params is not None else None
        if not isinstance(case, BankCase):
            return report
        result = item.stash.get(RESULT_KEY, None)
        if call.when == "call" and result is not None:
            report.user_properties.append((PROPERTY, record_of(case, result).model_dump_json()))
            if self.options.traces is not None or self.options.html is not None:
                setattr(report, TRACE_ATTR, result.trace.model_dump_json())
        elif (
            call.when in ("setup", "call")
            and report.failed
            and not item.stash.get(CONFIG_STOP_KEY, False)
        ):
            # Anything that escaped the harness, the bank or the agent adapter: the session has
            # no verdict, so it is kept as a harness error (a failed session), never dropped.
            record = stand_in(case, "harness_error", redact_text(report.longreprtext))
            report.user_properties.append((PROPERTY, record.model_dump_json()))
        return report

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        if self.is_worker:
            return
        if report.when not in ("setup", "call", "teardown") and report.failed:
            # xdist reports a session whose worker died with when="???" and no properties.
            case = self._case_of(report.nodeid)
            if case is not None:
                report.user_properties.append(
                    (PROPERTY, stand_in(case, "lost", str(report.longreprtext)).model_dump_json())
                )
        for name, value in report.user_properties:
            if name != PROPERTY:
                continue
            record = SessionRecord.model_validate_json(str(value))
            self.records.append(record)
            if self.log is not None:
                self.log.append(record)
            trace = getattr(report, TRACE_ATTR, None)
            if trace is not None:
                self._keep_trace(trace)

    def _keep_trace(self, trace: str) -> None:
        if self.options.traces is not None:
            with (self.options.traces / "traces.jsonl").open("a", encoding="utf-8") as fh:
                fh.write(trace + "\n")
        if self.options.html is not None:
            self.traces.append(Trace.model_validate_json(trace).model_dump(mode="json"))

    def _case_of(self, nodeid: str) -> BankCase | None:
        found = _CASE_ID.search(nodeid)
        return self.case_by_id.get(found["id"]) if found else None

    def pytest_collection_finish(self, session: pytest.Session) -> None:
        """Without xdist, the selected sessions are this process's items (after -k)."""
        if not self.is_worker and not hasattr(session.config, "workerinput"):
            self._note_selected(item.nodeid for item in session.items)

    @pytest.hookimpl(optionalhook=True)
    def pytest_xdist_node_collection_finished(self, node: Any, ids: list[str]) -> None:
        """xdist: every worker collects the same items; the controller notes them once."""
        self._note_selected(ids)

    def _note_selected(self, nodeids: Any) -> None:
        for nodeid in nodeids:
            case = self._case_of(nodeid)
            if case is not None:
                self.selected.add((case.task.task_id, case.trial))

    def selected_count(self) -> int:
        """Sessions this run set out to account for: the ones selected now plus resumed ones."""
        return len(self.selected | set(self.previous))

    def all_records(self) -> list[SessionRecord]:
        """This run's sessions plus those a resumed run had already finished."""
        merged = dict(self.previous)
        merged.update({(r.task_id, r.trial): r for r in self.records})
        return list(merged.values())

    # -- summary -------------------------------------------------------------------------------
    @pytest.hookimpl(trylast=True)
    def pytest_sessionfinish(self, session: pytest.Session, exitstatus: int) -> None:
        """Write the report and apply the gate; runs on Ctrl-C too. Printing comes later."""
        if self.log is not None:
            self.log.sync()
        if self.is_worker or session.config.option.collectonly:
            return
        from pytest_bankbench.report.finish import finish_run

        outcome = finish_run(self, int(exitstatus))
        self.summary_lines = outcome.lines
        if outcome.exitstatus is not None:
            session.exitstatus = outcome.exitstatus

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        if self.is_worker or not self.summary_lines:
            return
        terminalreporter.write_sep("=", "bank benchmark summary")
        for line in self.summary_lines:
            terminalreporter.write_line(line)


def active_run(config: pytest.Config) -> BankBench:
    """The run's plugin object, looked up by name (robust to the module being imported twice)."""
    run = config.pluginmanager.get_plugin(PLUGIN_NAME)
    if run is None:
        raise RuntimeError("the bank benchmark is not active in this run (no --bank-model)")
    return cast("BankBench", run)


PLUGIN_NAME = "bankbench-run"
RESULT_KEY = pytest.StashKey[SessionResult]()
CONFIG_STOP_KEY = pytest.StashKey[bool]()
