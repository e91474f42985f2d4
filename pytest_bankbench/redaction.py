"""Credentials kept out of every output: model parameters, error text, reports and traces."""

from __future__ import annotations

import os
import re
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
# Credential-looking text inside any string, with its replacement: `name=value` pairs whose
# name says credential (api_key='...', "Authorization": "Bearer ..."), bearer tokens, and the
# shapes of provider keys.
_SECRET_TEXT = (
    (
        re.compile(
            r"(?i)((?:api[_-]?key|[\w-]*secret[\w-]*|[\w-]*token|password|authorization"
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
# Environment variables whose values are credentials wherever they show up.
_SECRET_ENV = re.compile(
    r"(KEY|TOKEN|SECRET|PASSWORD|CREDENTIALS?)$|^(AZURE|AWS|OPENAI|ANTHROPIC|GEMINI|MISTRAL)_.*KEY",
    re.IGNORECASE,
)


def _secret_name(name: str) -> bool:
    return bool(_SECRET.search(name)) and not _NOT_SECRET.search(name)


def redacted(params: dict[str, Any]) -> dict[str, Any]:
    """Model parameters fit for a report: every credential at any depth replaced (by its name,
    e.g. api_key or extra_headers.Authorization, or by its look in any string)."""
    clean: dict[str, Any] = _redact(params)
    return clean


def _redact(value: Any) -> Any:
    if isinstance(value, dict):
        return {
            k: REDACTED
            if isinstance(k, str) and _secret_name(k) and v not in (None, "")
            else _redact(v)
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
        (v for k, v in os.environ.items() if _SECRET_ENV.search(k) and len(v) >= 8),
        key=len,
        reverse=True,
    )


def secret_values(params: Any) -> tuple[str, ...]:
    """The credentials in model parameters (at any depth, by name), to scrub from any text even
    where they have no recognisable shape; a bearer header's token counts on its own too."""
    found: list[str] = []
    if isinstance(params, dict):
        for k, v in params.items():
            if isinstance(k, str) and _secret_name(k) and isinstance(v, str) and len(v) >= 4:
                found += [v, re.sub(r"(?i)^(bearer|basic)\s+", "", v)]
            else:
                found += secret_values(v)
    elif isinstance(params, list | tuple):
        for v in params:
            found += secret_values(v)
    return tuple(sorted(set(found), key=len, reverse=True))


def redact_text(text: str, known: Iterable[str] = ()) -> str:
    """Text fit for any output: the `known` secrets (see secret_values), the values of key-ish
    environment variables (OPENAI_API_KEY, ...) and credential-looking substrings replaced by
    <redacted>."""
    for value in (*known, *_env_secrets()):
        text = text.replace(value, REDACTED)
    for pattern, replacement in _SECRET_TEXT:
        text = pattern.sub(replacement, text)
    return text
