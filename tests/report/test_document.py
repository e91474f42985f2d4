"""The typed report: public JSON names, a round trip, older reports, versions refused."""

from __future__ import annotations

import json

import pytest

from pytest_bankbench.report.document import (
    REPORT_VERSION,
    ReportError,
    build_report,
    parse_report,
)
from pytest_bankbench.report.gate import evaluate_gate, parse_gate
from pytest_bankbench.report.markdown import summary_markdown
from pytest_bankbench.report.metrics import summarize
from pytest_bankbench.report.terminal import render
from tests.report.test_compare import document, record

PROVENANCE = {"agent": {"model": "m"}, "customer": {"model": "scripted"}, "split": "lite"}


def test_the_json_keeps_the_public_field_names_and_round_trips() -> None:
    records = [record("t-1", k, passed=k == 0) for k in range(2)]
    report = build_report(PROVENANCE, summarize(records, 2), records, 1.5, {"agent": "m"})
    data = json.loads(report.dumps())
    assert data["report_version"] == REPORT_VERSION
    summary = data["summary"]
    assert {"pass^1", "pass^1_ci95", "pass^k"} <= set(summary)
    assert summary["pass^k"] == {"1": 0.5, "2": 0.0}
    assert summary["by_category"]["sequencing"]["pass_rate"] == 0.5
    assert summary["accounting"]["selected"] == 2
    assert parse_report(data, "r.json") == report


def test_a_report_from_before_the_accounting_still_loads_and_renders() -> None:
    old = document([record("t-1", passed=True)]).to_json()
    for key in ("accounting", "unaccounted", "customer_cost_usd", "customer_latency_s"):
        del old["summary"][key]
    for key in ("customer_prompt", "customer_completion"):
        del old["summary"]["tokens"][key]
    report = parse_report(old, "old.json")
    assert report.summary.accounting is None and report.summary.unaccounted == 0
    lines = render(report.summary, PROVENANCE, 1.0, [])
    assert not any(line.startswith("sessions:") for line in lines)
    assert "sessions accounted for" not in summary_markdown(report, None)
    gate = evaluate_gate(parse_gate("pass^1>=0.5, not_run==0"), report.summary)
    assert gate.reasons == [
        "pass^1 = 1.00 >= 0.50: ok",
        "not_run: the report predates the accounting of every session: FAILED",
    ]


@pytest.mark.parametrize(
    ("version", "message"),
    [
        (REPORT_VERSION + 1, r"is newer than this pytest-bankbench reads \(1\); upgrade"),
        (0, "'report_version' 0 is not a report version"),
        (True, "'report_version' True is not a report version"),
    ],
)
def test_an_unknown_version_is_refused_with_what_to_do(version: object, message: str) -> None:
    data = document([]).to_json()
    data["report_version"] = version
    with pytest.raises(ReportError, match=message):
        parse_report(data, "r.json")


def test_an_unexpected_field_is_named() -> None:
    data = document([]).to_json()
    data["summary"]["pass_rate"] = 1.0
    with pytest.raises(ReportError, match=r"r\.json: 'summary\.pass_rate' extra inputs"):
        parse_report(data, "r.json")
