"""Each session's result relayed: its record on the report (user_properties, which survive
xdist), the controller adding it to the run, the sessions -k selected; and the test item whose
failure is reported by its evidence alone."""

from __future__ import annotations

import re
from collections.abc import Generator
from typing import TYPE_CHECKING, Any

import pytest

from pytest_bankbench.plugin.ci_output import junit_classname, junit_properties, name_the_failure
from pytest_bankbench.plugin.redacted_reports import redact_report
from pytest_bankbench.redaction import redact_text, scrub
from pytest_bankbench.report.record import SessionRecord
from pytest_bankbench.run.cases import BankCase, CaseKey

if TYPE_CHECKING:
    from pytest_bankbench.run.bench_run import BenchRun
    from pytest_bankbench.run.play import SessionResult
    from pytest_bankbench.run.settings import RunSettings

PROPERTY = "bankbench"
TRACE_ATTR = "bankbench_trace"
_CASE_ID = re.compile(r"::test_task\[(?P<id>.+)\]$")


class BankTest(pytest.Function):
    """One benchmark session's test: a failed check is reported by its evidence alone.

    Its traceback would only run through the harness (suite, play, raise_for), never through
    the model's work, and formatting it cost ~3 ms of the reporting thread per failed session
    (a tenth of a session's CPU at 64 in flight). So is an infrastructure error (issue 18): its
    message names the provider's error and the endpoint. Any other exception (a harness error)
    and every failure under --fulltrace keep pytest's full traceback.
    """

    def repr_failure(  # type: ignore[override]  # Function's own has no style argument
        self, excinfo: pytest.ExceptionInfo[BaseException]
    ) -> Any:
        from pytest_bankbench.errors import InfraError, ModelError
        from pytest_bankbench.scoring.failures import CheckFailed, SessionFailed

        value = excinfo.value
        full = self.config.getoption("fulltrace")
        # A provider error that is no one's failure yet (a first bad request) says it all too.
        if isinstance(value, CheckFailed | SessionFailed | InfraError | ModelError) and not full:
            # The message carries each check's title and evidence; the crash line (the
            # summary's "FAILED ... - <failure type>: <evidence>") is set from the session's
            # record in pytest_runtest_makereport (ci_output.name_the_failure).
            raised = value.__traceback__
            while raised is not None and raised.tb_next is not None:
                raised = raised.tb_next  # the raise alone, no harness frames above it
            if raised is not None:
                if isinstance(value, SessionFailed):
                    value = value.as_one()  # a group would print a traceback per check
                value = value.with_traceback(raised)
                alone = pytest.ExceptionInfo.from_exc_info((type(value), value, raised))
                return alone.getrepr(style="value", tbfilter=False)
        return super().repr_failure(excinfo)


class SessionReports:
    """The plugin's hooks over each session's report (a part of BankBench, which sets these)."""

    config: pytest.Config
    options: RunSettings
    is_worker: bool
    run: BenchRun
    results: dict[CaseKey, SessionResult]
    config_stopped: set[CaseKey]

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_makereport(
        self, item: pytest.Item, call: pytest.CallInfo[None]
    ) -> Generator[None, Any, Any]:
        report = yield
        params = getattr(item, "callspec", None)
        case = params.params.get("bank_case") if params is not None else None
        if not isinstance(case, BankCase):
            redact_report(report)
            return report
        # Taken, not kept: the traces and verdicts of every test held until the run ends cost
        # a worker ~10 MB per 500 sessions.
        from pytest_bankbench.run.play import record_of, stand_in

        result = self.results.pop(case.key, None) if call.when == "call" else None
        if result is not None:
            # Scrubbed of every party's credentials here, once: the log, the report, the HTML,
            # the Markdown, the traces file and JUnit are all made from these (issue 19).
            record = record_of(case, result)
            record_json = scrub(dumped := record.model_dump_json())
            if record_json != dumped:
                record = SessionRecord.model_validate_json(record_json)
            report.user_properties.append((PROPERTY, record_json))
            item.user_properties.extend(junit_properties(record))
            if report.failed:  # a task failure or an infrastructure error
                name_the_failure(report, record)
            if self.options.traces is not None or self.options.html is not None:
                setattr(report, TRACE_ATTR, scrub(result.trace.model_dump_json()))
        elif (
            call.when in ("setup", "call") and report.failed and case.key not in self.config_stopped
        ):
            # Anything that escaped the harness, the bank or the agent adapter: the session has
            # no verdict, so it is kept as a harness error (a failed session), never dropped.
            record = stand_in(case, "harness_error", redact_text(report.longreprtext))
            report.user_properties.append((PROPERTY, record.model_dump_json()))
            item.user_properties.extend(junit_properties(record))
        redact_report(report)  # the terminal and JUnit show this traceback too
        return report

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        if self.is_worker:
            return
        if report.when not in ("setup", "call", "teardown") and report.failed:
            # xdist reports a session whose worker died with when="???" and no properties.
            case = self._case_of(report.nodeid)
            if case is not None:
                from pytest_bankbench.run.play import stand_in

                redact_report(report)
                lost = stand_in(case, "lost", str(report.longreprtext))
                report.user_properties.append((PROPERTY, lost.model_dump_json()))
        for name, value in report.user_properties:
            if name == PROPERTY:
                record = SessionRecord.model_validate_json(str(value))
                self.run.add(record, getattr(report, TRACE_ATTR, None))
                junit_classname(self.config, report, record.family)

    def _case_of(self, nodeid: str) -> BankCase | None:
        found = _CASE_ID.search(nodeid)
        return self.run.case_by_id(found["id"]) if found else None

    def pytest_collection_finish(self, session: pytest.Session) -> None:
        """Without xdist, the selected sessions are this process's items (after -k)."""
        if not self.is_worker and not hasattr(session.config, "workerinput"):
            self._note_selected(item.nodeid for item in session.items)

    @pytest.hookimpl(optionalhook=True)
    def pytest_xdist_node_collection_finished(self, node: Any, ids: list[str]) -> None:
        """xdist: every worker collects the same items; the controller notes them once."""
        self._note_selected(ids)

    def _note_selected(self, nodeids: Any) -> None:
        cases = (self._case_of(nodeid) for nodeid in nodeids)
        self._selected([case for case in cases if case is not None])

    def _selected(self, cases: list[BankCase]) -> None:
        """The sessions the run selected (after -k and -m), each once."""
        self.run.note_selected(cases)
