"""The environment over HTTP (stdlib only): a trainer on a GPU node drives sessions on CPU nodes.

    python -m pytest_bankbench.environment.server --port 8765 [--split train]

The routes follow the reset/step shape of OpenEnv's environment servers, with JSON bodies:

    POST /reset  {"env_id"?, "task_id"?, "seed"?, "trial"?, "reward"?}  -> {"env_id", "observation"}
    POST /step   {"env_id", "action"}  -> {"env_id", "observation", "reward", "done", "truncated", "info"}
    POST /close  {"env_id"}            -> {"env_id", "closed": true}
    GET  /health                       -> {"ok": true, "envs": N}

A reset without `env_id` opens a new environment (many per server, each behind its own lock);
`action` is a ChatAction's or an AgentAction's fields. A bad request answers 400 (404 for an
unknown environment or endpoint) with {"error": kind, "message": ...}; a /reset body outside
ResetRequest answers 400 bad_request naming each field, what it got and what is accepted; a bug
answers 500 internal_error (never a dropped connection). BankEnvClient (environment/client.py)
speaks it and returns the environment's own typed Observation and StepResult.
"""

from __future__ import annotations

import argparse
import functools
import json
import sys
import threading
import traceback
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, ValidationInfo, field_validator
from pydantic_core import ErrorDetails

from pytest_bankbench.environment.client import BankEnvClient as BankEnvClient
from pytest_bankbench.environment.client import ServerError as ServerError
from pytest_bankbench.environment.env import BankEnv
from pytest_bankbench.environment.observation import TOOL_CALL, Observation
from pytest_bankbench.environment.rewards import RewardConfig
from pytest_bankbench.errors import BankBenchError

__all__ = ["BankEnvClient", "EnvServer", "ResetRequest", "ServerError", "main", "serve"]

MAX_BODY = 1_000_000  # bytes: far above any assistant turn, well below a memory problem
MAX_ENVS = 4096  # open environments a server holds (each a bank connection): then 503
ACTION_LOOKS = (
    f'an assistant message such as {{"content": "Hello"}}, {{"tool_calls": [{TOOL_CALL}]}} '
    'or {"end": true}'
)
# A seed or trial: not negative (Gymnasium's seeds are not) and within 64 bits (numpy's, torch's
# and SQLite's integers), so a recorded seed is one any trainer can seed again.
INT_MAX = 2**63 - 1


class _Refused(BankBenchError):
    """A request the server refuses: its HTTP status, a kind and a message for the client."""

    def __init__(self, status: HTTPStatus, kind: str, message: str) -> None:
        super().__init__(message)
        self.status, self.kind = status, kind


@dataclass(frozen=True)
class _Split:
    """The server's tasks, which a reset's task_id must be one of."""

    name: str | None
    task_ids: frozenset[str]
    example: str | None

    def accepted(self) -> str:
        tasks = f"split {self.name!r}" if self.name is not None else "the shipped tasks"
        if self.example is None:
            return f"null: {tasks} has no tasks"
        return (
            f"a task id of {tasks} ({len(self.task_ids):,} tasks, such as {self.example!r}), "
            "or null for one by seed"
        )


class ResetRequest(BaseModel):
    """A POST /reset body; a field's description is what a refusal says it accepts."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    env_id: str | None = Field(
        None, description="an env_id a reset returned (a string), or null for a new environment"
    )
    task_id: str | None = Field(
        None, description="a task id of the server's split (a string), or null for one by seed"
    )
    seed: int | None = Field(
        None, ge=0, le=INT_MAX, description=f"an integer from 0 to {INT_MAX}, or null"
    )
    trial: int | None = Field(
        None, ge=0, le=INT_MAX, description=f"an integer from 0 to {INT_MAX}, or null for 0"
    )
    reward: RewardConfig | None = Field(
        None,
        description='a RewardConfig {"mode", "weights", "safety_gate"} (a new environment\'s), '
        "or null",
    )

    @field_validator("task_id")
    @classmethod
    def _of_the_split(cls, task_id: str | None, info: ValidationInfo) -> str | None:
        """Refused here, before an environment is made, with the request's other faults."""
        split: _Split | None = (info.context or {}).get("split")
        if task_id is None or split is None or task_id in split.task_ids:
            return task_id
        raise ValueError(split.accepted())

    def play(self, env: BankEnv) -> Observation:
        """Reset `env` as asked (a null trial is trial 0, as it always was)."""
        return env.reset(self.task_id, self.seed, self.trial or 0)


def _bad_request(exc: ValidationError, model: type[BaseModel]) -> _Refused:
    """One 400 naming each faulty field, what it got and what it accepts."""
    return _Refused(
        HTTPStatus.BAD_REQUEST,
        "bad_request",
        "; ".join(_fault(error, model) for error in exc.errors(include_url=False)),
    )


def _fault(error: ErrorDetails, model: type[BaseModel]) -> str:
    field = ".".join(map(str, error["loc"])) or "the body"
    got = json.dumps(error["input"], ensure_ascii=False, default=repr)
    got = got if len(got) <= 80 else f"{got[:77]}..."
    if error["type"] == "extra_forbidden":
        accepted = f"no such field; the fields are {', '.join(model.model_fields)}"
    elif error["type"] == "value_error":  # a validator's own message says what it accepts
        accepted = error["msg"].removeprefix("Value error, ")
    elif len(error["loc"]) == 1 and str(error["loc"][0]) in model.model_fields:
        accepted = model.model_fields[str(error["loc"][0])].description or error["msg"]
    else:
        accepted = error["msg"].removeprefix("Input should be ")
    return f"{field}: got {got} (accepted: {accepted})"


class EnvServer(ThreadingHTTPServer):
    """The environments of one server, by id, each used under its own lock."""

    daemon_threads = True

    def __init__(
        self, address: tuple[str, int], split: str | None = "train", max_envs: int = MAX_ENVS
    ) -> None:
        super().__init__(address, _Handler)
        self.split = split
        self.max_envs = max_envs
        self.envs: dict[str, tuple[BankEnv, threading.Lock]] = {}
        self.lock = threading.Lock()

    @property
    def url(self) -> str:
        host, port = self.server_address[:2]
        return f"http://{host!s}:{port}"

    def endpoint(self, method: str, path: str) -> Callable[[dict[str, Any]], dict[str, Any]]:
        """What answers `method path`: an unknown one is a 404 naming it and the endpoints
        there are (a user trial: POST /foo was looked up as an environment, "no environment ''")."""
        endpoints = {
            "POST /reset": self._reset,
            "POST /step": self._step,
            "POST /close": self._close,
            "GET /health": self._health,
        }
        found = endpoints.get(f"{method} {path}")
        if found is None:
            raise _Refused(
                HTTPStatus.NOT_FOUND,
                "no_route",
                f"no endpoint {method} {path}; the endpoints are {', '.join(endpoints)}",
            )
        return found

    def _step(self, body: dict[str, Any]) -> dict[str, Any]:
        env_id = str(body.get("env_id", ""))
        env, lock = self._env(env_id)
        action = body.get("action")
        if action is None:  # env.step(None) said only "not None" (a user trial)
            raise _Refused(
                HTTPStatus.BAD_REQUEST,
                "no_action",
                f'a /step request needs an "action": {ACTION_LOOKS}; the request held '
                f"{', '.join(sorted(body)) or 'no fields'}",
            )
        with lock:
            result = env.step(action)
        return {"env_id": env_id, **result.model_dump(mode="json")}

    def _close(self, body: dict[str, Any]) -> dict[str, Any]:
        env_id = str(body.get("env_id", ""))
        env, lock = self._env(env_id)
        with self.lock:
            self.envs.pop(env_id, None)
        with lock:
            env.close()
        return {"env_id": env_id, "closed": True}

    def _health(self, body: dict[str, Any]) -> dict[str, Any]:
        return {"ok": True, "envs": len(self.envs)}

    def _reset(self, body: dict[str, Any]) -> dict[str, Any]:
        try:
            request = ResetRequest.model_validate(body, context={"split": self._split})
        except ValidationError as exc:
            raise _bad_request(exc, ResetRequest) from None
        if request.env_id is None:
            env_id, observation = self._open(request)
        else:
            env_id = request.env_id
            env, lock = self._env(env_id)
            with lock:
                observation = request.play(env)
        return {"env_id": env_id, "observation": observation.model_dump(mode="json")}

    @functools.cached_property
    def _split(self) -> _Split:
        """Read at the first reset, as before (an unknown split is that reset's refusal)."""
        tasks = BankEnv(self.split).tasks
        ids = frozenset(t.task_id for t in tasks)
        return _Split(self.split, ids, tasks[0].task_id if tasks else None)

    def _open(self, request: ResetRequest) -> tuple[str, Observation]:
        """A new environment, registered only once its first reset succeeded.

        The client of a failed one gets no env_id to close it by: registered first, each one
        held a slot for good (a user trial: after 4,096 failed resets every reset got 503)."""
        with self.lock:
            self._room()
        env, env_id = BankEnv(self.split, reward=request.reward), uuid.uuid4().hex
        try:
            observation = request.play(env)
            with self.lock:
                self._room()  # other requests may have filled the server meanwhile
                self.envs[env_id] = (env, threading.Lock())
        except BaseException:
            env.close()
            raise
        return env_id, observation

    def _room(self) -> None:
        """Refuse a new environment when the server is full (the caller holds the lock)."""
        if len(self.envs) >= self.max_envs:
            raise _Refused(
                HTTPStatus.SERVICE_UNAVAILABLE,
                "too_many_envs",
                f"{len(self.envs)} environments open; close some (POST /close)",
            )

    def _env(self, env_id: str) -> tuple[BankEnv, threading.Lock]:
        with self.lock:
            found = self.envs.get(env_id)
        if found is None:
            raise _Refused(HTTPStatus.NOT_FOUND, "unknown_env", f"no environment {env_id!r}")
        return found


class _Handler(BaseHTTPRequestHandler):
    server: EnvServer
    protocol_version = "HTTP/1.1"  # kept-alive connections: a step is one round trip
    disable_nagle_algorithm = True  # headers and body leave at once (no 40 ms delayed ACK)
    keep_alive = False  # the client's wish, set per request

    def do_GET(self) -> None:
        self._handle("GET")

    def do_POST(self) -> None:
        self._handle("POST")

    def _handle(self, method: str) -> None:
        """Answer the request, whatever comes of it: a bug too, never a dropped connection."""
        # A refusal before the body is read closes the connection (and says so): its bytes would
        # otherwise be read as the next request.
        self.keep_alive, self.close_connection = not self.close_connection, True
        try:
            endpoint = self.server.endpoint(method, self.path)
            body = self._body()
            self._answer(HTTPStatus.OK, endpoint(body))
        except _Refused as exc:
            self._answer(exc.status, {"error": exc.kind, "message": str(exc)})
        except (BankBenchError, ValidationError, ValueError, TypeError) as exc:
            self._answer(HTTPStatus.BAD_REQUEST, {"error": type(exc).__name__, "message": str(exc)})
        except Exception as exc:
            self._fail(exc)

    def _fail(self, exc: Exception) -> None:
        """A bug still gets an answer (it dropped the connection: a user trial's {"seed": 1e400});
        its traceback goes to the log."""
        traceback.print_exc(file=sys.stderr)
        message = f"{type(exc).__name__}: {exc}"
        self._answer(
            HTTPStatus.INTERNAL_SERVER_ERROR, {"error": "internal_error", "message": message}
        )

    def _body(self) -> dict[str, Any]:
        length = self.headers.get("Content-Length") or "0"
        if not length.isdigit():  # read(-1) would wait for the client to hang up
            raise _Refused(
                HTTPStatus.BAD_REQUEST,
                "bad_request",
                f"Content-Length: got {length!r} (accepted: the body's size in bytes)",
            )
        if int(length) > MAX_BODY:
            raise _Refused(HTTPStatus.REQUEST_ENTITY_TOO_LARGE, "too_large", f"{length} bytes")
        data = self.rfile.read(int(length))
        self.close_connection = not self.keep_alive
        try:
            body = json.loads(data or b"{}")
        except ValueError as exc:  # JSON's and UTF-8's errors, and an integer of 4,300+ digits
            raise _Refused(HTTPStatus.BAD_REQUEST, "bad_json", str(exc)) from None
        if not isinstance(body, dict):
            raise _Refused(HTTPStatus.BAD_REQUEST, "bad_json", "the body must be a JSON object")
        return body

    def _answer(self, status: HTTPStatus, payload: dict[str, Any]) -> None:
        data = json.dumps(payload, ensure_ascii=False).encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        if self.keep_alive and self.close_connection:
            self.send_header("Connection", "close")
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet: a training run makes millions of requests."""


def serve(host: str = "127.0.0.1", port: int = 0, split: str | None = "train") -> EnvServer:
    """A server bound to host:port (0: any free port), serving in a daemon thread."""
    server = EnvServer((host, port), split)
    threading.Thread(target=server.serve_forever, daemon=True, name="bank-env-server").start()
    return server


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Serve the bank as an environment over HTTP.")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--split", default="train", help="the tasks' split (train, test, ...)")
    args = parser.parse_args(argv)
    server = EnvServer((args.host, args.port), args.split)
    print(f"serving the bank environment at {server.url}", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
