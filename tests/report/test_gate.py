"""The CI gate: expression parsing and its errors, evaluation, the baseline check, Markdown."""

from __future__ import annotations

from typing import Any

import pytest

from pytest_bankbench.report.document import Report, Summary
from pytest_bankbench.report.gate import (
    Condition,
    GateResult,
    check_baseline,
    evaluate_gate,
    parse_gate,
    unmeasured_groups,
)
from pytest_bankbench.report.markdown import summary_markdown
from tests.report.test_compare import document, lite_reports, record


@pytest.fixture(scope="module")
def lite(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Report]:
    return lite_reports(tmp_path_factory)


def _summary(pass1: float | None = None, **changes: Any) -> Summary:
    """A real summary of a small synthetic run, with some values replaced.

    `pass1` replaces pass^1 where the gate reads it: `pass_k["1"]` (and the headline).
    """
    records = [
        record("l-1", passed=True, service_area="loans", category="edge_case"),
        record("l-2", passed=False, service_area="loans", category="edge_case", false_pass=True),
        record("c-1", passed=True, service_area="cards"),
        record("c-2", passed=True, service_area="cards"),
    ]
    summary = document(records).summary
    if pass1 is not None:
        changes.update(pass_1=pass1, pass_k={**summary.pass_k, "1": pass1})
    return summary.model_copy(update=changes)


# Parsing -----------------------------------------------------------------------------------


def test_parse_accepts_every_metric_and_both_separators() -> None:
    gate = parse_gate(
        "pass^1>=0.6, false_pass<=0.05 and final_state >= 0.7 AND pass^2>0.4,"
        " infra_errors==0, false_pass_count < 3, pass^1[loans]>=0.5, final_state[edge_case]>=0.2"
    )
    assert [(c.label, c.op, c.threshold) for c in gate.conditions] == [
        ("pass^1", ">=", 0.6),
        ("false_pass", "<=", 0.05),
        ("final_state", ">=", 0.7),
        ("pass^2", ">", 0.4),
        ("infra_errors", "==", 0.0),
        ("false_pass_count", "<", 3.0),
        ("pass^1[loans]", ">=", 0.5),
        ("final_state[edge_case]", ">=", 0.2),
    ]
    assert gate.conditions[3] == Condition(
        metric="pass^k", k=2, op=">", threshold=0.4, text="pass^2>0.4"
    )
    assert gate.max_k == 2
    assert parse_gate("  Pass^1 >= .5 ").conditions[0].label == "pass^1"
    assert parse_gate("false_pass_count<=0").conditions[0].metric == "false_pass_count"
    assert parse_gate("pass^1[LOANS]>=0.5").conditions[0].group == "loans"


def test_and_inside_a_word_is_not_a_separator() -> None:
    with pytest.raises(ValueError, match="unknown metric 'brand_new'"):
        parse_gate("brand_new>=0.5")


@pytest.mark.parametrize(
    ("expr", "bad_part", "problem"),
    [
        ("pass^1", "'pass^1'", "no comparison operator"),
        ("pass^1 = 0.6", "'pass^1 = 0.6'", "unknown operator '=' (write == for equality)"),
        ("pass^1 != 0.6", "'pass^1 != 0.6'", "unknown operator '!='"),
        ("pass^1 => 0.6", "'pass^1 => 0.6'", "unknown operator '=>'"),
        ("pass>=0.5", "'pass>=0.5'", "unknown metric 'pass' (did you mean pass^1?)"),
        ("accuracy>=0.5", "'accuracy>=0.5'", "unknown metric 'accuracy'"),
        ("pass^0>=0.5", "'pass^0>=0.5'", "pass^K needs a whole number K >= 1, got '0'"),
        ("pass^k>=0.5", "'pass^k>=0.5'", "pass^K needs a whole number K >= 1, got 'k'"),
        ("pass^1>=60", "'pass^1>=60'", "threshold 60 is outside (write 0.6 for 60%)"),
        ("false_pass<=-0.1", "'false_pass<=-0.1'", "false_pass is a rate in 0..1"),
        ("infra_errors>=-1", "'infra_errors>=-1'", "infra_errors is a count"),
        # User trial: a fraction of a count was taken, and ==0.5 can never hold.
        ("infra_errors==0.5", "'infra_errors==0.5'", "must be a whole number >= 0"),
        ("pass^1>=high", "'pass^1>=high'", "threshold 'high' is not a number"),
        ("pass^1>=inf", "'pass^1>=inf'", "threshold 'inf' is not a finite number"),
        ("pass^1>=", "'pass^1>='", "no threshold after the operator"),
        (">=0.5", "'>=0.5'", "no metric before the operator"),
        ("pass^1>=>=0.5", "'pass^1>=>=0.5'", "threshold '>=0.5' is not a number"),
        ("pass^1[laons]>=0.5", "'pass^1[laons]>=0.5'", "unknown group 'laons'"),
        ("pass^1[]>=0.5", "'pass^1[]>=0.5'", "empty group in []"),
        ("pass^1[loans>=0.5", "'pass^1[loans>=0.5'", "unbalanced brackets"),
        ("pass^2[loans]>=0.5", "'pass^2[loans]>=0.5'", "pass^2 cannot be taken per group"),
        ("infra_errors[cards]==0", "'infra_errors[cards]==0'", "cannot be taken per group"),
        ("pass^1 >= 0.6 0.7", "'pass^1 >= 0.6 0.7'", "is not a number"),
    ],
)
def test_bad_conditions_name_the_part_and_list_what_is_accepted(
    expr: str, bad_part: str, problem: str
) -> None:
    with pytest.raises(ValueError) as info:
        parse_gate(f"infra_errors==0, {expr}")
    message = str(info.value)
    assert f"bad gate condition {bad_part}" in message
    assert problem in message
    for accepted in ("pass^K", "false_pass_count", "final_state", "infra_errors", ">=", "<=", "=="):
        assert accepted in message
    assert "loans" in message and "edge_case" in message


@pytest.mark.parametrize("expr", ["", "   ", "pass^1>=0.6,", "pass^1>=0.6 and", ", pass^1>=0.6"])
def test_empty_expressions_and_conditions_are_rejected(expr: str) -> None:
    with pytest.raises(ValueError, match="empty") as info:
        parse_gate(expr)
    assert "accepted metrics" in str(info.value)


# Evaluation --------------------------------------------------------------------------------


def test_reasons_in_the_documented_form() -> None:
    summary = _summary(pass1=0.62)
    false_passes = summary.false_passes.model_copy(update={"share_of_all": 0.08})
    summary = summary.model_copy(update={"false_passes": false_passes})
    result = evaluate_gate(parse_gate("pass^1>=0.6, false_pass<=0.05"), summary)
    assert result == GateResult(
        passed=False,
        reasons=["pass^1 = 0.62 >= 0.60: ok", "false_pass = 0.08 > 0.05: FAILED"],
    )


@pytest.mark.parametrize(
    ("op", "passes", "reason"),
    [
        (">=", True, "pass^1 = 0.60 >= 0.60: ok"),
        ("<=", True, "pass^1 = 0.60 <= 0.60: ok"),
        ("==", True, "pass^1 = 0.60 == 0.60: ok"),
        (">", False, "pass^1 = 0.60 <= 0.60: FAILED"),
        ("<", False, "pass^1 = 0.60 >= 0.60: FAILED"),
    ],
)
def test_boundary_values(op: str, passes: bool, reason: str) -> None:
    summary = _summary(pass1=0.6)
    result = evaluate_gate(parse_gate(f"pass^1{op}0.6"), summary)
    assert result == GateResult(passed=passes, reasons=[reason])


def test_close_values_get_enough_decimals() -> None:
    result = evaluate_gate(parse_gate("pass^1>=0.6"), _summary(pass1=0.5999))
    assert result.reasons == ["pass^1 = 0.5999 < 0.6000: FAILED"]
    result = evaluate_gate(parse_gate("pass^1>0.6"), _summary(pass1=0.601))
    assert result.reasons == ["pass^1 = 0.601 > 0.600: ok"]


def test_counts_and_top_level_metrics() -> None:
    summary = _summary(infra_errors=2)
    result = evaluate_gate(
        parse_gate("infra_errors==0, false_pass_count<=1, final_state>=0.75, pass^1>=0.75"),
        summary,
    )
    assert result.reasons == [
        "infra_errors = 2 != 0: FAILED",
        "false_pass_count = 1 <= 1: ok",
        "final_state = 1.00 >= 0.75: ok",
        "pass^1 = 0.75 >= 0.75: ok",
    ]
    assert not result.passed


def test_per_category_and_service_area_conditions() -> None:
    summary = _summary()
    result = evaluate_gate(
        parse_gate(
            "pass^1[loans]>=0.5, pass^1[cards]==1, pass^1[edge_case]>0.5,"
            " false_pass[loans]<=0.4, false_pass_count[edge_case]==1, final_state[sequencing]>=1"
        ),
        summary,
    )
    assert result.reasons == [
        "pass^1[loans] = 0.50 >= 0.50: ok",
        "pass^1[cards] = 1.00 == 1.00: ok",
        "pass^1[edge_case] = 0.50 <= 0.50: FAILED",
        "false_pass[loans] = 0.50 > 0.40: FAILED",
        "false_pass_count[edge_case] = 1 == 1: ok",
        "final_state[sequencing] = 1.00 >= 1.00: ok",
    ]
    assert not result.passed


def test_a_group_may_name_a_family_of_the_run() -> None:
    summary = _summary()  # families l (one pass, one false pass) and c (both pass)
    assert set(summary.by_family) == {"l", "c"}
    families = set(summary.by_family)
    result = evaluate_gate(
        parse_gate("pass^1[l]>=0.5, false_pass_count[l]==0, final_state[c]>=1", families),
        summary,
    )
    assert result.reasons == [
        "pass^1[l] = 0.50 >= 0.50: ok",
        "false_pass_count[l] = 1 != 0: FAILED",
        "final_state[c] = 1.00 >= 1.00: ok",
    ]
    # A family the run's tasks do not have is refused before the run, with the nearest names.
    with pytest.raises(ValueError, match=r"unknown group 'fd_closre'.*did you mean fd_closure\?"):
        parse_gate("pass^1[fd_closre]>=0.5", {"fd_closure", "fd_booking", "rd_opening"})
    # Without the families (a merge, before its shards are read) any name is a family, and a
    # group without sessions fails when evaluated.
    loose = parse_gate("pass^1[fd_closure]>=0.5", None)
    assert evaluate_gate(loose, summary).reasons == [
        "pass^1[fd_closure]: no sessions in group 'fd_closure' in this run: FAILED"
    ]


def test_what_the_run_lacks_fails_its_condition() -> None:
    result = evaluate_gate(
        parse_gate("pass^3>=0.1, pass^1[rare_tool]>=0.1, pass^1>=0.5"), _summary()
    )
    assert not result.passed
    assert result.reasons == [
        "pass^3: the run has 1 trial(s); pass^3 needs --bank-trials 3: FAILED",
        "pass^1[rare_tool]: no sessions in group 'rare_tool' in this run: FAILED",
        "pass^1 = 0.75 >= 0.50: ok",
    ]


def test_pass_k_reads_the_pass_k_table() -> None:
    records = [record("t-1", k, passed=k < 2) for k in range(3)]
    records += [record("t-2", k, passed=True) for k in range(3)]
    summary = document(records, trials=3).summary
    result = evaluate_gate(parse_gate("pass^1>=0.8, pass^2>=0.6, pass^3>=0.6"), summary)
    assert result.reasons == [
        "pass^1 = 0.83 >= 0.80: ok",  # (2/3 + 1) / 2
        "pass^2 = 0.67 >= 0.60: ok",  # (1/3 + 1) / 2
        "pass^3 = 0.50 < 0.60: FAILED",
    ]


def test_real_lite_summaries(lite: dict[str, Report]) -> None:
    gate = parse_gate("pass^1>=0.95, false_pass<=0.05, infra_errors==0")
    assert evaluate_gate(gate, lite["gold"].summary).passed
    lookup = evaluate_gate(gate, lite["lookup-only"].summary)
    assert not lookup.passed
    fp = lite["lookup-only"].summary.false_passes.share_of_all
    assert lookup.reasons == [
        "pass^1 = 0.00 < 0.95: FAILED",
        f"false_pass = {fp:.2f} > 0.05: FAILED",
        "infra_errors = 0 == 0: ok",
    ]


# Baseline ----------------------------------------------------------------------------------


def _pair(flips_to_fail: int, flips_to_pass: int, steady: int = 100) -> tuple[Report, Report]:
    """Baseline and current runs on `steady + flips` tasks with the given discordant counts."""
    base, cur = [], []
    for i in range(steady):
        base.append(record(f"s-{i:03}", passed=i % 2 == 0))
        cur.append(record(f"s-{i:03}", passed=i % 2 == 0))
    for i in range(flips_to_fail):
        base.append(record(f"f-{i:03}", passed=True))
        cur.append(record(f"f-{i:03}", passed=False))
    for i in range(flips_to_pass):
        base.append(record(f"p-{i:03}", passed=False))
        cur.append(record(f"p-{i:03}", passed=True))
    return document(base, "baseline"), document(cur, "current")


def test_real_regression_is_caught(lite: dict[str, Report]) -> None:
    n = len(lite["gold"].sessions)
    result = check_baseline(lite["gold"], lite["lookup-only"], tolerance=0.05)
    assert not result.passed
    assert result.reasons[0] == (
        f"baseline: pass^1 on {n} shared sessions: baseline 1.0000, current 0.0000 "
        f"(delta -1.0000); {n} flipped to fail, 0 to pass; McNemar p = 1.24e-60 < 0.05, "
        "significant regression: FAILED"
    )
    assert result.reasons[1] == (
        f"baseline: pass^1 dropped by 1.0000 > tolerance 0.0500 ({n} flipped to fail): FAILED"
    )
    same = check_baseline(lite["gold"], lite["gold"], tolerance=0.0)
    assert same.passed
    assert "McNemar p = 1.0000 >= 0.05, no significant change: ok" in same.reasons[0]


def test_significant_regression_without_tolerance() -> None:
    base, cur = _pair(flips_to_fail=9, flips_to_pass=1)  # p = 0.021484375
    result = check_baseline(base, cur, tolerance=None)
    assert not result.passed
    assert "9 flipped to fail, 1 to pass; McNemar p = 0.0215 < 0.05" in result.reasons[0]
    assert len(result.reasons) == 1
    assert check_baseline(base, cur, tolerance=None, alpha=0.01).passed


def test_improvement_is_never_a_regression() -> None:
    base, cur = _pair(flips_to_fail=0, flips_to_pass=12)
    result = check_baseline(base, cur, tolerance=0.0)
    assert result.passed
    assert "significant improvement: ok" in result.reasons[0]
    assert "within tolerance" in result.reasons[1]


def test_tolerance_catches_an_insignificant_drop() -> None:
    base, cur = _pair(flips_to_fail=2, flips_to_pass=0)  # p = 0.5; drop 2/102
    assert check_baseline(base, cur, tolerance=None).passed
    strict = check_baseline(base, cur, tolerance=0.01)
    assert not strict.passed
    assert strict.reasons[1] == (
        "baseline: pass^1 dropped by 0.0196 > tolerance 0.0100 (2 flipped to fail): FAILED"
    )
    assert check_baseline(base, cur, tolerance=0.03).passed


def test_drop_equal_to_the_tolerance_passes() -> None:
    base, cur = _pair(flips_to_fail=5, flips_to_pass=0, steady=95)  # drop exactly 0.05
    result = check_baseline(base, cur, tolerance=0.05)
    assert "p = 0.0625 >= 0.05" in result.reasons[0]
    assert result.passed
    assert result.reasons[1] == "baseline: pass^1 change -0.0500 is within tolerance 0.0500: ok"


def test_unshared_runs_fail_and_unpaired_sessions_are_reported() -> None:
    base = document([record("a-1", passed=True)])
    cur = document([record("b-1", passed=True)])
    result = check_baseline(base, cur, tolerance=None)
    assert not result.passed
    assert "shares no session with a verdict" in result.reasons[0]
    base, cur = _pair(1, 1, steady=3)
    infra = record("s-000", passed=False, outcome="infra_error")
    sessions = [infra, *cur.sessions[1:], record("extra", passed=True)]
    cur = cur.model_copy(update={"sessions": sessions})
    result = check_baseline(base, cur, tolerance=None)
    assert result.passed
    assert result.reasons[-1] == (
        "baseline: not compared: baseline-only 1, current-only 1 scored sessions; "
        "infra errors baseline 0, current 1"
    )


def test_bad_alpha_or_tolerance() -> None:
    base, cur = _pair(0, 0, steady=2)
    with pytest.raises(ValueError, match="alpha"):
        check_baseline(base, cur, tolerance=None, alpha=1.5)
    with pytest.raises(ValueError, match="tolerance"):
        check_baseline(base, cur, tolerance=-0.1)


# Markdown ----------------------------------------------------------------------------------


def test_markdown_has_headline_tables_and_gate_reasons(lite: dict[str, Report]) -> None:
    report = lite["lookup-only"]
    summary = report.summary
    gate = evaluate_gate(parse_gate("pass^1>=0.5, infra_errors==0"), summary)
    text = summary_markdown(report, gate)
    assert summary.pass_1_ci95 is not None
    low, high = summary.pass_1_ci95
    fp = summary.false_passes
    assert text.startswith("## pytest-bankbench: lookup-only on lite - gate FAILED\n")
    assert f"| **pass^1** | **0.0000** (0 passed; 95% CI {low:.4f} to {high:.4f}) |" in text
    assert f"| final-state-only rate | {summary.final_state_only_rate:.4f} |" in text
    assert f"| false passes | {fp.count} (" in text
    assert f"| sessions | {summary.sessions} ({summary.tasks} tasks x 1 trial) |" in text
    assert "### By category" in text and "### By service area" in text
    for name, row in summary.by_service_area.items():
        assert f"| {name} | {row.sessions} | {row.passed} | " in text
    assert "### Failure types" in text
    for name, count in summary.failure_types.items():
        assert f"| {name} | {count} |" in text
    assert "### Gate\n\n**FAILED**" in text
    for reason in gate.reasons:
        assert f"- `{reason}`" in text


def test_markdown_without_gate_and_with_sparse_provenance() -> None:
    records = [record("t-1", k, passed=k == 0) for k in range(2)]
    report = document(records, trials=2).model_copy(update={"provenance": {}})
    text = summary_markdown(report, None)
    assert "### Gate" not in text
    assert "gate" not in text.splitlines()[0]
    assert "| pass^2 | 0.0000 |" in text
    assert "(1 tasks x 2 trials)" in text
    passed = summary_markdown(report, GateResult(passed=True, reasons=["x: ok"]))
    assert "- gate PASSED" in passed.splitlines()[0]
    assert "**PASSED**\n\n- `x: ok`" in passed


def _crashed_where_baseline_passed() -> tuple[Report, Report]:
    """Issue 19: 12 of 20 sessions crashed, exactly those the baseline passed."""
    base = document([record(f"t-{i:02d}", passed=i < 12) for i in range(20)])
    rows = [
        record(f"t-{i:02d}", passed=False, outcome="harness_error" if i < 12 else "scored")
        for i in range(20)
    ]
    return base, document(rows)


def test_baseline_alone_fails_on_sessions_without_a_verdict() -> None:
    base, cur = _crashed_where_baseline_passed()
    assert cur.summary.unaccounted == 12
    for tolerance in (None, 0.5, 1.0):
        result = check_baseline(base, cur, tolerance=tolerance)
        assert not result.passed
        assert any("12 selected session(s) without a verdict" in r for r in result.reasons)


def test_baseline_pairs_harness_errors_and_lost_sessions_as_failed() -> None:
    base, cur = _crashed_where_baseline_passed()
    lost = [
        s.model_copy(update={"outcome": "lost"}) if s.outcome != "scored" else s
        for s in cur.sessions
    ]
    for sessions in (cur.sessions, lost):
        result = check_baseline(base, cur.model_copy(update={"sessions": sessions}), None)
        assert "12 flipped to fail, 0 to pass" in result.reasons[0]
        assert "significant regression: FAILED" in result.reasons[0]


def test_baseline_with_a_gate_leaves_the_accounting_to_the_gate() -> None:
    base = document([record(f"t-{i}", passed=True) for i in range(4)])
    cur = document(
        [
            *(record(f"t-{i}", passed=True) for i in range(3)),
            record("t-3", passed=False, outcome="lost"),
        ]
    )
    named = parse_gate("unaccounted<=1")
    assert check_baseline(base, cur, tolerance=None, gate=named).passed
    assert evaluate_gate(named, cur.summary).passed
    unnamed = parse_gate("pass^1>=0.1")
    assert check_baseline(base, cur, tolerance=None, gate=unnamed).passed
    assert not evaluate_gate(unnamed, cur.summary).passed


def test_a_group_no_selected_task_is_in_is_unmeasured() -> None:
    """Known before the first session: a condition on a group none of the selected tasks is in
    (a category, a service area or a family) could only fail."""
    from types import SimpleNamespace

    gate = parse_gate("pass^1>=0.5, pass^1[cards]>=0.5, final_state[fd_closure]>=0.5", None)
    fd = SimpleNamespace(category="sequencing", service_area="deposits", family="fd_closure")
    card = SimpleNamespace(category="control", service_area="cards", family="lost_card_block")
    assert unmeasured_groups(gate, [fd, card]) == []
    assert unmeasured_groups(gate, [fd]) == [
        "pass^1[cards]: none of the selected sessions is in group 'cards', so nothing would be "
        "measured"
    ]
    assert [line.split(":")[0] for line in unmeasured_groups(gate, [])] == [
        "pass^1[cards]",
        "final_state[fd_closure]",
    ]
