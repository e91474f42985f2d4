"""The one seam to model providers: litellm, retries, error classes, response cache, usage.

litellm is imported lazily (4-5 s, ~195 MB) and only here, with the local price map so that
importing it touches no network and costs are reproducible.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, TypeAlias

from pytest_bankbench.simulation.trace import Usage

CompletionFn = Callable[..., Any]


class ModelError(Exception):
    """Base of the provider errors the harness tells apart."""


class ConfigurationError(ModelError):
    """The run cannot work at all (authentication, unknown model, a bad setup): stop the run."""


class InfraError(ModelError):
    """Transient provider trouble that outlasted the retries: not the agent's failure."""


class ModelFailure(ModelError):
    """The model's own failure (a bad request, a content-filter refusal): the session ends with
    error, scored against the model that failed; never retried."""


class ContextOverflow(ModelFailure):
    """The conversation no longer fits the model's context window: the agent's failure."""


def import_litellm() -> Any:
    """litellm, imported on first use without network access at import."""
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    import litellm

    # Its "Give Feedback" banner on every error would bury the benchmark's own messages.
    litellm.suppress_debug_info = True
    return litellm


# A bad request is the setup's fault until these settings have answered a live call in this
# process (then it stops the run); after that it is the model's failure (the session's error).
BAD_REQUEST: Literal["bad request"] = "bad request"
Outcome: TypeAlias = type[ModelError] | Literal["bad request"]

# THE classification of provider errors: litellm exception class name -> what it means.
# The first entry the exception is an instance of wins, so subclasses come before their bases
# (ContentPolicyViolationError, ContextWindowExceededError, ... all subclass BadRequestError).
#   InfraError         transport, rate-limit and server trouble: retried, then InfraError
#   ModelFailure       the model's failure: not retried, the session ends with error
#   ConfigurationError the run cannot work: not retried, the run stops
#   BAD_REQUEST        ConfigurationError before the first live answer, ModelFailure after
# Anything else that litellm (or openai) raises is classified by its HTTP status: see _by_status.
ERROR_TABLE: tuple[tuple[str, Outcome], ...] = (
    ("ContentPolicyViolationError", ModelFailure),  # a refusal on one task's content, even first
    ("RejectedRequestError", ModelFailure),  # a guardrail rejected this request's content
    ("ContextWindowExceededError", ContextOverflow),
    ("AuthenticationError", ConfigurationError),
    ("PermissionDeniedError", ConfigurationError),
    ("NotFoundError", ConfigurationError),  # unknown model
    ("PaymentRequiredError", ConfigurationError),  # out of credit: no retry will help
    ("LiteLLMUnknownProvider", ConfigurationError),
    ("UnsupportedParamsError", ConfigurationError),
    ("BadRequestError", BAD_REQUEST),
    ("UnprocessableEntityError", BAD_REQUEST),
    ("RateLimitError", InfraError),
    ("Timeout", InfraError),
    ("APIConnectionError", InfraError),
    ("InternalServerError", InfraError),
    ("ServiceUnavailableError", InfraError),
    ("BadGatewayError", InfraError),
)


def _by_status(status: int | None) -> Outcome:
    """A provider error outside the table, by HTTP status (openai's own retry rule for infra)."""
    if status in (401, 402, 403, 404):
        return ConfigurationError
    if status is not None and 400 <= status < 500 and status not in (408, 409, 429):
        return BAD_REQUEST
    return InfraError  # 408, 409, 429, 5xx, or no status (transport trouble)


def error_outcome(exc: BaseException) -> Outcome | None:
    """What a provider exception means (see ERROR_TABLE); None: not a provider error (a bug)."""
    litellm = import_litellm()
    for name, outcome in ERROR_TABLE:
        cls = getattr(litellm.exceptions, name, None)
        if cls is not None and isinstance(exc, cls):
            return outcome
    import openai  # litellm's own dependency; every litellm provider error subclasses its APIError

    if isinstance(exc, openai.APIError):
        return _by_status(getattr(exc, "status_code", None))
    return None


def classify(exc: BaseException, answered: bool) -> ModelError | None:
    """Our error for a provider exception; `answered`: these settings answered a live call."""
    outcome = error_outcome(exc)
    if outcome is None:
        return None
    if outcome == BAD_REQUEST:
        outcome = ModelFailure if answered else ConfigurationError
    detail = f"{type(exc).__name__}: {exc}"
    if outcome is ContextOverflow:
        detail = f"context window exceeded: {detail}"
    return outcome(detail)


@dataclass
class ModelSettings:
    """How to reach one model: name, endpoints, parameters, retries, cache, prices."""

    model: str
    api_bases: tuple[str, ...] = ()
    params: dict[str, Any] = field(default_factory=dict)
    num_retries: int = 3
    backoff_s: float = 1.0
    cache_dir: Path | None = None
    prices: dict[str, float] | None = None  # input/output cost per token, for self-hosted models
    timeout_s: float = 120.0


class AnsweredModels:
    """The settings (model, endpoints, parameters) that answered a live call in this process.

    Shared by every client of the process (one per session), so "the first call" is the run's
    first, not each session's. A cached answer does not count: it proves nothing about the
    provider today.
    """

    def __init__(self) -> None:
        self._keys: set[str] = set()
        self._lock = threading.Lock()

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

    def clear(self) -> None:
        with self._lock:
            self._keys.clear()


ANSWERED = AnsweredModels()


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
    """Chat completions with retries, classification, caching and usage accounting."""

    def __init__(
        self,
        settings: ModelSettings,
        completion: CompletionFn | None = None,
        sleep: Callable[[float], None] = time.sleep,
        answered: AnsweredModels | None = None,
    ) -> None:
        self.settings = settings
        # Run-wide (per process) memory of which settings work; a test may pass its own.
        self.answered = ANSWERED if answered is None else answered
        self._completion = completion
        self._sleep = sleep
        self.cache = ResponseCache(settings.cache_dir) if settings.cache_dir else None
        self.calls = 0
        self.attempts = 0
        self.usage = Usage()

    def _call(self) -> CompletionFn:
        if self._completion is None:
            litellm = import_litellm()
            if len(self.settings.api_bases) > 1:
                router = litellm.Router(
                    model_list=[
                        {
                            "model_name": "bank-model",
                            "litellm_params": {"model": self.settings.model, "api_base": b},
                        }
                        for b in self.settings.api_bases
                    ],
                    num_retries=0,
                    routing_strategy="simple-shuffle",
                )

                def routed(**kwargs: Any) -> Any:
                    kwargs["model"] = "bank-model"
                    return router.completion(**kwargs)

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

    def complete(
        self, messages: list[dict[str, Any]], tools: list[dict[str, Any]] | None = None
    ) -> dict[str, Any]:
        """One chat completion as a plain dict; raises a ModelError subclass on provider trouble."""
        request = self.request(messages, tools)
        key = ResponseCache.key(request) if self.cache else ""
        if self.cache is not None and (hit := self.cache.get(key)) is not None:
            self._account(hit, 0.0, cached=True)
            return hit
        self.calls += 1
        kwargs = dict(request)
        if len(self.settings.api_bases) == 1:
            kwargs["api_base"] = self.settings.api_bases[0]
        if self.settings.api_bases and not os.environ.get("OPENAI_API_KEY"):
            # A self-hosted OpenAI-compatible server needs no key, but the client insists on one.
            kwargs.setdefault("api_key", "no-key-needed")
        kwargs.setdefault("timeout", self.settings.timeout_s)
        for attempt in range(self.settings.num_retries + 1):
            self.attempts += 1
            started = time.perf_counter()
            try:
                raw = self._call()(**kwargs)
            except Exception as exc:
                error = classify(exc, answered=self.settings in self.answered)
                if error is None:
                    raise
                if not isinstance(error, InfraError):
                    raise error from exc  # never retried: it would fail the same way
                if attempt == self.settings.num_retries:
                    raise InfraError(f"{error} (after {attempt + 1} attempts)") from exc
                self._sleep(self.settings.backoff_s * (2**attempt) * (1 + random.random() / 4))
                continue
            self.answered.add(self.settings)
            response = raw if isinstance(raw, dict) else raw.model_dump()
            response["_cost_usd"] = self._cost(raw)
            self._account(response, time.perf_counter() - started, cached=False)
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
