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


def _raw(server: EnvServer, method: str, path: str, body: bytes = b"") -> tuple[int, object]:
    """One request as its bytes (json.dumps cannot write 1e400): the status and the JSON answer."""
    host, port = server.url.removeprefix("http://").split(":")
    connection = http.client.HTTPConnection(host, int(port), timeout=30)
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
