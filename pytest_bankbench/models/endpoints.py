"""One cheap request to each endpoint before the first session (issue 18: fail fast, say where).

A run against an endpoint where nothing listens used to retry every session and then report
"InternalServerError: Connection error." a thousand times. Before the first session, each
`--bank-api-base` / `--bank-user-api-base` gets one `GET {base}/models`: a refused connection,
a host name that does not resolve, no connection within the timeout, a connection with no
answer within --bank-timeout, or a 401/403 to the key the run would send stops the run with one
line naming the option, the URL and the cause. Any other HTTP answer proves something listens
(many servers have no /models: a 404 will do); a TLS or protocol problem is left to the run's
own calls, which report it.

A server that accepts the connection but never answers used to pass (something listens) and
then cost the first session of each process all its attempts, each waiting --bank-timeout
(about 5 minutes with the defaults) before the transport breaker tripped. The run's own calls
give an answer --bank-timeout, so the check waits that long too (the connection itself still
CHECK_TIMEOUT_S at most): a server silent for that long cannot serve the run, and a slow one
(a scaled-to-zero endpoint waking up) is given as long as the run would give it.

Standard library only (urllib follows the proxy settings of the environment, as httpx does); a
hosted provider without an api base is not checked (its address is the provider's own).
"""

from __future__ import annotations

import json
import os
import ssl
import urllib.error
import urllib.request
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from pytest_bankbench.errors import BankBenchError
from pytest_bankbench.models.errors import ConfigurationError, socket_cause
from pytest_bankbench.models.model_settings import ModelSettings, deployment_params
from pytest_bankbench.redaction import redact_text, secret_values

# The longest a check waits for a connection (or --bank-timeout, when that is shorter).
CHECK_TIMEOUT_S = 10.0
# Providers that take the key as `Authorization: Bearer` (OpenAI-compatible servers). For
# another provider the check cannot present the key the way the run will, so its 401 says
# nothing and only the connection is judged.
BEARER_PROVIDERS = frozenset({"openai", "hosted_vllm", "openai_like", "lm_studio", "llamafile"})


@dataclass(frozen=True)
class Unreachable:
    """One endpoint that cannot serve the run: `option url: cause`."""

    option: str
    url: str
    cause: str
    fix: str

    def __str__(self) -> str:
        return f"{self.option} {self.url}: {self.cause}; {self.fix}"


def _bearer_key(settings: ModelSettings) -> str | None:
    """The key the run's requests present as a bearer token, when the check can know it."""
    provider = settings.model.split("/", 1)[0] if "/" in settings.model else "openai"
    if provider not in BEARER_PROVIDERS:
        return None
    key = deployment_params(settings).get("api_key")
    if key is None and provider == "openai":  # litellm's own fallback for OpenAI
        key = os.environ.get("OPENAI_API_KEY")
    return str(key) if key else None


def _said(body: bytes, known: tuple[str, ...]) -> str:
    """The server's own error message, one line, redacted, short."""
    try:
        data = json.loads(body)
        message = data["error"]["message"] if isinstance(data.get("error"), dict) else data
    except (ValueError, KeyError, TypeError, AttributeError):
        message = body.decode("utf-8", "replace")
    lines = str(message).strip().splitlines()
    text = redact_text(lines[0] if lines else "", known)
    return text[:197] + "..." if len(text) > 200 else text


class _Silent(BankBenchError):
    """Connected and asked, and no answer within the run's per-call timeout."""


def _answer(request: urllib.request.Request, connect_s: float, answer_s: float) -> Any:
    """The response to `request`: the connection within `connect_s`, the answer within
    `answer_s` (urllib has one timeout for both: a request that connected but timed out
    waiting is sent once more with the time left). Raises _Silent when no answer came."""
    try:
        return urllib.request.urlopen(request, timeout=connect_s)
    except TimeoutError:  # raised bare only once connected: a timed-out connection is a URLError
        if answer_s <= connect_s:
            raise _Silent from None
    try:
        return urllib.request.urlopen(request, timeout=answer_s - connect_s)
    except TimeoutError:
        raise _Silent from None


def probe(settings: ModelSettings, base: str) -> Unreachable | None:
    """Check one endpoint of these settings; None: it can be reached."""
    option = settings.option("base")
    key = _bearer_key(settings)
    known = tuple(secret_values(settings.params)) + ((key,) if key else ())
    request = urllib.request.Request(base.rstrip("/") + "/models", method="GET")
    if key is not None:
        request.add_header("Authorization", f"Bearer {key}")
    timeout = min(settings.timeout_s, CHECK_TIMEOUT_S)
    fix = f"start the server or correct {option}"
    try:
        with _answer(request, timeout, settings.timeout_s) as response:
            response.read(1)
    except _Silent:
        cause = (
            f"connected, but no answer to GET /models within {settings.timeout_s:g} s "
            "(--bank-timeout)"
        )
        return Unreachable(option, base, cause, "check the server, or raise --bank-timeout")
    except urllib.error.HTTPError as exc:
        if exc.code in (401, 403) and key is not None:
            said = _said(exc.read(), known)
            cause = f"authentication failed (HTTP {exc.code}: {said or exc.reason})"
            return Unreachable(option, base, cause, f"check the key in {settings.option('args')}")
        return None  # it answered: it listens
    except urllib.error.URLError as exc:
        reason = exc.reason
        if isinstance(reason, ssl.SSLError) or not isinstance(reason, OSError):
            return None  # TLS settings are litellm's to judge (SSL_VERIFY, certificates)
        cause = socket_cause(reason) or str(reason)
        if isinstance(reason, TimeoutError):
            cause = f"no connection within {timeout:g} s"
        return Unreachable(option, base, cause, fix)
    except (OSError, ValueError):
        # Connected, then slow or garbled (something listens), or a URL urllib cannot send.
        return None
    return None


def check_endpoints(models: Sequence[ModelSettings]) -> list[str]:
    """Check every endpoint of these settings; returns warnings (an endpoint down while another
    of the same option is up: the run fails over) and raises ConfigurationError when a model
    has no endpoint left or a key is refused."""
    warnings: list[str] = []
    fatal: list[str] = []
    for settings in models:
        down = [found for base in settings.api_bases if (found := probe(settings, base))]
        refused = [str(d) for d in down if d.cause.startswith("authentication failed")]
        if refused or len(down) == len(settings.api_bases):
            fatal.extend(refused or [str(d) for d in down])
        else:
            warnings.extend(f"{d}; the run goes on without it" for d in down)
    if fatal:
        raise ConfigurationError("endpoint check failed, run not started: " + " | ".join(fatal))
    return warnings
