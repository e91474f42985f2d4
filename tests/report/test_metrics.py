"""Run-level metrics: Wilson interval, tau-bench's pass^k, false-pass shares, order independence."""

from __future__ import annotations

import json
import random

import pytest

from pytest_bankbench.report.metrics import SessionRecord, pass_hat_k, summarize, wilson


def _record(
    task: str,
    trial: int,
    *,
    passed: bool,
    final: bool,
    calls: bool = True,
    category: str = "sequencing",
) -> SessionRecord:
    checks = {
        "ended_normally": True,
        "required_calls": calls,
        "write_purity": True,
        "final_state": final,
        "required_outputs": True,
    }
    return SessionRecord(
        task_id=task,
        trial=trial,
        seed=trial,
        family=task.split("-")[0],
        category=category,
        service_area="deposits",
        chain_length=3,
        graded=category != "control",
        outcome="scored",
        passed=passed,
        final_state_pass=final,
        false_pass=final and not calls,
        failure_type=None if passed else ("stopped_short" if not calls else "wrong_final_state"),
        checks=checks,
        evidence={},
        end="customer_stop",
        steps=5,
        failed_calls=0,
    )


def test_wilson_matches_known_values() -> None:
    low, high = wilson(8, 10)
    assert low == pytest.approx(0.4902, abs=1e-4)
    assert high == pytest.approx(0.9433, abs=1e-4)
    assert wilson(0, 0) == (0.0, 0.0)
    assert wilson(10, 10)[1] == pytest.approx(1.0)


def test_pass_hat_k_is_tau_bench_estimator() -> None:
    counts = {"a": (2, 4), "b": (4, 4)}
    assert pass_hat_k(counts, 1) == pytest.approx((0.5 + 1.0) / 2)
    assert pass_hat_k(counts, 2) == pytest.approx((1 / 6 + 1.0) / 2)
    assert pass_hat_k(counts, 4) == pytest.approx((0.0 + 1.0) / 2)
    # A task short of k trials is left out of pass^k; with every task short, nothing is measured.
    assert pass_hat_k({"a": (2, 2), "b": (0, 1)}, 2) == pytest.approx(1.0)
    assert pass_hat_k(counts, 5) is None


def test_pass_k_leaves_out_the_k_no_task_finished() -> None:
    records = [_record("a-001", k, passed=True, final=True) for k in range(2)]
    assert summarize(records, 3).pass_k == {"1": 1.0, "2": 1.0}


def test_false_pass_shares() -> None:
    records = [
        _record("x-001", 0, passed=True, final=True),
        _record("x-002", 0, passed=False, final=True, calls=False),  # false pass
        _record("x-003", 0, passed=False, final=False, calls=False),
        _record("x-004", 0, passed=False, final=False),
    ]
    summary = summarize(records, trials=1)
    assert summary.pass_1 == 0.25
    assert summary.final_state_only_rate == 0.5
    assert summary.false_passes.model_dump() == {
        "count": 1,
        "share_of_all": 0.25,
        "share_of_final_state_passes": 0.5,
    }
    assert summary.failure_types["stopped_short"] == 2


def test_summary_does_not_depend_on_arrival_order() -> None:
    records = [
        _record(
            f"f-{i:03d}",
            k,
            passed=(i + k) % 3 == 0,
            final=i % 2 == 0 or (i + k) % 3 == 0,
            category=("control", "sequencing")[i % 2],
        )
        for i in range(30)
        for k in range(3)
    ]
    shuffled = records[:]
    random.Random(7).shuffle(shuffled)
    assert summarize(records, 3) == summarize(shuffled, 3)
    assert set(summarize(records, 3).pass_k) == {"1", "2", "3"}


def test_usage_totals_count_every_session_and_the_customer_apart() -> None:
    # An infrastructure error's calls were paid for: its tokens stay in the totals.
    scored = _record("a-1", 0, passed=True, final=True).model_copy(
        update={
            "prompt_tokens": 100,
            "completion_tokens": 10,
            "customer_prompt_tokens": 40,
            "customer_completion_tokens": 4,
            "cost_usd": 0.01,
            "customer_cost_usd": 0.002,
            "model_latency_s": 1.5,
        }
    )
    infra = _record("a-2", 0, passed=False, final=False).model_copy(
        update={"outcome": "infra_error", "prompt_tokens": 50, "completion_tokens": 5}
    )
    summary = summarize([scored, infra], trials=1)
    assert summary.tokens.model_dump() == {
        "prompt": 150,
        "completion": 15,
        "customer_prompt": 40,
        "customer_completion": 4,
    }
    assert summary.cost_usd == 0.01 and summary.customer_cost_usd == 0.002
    assert summary.model_latency_s == 1.5
    assert summary.sessions == 1 and summary.infra_errors == 1


def test_harness_errors_and_lost_sessions_count_as_failed_and_missing_ones_as_not_run() -> None:
    ok = _record("a-1", 0, passed=True, final=True)
    crashed = _record("a-2", 0, passed=False, final=False).model_copy(
        update={"outcome": "harness_error"}
    )
    lost = _record("a-3", 0, passed=False, final=False).model_copy(update={"outcome": "lost"})
    summary = summarize([ok, crashed, lost], trials=1, selected=4)
    assert (summary.passed, summary.sessions) == (1, 3)
    assert summary.accounting is not None
    assert summary.accounting.model_dump() == {
        "selected": 4,
        "scored": 1,
        "infra_errors": 0,
        "harness_errors": 1,
        "lost": 1,
        "not_run": 1,
    }
    assert summary.unaccounted == 3


def test_no_scored_session_is_not_a_measured_zero() -> None:
    from pytest_bankbench.report.gate import evaluate_gate, parse_gate
    from pytest_bankbench.report.terminal import render

    infra = _record("a-1", 0, passed=False, final=False).model_copy(
        update={"outcome": "infra_error"}
    )
    summary = summarize([infra], trials=1)
    prov = {"agent": {"model": "m"}, "customer": {"model": "scripted"}, "split": "lite"}
    lines = render(summary, prov, 1.0, [])
    assert "pass^1: n/a (no session was scored)" in lines
    result = evaluate_gate(parse_gate("pass^1>=0.0"), summary)
    assert not result.passed
    assert result.reasons == ["pass^1: no scored sessions, nothing measured: FAILED"]
    # And the JSON a dashboard reads says null, not a measured 0.0 (a third user trial).
    data = json.loads(summary.model_dump_json(by_alias=True))
    assert data["pass^1"] is None and data["pass^1_ci95"] is None
    assert data["final_state_only_rate"] is None and data["false_passes"]["share_of_all"] is None
    assert data["graded"]["pass_rate"] is None and data["control"]["ci95"] is None
    final = evaluate_gate(parse_gate("final_state>=0.0"), summary)
    assert not final.passed and "nothing measured" in final.reasons[0]
