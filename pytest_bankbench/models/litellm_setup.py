"""litellm, imported lazily and set up once per process: no network at import, logs redacted.

litellm is imported lazily (4-5 s, ~195 MB) and only here, with the local price map so that
importing it touches no network and costs are reproducible.
"""

from __future__ import annotations

import contextlib
import gc
import logging
import os
import sys
import threading
import traceback
from typing import Any

from pytest_bankbench.redaction import redact_text


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


def unroutable(model: str) -> str | None:
    """Why litellm cannot route `model` to a provider (its own words, first line), or None
    when it can. litellm decides it from the string alone: no request is sent."""
    litellm = import_litellm()
    try:
        litellm.get_llm_provider(model)
    except Exception as exc:  # litellm.BadRequestError "LLM Provider NOT provided", or another
        said = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        return redact_text(said.removeprefix("litellm.BadRequestError: ").rstrip("."))
    return None


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
