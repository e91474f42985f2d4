"""One finished session as the report, the session log and the merge keep it."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict


class SessionRecord(BaseModel):
    """One finished session as the report keeps it."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    task_id: str
    trial: int
    seed: int
    family: str
    category: str
    service_area: str
    chain_length: int
    graded: bool
    # scored: the verdict counts; infra_error: the provider failed (re-run it later);
    # harness_error: an exception escaped the harness, bank or agent adapter; lost: the
    # session's worker died or the run stopped before it reported.
    outcome: Literal["scored", "infra_error", "harness_error", "lost"]
    passed: bool
    final_state_pass: bool
    false_pass: bool
    failure_type: str | None
    checks: dict[str, bool]
    evidence: dict[str, list[str]]
    end: str
    steps: int
    failed_calls: int
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost_usd: float | None = None
    duration_s: float = 0.0
    customer_prompt_tokens: int = 0
    customer_completion_tokens: int = 0
    customer_cost_usd: float | None = None
    model_latency_s: float = 0.0  # the agent model's calls, summed
    customer_latency_s: float = 0.0
    error: str | None = None  # the traceback of a harness_error, or why a session was lost
