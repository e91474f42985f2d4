"""A model argument or endpoint the provider library cannot take stops the run at start-up.

Issue 19: a wrong-typed --bank-model-args value (an api_key given as a list) was not caught
at start-up, and every session became a harness error with a ~300-line traceback that
printed the key; an invalid port in --bank-api-base was retried as infrastructure. Each is
now one usage error naming the option and what is accepted, before any request is sent.
"""

from __future__ import annotations

import json

import pytest

from tests.plugin.helpers import run_bench

KEY = "planted0c1d2e3f4a5b6c7d8e"
OPENAI = ("--bank-model", "openai/any-model", "--bank-num-retries", "0")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ("--bank-model-args", json.dumps({"api_key": [KEY, KEY]})),
            "*--bank-model-args: 'api_key' is a list, but litellm.completion accepts a string "
            "or null for it*",
        ),
        (
            ("--bank-model-args", json.dumps({"temperature": "hot"})),
            "*--bank-model-args: 'temperature' is a string*accepts a number or null*",
        ),
        (
            (
                "--bank-user-model",
                "openai/customer",
                "--bank-user-model-args",
                json.dumps({"max_tokens": "lots"}),
            ),
            "*--bank-user-model-args: 'max_tokens' is a string*a whole number or null*",
        ),
        (
            ("--bank-api-base", "http://127.0.0.1:99999/v1"),
            "*--bank-api-base 'http://127.0.0.1:99999/v1': Port out of range*",
        ),
        (
            ("--bank-user-model", "openai/c", "--bank-user-api-base", "http://localhost:x/v1"),
            "*--bank-user-api-base 'http://localhost:x/v1': Port could not be cast*",
        ),
        (
            ("--bank-api-base", "127.0.0.1:9"),
            "ERROR: --bank-api-base '127.0.0.1:9': not an http:// or https:// URL with a host; "
            "give a URL such as http://localhost:8000/v1",
        ),
    ],
    ids=[
        "api-key-list",
        "temperature-string",
        "customer-max-tokens",
        "port",
        "customer-port",
        "no-scheme",
    ],
)
def test_a_bad_model_argument_is_one_usage_error_before_any_session(
    pytester: pytest.Pytester, args: tuple[str, ...], message: str
) -> None:
    result = run_bench(pytester, *OPENAI, *args, "-k", "balance_enquiry")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([message])
    output = result.stdout.str() + result.stderr.str()
    assert KEY not in output and "Traceback" not in output and "test_task" not in output
    assert len(result.stderr.str().strip().splitlines()) <= 2


def test_arguments_of_the_right_type_start_the_run(pytester: pytest.Pytester) -> None:
    args = json.dumps({"temperature": 0.2, "max_tokens": 200, "extra_headers": {"X-A": "b"}})
    result = run_bench(pytester, *OPENAI, "--bank-model-args", args, "--collect-only", "-q")
    assert result.ret == pytest.ExitCode.OK
