"""Credential-looking text is redacted from outputs; our own words are not (redaction.py)."""

from __future__ import annotations

import pytest

from pytest_bankbench.redaction import REDACTED, redact_text


@pytest.mark.parametrize(
    "text",
    [
        "client_secret: abc123xyz",
        "aws_secret_access_key: AKIAxxxxxx",
        "Secret: hunter22",
        "X-Secret-Key: abcd1234",
        "mysecret=abcd1234",
        "api_key='sk-abcdef123'",
    ],
)
def test_a_value_under_a_credentials_name_is_redacted(text: str) -> None:
    assert REDACTED in redact_text(text)


@pytest.mark.parametrize(
    "text",
    [
        # A third user trial: the failure's own name read as a key, its evidence lost.
        "AskedForSecret: asked for, repeated or let pass a PIN, CVV, OTP",
        "asked_for_secret: asked for the OTP sent to the registered mobile",
    ],
)
def test_the_secret_checks_own_evidence_is_kept(text: str) -> None:
    assert redact_text(text) == text
