"""Paired comparison of two reports: exact McNemar, the 2x2 table, flips, pairing, the CLI."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from pytest_bankbench.cli import main
from pytest_bankbench.report.compare import (
    Comparison,
    ReportError,
    compare_reports,
    mcnemar_exact,
    render_comparison,
)
from pytest_bankbench.report.document import Report, build_report, parse_report, read_report
from pytest_bankbench.report.metrics import SessionRecord, summarize

LITE_MODELS = ("gold", "lookup-only")


def record(
    task: str,
    trial: int = 0,
    *,
    passed: bool,
    category: str = "sequencing",
    service_area: str = "deposits",
    outcome: str = "scored",
    false_pass: bool = False,
) -> SessionRecord:
    """A session record with the fields the comparison and the gate read."""
    final = passed or false_pass
    return SessionRecord(
        task_id=task,
        trial=trial,
        seed=trial,
        family=task.split("-")[0],
        category=category,
        service_area=service_area,
        chain_length=3,
        graded=category != "control",
        outcome=outcome,
        passed=passed and outcome == "scored",
        final_state_pass=final,
        false_pass=false_pass,
        failure_type=None if passed else "stopped_short",
        checks={"final_state": final},
        evidence={},
        end="customer_stop",
        steps=4,
        failed_calls=0,
    )


def document(records: list[SessionRecord], model: str = "agent", trials: int = 1) -> Report:
    """A report like the plugin's, of these records."""
    provenance = {
        "agent": {"model": model},
        "customer": {"model": "scripted"},
        "split": "lite",
        "task_data_sha256": "0" * 64,
        "version": "0.1.0",
    }
    return build_report(provenance, summarize(records, trials), records, 0.0, {})


def lite_reports(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Report]:
    """Real lite-split reports of the built-in agents, made once per test session (in parallel)."""
    folder = tmp_path_factory.getbasetemp() / "lite-reports"
    folder.mkdir(exist_ok=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
    running = []
    for model in LITE_MODELS:
        path = folder / f"{model}.json"
        if not path.exists():
            command = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--bank-model"]
            command += [model, "--bank-split", "lite", "-q", "--tb=no", "--bank-report", str(path)]
            running.append(
                subprocess.Popen(
                    command,
                    cwd=folder,
                    env=env,
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                )
            )
    for process in running:
        process.wait(timeout=300)
    return {model: read_report(folder / f"{model}.json") for model in LITE_MODELS}


@pytest.fixture(scope="module")
def lite(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Report]:
    return lite_reports(tmp_path_factory)


# McNemar -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("b", "c", "expected"),
    [
        (0, 5, Fraction(1, 16)),  # 2 * 1 / 32
        (1, 9, Fraction(11, 512)),  # 2 * (1 + 10) / 1024 = 0.021484375
        (3, 12, Fraction(1152, 32768)),  # 2 * (1 + 15 + 105 + 455) / 2^15
        (2, 10, Fraction(158, 4096)),  # 2 * (1 + 12 + 66) / 2^12
        (0, 1, Fraction(1)),  # 2 * 1/2 = 1
        (0, 0, Fraction(1)),
    ],
)
def test_mcnemar_matches_hand_computed_values(b: int, c: int, expected: Fraction) -> None:
    assert mcnemar_exact(b, c) == expected
    assert mcnemar_exact(c, b) == expected


def test_mcnemar_known_decimals_and_ties() -> None:
    assert float(mcnemar_exact(0, 5)) == 0.0625
    assert float(mcnemar_exact(1, 9)) == 0.021484375
    for n in range(0, 30):
        assert mcnemar_exact(n, n) == 1


def test_mcnemar_is_symmetric_capped_and_monotone() -> None:
    for b in range(0, 25):
        for c in range(0, 25):
            p = mcnemar_exact(b, c)
            assert p == mcnemar_exact(c, b)
            assert 0 < p <= 1
        # More discordance on one side only lowers p.
        assert all(mcnemar_exact(b, c + 1) <= mcnemar_exact(b, c) for c in range(b, 25))


def test_mcnemar_is_exact_for_large_counts() -> None:
    assert mcnemar_exact(0, 200) == Fraction(2, 2**200)
    assert mcnemar_exact(0, 2000) == Fraction(1, 2**1999)  # exact though a float would underflow
    with pytest.raises(ValueError, match="b=-1"):
        mcnemar_exact(-1, 3)


# Comparing real reports --------------------------------------------------------------------


def test_gold_against_lookup_only_every_flip_is_pass_to_fail(lite: dict[str, Report]) -> None:
    gold, lookup = lite["gold"], lite["lookup-only"]
    c = compare_reports(gold, lookup)
    n = len(gold.sessions)
    assert (c.label_a, c.label_b) == ("gold", "lookup-only")
    assert c.n_paired == n == c.shared_tasks
    assert (c.unpaired_a, c.unpaired_b, c.infra_errors_a, c.infra_errors_b) == (0, 0, 0, 0)
    assert (c.pass_a, c.pass_b, c.delta) == (1.0, 0.0, -1.0)
    assert (c.table.both, c.table.only_a, c.table.only_b, c.table.neither) == (0, n, 0, 0)
    assert c.mcnemar_p == float(mcnemar_exact(n, 0)) < 1e-50
    graded = {s.task_id for s in gold.sessions if s.graded}
    assert graded <= set(c.pass_to_fail)
    assert c.fail_to_pass == []
    assert c.pass_to_fail == sorted(c.pass_to_fail)
    assert set(c.by_category) == set(gold.summary.by_category)
    assert set(c.by_service_area) == set(gold.summary.by_service_area)
    for group in (*c.by_category.values(), *c.by_service_area.values()):
        assert (group.pass_a, group.pass_b, group.delta) == (1.0, 0.0, -1.0)
    assert sum(g.n for g in c.by_category.values()) == n
    assert c.warnings == []


def test_comparison_is_antisymmetric(lite: dict[str, Report]) -> None:
    forward = compare_reports(lite["gold"], lite["lookup-only"])
    backward = compare_reports(lite["lookup-only"], lite["gold"])
    assert backward.mcnemar_p == forward.mcnemar_p
    assert backward.delta == -forward.delta
    assert (backward.table.only_a, backward.table.only_b) == (0, forward.table.only_a)
    assert backward.fail_to_pass == forward.pass_to_fail
    assert backward.pass_to_fail == []


def test_identical_reports_give_p_one_and_no_flips(lite: dict[str, Report]) -> None:
    for report in lite.values():
        c = compare_reports(report, report)
        assert c.mcnemar_p == 1.0
        assert c.delta == 0.0
        assert c.pass_to_fail == c.fail_to_pass == []
        assert c.table.only_a == c.table.only_b == 0
        assert c.table.both + c.table.neither == c.n_paired == len(report.sessions)


def test_unpaired_sessions_when_the_task_sets_differ(lite: dict[str, Report]) -> None:
    gold = lite["gold"]
    lookup = lite["lookup-only"].model_copy(update={"sessions": lite["lookup-only"].sessions[10:]})
    c = compare_reports(gold, lookup)
    n = len(gold.sessions)
    assert (c.n_paired, c.unpaired_a, c.unpaired_b) == (n - 10, 10, 0)
    dropped = {s.task_id for s in lite["lookup-only"].sessions[:10]}
    assert not dropped & set(c.pass_to_fail)


def test_comparison_round_trips_through_json(lite: dict[str, Report]) -> None:
    c = compare_reports(lite["gold"], lite["lookup-only"])
    again = Comparison.model_validate(json.loads(c.model_dump_json()))
    assert again == c


# Pairing rules on synthetic reports -------------------------------------------------------


def test_pairing_by_task_and_trial_counts_each_side() -> None:
    a = document([record(f"t-{i}", passed=True) for i in range(1, 6)])  # t-1..t-5
    b = document([record(f"t-{i}", passed=i != 4) for i in range(3, 9)])  # t-3..t-8
    c = compare_reports(a, b)
    assert (c.n_paired, c.unpaired_a, c.unpaired_b) == (3, 2, 3)
    assert c.pass_to_fail == ["t-4"]
    assert (c.pass_a, c.pass_b) == (1.0, 0.6667)


def test_trials_pair_separately() -> None:
    a = document([record("t-1", 0, passed=True), record("t-1", 1, passed=True)], trials=2)
    b = document([record("t-1", 0, passed=False)])
    c = compare_reports(a, b)
    assert (c.n_paired, c.shared_tasks, c.unpaired_a, c.unpaired_b) == (1, 1, 1, 0)
    assert c.pass_to_fail == ["t-1"]


def test_flip_lists_hold_each_task_once_even_over_trials() -> None:
    a = document([record("t-1", k, passed=True) for k in range(3)], trials=3)
    b = document([record("t-1", k, passed=k == 2) for k in range(3)], trials=3)
    c = compare_reports(a, b)
    assert c.pass_to_fail == ["t-1"]
    assert (c.table.both, c.table.only_a) == (1, 2)


def test_infra_errors_are_excluded_and_counted() -> None:
    a = document(
        [record("t-1", passed=True), record("t-2", passed=True), record("t-3", passed=False)]
    )
    b = document(
        [
            record("t-1", passed=False),
            record("t-2", passed=False, outcome="infra_error"),
            record("t-3", passed=False, outcome="infra_error"),
        ]
    )
    c = compare_reports(a, b)
    assert (c.n_paired, c.infra_errors_a, c.infra_errors_b) == (1, 0, 2)
    assert (c.unpaired_a, c.unpaired_b) == (2, 0)
    assert c.pass_to_fail == ["t-1"]
    assert c.table.only_a == 1


def test_group_deltas_use_the_paired_sessions() -> None:
    rows = [
        ("l-1", "loans", True, False),
        ("l-2", "loans", True, True),
        ("l-3", "loans", False, True),
        ("l-4", "loans", False, True),
        ("c-1", "cards", True, True),
    ]
    a = document([record(t, passed=pa, service_area=area) for t, area, pa, _ in rows])
    b = document([record(t, passed=pb, service_area=area) for t, area, _, pb in rows])
    c = compare_reports(a, b)
    loans = c.by_service_area["loans"]
    assert (loans.n, loans.pass_a, loans.pass_b, loans.delta) == (4, 0.5, 0.75, 0.25)
    assert c.by_service_area["cards"].delta == 0.0
    assert list(c.by_service_area) == ["cards", "loans"]
    assert c.by_category["sequencing"].n == 5
    assert (c.pass_to_fail, c.fail_to_pass) == (["l-1"], ["l-3", "l-4"])
    assert c.mcnemar_p == 1.0  # b=1, c=2: 2 * (1 + 3) / 8 capped at 1


def test_no_shared_sessions_and_different_task_data_warn() -> None:
    a = document([record("t-1", passed=True)])
    b = document([record("t-2", passed=True)])
    b.provenance["task_data_sha256"] = "f" * 64
    c = compare_reports(a, b)
    assert c.n_paired == 0
    assert (c.pass_a, c.pass_b, c.mcnemar_p) == (0.0, 0.0, 1.0)
    assert any("task_data_sha256" in w for w in c.warnings)
    assert any("share no scored session" in w for w in c.warnings)
    # Rates over no pair are n/a, never a measured 0 (user trial).
    shown = render_comparison(c)
    assert "pass^1 on the paired sessions: n/a (no session is in both reports)" in shown
    assert not any("A 0.0000" in line for line in shown)


def test_malformed_sessions_are_rejected() -> None:
    twice = document([record("t-1", passed=True), record("t-1", passed=False)]).to_json()
    with pytest.raises(ReportError, match="report A: session 1: task 't-1' trial 0 appears twice"):
        parse_report(twice, "report A")
    broken = document([record("t-1", passed=True)]).to_json()
    del broken["sessions"][0]["passed"]
    with pytest.raises(ReportError, match="report B: session 0: 'passed' is missing"):
        parse_report(broken, "report B")
    broken["sessions"][0]["passed"] = "maybe"
    with pytest.raises(ReportError, match="session 0: 'passed' input should be a valid boolean"):
        parse_report(broken, "report B")
    with pytest.raises(ReportError, match="no 'sessions'"):
        parse_report({"report_version": 1}, "report C")
    summary = document([]).to_json()
    del summary["summary"]["pass^1"]
    with pytest.raises(ReportError, match=r"report D: 'summary.pass\^1' is missing"):
        parse_report(summary, "report D")


def test_render_shows_table_p_value_and_truncated_flips(lite: dict[str, Report]) -> None:
    c = compare_reports(lite["gold"], lite["lookup-only"])
    n = c.n_paired
    text = "\n".join(render_comparison(c, max_ids=3))
    assert "A: gold   B: lookup-only" in text
    assert f"paired sessions: {n} ({n} tasks)" in text
    assert "pass^1 on the paired sessions: A 1.0000   B 0.0000   delta -1.0000" in text
    assert f"A pass            0 {n:>8}" in text
    assert "p = 1.24e-60" in text
    assert f"pass -> fail (passed in A, failed in B) ({n} tasks):" in text
    assert f"... and {n - 3} more" in text
    assert "fail -> pass (failed in A, passed in B) (0 tasks): none" in text
    assert "  loans " in text and "  edge_case " in text
    full = render_comparison(c, max_ids=-1)
    assert all(f"  {task}" in full for task in c.pass_to_fail)


# CLI ---------------------------------------------------------------------------------------


def _write(tmp_path: Path, name: str, report: Report) -> Path:
    path = tmp_path / name
    path.write_text(report.dumps(), encoding="utf-8")
    return path


def test_cli_compare_prints_and_writes_json(
    lite: dict[str, Report], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a = _write(tmp_path, "a.json", lite["gold"])
    b = _write(tmp_path, "b.json", lite["lookup-only"])
    out = tmp_path / "deep" / "cmp.json"
    assert main(["compare", str(a), str(b), "--json", str(out)]) == 0
    printed = capsys.readouterr().out
    assert f"A = {a}" in printed and f"B = {b}" in printed
    assert "exact McNemar test" in printed
    saved = json.loads(out.read_text(encoding="utf-8"))
    assert saved["n_paired"] == len(lite["gold"].sessions)
    assert saved["fail_to_pass"] == []
    assert Comparison.model_validate(saved) == compare_reports(lite["gold"], lite["lookup-only"])


def test_cli_compare_without_json_option(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a = _write(tmp_path, "a.json", document([record("t-1", passed=True)]))
    assert main(["compare", str(a), str(a)]) == 0
    assert "p = 1.0000" in capsys.readouterr().out
    assert list(tmp_path.iterdir()) == [a]


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        (None, "no such file"),
        (
            "{not json",
            "not valid JSON (Expecting property name enclosed in double quotes at line 1",
        ),
        ('{"sessions": "cut', "not valid JSON (Unterminated string starting at line 1 column 14)"),
        ("[1, 2]", "not a pytest-bankbench report (the JSON is not an object)"),
        ('{"summary": {}}', "not a pytest-bankbench report (no 'report_version' or 'sessions')"),
        ('{"report_version": 1}', "not a pytest-bankbench report (no 'sessions')"),
        ('{"report_version": 99, "sessions": []}', "report_version 99 is newer"),
        ('{"report_version": "1", "sessions": []}', "'report_version' '1' is not a report version"),
        ('{"report_version": 1, "sessions": {}}', "'sessions' is missing or not a list"),
        ('{"report_version": 1, "sessions": [{"task_id": "t"}]}', "'provenance' is missing (and"),
        ('{"report_version": 1, "sessions": []}', "'provenance' is missing (and 2 more problems)"),
    ],
)
def test_cli_compare_rejects_bad_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str | None, problem: str
) -> None:
    good = _write(tmp_path, "good.json", document([record("t-1", passed=True)]))
    bad = tmp_path / "bad.json"
    if content is not None:
        bad.write_text(content, encoding="utf-8")
    for args in ([str(good), str(bad)], [str(bad), str(good)]):
        assert main(["compare", *args]) == 2
        captured = capsys.readouterr()
        assert captured.out == ""
        assert captured.err.startswith(f"error: {bad}: ")
        assert problem in captured.err


def test_load_report_names_a_directory(tmp_path: Path) -> None:
    with pytest.raises(ReportError, match="is a directory"):
        read_report(tmp_path)


def test_cli_keeps_the_other_subcommands(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["--help"])
    assert exit_info.value.code == 0
    usage = capsys.readouterr().out
    assert "generate" in usage and "stats" in usage and "compare" in usage
    with pytest.raises(SystemExit) as exit_info:
        main(["compare", "only-one.json"])
    assert exit_info.value.code == 2


def test_module_entry_point_end_to_end(lite: dict[str, Report], tmp_path: Path) -> None:
    a = _write(tmp_path, "a.json", lite["gold"])
    run = [sys.executable, "-m", "pytest_bankbench", "compare", str(a)]
    ok = subprocess.run([*run, str(a)], capture_output=True, text=True, check=False)
    assert ok.returncode == 0, ok.stderr
    assert "p = 1.0000" in ok.stdout
    missing = subprocess.run(
        [*run, str(tmp_path / "nope.json")], capture_output=True, text=True, check=False
    )
    assert missing.returncode == 2
    assert f"{tmp_path / 'nope.json'}: no such file" in missing.stderr
