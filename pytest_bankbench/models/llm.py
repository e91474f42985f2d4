"""The one seam to model providers: the client's retries, response cache and usage.

Retries are ours alone: the provider SDK's own retries are off, so `--bank-num-retries N` means
at most N + 1 requests. litellm is imported and set up in models/litellm_setup.py.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pytest_bankbench.models.errors import (
    DeadlineExceeded,
    InfraError,
    ModelFailure,
    UnconfirmedBadRequest,
    causes_in_words,
    error_rule,
    transport_cause,
    unusable_body,
)
from pytest_bankbench.models.litellm_setup import import_litellm, prepare_litellm
from pytest_bankbench.models.model_settings import ModelSettings, classify, deployment_params
from pytest_bankbench.models.process_state import (
    ANSWERED,
    BREAKER,
    ROUTED_MODEL,
    AnsweredModels,
    TransportBreaker,
    shared_router,
)
from pytest_bankbench.redaction import redact_text, remember_secrets, secret_values
from pytest_bankbench.simulation.deadline import current_clock
from pytest_bankbench.simulation.trace import Usage

CompletionFn = Callable[..., Any]


class ResponseCache:
    """sha256 of the canonical request -> the response; atomic writes, safe for many processes."""

    def __init__(self, root: Path) -> None:
        self.root = root
        root.mkdir(parents=True, exist_ok=True)

    @staticmethod
    def key(request: dict[str, Any]) -> str:
        canonical = json.dumps(request, sort_keys=True, ensure_ascii=False, default=str)
        return hashlib.sha256(canonical.encode()).hexdigest()

    def get(self, key: str) -> dict[str, Any] | None:
        path = self.root / key[:2] / f"{key}.json"
        try:
            data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
        except (FileNotFoundError, json.JSONDecodeError):
            return None
        return data

    def put(self, key: str, response: dict[str, Any]) -> None:
        folder = self.root / key[:2]
        folder.mkdir(parents=True, exist_ok=True)
        tmp = folder / f".{key}.{os.getpid()}.{random.random():.6f}.tmp"
        tmp.write_text(json.dumps(response, ensure_ascii=False), encoding="utf-8")
        os.replace(tmp, folder / f"{key}.json")


class ModelClient:
    """Chat completions with retries, classification, caching and usage accounting.

    One client per session and role; `trial` keeps each trial's cached answers its own (a
    cached trial 1 standing in for trial 2 would make pass^k equal pass^1 by construction).
    """

    def __init__(
        self,
        settings: ModelSettings,
        completion: CompletionFn | None = None,
        sleep: Callable[[float], None] = time.sleep,
        answered: AnsweredModels | None = None,
        trial: int = 0,
        breaker: TransportBreaker | None = None,
        task: str = "",
    ) -> None:
        self.settings = settings
        self.task = task  # whose session: a bad request stops the run only from a second task
        self.secrets = secret_values(settings.params)
        remember_secrets(self.secrets)
        # Run-wide (per process) memory of which settings work; a test may pass its own.
        self.answered = ANSWERED if answered is None else answered
        self.breaker = BREAKER if breaker is None else breaker
        self.trial = trial
        self._completion = completion
        self._sleep = sleep
        self.cache = ResponseCache(settings.cache_dir) if settings.cache_dir else None
        self.calls = 0
        self.attempts = 0
        self.usage = Usage()
        self.started: float | None = None  # the session's clock, for the deadline

    def prepare(self) -> None:
        """litellm imported and set up now (5-20 s in a fresh process), before the session: its
        duration and deadline count the session's own work only (issue 19: a process's first
        session took 42.7 s against 0.4 s)."""
        self._call()

    def start_clock(self) -> None:
        """The session starts now: --bank-session-deadline counts from here, after the one-time
        import and setup (5-20 s in a fresh process), which are not the session's time."""
        self._call()
        self.started = time.monotonic()

    def _call(self) -> CompletionFn:
        """The completion function, with litellm imported and prepared (never inside a timer)."""
        if self._completion is None:
            litellm = prepare_litellm(self.settings.model)
            if len(self.settings.api_bases) > 1:
                router = shared_router(self.settings)
                fixed = deployment_params(self.settings)

                def routed(**kwargs: Any) -> Any:
                    call = {k: v for k, v in kwargs.items() if k not in fixed}
                    return router.completion(**{**call, "model": ROUTED_MODEL})

                self._completion = routed
            else:
                self._completion = litellm.completion
        return self._completion

    def request(
        self, messages: list[dict[str, Any]], tools: list[dict[str, Any]] | None = None
    ) -> dict[str, Any]:
        params = {"temperature": 0, **self.settings.params}
        request: dict[str, Any] = {"model": self.settings.model, "messages": messages, **params}
        if tools:
            request["tools"] = tools
        return request

    def _remaining(self) -> float | None:
        """Seconds left before the session deadline (None: no deadline); raises past it."""
        deadline = self.settings.session_deadline_s
        if deadline is None:
            return None
        clock = current_clock()
        if clock is not None:  # a session's clock: the whole session, stalls charged apart
            return clock.left()
        if self.started is None:
            self.start_clock()
        assert self.started is not None
        left = deadline - (time.monotonic() - self.started)
        if left <= 0:
            raise DeadlineExceeded(
                f"session deadline of {deadline:g} s passed (--bank-session-deadline)"
            )
        return left

    def complete(
        self, messages: list[dict[str, Any]], tools: list[dict[str, Any]] | None = None
    ) -> dict[str, Any]:
        """One chat completion as a plain dict; raises a ModelError subclass on provider trouble."""
        request = self.request(messages, tools)
        # The endpoint too: two servers behind one model name never share an answer (issue 19).
        scope = self.settings.cache_scope
        endpoints = list(self.settings.api_bases if scope is None else scope)
        cached = {"trial": self.trial, "endpoints": endpoints, "request": request}
        key = ResponseCache.key(cached) if self.cache else ""
        if self.cache is not None and (hit := self.cache.get(key)) is not None:
            self._account(hit, 0.0, cached=True)
            return hit
        self.calls += 1
        call = self._call()
        kwargs = {**deployment_params(self.settings), **request}  # the SDK retries: off
        if len(self.settings.api_bases) == 1:
            kwargs["api_base"] = self.settings.api_bases[0]
        retries = self.settings.num_retries
        endpoint = self.settings.endpoint
        causes: dict[str, int] = {}  # the transport failures of these attempts, in order
        for attempt in range(retries + 1):
            left = self._remaining()
            kwargs["timeout"] = (
                self.settings.timeout_s if left is None else min(self.settings.timeout_s, left)
            )
            self.breaker.check(endpoint)
            self.attempts += 1
            started, clock = time.perf_counter(), time.monotonic()
            try:
                raw = call(**kwargs)
            except Exception as exc:
                unusable = unusable_body(exc) if error_rule(exc) is not None else None
                if unusable is not None:
                    # HTTP 200 with a body the provider library cannot convert: what the model
                    # sent, so the model's failure; retrying would only buy the same body.
                    self.answered.add(self.settings)
                    self.breaker.answered(endpoint)
                    raise ModelFailure(redact_text(unusable, self.secrets)) from None
                error = classify(exc, self.settings in self.answered, self.settings)
                if error is None:
                    raise
                if isinstance(error, UnconfirmedBadRequest):
                    self.breaker.answered(endpoint)
                    if self.answered.bad_request(self.settings, self.task):
                        raise error.stop from None
                    raise error from None
                if not isinstance(error, InfraError):
                    self.breaker.answered(endpoint)  # an HTTP answer: the endpoint is up
                    raise error from None  # never retried: it would fail the same way
                cause = transport_cause(exc)
                if cause is not None:
                    causes[cause] = causes.get(cause, 0) + 1
                    self.breaker.failed(
                        endpoint, clock, cause, self.settings.max_transport_failures
                    )
                    self.breaker.check(endpoint)  # tripped: no retry, no back-off
                if attempt == retries:
                    self._remaining()  # a call cut short by the deadline: the deadline's
                    where = f"{causes_in_words(causes)}: {endpoint}; " if causes else ""
                    tries = f"{attempt + 1} attempt{'s' if attempt else ''}"
                    raise InfraError(f"{error} ({where}after {tries})") from None
                delay = self.settings.backoff_s * (2**attempt) * (1 + random.random() / 4)
                left = self._remaining()
                self._sleep(delay if left is None else min(delay, left))
                continue
            latency = time.perf_counter() - started
            self.answered.add(self.settings)
            self.breaker.answered(endpoint)
            response = raw if isinstance(raw, dict) else raw.model_dump()
            response["_cost_usd"] = self._cost(raw)
            self._account(response, latency, cached=False)
            if self.cache is not None:
                self.cache.put(key, response)
            return response
        raise AssertionError("unreachable")  # pragma: no cover

    def _cost(self, raw: Any) -> float | None:
        usage = (raw.get("usage") if isinstance(raw, dict) else getattr(raw, "usage", None)) or {}

        def tokens(name: str) -> int:
            value = usage.get(name) if isinstance(usage, dict) else getattr(usage, name, 0)
            return int(value or 0)

        prices = self.settings.prices
        if prices is not None:
            return float(
                tokens("prompt_tokens") * prices.get("input_cost_per_token", 0.0)
                + tokens("completion_tokens") * prices.get("output_cost_per_token", 0.0)
            )
        if isinstance(raw, dict):
            return None
        hidden = getattr(raw, "_hidden_params", None)
        if isinstance(hidden, dict) and "response_cost" in hidden:
            # litellm priced the response already (None: a model it has no price for); pricing
            # it again cost ~1 ms a call, ~2 ms for an unknown model's name search.
            priced = hidden["response_cost"]
            return None if priced is None else float(priced)
        try:
            cost: float = import_litellm().completion_cost(completion_response=raw)
            return float(cost)
        except Exception:  # litellm raises for models it has no price for (self-hosted)
            return None

    def _account(self, response: dict[str, Any], latency: float, cached: bool) -> None:
        usage = response.get("usage") or {}
        cost = None if cached else response.get("_cost_usd")
        old = self.usage
        total = old.cost_usd
        if cost is not None:
            total = (total or 0.0) + float(cost)
        self.usage = Usage(
            prompt_tokens=old.prompt_tokens + int(usage.get("prompt_tokens") or 0),
            completion_tokens=old.completion_tokens + int(usage.get("completion_tokens") or 0),
            cost_usd=total,
            model_calls=old.model_calls + (0 if cached else 1),
            cache_hits=old.cache_hits + (1 if cached else 0),
            latencies_s=(*old.latencies_s, round(latency, 4)) if not cached else old.latencies_s,
        )
