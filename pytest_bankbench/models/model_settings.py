"""How to reach one model, and what its settings decide: the request's fixed parameters, the
error (naming the options to fix) that a provider exception becomes."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from pytest_bankbench.models.errors import (
    BAD_REQUEST,
    MISSING_CREDENTIALS,
    ConfigurationError,
    ContextOverflow,
    ModelError,
    ModelFailure,
    UnconfirmedBadRequest,
    error_rule,
    provider_said,
)
from pytest_bankbench.redaction import secret_values


@dataclass
class ModelSettings:
    """How to reach one model: name, endpoints, parameters, retries, timeouts, cache, prices."""

    model: str
    api_bases: tuple[str, ...] = ()
    params: dict[str, Any] = field(default_factory=dict)
    num_retries: int = 3
    backoff_s: float = 1.0
    cache_dir: Path | None = None
    prices: dict[str, float] | None = None  # input/output cost per token, for self-hosted models
    timeout_s: float = 60.0  # each attempt
    session_deadline_s: float | None = None  # wall time of one session, all its calls
    max_transport_failures: int = 5  # in a row against the endpoint, then no more calls; 0: off
    role: Literal["agent", "customer"] = "agent"  # whose options an error message names
    # What names the endpoint in the response cache's keys (None: api_bases); a managed local
    # server's address changes every run, its model does not.
    cache_scope: tuple[str, ...] | None = None

    def option(self, what: Literal["model", "args", "base"]) -> str:
        """The command-line option that sets `what` for this role."""
        prefix = "--bank-user-" if self.role == "customer" else "--bank-"
        return prefix + {"model": "model", "args": "model-args", "base": "api-base"}[what]

    @property
    def endpoint(self) -> str:
        """The endpoint(s) as the command line named them, for messages and the breaker."""
        if self.api_bases:
            return f"{self.option('base')} {', '.join(self.api_bases)}"
        return f"{self.option('model')} {self.model}"


def classify(
    exc: BaseException, answered: bool, settings: ModelSettings | None = None
) -> ModelError | None:
    """Our error for a provider exception, with a short redacted message; `answered`: these
    settings answered a live call in this process."""
    rule = error_rule(exc)
    if rule is None:
        return None
    outcome = rule.outcome
    unconfirmed = outcome == BAD_REQUEST and not answered
    if outcome == BAD_REQUEST:
        outcome = ModelFailure if answered else ConfigurationError
    name = type(exc).__name__
    if rule.text is MISSING_CREDENTIALS:
        name = "missing credentials"
    said = provider_said(exc, secret_values(settings.params) if settings else ())
    if outcome is ContextOverflow:
        return ContextOverflow(f"context window exceeded: {name}: {said}")
    if outcome is not ConfigurationError:
        return outcome(f"{name}: {said}")
    settings = settings or ModelSettings(model="(unknown)")
    fix = rule.fix.format(
        model=settings.option("model"), args=settings.option("args"), base=settings.option("base")
    )
    stop = ConfigurationError(f"{name}: {settings.model}: {said.rstrip('.')}; {fix}")
    if unconfirmed:
        return UnconfirmedBadRequest(
            f"{name}: {said.rstrip('.')} (a bad request before {settings.model} answered any "
            "call; the run stops if another task gets one too)",
            stop,
        )
    return stop


def deployment_params(settings: ModelSettings) -> dict[str, Any]:
    """What every request of these settings carries besides the conversation: the model
    arguments (credentials included) and no SDK retries."""
    params: dict[str, Any] = {**settings.params, "max_retries": 0}
    if settings.api_bases and not os.environ.get("OPENAI_API_KEY"):
        # A self-hosted OpenAI-compatible server needs no key, but the client insists on one.
        params.setdefault("api_key", "no-key-needed")
    return params
