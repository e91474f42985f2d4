"""The active benchmark run: collection of one test per (task, trial), results, summary, report."""

from __future__ import annotations

import hashlib
import time
from collections.abc import Generator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from pytest_bankbench.options import BankOptions
from pytest_bankbench.report.metrics import SessionRecord, summarize
from pytest_bankbench.report.output import provenance, write_report
from pytest_bankbench.report.terminal import render
from pytest_bankbench.runner import SessionResult
from pytest_bankbench.simulation.session import Limits
from pytest_bankbench.tasks.loader import TaskFileError, load_tasks, select, shipped_tasks
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


def record_of(case: BankCase, result: SessionResult) -> SessionRecord:
    verdict, trace = result.verdict, result.trace
    return SessionRecord(
        task_id=case.task.task_id,
        trial=case.trial,
        seed=case.seed,
        family=case.task.family,
        category=case.task.category,
        service_area=case.task.service_area,
        chain_length=len(case.task.gold),
        graded=case.task.graded,
        outcome="scored",
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
    )


class BankBench:
    """Registered only when --bank-model is given."""

    def __init__(self, config: pytest.Config, options: BankOptions) -> None:
        self.config = config
        self.options = options
        self.limits = Limits(options.max_steps, options.max_errors)
        try:
            pool = load_tasks(options.tasks_path) if options.tasks_path else shipped_tasks()
            tasks = select(pool, "base" if options.tasks_path else options.split)
        except TaskFileError as exc:
            raise pytest.UsageError(f"--bank-tasks: {exc}") from None
        self.tasks_source = options.tasks_path
        self.tasks = tasks
        self.cases = [
            BankCase(t, k, session_seed(t.task_id, k)) for t in tasks for k in range(options.trials)
        ]
        self.records: list[SessionRecord] = []
        self.started = time.perf_counter()
        self.is_worker = hasattr(config, "workerinput")
        config.stash[PLUGIN_KEY] = self
        if options.traces is not None and not self.is_worker:
            options.traces.mkdir(parents=True, exist_ok=True)
            (options.traces / "traces.jsonl").write_text("", encoding="utf-8")
        # The benchmark replaces the default test paths; explicit paths are still collected.
        if config.args_source != pytest.Config.ArgsSource.ARGS:
            config.args[:] = []

    # -- collection ----------------------------------------------------------------------------
    @pytest.hookimpl(tryfirst=True)
    def pytest_collection_modifyitems(
        self, session: pytest.Session, config: pytest.Config, items: list[pytest.Item]
    ) -> None:
        from pytest_bankbench import suite

        module = pytest.Module.from_parent(session, path=Path(suite.__file__), nodeid="bankbench")
        collected = [node for node in module.collect() if isinstance(node, pytest.Item)]
        items[:0] = collected

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
            for case in self.cases
        ]
        metafunc.parametrize("bank_case", params)

    # -- results -------------------------------------------------------------------------------
    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_makereport(
        self, item: pytest.Item, call: pytest.CallInfo[None]
    ) -> Generator[None, Any, Any]:
        report = yield
        result = item.stash.get(RESULT_KEY, None)
        if call.when == "call" and result is not None:
            case = item.callspec.params["bank_case"]  # type: ignore[attr-defined]
            report.user_properties.append((PROPERTY, record_of(case, result).model_dump_json()))
            if self.options.traces is not None:
                setattr(report, TRACE_ATTR, result.trace.model_dump_json())
        return report

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        if self.is_worker:
            return
        for name, value in report.user_properties:
            if name == PROPERTY:
                self.records.append(SessionRecord.model_validate_json(str(value)))
                trace = getattr(report, TRACE_ATTR, None)
                if trace is not None and self.options.traces is not None:
                    with (self.options.traces / "traces.jsonl").open("a", encoding="utf-8") as fh:
                        fh.write(trace + "\n")

    # -- summary -------------------------------------------------------------------------------
    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        if self.is_worker:
            return
        wall = time.perf_counter() - self.started
        summary = summarize(self.records, self.options.trials)
        prov = provenance(self, self.records)
        outputs = []
        if self.options.report is not None:
            write_report(self.options.report, prov, summary, self.records, wall)
            outputs.append(f"JSON report: {self.options.report}")
        if self.options.traces is not None:
            outputs.append(f"traces: {self.options.traces / 'traces.jsonl'}")
        terminalreporter.write_sep("=", "bank benchmark summary")
        for line in render(summary, prov, wall, outputs):
            terminalreporter.write_line(line)


PLUGIN_KEY = pytest.StashKey[BankBench]()
RESULT_KEY = pytest.StashKey[SessionResult]()
