"""The client of the environment's HTTP server (environment/server.py): BankEnv's reset and
step over one kept-alive connection, answered with the environment's own typed Observation and
StepResult; a refusal is a ServerError with the server's status and kind."""

from __future__ import annotations

import http.client
import json
import urllib.parse
from http import HTTPStatus
from typing import Any

from pytest_bankbench.environment.observation import Observation, StepResult
from pytest_bankbench.environment.rewards import RewardConfig
from pytest_bankbench.errors import BankBenchError
from pytest_bankbench.simulation.agents import AgentAction
from pytest_bankbench.tasks.model import Task

__all__ = ["BankEnvClient", "ServerError"]


class ServerError(BankBenchError):
    """The server refused a request; `status` and `kind` are its answer's."""

    def __init__(self, status: int, kind: str, message: str) -> None:
        super().__init__(f"{status} {kind}: {message}")
        self.status, self.kind = status, kind


class BankEnvClient:
    """BankEnv's reset/step over HTTP: one remote environment per client."""

    def __init__(self, url: str, reward: RewardConfig | None = None, timeout_s: float = 30.0):
        self.url = url.rstrip("/")
        parts = urllib.parse.urlsplit(self.url)
        self._host, self._port = parts.hostname or "127.0.0.1", parts.port or 80
        self._conn: http.client.HTTPConnection | None = None
        self.reward = reward
        self.timeout_s = timeout_s
        self.env_id: str | None = None

    def reset(
        self, task: Task | str | None = None, seed: int | None = None, trial: int = 0
    ) -> Observation:
        body: dict[str, Any] = {"seed": seed, "trial": trial, "env_id": self.env_id}
        body["task_id"] = task.task_id if isinstance(task, Task) else task
        if self.env_id is None and self.reward is not None:
            body["reward"] = self.reward.model_dump(mode="json")
        answer = self._post("/reset", body)
        self.env_id = answer["env_id"]
        return Observation.model_validate(answer["observation"])

    def step(self, action: object) -> StepResult:
        if isinstance(action, AgentAction):
            calls = [c.model_dump(mode="json") for c in action.tool_calls]
            action = {"tool_calls": calls, "message": action.message, "end": action.end}
        answer = self._post("/step", {"env_id": self.env_id, "action": action})
        answer.pop("env_id")
        return StepResult.model_validate(answer)

    def close(self) -> None:
        if self.env_id is not None:
            self._post("/close", {"env_id": self.env_id})
            self.env_id = None
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    def _post(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        """One request on the client's kept-alive connection (opened again once if it broke)."""
        data = json.dumps(body, ensure_ascii=False).encode("utf-8")
        for attempt in (1, 2):
            if self._conn is None:
                self._conn = http.client.HTTPConnection(self._host, self._port, self.timeout_s)
            try:
                self._conn.request("POST", path, data, {"Content-Type": "application/json"})
                response = self._conn.getresponse()
                payload: dict[str, Any] = json.loads(response.read() or b"{}")
                break
            except (ConnectionError, http.client.HTTPException):
                self._conn.close()
                self._conn = None
                if attempt == 2:
                    raise
        if response.status != HTTPStatus.OK:
            raise ServerError(response.status, payload.get("error", ""), payload.get("message", ""))
        return payload
