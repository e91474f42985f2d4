"""Credentials kept out of every output: model parameters, error text, reports and traces.

A credential is known by its name (api_key, Authorization), by its position (every value under
`headers` / `extra_headers`, whatever the header is called: X-Gateway-Auth, Authentication) or
by its shape (sk-..., Bearer ...). The run remembers every party's credentials at start-up
(remember_secrets: the agent's and the customer's parameters and the provider keys of the
environment), and every output is scrubbed of all of them (issue 19: a party's endpoint may
echo the other party's key).
"""

from __future__ import annotations

import html
import json
import os
import re
import threading
from collections.abc import Iterable
from typing import Any

REDACTED = "<redacted>"
# api_key, aws_secret_access_key, access_token, password, Authorization, X-Api-Key...;
# not max_tokens (a count, not a credential).
_SECRET = re.compile(
    r"(key|token|secret|password|passwd|authorization|credentials?|cookie|signature)$",
    re.IGNORECASE,
)
_NOT_SECRET = re.compile(r"(max|min)_\w*tokens?$|^(max_)?(completion_|prompt_)?tokens$", re.I)
# Parameters whose every value is a credential by position (a header's name says nothing:
# gateways invent their own, X-Gateway-Auth, Authentication, ...).
_HEADERS = re.compile(r"^(extra_)?headers$", re.IGNORECASE)
# Credential-looking text inside any string, with its replacement: `name=value` pairs whose
# name says credential (api_key='...', "Authorization": "Bearer ..."), bearer tokens, and the
# shapes of provider keys.
_SECRET_TEXT = (
    (
        re.compile(
            # A name starts a word, and our own failure type is no credential's name
            # (user trial: "AskedForSecret: asked for ..." lost its evidence).
            r"(?i)((?:api[_-]?key|(?<!\w)(?!asked_?for_?secret\b)[\w-]*secret[\w-]*"
            r"|[\w-]*token|password|authorization"
            r"|credentials?|(?<=[?&])key)[\"']?\s*[:=]\s*[\"']?(?:(?:bearer|basic)\s+)?)([^\s\"'<>,;}]{4,})"
        ),
        r"\1" + REDACTED,
    ),
    (re.compile(r"(://[^/\s:@]+:)[^/\s@]+@"), r"\1" + REDACTED + "@"),  # user:password@host
    (re.compile(r"(?i)\b(bearer|basic)\s+[A-Za-z0-9._~+/=\-]{6,}"), r"\1 " + REDACTED),
    (
        re.compile(
            r"\b(?:(?:sk|rk|pk)-[A-Za-z0-9_\-]{6,}"  # OpenAI, Anthropic (sk-ant-...), ...
            r"|AIza[0-9A-Za-z_\-]{20,}|gh[pousr]_[A-Za-z0-9]{16,}|xox[abpr]-[\w-]{8,}"
            r"|(?:AKIA|ASIA)[0-9A-Z]{12,})"  # AWS access key ids
        ),
        REDACTED,
    ),
)
# Environment variables whose values are credentials wherever they show up: the provider keys
# litellm reads (OPENAI_API_KEY, AZURE_AD_TOKEN, WATSONX_APIKEY, AWS_BEARER_TOKEN_BEDROCK,
# SNOWFLAKE_JWT, ...), wherever the credential word sits in the name.
_SECRET_ENV = re.compile(r"KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|JWT", re.IGNORECASE)
_NOT_SECRET_ENV = re.compile(r"TOKENIZERS?_|_KEYMAP$|^PYTEST_", re.IGNORECASE)
# A remembered secret shorter than this is not scrubbed from whole outputs ("0", "none" would
# cut words out of every trace); error messages still scrub every named credential.
SCRUB_MIN = 8


def _secret_name(name: str) -> bool:
    return bool(_SECRET.search(name)) and not _NOT_SECRET.search(name)


def _named_secret(name: Any, value: Any) -> bool:
    """A credential by its name (api_key, Authorization) and set (not null, not empty)."""
    return isinstance(name, str) and _secret_name(name) and value not in (None, "")


def redacted(params: dict[str, Any]) -> dict[str, Any]:
    """Model parameters fit for a report: every credential at any depth replaced (by its name,
    e.g. api_key; by its position, every value under headers or extra_headers; or by its look
    in any string)."""
    clean: dict[str, Any] = _redact(params)
    return clean


def _redact(value: Any, headers: bool = False) -> Any:
    if isinstance(value, dict):
        return {
            k: REDACTED
            if (headers and v not in (None, "")) or _named_secret(k, v)
            else _redact(v, isinstance(k, str) and bool(_HEADERS.match(k)))
            for k, v in value.items()
        }
    if isinstance(value, list | tuple):
        return type(value)(_redact(v) for v in value)
    if isinstance(value, str):
        return redact_text(value)
    return value


def _env_secrets() -> list[str]:
    """Values of credential-named environment variables (long enough not to be a plain word)."""
    return sorted(
        (
            v
            for k, v in os.environ.items()
            if _SECRET_ENV.search(k) and not _NOT_SECRET_ENV.search(k) and len(v) >= SCRUB_MIN
        ),
        key=len,
        reverse=True,
    )


def _all_strings(value: Any) -> list[str]:
    """Every string in a value (a credential given as a list or an object is still one)."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _all_strings(v)]
    if isinstance(value, list | tuple):
        return [s for v in value for s in _all_strings(v)]
    return []


def secret_values(params: Any, headers: bool = False) -> tuple[str, ...]:
    """The credentials in model parameters (at any depth, by name or under headers), to scrub
    from any text even where they have no recognisable shape; a bearer header's token counts
    on its own too."""
    found: list[str] = []
    if isinstance(params, dict):
        for k, v in params.items():
            if headers or _named_secret(k, v):
                for text in _all_strings(v):
                    if len(text) >= 4:
                        found += [text, re.sub(r"(?i)^(bearer|basic)\s+", "", text)]
            else:
                found += secret_values(v, isinstance(k, str) and bool(_HEADERS.match(k)))
    elif isinstance(params, list | tuple):
        for v in params:
            found += secret_values(v, headers)
    return tuple(sorted({f for f in found if len(f) >= 4}, key=len, reverse=True))


# -- the run's remembered secrets ---------------------------------------------------------------
_REMEMBERED: set[str] = set()
_REMEMBERED_LOCK = threading.Lock()
_SCRUB_FORMS: tuple[tuple[str, str], ...] = ()  # (a form of a secret, its replacement)


def remember_secrets(values: Iterable[str]) -> None:
    """Remember credentials for every later redaction of this process: any party's key is
    scrubbed from every output, whichever party's error or endpoint shows it."""
    global _SCRUB_FORMS
    values = [*values, *_env_secrets()]
    with _REMEMBERED_LOCK:
        _REMEMBERED.update(v for v in values if len(v) >= 4)
        forms: dict[str, str] = {}
        for value in sorted(_REMEMBERED, key=len, reverse=True):
            if len(value) < SCRUB_MIN:
                continue
            # As written into JSON (quotes, backslashes, non-ASCII escaped) and into HTML.
            for form, replacement in (
                (value, REDACTED),
                (json.dumps(value)[1:-1], REDACTED),
                (json.dumps(value, ensure_ascii=False)[1:-1], REDACTED),
                (html.escape(value), html.escape(REDACTED)),
            ):
                forms.setdefault(form, replacement)
        _SCRUB_FORMS = tuple(forms.items())


def remembered_secrets() -> tuple[str, ...]:
    """The credentials remember_secrets has seen, longest first."""
    with _REMEMBERED_LOCK:
        return tuple(sorted(_REMEMBERED, key=len, reverse=True))


def forget_secrets() -> None:
    """Forget every remembered credential (a test's clean slate)."""
    global _SCRUB_FORMS
    with _REMEMBERED_LOCK:
        _REMEMBERED.clear()
        _SCRUB_FORMS = ()


def scrub(text: str) -> str:
    """A whole output (a JSON document, a log line, a page) with every remembered secret (the
    environment's keys among them, as they were at start-up) replaced, in plain, JSON and HTML
    spelling; its structure is left alone (shapes are redact_text's, for messages). Cheap:
    ~1.4 ms a MB, a few microseconds a record (the environment is not read again)."""
    for form, replacement in _SCRUB_FORMS:
        if form in text:
            text = text.replace(form, replacement)
    return text


def redact_text(text: str, known: Iterable[str] = ()) -> str:
    """Text fit for any output: the `known` secrets (see secret_values), every remembered one,
    the values of key-ish environment variables (OPENAI_API_KEY, ...) and credential-looking
    substrings replaced by <redacted>."""
    for value in sorted({*known, *remembered_secrets(), *_env_secrets()}, key=len, reverse=True):
        text = text.replace(value, REDACTED)
    text = scrub(text)
    for pattern, replacement in _SECRET_TEXT:
        text = pattern.sub(replacement, text)
    return text
