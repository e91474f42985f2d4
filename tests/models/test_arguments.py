"""Model arguments held to litellm.completion's declared types, endpoints to a valid port."""

from __future__ import annotations

from typing import Any

import pytest

from pytest_bankbench.models.arguments import (
    ArgumentError,
    check_api_base,
    check_model_args,
    completion_annotations,
)


def test_the_declared_types_are_read_from_litellms_source() -> None:
    declared = completion_annotations()
    assert {"api_key", "temperature", "max_tokens", "extra_headers"} <= set(declared)


@pytest.mark.parametrize(
    ("args", "named", "accepted"),
    [
        ({"api_key": ["sk-a", "sk-b"]}, "'api_key' is a list", "a string or null"),
        ({"temperature": "hot"}, "'temperature' is a string", "a number or null"),
        ({"max_tokens": 1.5}, "'max_tokens' is a number", "a whole number or null"),
        ({"n": True}, "'n' is a boolean", "a whole number"),
        ({"extra_headers": ["X-Auth: 1"]}, "'extra_headers' is a list", "dict or null"),
    ],
)
def test_a_wrong_typed_argument_is_one_message_naming_it(
    args: dict[str, Any], named: str, accepted: str
) -> None:
    with pytest.raises(ArgumentError) as caught:
        check_model_args("--bank-model-args", args)
    message = str(caught.value)
    assert named in message and accepted in message and "--bank-model-args" in message
    assert "sk-a" not in message and "\n" not in message


def test_arguments_of_the_right_type_or_unknown_to_litellm_pass() -> None:
    check_model_args(
        "--bank-user-model-args",
        {
            "api_key": "sk-x",
            "temperature": 0,
            "top_p": 0.9,
            "max_tokens": 300,
            "extra_headers": {"X-Gateway-Auth": "x"},
            "timeout": 30,  # float | str | httpx.Timeout ...: a class, so anything goes
            "num_retries": 2,  # not in the signature: litellm passes it on
            "api_base": None,
        },
    )


@pytest.mark.parametrize(
    "base", ["http://127.0.0.1:99999/v1", "http://localhost:port/v1", "http://h:0/v1"]
)
def test_an_invalid_port_is_refused(base: str) -> None:
    with pytest.raises(ArgumentError, match=r"--bank-api-base.*localhost:8000"):
        check_api_base("--bank-api-base", base)


@pytest.mark.parametrize(
    "base", ["127.0.0.1:9", "localhost:8000/v1", "ftp://host/v1", "http:/host/v1", "https://"]
)
def test_a_base_that_is_not_an_http_url_is_refused(base: str) -> None:
    with pytest.raises(ArgumentError) as caught:
        check_api_base("--bank-api-base", base)
    message = str(caught.value)
    assert message.startswith(f"--bank-api-base {base!r}: not an http:// or https:// URL")
    assert "http://localhost:8000/v1" in message and "\n" not in message


def test_valid_endpoints_pass() -> None:
    for base in (
        "http://127.0.0.1:8000/v1",
        "https://gateway.example/v1",
        "http://[::1]:80",
        "HTTP://localhost:8000",
    ):
        check_api_base("--bank-api-base", base)
