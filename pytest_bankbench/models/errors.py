"""Provider errors told apart: whose fault each is, in one table, with short redacted messages.

An error is the run's (ConfigurationError: stop at once), the provider's (InfraError: retried,
then counted apart from task failures) or the model's (ModelFailure: the session's agent_error).
Anything the table does not know is a bug and surfaces as a harness error.
"""

from __future__ import annotations

import importlib
import json
import re
import socket
from collections.abc import Mapping
from typing import Literal, NamedTuple, TypeAlias

from pytest_bankbench.errors import InfraError as InfraError
from pytest_bankbench.errors import ModelError as ModelError
from pytest_bankbench.redaction import redact_text
from pytest_bankbench.simulation.deadline import DeadlineExceeded as DeadlineExceeded


class ConfigurationError(ModelError):
    """The run cannot work at all (authentication, unknown model, a bad setup): stop the run."""


class EndpointDown(InfraError):
    """An endpoint failed at the transport level too often in a row (--bank-max-transport-failures):
    this process sends it no more requests, so each session left fails at once (issue 18)."""


class ModelFailure(ModelError):
    """The model's own failure (a bad request, a content-filter refusal): the session ends with
    error, scored against the model that failed; never retried."""


class ContextOverflow(ModelFailure):
    """The conversation no longer fits the model's context window: the agent's failure."""


class UnconfirmedBadRequest(ModelError):
    """A bad request before these settings answered any live call: this session's harness
    error (neither the model's failure nor infrastructure). When a second, different task gets
    one too, the setup is to blame and `stop` ends the run (issue 19: a bad request tied to one
    task stopped the whole run when it happened to be a worker's first call)."""

    def __init__(self, message: str, stop: ConfigurationError) -> None:
        super().__init__(message)
        self.stop = stop


# A bad request is the setup's fault until these settings have answered a live call in this
# process (a first one is its session's harness error, one of a second task stops the run);
# after that it is the model's failure (the session's error).
BAD_REQUEST: Literal["bad request"] = "bad request"
Outcome: TypeAlias = type[ModelError] | Literal["bad request"]

# Words that tell what an error is whatever class litellm gave it (it maps by provider and text).
MISSING_CREDENTIALS = re.compile(
    r"missing\b[^.]{0,40}\b(credentials?|api[ _-]?key)\b|api_key client option must be set"
    r"|unable to locate credentials|no api key",
    re.IGNORECASE,
)
CONTENT_FILTER = re.compile(
    r"content[ _-]?(filter|policy|management)|safety system|responsible ?ai|flagged by",
    re.IGNORECASE,
)
CONTEXT_FULL = re.compile(
    r"context[ _-](length|window)|maximum context|prompt is too long", re.IGNORECASE
)

# litellm's own refusal of a model string it cannot route (raised locally, before a request).
NO_PROVIDER = re.compile(r"LLM Provider NOT provided", re.IGNORECASE)
PROVIDER_FIX = (
    "give {model} as provider/model (e.g. openai/<name> for an OpenAI-compatible server, "
    "hosted_vllm/<name>, anthropic/<name>) or a model name litellm knows (e.g. gpt-4o-mini)"
)


class Rule(NamedTuple):
    """One row of ERROR_TABLE: an exception class (litellm's, or module-qualified), an optional
    pattern its text must match, what it means, and for a configuration error how to fix it."""

    name: str
    text: re.Pattern[str] | None
    outcome: Outcome
    fix: str = ""


_KEY_FIX = "set the provider's key (e.g. OPENAI_API_KEY) or api_key in {args}"

# THE classification of provider errors. The first rule the exception is an instance of (and
# whose text matches, if it has a pattern) wins: subclasses come before their bases.
#   InfraError         transport, rate-limit and server trouble: retried, then InfraError
#   ModelFailure       the model's failure on this task's content: not retried, the session
#                      ends with agent_error, even at the run's first call
#   ConfigurationError the run cannot work: not retried, the run stops with `fix` as advice
#   BAD_REQUEST        ConfigurationError before the first live answer, ModelFailure after
# Anything else that litellm (or openai) raises is classified by its HTTP status: see _by_status.
ERROR_TABLE: tuple[Rule, ...] = (
    # litellm raises a missing key as a 500 or a connection error; retrying cannot help.
    Rule("openai.OpenAIError", MISSING_CREDENTIALS, ConfigurationError, _KEY_FIX),
    Rule("ContentPolicyViolationError", None, ModelFailure),
    Rule("RejectedRequestError", None, ModelFailure),  # a guardrail rejected this content
    Rule("ContextWindowExceededError", None, ContextOverflow),
    Rule("AuthenticationError", None, ConfigurationError, _KEY_FIX),
    Rule("PermissionDeniedError", None, ConfigurationError, "use a key with access to {model}"),
    Rule("NotFoundError", None, ConfigurationError, "check {model} (and {base})"),
    Rule("PaymentRequiredError", None, ConfigurationError, "top up the account or use another key"),
    Rule("LiteLLMUnknownProvider", None, ConfigurationError, "check {model}"),
    Rule("UnsupportedParamsError", None, ConfigurationError, "check {args}"),
    # A gateway's plain 400 for a filtered prompt, or an overflow litellm did not recognise.
    Rule("BadRequestError", NO_PROVIDER, ConfigurationError, PROVIDER_FIX),
    Rule("BadRequestError", CONTENT_FILTER, ModelFailure),
    Rule("BadRequestError", CONTEXT_FULL, ContextOverflow),
    Rule("BadRequestError", None, BAD_REQUEST, "check {args} and {model}"),
    Rule("UnprocessableEntityError", None, BAD_REQUEST, "check {args} and {model}"),
    Rule("RateLimitError", None, InfraError),
    # Every endpoint behind --bank-api-base is cooling down after failures.
    Rule("litellm.types.router.RouterRateLimitError", None, InfraError),
    Rule("Timeout", None, InfraError),
    Rule("APIConnectionError", None, InfraError),
    Rule("InternalServerError", None, InfraError),
    Rule("ServiceUnavailableError", None, InfraError),
    Rule("BadGatewayError", None, InfraError),
)


def rule_class(name: str) -> type[BaseException] | None:
    """The exception class a rule names (litellm.exceptions.<name>, or module.Class)."""
    module, _, attr = name.rpartition(".")
    if module:
        where = importlib.import_module(module)
    else:
        from pytest_bankbench.models.litellm_setup import import_litellm

        where = import_litellm().exceptions
    cls = getattr(where, attr, None)
    return cls if isinstance(cls, type) and issubclass(cls, BaseException) else None


def _by_status(status: int | None) -> Rule:
    """A provider error outside the table, by HTTP status (openai's own retry rule for infra)."""
    if status in (401, 402, 403, 404):
        return Rule("", None, ConfigurationError, "check {model}, {args} and {base}")
    if status is not None and 400 <= status < 500 and status not in (408, 409, 429):
        return Rule("", None, BAD_REQUEST, "check {args} and {model}")
    return Rule("", None, InfraError)  # 408, 409, 429, 5xx, or no status (transport trouble)


def error_rule(exc: BaseException) -> Rule | None:
    """The rule a provider exception falls under; None: not a provider error (a bug)."""
    text = str(exc)
    for rule in ERROR_TABLE:
        cls = rule_class(rule.name)
        if (
            cls is not None
            and isinstance(exc, cls)
            and (rule.text is None or rule.text.search(text))
        ):
            return rule
    import openai  # litellm's own dependency; every litellm provider error subclasses its APIError

    if isinstance(exc, openai.APIError):
        return _by_status(getattr(exc, "status_code", None))
    return None


def error_outcome(exc: BaseException) -> Outcome | None:
    """What a provider exception means (see ERROR_TABLE); None: not a provider error (a bug)."""
    rule = error_rule(exc)
    return None if rule is None else rule.outcome


_PREFIXES = re.compile(r"^(?:(?:litellm\.)?\w+(?:Error|Exception)\s*[:-]\s*)+")
SAID_CHARS = 200


def provider_said(exc: BaseException, known: tuple[str, ...] = ()) -> str:
    """What the provider said: one line, without litellm's class prefixes, redacted (`known`:
    the secrets of the settings, which a careless provider may echo), short."""
    lines = str(exc).strip().splitlines()
    text = redact_text(_PREFIXES.sub("", lines[0]).strip() if lines else "", known)
    text = text or "no detail"
    return text if len(text) <= SAID_CHARS else text[: SAID_CHARS - 3] + "..."


# The transport failures of a provider call (no HTTP answer at all), by the class names of the
# exceptions in its chain: litellm's, the openai SDK's, httpx's and the socket's own.
_TRANSPORT = (
    "litellm.exceptions.Timeout",
    "litellm.exceptions.APIConnectionError",
    "openai.APIConnectionError",  # APITimeoutError too
    "httpx.TransportError",
)


def _chain(exc: BaseException) -> list[BaseException]:
    found: list[BaseException] = []
    current: BaseException | None = exc
    while current is not None and all(current is not seen for seen in found):
        found.append(current)
        current = current.__cause__ or current.__context__
    return found


def _is_a(exc: BaseException, names: tuple[str, ...]) -> bool:
    for name in names:
        module, _, attr = name.rpartition(".")
        try:
            cls = getattr(importlib.import_module(module), attr, None)
        except ImportError:
            continue
        if isinstance(cls, type) and isinstance(exc, cls):
            return True
    return False


# Raised while converting a body the endpoint did answer (HTTP 200): tool arguments nested too
# deep to decode, a number past Python's 4,300 digits, content of the wrong type. A body that
# is not JSON at all (cut short) is a transport fault and stays infrastructure.
_CONVERSION = (RecursionError, ValueError, TypeError, AttributeError, KeyError, IndexError)
_HTTP_STATUS = ("openai.APIStatusError", "httpx.HTTPStatusError")


def unusable_body(exc: BaseException) -> str | None:
    """What was wrong with a 200 response's body the provider library could not convert (the
    model's failure, issue 19); None for any other error."""
    chain = _chain(exc)  # the first is litellm's own class, a status error whatever happened
    if transport_cause(exc) is not None or any(_is_a(link, _HTTP_STATUS) for link in chain[1:]):
        return None
    for link in chain[1:]:
        if isinstance(link, json.JSONDecodeError):
            return None
        if isinstance(link, _CONVERSION) or "provider returned" in str(link):
            said = provider_said(link)
            return f"the endpoint answered with a body that cannot be used ({type(link).__name__}: {said})"
    return None


def socket_cause(exc: BaseException) -> str | None:
    """A socket-level failure in words ("connection refused"), or None for anything else."""
    if isinstance(exc, socket.gaierror):
        return f"cannot resolve the host name (DNS: {exc.strerror or exc})"
    if isinstance(exc, ConnectionRefusedError):
        return "connection refused"
    if isinstance(exc, ConnectionResetError | BrokenPipeError | ConnectionAbortedError):
        return "connection reset"
    if isinstance(exc, TimeoutError):
        return "timed out"
    if isinstance(exc, OSError) and exc.strerror:
        return f"cannot connect ({exc.strerror})"
    return None


def causes_in_words(causes: Mapping[str, int]) -> str:
    """Transport causes and how often each was seen, in the order first seen: `timed out` when
    there is one, `3 timed out, 1 connection refused` when several (the last alone hid the
    time-outs that cost the most)."""
    if len(causes) == 1:
        return next(iter(causes))
    return ", ".join(f"{count} {cause}" for cause, count in causes.items())


def transport_cause(exc: BaseException) -> str | None:
    """What went wrong below HTTP ("connection refused", "timed out", ...) when a provider call
    got no answer at all; None when it got one (a status, a body) or is not a provider error."""
    chain = _chain(exc)
    if not any(_is_a(link, _TRANSPORT) for link in chain):
        return None
    for link in reversed(chain):  # the deepest cause says the most
        cause = socket_cause(link)
        if cause is not None:
            return cause
    if any("timeout" in type(link).__name__.lower() for link in chain):
        return "timed out"
    if any("disconnect" in str(link).lower() for link in chain):
        return "connection dropped"
    return "connection error"
