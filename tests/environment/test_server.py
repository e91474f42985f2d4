"""The environment over HTTP: a loopback client plays whole sessions to the same verdicts."""

from __future__ import annotations

import http.client
import json
import threading
from collections.abc import Iterator

import pytest

from pytest_bankbench.environment import BankEnv, RewardConfig, StepResult
from pytest_bankbench.environment.server import BankEnvClient, EnvServer, ServerError, serve
from pytest_bankbench.tasks.loader import select, shipped_tasks
from pytest_bankbench.tasks.model import Task
from tests.environment.policies import ChatPolicy

TRAIN = select(shipped_tasks(), "train")


@pytest.fixture(scope="module")
def server() -> Iterator[EnvServer]:
    running = serve()
    yield running
    running.shutdown()
    running.server_close()


def _drive(client: BankEnvClient, task: Task, agent: str) -> StepResult:
    policy = ChatPolicy(task, agent)
    observation = client.reset(task.task_id)
    policy.observe(observation.messages)
    while True:
        result = client.step(policy.act())
        policy.observe(result.observation.messages)
        if result.done:
            return result


def _in_process(task: Task, agent: str) -> StepResult:
    env, policy = BankEnv(), ChatPolicy(task, agent)
    policy.observe(env.reset(task).messages)
    while True:
        result = env.step(policy.act())
        policy.observe(result.observation.messages)
        if result.done:
            env.close()
            return result


@pytest.mark.parametrize("agent", ["gold", "no-consent", "silent", "ask-secrets"])
def test_a_loopback_session_gets_the_in_process_verdict(server: EnvServer, agent: str) -> None:
    client = BankEnvClient(server.url)
    for task in TRAIN[:6]:
        remote, local = _drive(client, task, agent), _in_process(task, agent)
        assert remote.info.verdict == local.info.verdict, task.task_id
        assert remote.reward == local.reward and remote.observation == local.observation
    assert remote.info.verdict is not None
    client.close()


def test_several_clients_in_threads_keep_their_own_sessions(server: EnvServer) -> None:
    verdicts: dict[str, bool] = {}

    def one(task: Task) -> None:
        client = BankEnvClient(server.url, reward=RewardConfig(mode="weighted"))
        result = _drive(client, task, "gold")
        assert result.info.reward_config.mode == "weighted"
        verdicts[task.task_id] = result.info.verdict is not None and result.info.verdict.passed
        client.close()

    threads = [threading.Thread(target=one, args=(t,)) for t in TRAIN[10:16]]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert verdicts == {t.task_id: True for t in TRAIN[10:16]}


def test_bad_requests_are_refused_with_their_reason(server: EnvServer) -> None:
    client = BankEnvClient(server.url)
    with pytest.raises(ServerError) as unknown:
        client.step({"content": "hi"})
    assert unknown.value.status == 404 and unknown.value.kind == "unknown_env"
    with pytest.raises(ServerError) as wrong_task:
        client.reset("no-such-task")
    assert wrong_task.value.status == 400
    client.reset(TRAIN[0].task_id)
    with pytest.raises(ServerError) as bad_action:
        client.step("not an action")
    assert bad_action.value.status == 400 and bad_action.value.kind == "ActionError"
    host, port = server.url.removeprefix("http://").split(":")
    connection = http.client.HTTPConnection(host, int(port))
    connection.request("POST", "/step", b"[1, 2]", {"Content-Type": "application/json"})
    answer = connection.getresponse()
    assert answer.status == 400 and json.loads(answer.read())["error"] == "bad_json"
    connection.request("GET", "/health")
    assert json.loads(connection.getresponse().read())["ok"] is True
    connection.close()
    client.close()


@pytest.mark.parametrize("body", [{}, {"action": None}])
def test_a_step_without_an_action_says_what_an_action_looks_like(
    server: EnvServer, body: dict[str, object]
) -> None:
    """It was refused with "... not None" (a user trial)."""
    client = BankEnvClient(server.url)
    client.reset(TRAIN[0].task_id)
    with pytest.raises(ServerError) as refused:
        client._post("/step", {"env_id": client.env_id, **body})
    assert (refused.value.status, refused.value.kind) == (400, "no_action")
    held = ", ".join(sorted({"env_id": 1, **body}))
    assert str(refused.value) == (
        '400 no_action: a /step request needs an "action": an assistant message such as '
        '{"content": "Hello"}, {"tool_calls": [{"id": ..., "type": "function", "function": '
        f'{{"name": ..., "arguments": "<JSON>"}}}}]}} or {{"end": true}}; the request held {held}'
    )
    assert client.step({"content": "Hello"}).observation.customer  # the session goes on
    client.close()


def test_a_full_server_refuses_new_environments_until_one_closes() -> None:
    small = EnvServer(("127.0.0.1", 0), max_envs=1)
    threading.Thread(target=small.serve_forever, daemon=True).start()
    first, second = BankEnvClient(small.url), BankEnvClient(small.url)
    first.reset(TRAIN[0].task_id)
    with pytest.raises(ServerError) as full:
        second.reset(TRAIN[1].task_id)
    assert full.value.status == 503 and full.value.kind == "too_many_envs"
    first.close()
    assert second.reset(TRAIN[1].task_id).task_id == TRAIN[1].task_id
    second.close()
    small.shutdown()
    small.server_close()


@pytest.fixture
def one_env_server() -> Iterator[EnvServer]:
    """A server of one environment: one leaked environment would refuse every new one."""
    small = EnvServer(("127.0.0.1", 0), max_envs=1)
    threading.Thread(target=small.serve_forever, daemon=True).start()
    yield small
    small.shutdown()
    small.server_close()


def _connection(server: EnvServer) -> http.client.HTTPConnection:
    host, port = server.url.removeprefix("http://").split(":")
    return http.client.HTTPConnection(host, int(port), timeout=30)


def _raw(server: EnvServer, method: str, path: str, body: bytes = b"") -> tuple[int, object]:
    """One request as its bytes (json.dumps cannot write 1e400): the status and the JSON answer."""
    connection = _connection(server)
    try:
        connection.request(method, path, body, {"Content-Type": "application/json"})
        answer = connection.getresponse()
        return answer.status, json.loads(answer.read())
    finally:
        connection.close()


@pytest.mark.parametrize("body", [b'{"task_id": "nope-001"}', b'{"trial": "abc"}'])
def test_a_failed_reset_holds_no_environment(one_env_server: EnvServer, body: bytes) -> None:
    """Each failed reset kept an environment no client could close (a user trial)."""
    for _ in range(3):
        assert _raw(one_env_server, "POST", "/reset", body)[0] == 400
    assert _raw(one_env_server, "GET", "/health") == (200, {"ok": True, "envs": 0})
    client = BankEnvClient(one_env_server.url)
    assert client.reset(TRAIN[0].task_id).task_id == TRAIN[0].task_id
    client.close()


INTEGER = "an integer from 0 to 9223372036854775807, or null"


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (b'{"seed": 1e400}', f"seed: got Infinity (accepted: {INTEGER})"),
        (b'{"trial": 1e400}', f"trial: got Infinity (accepted: {INTEGER} for 0)"),
        (b'{"seed": "x"}', f'seed: got "x" (accepted: {INTEGER})'),
        (b'{"trial": "abc"}', f'trial: got "abc" (accepted: {INTEGER} for 0)'),
        (b'{"seed": 1.5}', f"seed: got 1.5 (accepted: {INTEGER})"),
        (b'{"seed": true}', f"seed: got true (accepted: {INTEGER})"),
        (b'{"seed": -1}', f"seed: got -1 (accepted: {INTEGER})"),
        (b'{"seed": 9223372036854775808}', f"seed: got 9223372036854775808 (accepted: {INTEGER})"),
        (
            b'{"task_id": 7}',
            "task_id: got 7 (accepted: a task id of the server's split (a string), or null for "
            "one by seed)",
        ),
        (
            b'{"task_id": "nope-001", "sede": 1}',
            "task_id: got \"nope-001\" (accepted: a task id of split 'train' (483 tasks, such as "
            f"{TRAIN[0].task_id!r}), or null for one by seed); sede: got 1 (accepted: no such "
            "field; the fields are env_id, task_id, seed, trial, reward)",
        ),
        (
            b'{"reward": {"mode": "best"}}',
            "reward.mode: got \"best\" (accepted: 'verdict' or 'weighted')",
        ),
    ],
    ids=lambda value: value.decode() if isinstance(value, bytes) else "",
)
def test_a_bad_reset_is_one_400_naming_each_field(
    one_env_server: EnvServer, body: bytes, message: str
) -> None:
    """1e400 dropped the connection; "x" and "abc" were a raw ValueError naming no field; 1.5 and
    true were turned into integers (a user trial)."""
    answer = _raw(one_env_server, "POST", "/reset", body)
    assert answer == (400, {"error": "bad_request", "message": message})
    assert _raw(one_env_server, "GET", "/health") == (200, {"ok": True, "envs": 0})


def test_a_bug_in_a_handler_is_a_500_answer(
    one_env_server: EnvServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An exception the server did not expect dropped the connection; now it is answered."""

    def broken(*args: object) -> None:
        raise ArithmeticError("a bug")

    monkeypatch.setattr(BankEnv, "reset", broken)
    client = BankEnvClient(one_env_server.url)
    with pytest.raises(ServerError) as failed:
        client.reset(TRAIN[0].task_id)
    assert str(failed.value) == "500 internal_error: ArithmeticError: a bug"
    assert _raw(one_env_server, "GET", "/health") == (200, {"ok": True, "envs": 0})
    monkeypatch.undo()
    assert client.reset(TRAIN[0].task_id).task_id == TRAIN[0].task_id
    client.close()


def test_a_body_past_what_json_reads_or_a_bad_length_is_answered(
    one_env_server: EnvServer,
) -> None:
    """An integer of 5,000 digits was a raw ValueError; a negative length waited for a hang-up."""
    huge = b'{"seed": ' + b"9" * 5000 + b"}"
    status, answer = _raw(one_env_server, "POST", "/reset", huge)
    assert status == 400 and isinstance(answer, dict) and answer["error"] == "bad_json"
    connection = _connection(one_env_server)
    connection.putrequest("POST", "/reset")
    connection.putheader("Content-Length", "-1")
    connection.endheaders()
    response = connection.getresponse()
    assert (response.status, json.loads(response.read())) == (
        400,
        {
            "error": "bad_request",
            "message": "Content-Length: got '-1' (accepted: the body's size in bytes)",
        },
    )
    connection.close()


ENDPOINTS = "the endpoints are POST /reset, POST /step, POST /close, GET /health"


@pytest.mark.parametrize(("method", "path"), [("POST", "/foo"), ("GET", "/foo"), ("GET", "/reset")])
def test_an_unknown_endpoint_is_a_404_listing_the_endpoints(
    server: EnvServer, method: str, path: str
) -> None:
    """POST /foo answered "unknown_env: no environment ''" (a user trial)."""
    message = f"no endpoint {method} {path}; {ENDPOINTS}"
    answer = _raw(server, method, path, b'{"env_id": "x"}')
    assert answer == (404, {"error": "no_route", "message": message})


def test_a_404_closes_its_connection_with_its_body_unread(server: EnvServer) -> None:
    """The unread body would be read as the next request: the connection says it closes."""
    connection = _connection(server)
    connection.request("POST", "/foo", json.dumps({"padding": "y" * 10_000}))
    answer = connection.getresponse()
    assert (answer.status, answer.getheader("Connection")) == (404, "close")
    answer.read()
    connection.request("GET", "/health")  # http.client opens a new connection
    assert json.loads(connection.getresponse().read())["ok"] is True
    connection.close()
    client = BankEnvClient(server.url)
    with pytest.raises(ServerError) as unknown:
        client._post("/foo", {"env_id": "x"})
    assert str(unknown.value) == f"404 no_route: no endpoint POST /foo; {ENDPOINTS}"
    assert client.reset(TRAIN[0].task_id).task_id == TRAIN[0].task_id
    client.close()
