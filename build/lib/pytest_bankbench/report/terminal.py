"""The run summary as text, printed after pytest's own."""

from __future__ import annotations

from typing import Any


def _pct(value: float) -> str:
    return f"{100 * value:5.1f}%"


def _table(title: str, rows: dict[str, Any]) -> list[str]:
    lines = [f"{title:<22} {'n':>5} {'pass^1':>7} {'final-state':>11} {'false-pass':>10}"]
    for name, row in rows.items():
        lines.append(
            f"  {name:<20} {row['sessions']:>5} {_pct(row['pass_rate']):>7} "
            f"{_pct(row['final_state_rate']):>11} {row['false_passes']:>10}"
        )
    return lines


def render(
    summary: dict[str, Any], provenance: dict[str, Any], wall_s: float, outputs: list[str]
) -> list[str]:
    """Lines of the summary; timings are the only thing that varies between identical runs."""
    low, high = summary["pass^1_ci95"]
    fp = summary["false_passes"]
    lines = [
        f"agent: {provenance['agent']['model']}   customer: {provenance['customer']['model']}   "
        f"split: {provenance['split']}   trials: {summary['trials']}",
        f"pass^1: {_pct(summary['pass^1'])}  ({summary['passed']}/{summary['sessions']} sessions,"
        f" 95% CI {_pct(low).strip()} - {_pct(high).strip()})",
        f"final-state-only rate: {_pct(summary['final_state_only_rate'])}",
        f"false passes: {fp['count']}  ({_pct(fp['share_of_all']).strip()} of all, "
        f"{_pct(fp['share_of_final_state_passes']).strip()} of final-state passes)",
    ]
    if summary["trials"] > 1:
        lines.append(
            "pass^k: "
            + "  ".join(f"k={k}: {_pct(v).strip()}" for k, v in summary["pass^k"].items())
        )
    if summary["infra_errors"]:
        lines.append(f"infrastructure errors (not task failures): {summary['infra_errors']}")
    graded, control = summary["graded"], summary["control"]
    lines.append(
        f"graded: {_pct(graded['pass_rate']).strip()} of {graded['sessions']}   "
        f"control: {_pct(control['pass_rate']).strip()} of {control['sessions']}"
    )
    lines.append("")
    lines += _table("by category", summary["by_category"])
    lines += _table("by service area", summary["by_service_area"])
    lines += _table("by gold-chain length", summary["by_chain_length"])
    lines.append("")
    lines.append(
        "failure types: " + ", ".join(f"{k}={v}" for k, v in summary["failure_types"].items())
    )
    tokens = summary["tokens"]
    cost = summary["cost_usd"]
    lines.append(
        f"tokens: prompt {tokens['prompt']}, completion {tokens['completion']}   "
        f"cost: {'n/a' if cost is None else f'${cost:.4f}'}   wall time: {wall_s:.1f}s"
    )
    lines += outputs
    return lines
