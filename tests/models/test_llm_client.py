"""The provider seam: retries with backoff, error classes, response cache, usage and cost."""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_bankbench.models.errors import (
    ConfigurationError,
    ContextOverflow,
    InfraError,
    ModelFailure,
    UnconfirmedBadRequest,
)
from pytest_bankbench.models.llm import ModelClient
from pytest_bankbench.models.model_settings import ModelSettings
from tests.models.fakes import Scripted, litellm_error, mocked

MESSAGES = [{"role": "user", "content": "hello"}]
TRANSIENT = [
    "RateLimitError",
    "Timeout",
    "APIConnectionError",
    "InternalServerError",
    "ServiceUnavailableError",
    "APIError",
]


def _client(
    steps: list[object], retries: int = 3, **settings: object
) -> tuple[ModelClient, Scripted, list[float]]:
    fake = Scripted(steps)
    sleeps: list[float] = []
    client = ModelClient(
        ModelSettings(model="openai/fake", num_retries=retries, backoff_s=0.5, **settings),  # type: ignore[arg-type]
        completion=fake,
        sleep=sleeps.append,
    )
    return client, fake, sleeps


@pytest.mark.parametrize("error", TRANSIENT)
def test_transient_errors_are_retried_with_backoff(error: str) -> None:
    client, fake, sleeps = _client([litellm_error(error), litellm_error(error), mocked("ok")])
    response = client.complete(MESSAGES)
    assert response["choices"][0]["message"]["content"] == "ok"
    assert len(fake.requests) == 3 and client.attempts == 3
    assert len(sleeps) == 2 and sleeps[1] > sleeps[0] >= 0.5  # exponential backoff


@pytest.mark.parametrize("retries", [0, 1, 4])
def test_retries_run_out_into_an_infra_error(retries: int) -> None:
    client, fake, sleeps = _client([litellm_error("RateLimitError")] * 10, retries=retries)
    tries = "1 attempt" if retries == 0 else f"{retries + 1} attempts"
    with pytest.raises(InfraError, match=rf"\(after {tries}\)$"):
        client.complete(MESSAGES)
    assert len(fake.requests) == retries + 1 and len(sleeps) == retries


@pytest.mark.parametrize(
    "error",
    [
        "AuthenticationError",
        "NotFoundError",
        "PermissionDeniedError",
        "PaymentRequiredError",
    ],
)
def test_configuration_errors_are_not_retried(error: str) -> None:
    client, fake, _ = _client([litellm_error(error)])
    with pytest.raises(ConfigurationError, match=error):
        client.complete(MESSAGES)
    assert len(fake.requests) == 1


def test_bad_request_after_the_first_call_is_the_models_failure_and_not_retried() -> None:
    client, fake, sleeps = _client([mocked("ok")] + [litellm_error("BadRequestError")] * 4)
    client.complete(MESSAGES)
    with pytest.raises(ModelFailure, match="BadRequestError") as caught:
        client.complete(MESSAGES)
    assert not isinstance(caught.value, ConfigurationError | InfraError)
    assert len(fake.requests) == 2 and sleeps == []


def test_a_transient_error_before_the_first_answer_does_not_make_a_bad_request_the_models() -> None:
    client, fake, _ = _client([litellm_error("RateLimitError"), litellm_error("BadRequestError")])
    with pytest.raises(UnconfirmedBadRequest, match="BadRequestError"):
        client.complete(MESSAGES)
    assert len(fake.requests) == 2


def test_a_bad_request_before_any_answer_stops_the_run_only_from_a_second_task() -> None:
    """Issue 19: one task's bad request is its session's harness error (every trial of that
    task alike); the same from another task means the setup is to blame: stop the run."""
    for trial in (0, 1):
        client = ModelClient(
            ModelSettings(model="openai/fake", num_retries=3),
            completion=Scripted([litellm_error("BadRequestError")]),
            trial=trial,
            task="fd_closure-001",
        )
        with pytest.raises(UnconfirmedBadRequest) as first:
            client.complete(MESSAGES)
        assert not isinstance(first.value, ConfigurationError | ModelFailure | InfraError)
    other = ModelClient(
        ModelSettings(model="openai/fake", num_retries=3),
        completion=Scripted([litellm_error("BadRequestError")]),
        task="fd_closure-002",
    )
    with pytest.raises(ConfigurationError, match=r"BadRequestError.*--bank-model-args"):
        other.complete(MESSAGES)


def test_a_cached_answer_does_not_count_as_the_first_answer(tmp_path: Path) -> None:
    from pytest_bankbench.models.process_state import ANSWERED

    warm, _, _ = _client([mocked("cached")], cache_dir=tmp_path)
    warm.complete(MESSAGES)
    ANSWERED.clear()  # a new run that only meets the cache before its first live call
    client, fake, _ = _client([litellm_error("BadRequestError")], cache_dir=tmp_path)
    client.complete(MESSAGES)
    with pytest.raises(UnconfirmedBadRequest):  # not the model's failure: nothing answered
        client.complete([{"role": "user", "content": "new"}])
    assert len(fake.requests) == 1


def test_context_window_overflow_is_its_own_class() -> None:
    client, fake, _ = _client([litellm_error("ContextWindowExceededError")])
    with pytest.raises(ContextOverflow):
        client.complete(MESSAGES)
    assert len(fake.requests) == 1


def test_temperature_zero_by_default_and_parameters_pass_through() -> None:
    client, fake, _ = _client([mocked("a"), mocked("b")])
    client.complete(MESSAGES)
    assert fake.requests[0]["temperature"] == 0
    client2, fake2, _ = _client([mocked("a")], params={"temperature": 0.7, "max_tokens": 50})
    client2.complete(MESSAGES)
    assert fake2.requests[0]["temperature"] == 0.7 and fake2.requests[0]["max_tokens"] == 50


def test_one_api_base_is_passed_to_the_call() -> None:
    client, fake, _ = _client([mocked("a")], api_bases=("http://127.0.0.1:9/v1",))
    client.complete(MESSAGES)
    assert fake.requests[0]["api_base"] == "http://127.0.0.1:9/v1"


def test_usage_and_prices_for_a_self_hosted_model() -> None:
    client, _, _ = _client(
        [mocked("a"), mocked("b")],
        prices={"input_cost_per_token": 0.001, "output_cost_per_token": 0.002},
    )
    client.complete(MESSAGES)
    client.complete(MESSAGES)
    usage = client.usage
    assert usage.model_calls == 2 and usage.prompt_tokens > 0 and usage.completion_tokens > 0
    expected = usage.prompt_tokens * 0.001 + usage.completion_tokens * 0.002
    assert usage.cost_usd == pytest.approx(expected)
    assert len(usage.latencies_s) == 2


def test_unknown_price_gives_no_cost() -> None:
    client, _, _ = _client([mocked("a")])
    client.complete(MESSAGES)
    assert client.usage.cost_usd is None


def test_a_priced_model_costs_what_litellm_prices_it() -> None:
    from pytest_bankbench.models.litellm_setup import import_litellm

    litellm = import_litellm()

    def priced(**kwargs: object) -> object:
        kwargs.pop("api_key", None)
        return litellm.completion(**{**kwargs, "model": "gpt-4o-mini", "mock_response": "hi"})

    client = ModelClient(ModelSettings(model="gpt-4o-mini"), completion=priced)
    client.complete(MESSAGES)
    answer = litellm.completion(model="gpt-4o-mini", messages=MESSAGES, mock_response="hi")
    expected = litellm.completion_cost(answer)
    assert expected > 0 and client.usage.cost_usd == pytest.approx(expected)


def test_cache_serves_a_repeated_request_without_a_call(tmp_path: Path) -> None:
    first, _fake1, _ = _client([mocked("cached answer")], cache_dir=tmp_path)
    first.complete(MESSAGES)
    second, fake2, _ = _client([], cache_dir=tmp_path)
    response = second.complete(MESSAGES)
    assert response["choices"][0]["message"]["content"] == "cached answer"
    assert fake2.requests == [] and second.usage.cache_hits == 1
    assert second.usage.model_calls == 0
    other, fake3, _ = _client([mocked("new")], cache_dir=tmp_path)
    other.complete([{"role": "user", "content": "something else"}])
    assert len(fake3.requests) == 1


def _hammer(root: str, worker: int) -> list[str]:
    from pytest_bankbench.models.llm import ResponseCache

    cache = ResponseCache(Path(root))
    keys = []
    for i in range(40):
        key = ResponseCache.key({"shared": i % 5, "worker": worker if i % 2 else None})
        cache.put(key, {"choices": [{"message": {"content": f"{i % 5}"}}], "i": i})
        keys.append(key)
    return keys


def test_cache_is_safe_with_many_processes_writing_at_once(tmp_path: Path) -> None:
    from concurrent.futures import ProcessPoolExecutor

    from pytest_bankbench.models.llm import ResponseCache

    with ProcessPoolExecutor(max_workers=16) as pool:
        keys = [k for ks in pool.map(_hammer, [str(tmp_path)] * 16, range(16)) for k in ks]
    cache = ResponseCache(tmp_path)
    for key in set(keys):
        entry = cache.get(key)
        assert entry is not None and entry["choices"][0]["message"]["content"] in "01234"
    assert not list(tmp_path.rglob("*.tmp"))


def test_two_endpoints_never_share_a_cached_answer(tmp_path: Path) -> None:
    """Issue 19: the cache key held the request alone, so a second server behind the same
    model name was served the first server's answers."""
    one = ("http://127.0.0.1:9001/v1",)
    first, _, _ = _client([mocked("from one")], cache_dir=tmp_path, api_bases=one)
    first.complete(MESSAGES)
    two = ("http://127.0.0.1:9002/v1",)
    other, fake, _ = _client([mocked("from two")], cache_dir=tmp_path, api_bases=two)
    assert other.complete(MESSAGES)["choices"][0]["message"]["content"] == "from two"
    assert len(fake.requests) == 1 and other.usage.cache_hits == 0
    again, fake_again, _ = _client([], cache_dir=tmp_path, api_bases=one)
    assert again.complete(MESSAGES)["choices"][0]["message"]["content"] == "from one"
    assert fake_again.requests == []
