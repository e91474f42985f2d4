"""The benchmark's pytest hooks: one test per (task, trial), each result relayed to the run core.

The work lives in the pytest-free run core (run/): BenchRun keeps the cases, the resumed and
new records and the durable log; Parties makes each session's agent and customer; play_case
plays and scores a session; finish_run makes the records a typed result. This module turns
them into pytest's collection, usage errors and exit status; each session's report and its
relay to the controller are session_reports.py.
"""

from __future__ import annotations

import itertools
from collections.abc import Generator
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

import pytest

from pytest_bankbench.plugin.session_reports import BankTest, SessionReports
from pytest_bankbench.redaction import redact_text, remember_secrets, scrub
from pytest_bankbench.run.bench_run import BenchRun
from pytest_bankbench.run.cases import BankCase, CaseKey
from pytest_bankbench.run.parties import LocalServers, Parties
from pytest_bankbench.run.settings import RunSettings, SettingsError

if TYPE_CHECKING:
    # Only a session needs these (the bank, scoring, the agents): a collection, the xdist
    # controller and --collect-only never import them.
    from pytest_bankbench.bank.store import Bank
    from pytest_bankbench.plugin.prefetch import PlayedAhead, Prefetch
    from pytest_bankbench.report.gate import GateResult
    from pytest_bankbench.run.play import SessionResult
    from pytest_bankbench.simulation.agents import Agent
    from pytest_bankbench.simulation.customer import Customer
    from pytest_bankbench.simulation.session import Limits


class BankBench(SessionReports):
    """Registered only when --bank-model (or --bank-regrade) is given."""

    def __init__(self, config: pytest.Config, options: RunSettings) -> None:
        self.config = config
        self.options = options
        self.is_worker = hasattr(config, "workerinput")
        try:
            self.run = BenchRun(options, self.is_worker, self._warn)
            if options.gate is not None or options.baseline is not None:
                from pytest_bankbench.run.finish import validate_gate_options

                validate_gate_options(options, {task.family for task in self.run.tasks})
        except SettingsError as exc:
            raise pytest.UsageError(str(exc)) from None
        if options.ignored_options and not self.is_worker:
            kind = "your own agent" if options.agent else "a built-in agent"
            self._warn(
                f"{' and '.join(options.ignored_options)} ignored: the agent {options.model!r} is "
                f"{kind}, and these options apply only to a litellm model (--bank-model "
                "provider/name); the provenance records no parameters for it"
            )
        self.servers = LocalServers()
        self.parties = Parties(options, self._start_local_model())
        # Every party's credentials, before anything can print one (issue 19): each output is
        # scrubbed of all of them, whichever party's error or endpoint shows it.
        remember_secrets(self.parties.secrets())
        try:
            self.parties.check_arguments()
            if not self.is_worker and not config.option.collectonly:
                if getattr(config.option, "dist", "no") == "no":
                    # litellm is imported here anyway; an xdist controller stays without it
                    # (each worker's first call stops the run with the same rule, errors.py).
                    self.parties.check_routes()
                # Issue 18: a dead endpoint or a refused key stops the run here, in one line.
                for warning in self.parties.check_endpoints():
                    self._warn(warning)
                self.parties.check_agent(list(itertools.islice(self.run.all_cases(), 1)))
            self.run.open()
        except SettingsError as exc:
            self.servers.stop()
            raise pytest.UsageError(str(exc)) from None
        config.add_cleanup(self.run.close)
        self.session: pytest.Session | None = None
        # Each played session's result until its report is made; the sessions whose
        # configuration error stopped the run (their failure is that message, not a record).
        self.results: dict[CaseKey, SessionResult] = {}
        self.config_stopped: set[CaseKey] = set()
        self.summary_lines: list[str] = []
        # The gate's result once the run has ended, and whether it set the exit status.
        self.gate: GateResult | None = None
        self.gate_unapplied: str | None = None  # why the gate did not set the exit status
        self.refused = False  # the selected sessions cannot measure the gate: stopped at once
        # The benchmark replaces the default test paths; explicit paths are still collected.
        self.replaced_testpaths: list[str] = []
        if config.args_source != pytest.Config.ArgsSource.ARGS:
            if config.args_source == pytest.Config.ArgsSource.TESTPATHS:
                self.replaced_testpaths = config.getini("testpaths")
            config.args[:] = []
            # Else pytest's header says "testpaths: tests", none of which is collected (issue 18).
            config.args_source = pytest.Config.ArgsSource.INVOCATION_DIR
        self.prefetch: Prefetch | None = None
        if options.concurrency > 1 and options.regrade is None:
            # --bank-concurrency K: sessions played ahead in K background threads (prefetch.py).
            from pytest_bankbench.plugin.prefetch import Prefetch

            self.prefetch = Prefetch(self)
            config.pluginmanager.register(self.prefetch, Prefetch.NAME)
        if not self.is_worker and (options.gate is not None or options.baseline is not None):
            # The gate's verdict is the run's last line, after pytest's own (ci_output.py).
            from pytest_bankbench.plugin.ci_output import LastLine

            config.pluginmanager.register(LastLine(self), LastLine.NAME)

    def pytest_report_header(self, config: pytest.Config) -> str | None:
        if not self.replaced_testpaths:
            return None
        paths = ", ".join(self.replaced_testpaths)
        return f"bankbench: the benchmark's tests replace testpaths ({paths})"

    @cached_property
    def limits(self) -> Limits:
        from pytest_bankbench.simulation.session import Limits

        return Limits(
            self.options.max_steps, self.options.max_errors, self.options.session_deadline
        )

    def _warn(self, message: str) -> None:
        warning = pytest.PytestWarning(redact_text(message))
        self.config.issue_config_time_warning(warning, stacklevel=2)

    # -- the managed local model ------------------------------------------------------------------
    def _start_local_model(self) -> dict[str, tuple[str, str]]:
        """Start llama.cpp's servers on the controller; workers get their addresses."""
        if not LocalServers.needed(self.options):
            return {}
        from pytest_bankbench.models.local import LocalModelError

        if self.is_worker:
            shared = self.config.workerinput.get("bankbench_local")  # type: ignore[attr-defined]
            if shared:
                return {role: (pair[0], pair[1]) for role, pair in shared.items()}
        try:
            self.servers.start(self.options)
        except LocalModelError as exc:
            raise pytest.UsageError(str(exc)) from None
        return self.servers.endpoints

    @pytest.hookimpl(optionalhook=True, tryfirst=True)
    def pytest_xdist_make_scheduler(self, config: pytest.Config, log: Any) -> Any:
        """`--dist load` (xdist's default): a scheduler that survives a dying worker, and with
        --bank-concurrency K keeps each worker's queue 2K+1 deep so it can look ahead."""
        if config.getvalue("dist") != "load":
            return None  # worksteal, loadscope...: xdist's own (see ECOSYSTEM_NOTES)
        from pytest_bankbench.plugin.deep_scheduler import (
            DeepLoadScheduling,
            SteadyLoadScheduling,
        )

        if self.prefetch is not None:
            return DeepLoadScheduling(config, log, depth=2 * self.prefetch.limit + 1)
        return SteadyLoadScheduling(config, log)

    @pytest.hookimpl(optionalhook=True)
    def pytest_configure_node(self, node: Any) -> None:
        """xdist: hand the local servers' addresses to each worker (they never start their own)."""
        if self.servers.endpoints:
            node.workerinput["bankbench_local"] = {
                k: list(v) for k, v in self.servers.endpoints.items()
            }

    def pytest_unconfigure(self, config: pytest.Config) -> None:
        self.servers.stop()

    # -- agents, customers and playing ------------------------------------------------------------
    def played_ahead(self, case: BankCase) -> PlayedAhead | None:
        """A stand-in for the agent and the customer of a session a background thread plays."""
        if self.prefetch is not None and self.prefetch.holds(case):
            from pytest_bankbench.plugin.prefetch import PlayedAhead

            return PlayedAhead(case)
        return None

    def make_agent(self, case: BankCase, completion: Any = None) -> Agent:
        return self.parties.agent(case, completion)

    def make_customer(self, case: BankCase, completion: Any = None) -> Customer:
        return self.parties.customer(case, completion)

    def play(self, case: BankCase, bank: Bank, agent: Agent, customer: Customer) -> None:
        """Run (or re-grade) one session, keep its result for its report, raise failed checks."""
        from pytest_bankbench.models.errors import ConfigurationError, InfraError
        from pytest_bankbench.run.play import play_case
        from pytest_bankbench.scoring.failures import raise_for

        task = case.task
        if self.options.regrade is not None:
            result = play_case(case, trace=self.run.saved_traces[case.key])
        else:
            stop: str | None = None
            try:
                prefetch = self.prefetch
                if prefetch is not None and prefetch.holds(case):
                    result = prefetch.take(case)  # played and scored in a background thread
                else:
                    result = play_case(case, agent, customer, bank, self.limits)
            except ConfigurationError as exc:
                # One clear stop instead of a thousand failures (each xdist worker stops too);
                # one short line, no traceback (it would carry the request's arguments).
                stop = f"configuration error, run stopped: {exc}"
                if self.session is not None:
                    self.session.shouldstop = stop
                self.config_stopped.add(case.key)
            if stop is not None:  # outside the handler: the message shows once, unchained
                pytest.fail(stop, pytrace=False)
        self.results[case.key] = result
        if result.trace.end == "infra_error":
            # The provider's own error class (pytest_bankbench/errors.py traces the path); its
            # report is this one line (BankTest), which names the class the summary cuts off.
            raise InfraError(
                f"{task.task_id}: InfraError (not a task failure; re-run it later with "
                f"--bank-resume): {result.trace.end_detail}"
            )
        raise_for(result.verdict)

    def _selected(self, cases: list[BankCase]) -> None:
        if self.options.gate is not None and not self.config.option.collectonly:
            self._check_groups(self.options.gate, cases)
        super()._selected(cases)

    def _check_groups(self, gate: str, cases: list[BankCase]) -> None:
        """A gate's group that no selected or resumed session is in would fail the gate after
        the whole run: the run stops before its first session (as a gate's typo does)."""
        from pytest_bankbench.report.gate import parse_gate, unmeasured_groups

        by_id = {task.task_id: task for task in self.run.tasks}
        tasks = [case.task for case in cases]
        tasks += [by_id[task_id] for task_id, _ in self.run.previous if task_id in by_id]
        empty = unmeasured_groups(parse_gate(gate, None), tasks)
        if empty:
            self.refused = True  # no report: nothing ran, and an earlier one stays as it was
            pytest.exit(
                f"--bank-gate {gate!r}: " + "; ".join(empty), returncode=pytest.ExitCode.USAGE_ERROR
            )

    def pytest_sessionstart(self, session: pytest.Session) -> None:
        self.session = session

    # -- collection ----------------------------------------------------------------------------
    @pytest.hookimpl(tryfirst=True)
    def pytest_collection_modifyitems(
        self, session: pytest.Session, config: pytest.Config, items: list[pytest.Item]
    ) -> None:
        from pytest_bankbench.plugin import suite

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

    @pytest.hookimpl(wrapper=True)
    def pytest_runtestloop(self, session: pytest.Session) -> Generator[None, object, object]:
        result = yield
        if self.run.previous and session.testscollected == 0:
            # A resume with nothing left to run (all done, or -k picked only finished sessions)
            # still reports every resumed session: it must not end as "no tests collected".
            session.testscollected = len(self.run.previous)
        return result

    def pytest_generate_tests(self, metafunc: pytest.Metafunc) -> None:
        if "bank_case" not in metafunc.fixturenames:
            return
        from pytest_bankbench.plugin.preselect import preselect, shared_names

        # -k before the tests are made: only the cases it may keep become tests (issue 19).
        shared = shared_names(metafunc.definition)
        cases = preselect(self.config.option.keyword, shared, self.run.pending_cases())
        params = [
            pytest.param(
                case,
                id=case.id,
                marks=[
                    getattr(pytest.mark, case.task.category),
                    getattr(pytest.mark, case.task.service_area),
                ],
            )
            for case in cases
        ]
        metafunc.parametrize("bank_case", params)

    # -- summary -------------------------------------------------------------------------------
    @pytest.hookimpl(trylast=True)
    def pytest_sessionfinish(self, session: pytest.Session, exitstatus: int) -> None:
        """Write the report and apply the gate; runs on Ctrl-C too. Printing comes later."""
        self.run.sync()
        if self.is_worker or session.config.option.collectonly or self.refused:
            return
        from pytest_bankbench.run.finish import finish_run

        result = finish_run(self.run, int(exitstatus))
        self.summary_lines = [*self._nothing_selected(), *result.lines]
        self.gate, self.gate_unapplied = result.gate, result.gate_unapplied
        # An interrupted or broken run keeps its own status; a finished one follows the gate.
        if result.gate is not None and result.gate_unapplied is None:
            session.exitstatus = (
                pytest.ExitCode.OK if result.gate.passed else pytest.ExitCode.TESTS_FAILED
            )

    def _nothing_selected(self) -> list[str]:
        """The line that says why no session ran when the selection held none (user trial:
        exit 5 with empty tables and no hint), naming the selection and what it is matched
        against."""
        if self.run.selected_count():
            return []
        option = self.config.option
        given = [
            f"{flag} {value!r}"
            for flag, value in (("-k", option.keyword), ("-m", option.markexpr))
            if value
        ]
        first = next(iter(self.run.all_cases()), None)
        ids = f"{len(self.run.tasks):,} task ids"
        shape = (
            f" (category-family-nnn, e.g. {first.id}; a later trial adds -tN, e.g. -t2)"
            if first
            else ""
        )
        by = " and ".join(given) if given else "the selection"
        return [f"no benchmark session selected: {by} matched none of the {ids}{shape}"]

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        if self.is_worker or not self.summary_lines:
            return
        terminalreporter.write_sep("=", "bank benchmark summary")
        for line in self.summary_lines:
            terminalreporter.write_line(scrub(line))


def active_run(config: pytest.Config) -> BankBench:
    """The run's plugin object, looked up by name (robust to the module being imported twice)."""
    run = config.pluginmanager.get_plugin(PLUGIN_NAME)
    if run is None:
        raise RuntimeError("the bank benchmark is not active in this run (no --bank-model)")
    return cast("BankBench", run)


PLUGIN_NAME = "bankbench-run"
