"""One finished session as the report, the session log and the merge keep it."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, StrictBool, StrictInt, model_validator


def _not_a_json_number(name: str) -> float:
    raise ValueError(f"{name} is not a number a report may hold (JSON has no NaN or Infinity)")


def load_json(text: str) -> Any:
    """JSON as reports and session logs are written: Python's reader takes NaN and Infinity,
    which no report of ours holds and which would flow into a merge's summary (issue 19)."""
    return json.loads(text, parse_constant=_not_a_json_number)


class SessionRecord(BaseModel):
    """One finished session as the report keeps it."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    # Strict: a report holds JSON true/false and whole numbers; "yes" or "3" in one was written
    # by hand or by another tool, and read as a verdict it is a guess (user trial).
    task_id: str
    trial: StrictInt
    seed: StrictInt
    family: str
    category: str
    service_area: str
    chain_length: StrictInt
    graded: StrictBool
    # scored: the verdict counts; infra_error: the provider failed (re-run it later);
    # harness_error: an exception escaped the harness, bank or agent adapter; lost: the
    # session's worker died or the run stopped before it reported.
    outcome: Literal["scored", "infra_error", "harness_error", "lost"]
    passed: StrictBool
    # None: no verdict to tell (an infrastructure error); a harness error or a lost session
    # counts as failed, so it holds False.
    final_state_pass: StrictBool | None
    false_pass: StrictBool | None
    failure_type: str | None
    checks: dict[str, StrictBool]
    evidence: dict[str, list[str]]
    end: str
    steps: StrictInt
    failed_calls: StrictInt
    prompt_tokens: StrictInt = 0
    completion_tokens: StrictInt = 0
    cost_usd: float | None = None
    duration_s: float = 0.0
    customer_prompt_tokens: StrictInt = 0
    customer_completion_tokens: StrictInt = 0
    customer_cost_usd: float | None = None
    model_latency_s: float = 0.0  # the agent model's calls, summed
    customer_latency_s: float = 0.0
    # the traceback of a harness_error, why a session was lost, or what the provider did
    # (an infra_error: `RateLimitError: ... (after 3 attempts)`)
    error: str | None = None

    @model_validator(mode="before")
    @classmethod
    def _an_infra_error_has_no_verdict(cls, data: Any) -> Any:
        """An infrastructure error was never scored: it claims no final-state pass, no false
        pass, no failure type, no checks and no evidence, only the provider's error (reports
        and logs written before this held what its unplayed session scored, and the error as
        the `ended_normally` evidence line)."""
        if not isinstance(data, dict) or data.get("outcome") != "infra_error":
            return data
        error = data.get("error")
        if not error:
            lines = (data.get("evidence") or {}).get("ended_normally") or ["infra_error"]
            error = str(lines[0]).removeprefix("ended by infra_error: ")
        return {
            **data,
            "final_state_pass": None,
            "false_pass": None,
            "failure_type": None,
            "checks": {},
            "evidence": {},
            "error": error,
        }

    @model_validator(mode="after")
    def _a_pass_is_a_pass(self) -> SessionRecord:
        """A tampered record cannot claim a pass its own checks deny (issue 19)."""
        if self.outcome != "infra_error" and None in (self.final_state_pass, self.false_pass):
            raise ValueError(
                f"session {self.task_id} trial {self.trial} has outcome {self.outcome!r} but no "
                "final_state_pass or false_pass (only an infrastructure error has none)"
            )
        if self.passed:
            failed = sorted(name for name, ok in self.checks.items() if not ok)
            if failed:
                raise ValueError(
                    f"session {self.task_id} trial {self.trial} is recorded as passed while its "
                    f"checks failed: {', '.join(failed)}"
                )
            if self.failure_type is not None or self.outcome != "scored":
                raise ValueError(
                    f"session {self.task_id} trial {self.trial} is recorded as passed with "
                    f"outcome {self.outcome!r} and failure type {self.failure_type!r}"
                )
        return self


def foreign_session(
    records: Iterable[SessionRecord], trials: object, task_ids: object = None
) -> str | None:
    """Why the first record that is no session of its run is not (None: all are): a trial beyond
    the run's --bank-trials, or a task its task file does not hold (issue 19). `trials` is the
    run configuration's, `task_ids` the provenance's; either is skipped when not recorded."""
    count = trials if isinstance(trials, int) and not isinstance(trials, bool) else None
    known = set(task_ids) if isinstance(task_ids, list) else None
    for r in records:
        if count is not None and not 0 <= r.trial < count:
            return (
                f"session {r.task_id} trial {r.trial}: the run played trials 0 to {count - 1} "
                f"(--bank-trials {count}); a report holding another was altered"
            )
        if known is not None and r.task_id not in known:
            return (
                f"session {r.task_id} trial {r.trial}: task {r.task_id!r} is not in the run's "
                "task file; a report holding it was altered"
            )
    return None
