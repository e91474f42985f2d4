"""The one seam to model providers: litellm, retries, error classes, response cache, usage.

litellm is imported lazily (4-5 s, ~195 MB) and only here, with the local price map so that
importing it touches no network and costs are reproducible. Retries are ours alone: the
provider SDK's own retries are off, so `--bank-num-retries N` means at most N + 1 requests.
"""

from __future__ import annotations

import contextlib
import gc
import hashlib
import json
import logging
import math
import os
import random
import sys
import threading
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from pytest_bankbench.models.errors import (
    BAD_REQUEST,
    MISSING_CREDENTIALS,
    ConfigurationError,
    ContextOverflow,
    DeadlineExceeded,
    EndpointDown,
    InfraError,
    ModelError,
    ModelFailure,
    UnconfirmedBadRequest,
    error_rule,
    provider_said,
    transport_cause,
    unusable_body,
)
from pytest_bankbench.redaction import redact_text, remember_secrets, secret_values
from pytest_bankbench.simulation.deadline import current_clock
from pytest_bankbench.simulation.trace import Usage

CompletionFn = Callable[..., Any]


class _RedactLogs(logging.Filter):
    """litellm logs provider errors (which may echo a key) before raising them: scrub them of
    every credential the process knows (redaction.remember_secrets)."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        if record.exc_info:
            message += "\n" + "".join(traceback.format_exception(*record.exc_info))
            record.exc_info, record.exc_text = None, None
        record.msg, record.args = redact_text(message), None
        return True


_SETUP_LOCK = threading.Lock()
_PREPARED: set[str] = set()


def import_litellm() -> Any:
    """litellm, imported on first use without network access at import."""
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    first = "litellm" not in sys.modules
    if first:
        # litellm's import leaves ~200 MB of long-lived objects. Collecting while they are
        # made only walks them again and again (0.7 s of its 3.9 s import), and after it every
        # full collection (and pytest's at exit) would too, which cost about a third of the
        # CPU of 1,000 concurrent one-call sessions (bench/concurrency.py): frozen instead.
        enabled = gc.isenabled()
        gc.disable()
        try:
            import litellm
        finally:
            gc.freeze()
            if enabled:
                gc.enable()
    import litellm

    # Its "Give Feedback" banner on every error would bury the benchmark's own messages.
    litellm.suppress_debug_info = True
    for name in ("LiteLLM", "LiteLLM Router", "LiteLLM Proxy"):
        logger = logging.getLogger(name)
        if not any(isinstance(f, _RedactLogs) for f in logger.filters):
            logger.addFilter(_RedactLogs())
    return litellm


def prepare_litellm(model: str) -> Any:
    """litellm with its one-time setup done, so no model call's latency includes it: the first
    completion of a process lazily imports about a second of modules. An offline mock call
    does that once per model."""
    litellm = import_litellm()
    with _SETUP_LOCK:
        if model not in _PREPARED:
            _PREPARED.add(model)
            # An unknown provider fails here, and again (classified) at the real call.
            with contextlib.suppress(Exception):
                litellm.completion(
                    model=model, messages=[{"role": "user", "content": "."}], mock_response="."
                )
    return litellm


def keep_connections(count: int) -> None:
    """Let up to `count` connections to an endpoint stay open between calls (--bank-concurrency).

    litellm's OpenAI-compatible path builds an httpx client with httpx's default limits, which
    keep 20 idle connections: with more sessions in flight, most calls opened a new connection
    (a TLS handshake each against a real endpoint; 1,000 for 1,000 calls in
    bench/concurrency.py). The client is litellm's documented `client_session`, built as litellm
    builds its own (same certificate settings); one a user set is left alone.
    """
    litellm = import_litellm()
    with _SETUP_LOCK:
        if litellm.client_session is not None:
            return
        import httpx

        try:  # litellm's own certificate settings (SSL_VERIFY, SSL_CERT_FILE, litellm.ssl_verify)
            from litellm.llms.custom_httpx.http_handler import get_ssl_configuration

            verify: Any = get_ssl_configuration()
        except Exception:  # an older or newer litellm: httpx's default verification
            verify = True
        limits = httpx.Limits(max_connections=None, max_keepalive_connections=max(count, 20))
        litellm.client_session = httpx.Client(verify=verify, follow_redirects=True, limits=limits)


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


class AnsweredModels:
    """The settings (model, endpoints, parameters) that answered a live call in this process.

    Shared by every client of the process (one per session), so "the first call" is the run's
    first, not each session's. A cached answer does not count: it proves nothing about the
    provider today.
    """

    def __init__(self) -> None:
        self._keys: set[str] = set()
        self._lock = threading.Lock()
        self._bad_requests: dict[str, set[str]] = {}  # settings -> tasks that got one unanswered

    @staticmethod
    def key(settings: ModelSettings) -> str:
        canonical = json.dumps(
            [settings.model, list(settings.api_bases), settings.params],
            sort_keys=True,
            default=str,
        )
        return hashlib.sha256(canonical.encode()).hexdigest()

    def add(self, settings: ModelSettings) -> None:
        with self._lock:
            self._keys.add(self.key(settings))

    def __contains__(self, settings: object) -> bool:
        if not isinstance(settings, ModelSettings):
            return False
        with self._lock:
            return self.key(settings) in self._keys

    def bad_request(self, settings: ModelSettings, task: str) -> bool:
        """Note that `task` got a bad request before these settings answered; True when another
        task already had one (the setup is to blame: stop the run)."""
        with self._lock:
            tasks = self._bad_requests.setdefault(self.key(settings), set())
            tasks.add(task)
            return len(tasks) > 1

    def clear(self) -> None:
        with self._lock:
            self._keys.clear()
            self._bad_requests.clear()


ANSWERED = AnsweredModels()


class TransportBreaker:
    """Transport failures in a row of each endpoint, shared by every client of the process.

    Issue 18: a dead endpoint used to cost every session its full retries. After `limit`
    failures in a row with no connection at all (refused, reset, DNS, timed out) no more
    requests go to it from this process: each session left ends at once as an infrastructure
    error, which --bank-resume re-runs. An answer resets the count; a rate limit or a 5xx
    neither counts nor resets. Calls already in flight when a failure is seen count with it
    as one, so one blip under --bank-concurrency 64 is not 64 failures in a row.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._streak: dict[str, int] = {}
        self._last_failure: dict[str, float] = {}
        self._down: dict[str, str] = {}

    def check(self, endpoint: str) -> None:
        """Raise EndpointDown when the endpoint's breaker has tripped."""
        with self._lock:
            down = self._down.get(endpoint)
        if down is not None:
            raise EndpointDown(down)

    def failed(self, endpoint: str, started: float, cause: str, limit: int) -> None:
        """A call started at `started` (time.monotonic) got no connection; may trip."""
        with self._lock:
            if started < self._last_failure.get(endpoint, -math.inf):
                return  # in flight when the last failure was seen: the same outage
            self._last_failure[endpoint] = time.monotonic()
            streak = self._streak.get(endpoint, 0) + 1
            self._streak[endpoint] = streak
            if limit and streak >= limit and endpoint not in self._down:
                self._down[endpoint] = (
                    f"{endpoint}: {streak} transport failures in a row (the last: {cause}); "
                    "no more requests go to it from this process "
                    f"(--bank-max-transport-failures {limit})"
                )

    def answered(self, endpoint: str) -> None:
        with self._lock:
            self._streak.pop(endpoint, None)

    def clear(self) -> None:
        with self._lock:
            self._streak.clear()
            self._last_failure.clear()
            self._down.clear()


BREAKER = TransportBreaker()

# Several --bank-api-base endpoints: one litellm Router per process and settings, so an
# endpoint that failed stays cooled down for every session, not just the one that saw it.
ROUTED_MODEL = "bank-model"
COOLDOWN_S = 5.0
_ROUTERS: dict[str, Any] = {}


def deployment_params(settings: ModelSettings) -> dict[str, Any]:
    """What every request of these settings carries besides the conversation: the model
    arguments (credentials included) and no SDK retries."""
    params: dict[str, Any] = {**settings.params, "max_retries": 0}
    if settings.api_bases and not os.environ.get("OPENAI_API_KEY"):
        # A self-hosted OpenAI-compatible server needs no key, but the client insists on one.
        params.setdefault("api_key", "no-key-needed")
    return params


def shared_router(settings: ModelSettings) -> Any:
    """The process's router over the settings' endpoints (built on first use).

    The model arguments live in each deployment, not in the call: litellm treats a key passed
    per call as the caller's own credential and then never cools an endpoint down.
    """
    fixed = deployment_params(settings)
    key = AnsweredModels.key(settings)
    with _SETUP_LOCK:
        router = _ROUTERS.get(key)
        if router is None:
            router = import_litellm().Router(
                model_list=[
                    {
                        "model_name": ROUTED_MODEL,
                        "litellm_params": {**fixed, "model": settings.model, "api_base": base},
                    }
                    for base in settings.api_bases
                ],
                num_retries=0,  # our retries only
                allowed_fails=0,  # one failure cools an endpoint down ...
                cooldown_time=COOLDOWN_S,  # ... for this long; the others take the traffic
                routing_strategy="simple-shuffle",
            )
            _ROUTERS[key] = router
    return router


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
                    self.breaker.failed(
                        endpoint, clock, cause, self.settings.max_transport_failures
                    )
                    self.breaker.check(endpoint)  # tripped: no retry, no back-off
                if attempt == retries:
                    self._remaining()  # a call cut short by the deadline: the deadline's
                    where = "" if cause is None else f"{cause}: {endpoint}; "
                    raise InfraError(f"{error} ({where}after {attempt + 1} attempts)") from None
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
