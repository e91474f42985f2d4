"""What every model client of a process shares: the settings that answered, the transport
breaker of each endpoint, the routers over several endpoints."""

from __future__ import annotations

import hashlib
import json
import math
import threading
import time
from typing import Any

from pytest_bankbench.models.errors import EndpointDown, causes_in_words
from pytest_bankbench.models.litellm_setup import _SETUP_LOCK, import_litellm
from pytest_bankbench.models.model_settings import ModelSettings, deployment_params


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
        self._causes: dict[str, dict[str, int]] = {}  # of the streak: cause -> how often
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
            causes = self._causes.setdefault(endpoint, {})
            causes[cause] = causes.get(cause, 0) + 1
            if limit and streak >= limit and endpoint not in self._down:
                self._down[endpoint] = (
                    f"{endpoint}: {streak} transport failures in a row "
                    f"({causes_in_words(causes)}); "
                    "no more requests go to it from this process "
                    f"(--bank-max-transport-failures {limit})"
                )

    def answered(self, endpoint: str) -> None:
        with self._lock:
            self._streak.pop(endpoint, None)
            self._causes.pop(endpoint, None)

    def clear(self) -> None:
        with self._lock:
            self._streak.clear()
            self._causes.clear()
            self._last_failure.clear()
            self._down.clear()


BREAKER = TransportBreaker()

# Several --bank-api-base endpoints: one litellm Router per process and settings, so an
# endpoint that failed stays cooled down for every session, not just the one that saw it.
ROUTED_MODEL = "bank-model"
COOLDOWN_S = 5.0
_ROUTERS: dict[str, Any] = {}


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
