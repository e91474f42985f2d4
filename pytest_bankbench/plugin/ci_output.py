"""What CI reads of a run: the gate's verdict as the last line, and JUnit XML to group by.

Issue 18, item 3. pytest prints its short test summary and its `N failed` line after every
plugin's terminal summary, so the gate's verdict sat above `200 failed` while the exit status
was 0. JUnit XML named every benchmark test by its one module (`bankbench`) and carried no
property, so a CI test-report page could not group the sessions by family or failure type.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import TYPE_CHECKING

import pytest

from pytest_bankbench.report.record import SessionRecord

if TYPE_CHECKING:
    from pytest_bankbench.plugin.bench import BankBench


class LastLine:
    """Prints the gate's verdict after pytest's own last line; registered on the controller
    (or a plain run) only when a gate or a baseline is given."""

    NAME = "bankbench-last-line"

    def __init__(self, bench: BankBench) -> None:
        self.bench = bench

    # tryfirst puts this wrapper outside the terminal reporter's, which prints the short test
    # summary and the stats line once the inner sessionfinish hooks (the gate's) have run.
    @pytest.hookimpl(wrapper=True, tryfirst=True)
    def pytest_sessionfinish(self, session: pytest.Session) -> Generator[None, object, object]:
        result = yield
        gate = self.bench.gate
        reporter = session.config.pluginmanager.get_plugin("terminalreporter")
        if gate is not None and reporter is not None:
            from pytest_bankbench.report.terminal import gate_verdict

            unapplied = self.bench.gate_unapplied
            line = gate_verdict(gate, int(session.exitstatus), unapplied)
            passed = unapplied is None and gate.passed
            reporter.write_line(line, bold=True, green=passed, red=not passed)
        return result


def name_the_failure(report: pytest.TestReport, record: SessionRecord) -> None:
    """Make a failed session's crash line its failure type and first evidence line.

    pytest's short test summary (`-rf`) and the JUnit failure message show that line; left
    alone it is the exception's dotted class name, cut to `pytest_bank...` at 80 columns."""
    from pytest_bankbench.report.failure_line import failure_line

    crash = getattr(report.longrepr, "reprcrash", None)
    if crash is not None:
        crash.message = failure_line(record)


def junit_properties(record: SessionRecord) -> list[tuple[str, object]]:
    """The session's facts for JUnit XML `<properties>`, as flat strings a report page groups by.

    They go on `item.user_properties` (what the `record_property` fixture does, without its
    warning under the default xunit2 family): the teardown report carries them to the XML,
    from an xdist worker too. The record itself rides on the call report only."""
    return [
        ("family", record.family),
        ("category", record.category),
        ("service_area", record.service_area),
        ("trial", str(record.trial)),
        ("outcome", record.outcome),
        ("failure_type", record.failure_type or ""),
        ("false_pass", "" if record.false_pass is None else str(record.false_pass).lower()),
    ]


def junit_classname(config: pytest.Config, report: pytest.TestReport, family: str) -> None:
    """Name a session's testcase `bankbench.<family>` in --junitxml (on the controller).

    pytest has no public way: `record_xml_attribute` is experimental, warns under xunit2, and
    does nothing in an xdist worker (only the controller writes the XML). This sets the
    attribute where that fixture does, on the XML log's reporter of this test, before its
    teardown report closes it (a record rides on the setup or call report)."""
    try:
        from _pytest.junitxml import xml_key
    except ImportError:  # a pytest that moved it: the XML keeps pytest's own classname
        return
    xml = config.stash.get(xml_key, None)
    if xml is None:
        return
    classname = f"bankbench.{family}"
    if xml.prefix:
        classname = f"{xml.prefix}.{classname}"  # --junit-prefix, as pytest applies it
    xml.node_reporter(report).add_attribute("classname", classname)
