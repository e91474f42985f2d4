"""The root of every exception the project raises (issue 11, item 3): `except BankBenchError`.

The branches, each defined beside the code that raises it:

- bank/errors.py       ToolError: the bank refused a call; the session turns it into a tool
                       result the agent reads.
- models/errors.py     ModelError: a provider error, told apart as ConfigurationError (stop the
                       run), InfraError (see below) or ModelFailure (the agent's failure).
- models/local.py      LocalModelError: the local model cannot be started.
- simulation/session.py AgentError, CustomerError: a party could not move; the session ends.
                       NotAnAction: an agent's act() returned no AgentAction (its code's bug:
                       a harness error, no verdict).
- simulation/bounded.py MoveAbandoned: a move outlasted the session deadline (a DeadlineExceeded).
- tasks/               TaskFileError (a task file that cannot be read), GoldReplayError (a gold
                       chain that does not replay: the task is broken).
- report/              ReportError, ReportLocked, ResumeError, MergeError: a report, a session
                       log or shards that cannot be read, written, resumed or merged.
- run/inflight.py      Cancelled: the run stopped before a background session finished.
- scoring/failures.py  CheckFailed: a benchmark check failed; also an AssertionError, so pytest
                       shows it as a plain test failure with its evidence. SessionFailed groups
                       several (an ExceptionGroup too).

Warnings (prefetch.ConcurrencyWarning) stay in pytest's PytestWarning tree.

Classes that callers caught by a builtin base before (ValueError, RuntimeError, AssertionError)
keep that base beside this one, so every `except` that caught them still does.

Infrastructure failure has one name, InfraError (defined here, raised from models/), from the
provider call to the summary:

    provider exception (litellm / openai)
      -> models.errors.ERROR_TABLE classifies it as InfraError; retried, then raised
         (EndpointDown, a subclass, at once when the endpoint failed too often in a row:
         models/process_state.py; a session past --bank-session-deadline is no outage but the agent's
         failure, DeadlineExceeded, ending deadline_exceeded: simulation/deadline.py)
      -> the session ends with trace end "infra_error"            (simulation/session.py;
         so does a customer model's own failure, CustomerError: no verdict on the agent)
      -> the plugin raises InfraError in the test                 (plugin/bench.py)
      -> the session record's outcome is "infra_error"  (run/play.record_of, report/metrics.py)
      -> the summary counts it in "infra_errors", apart from task failures.

"infra_error" and "infra_errors" are data values of traces and reports and stay as they are.
"""

from __future__ import annotations

from typing import Any


def json_kind(value: Any) -> str:
    """A JSON value's kind as an error message names it: `a list`, `null`, `a string`."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    return "a list" if isinstance(value, list) else "an object"


class BankBenchError(Exception):
    """Base of every exception pytest-bankbench raises."""


class ModelError(BankBenchError):
    """Base of the provider errors the harness tells apart; the text is short and redacted.

    Its branches live in models/errors.py; it and InfraError sit here, at the root, because the
    session (simulation/) catches InfraError below the model parties that raise it."""


class InfraError(ModelError):
    """Transient provider trouble that outlasted the retries: not the agent's failure.

    The one name of an infrastructure failure, from the provider call to the summary (the path
    is written out above)."""
