"""A loopback OpenAI-compatible server that plays a script of faults, for the real HTTP path.

Each chat request takes the next step of the script (or the default step once the script is
empty): an answer (text or tool call), an error status with an OpenAI-shaped body, a hang, a
dropped connection, a malformed body. The server counts every request it receives, so a test
can tell how many attempts really reached the wire (the SDK's own retries included).
"""

from __future__ import annotations

import json
import socket
import threading
from collections import deque
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Literal

StepKind = Literal["text", "tool_call", "error", "hang", "late", "drop", "malformed", "die"]


@dataclass(frozen=True)
class Step:
    """What the server does with one chat request."""

    kind: StepKind
    text: str = ""
    status: int = 200
    body: dict[str, Any] = field(default_factory=dict)
    seconds: float = 0.0
    echo_key: bool = False  # append the presented key to the error message, as careless servers do
    echo_headers: tuple[str, ...] = ()  # append these request headers' values too (lower case)


def answer(text: str = "Thank you, I have noted your request.") -> Step:
    return Step("text", text=text)


def tool_call(name: str, arguments: str) -> Step:
    """A tool call whose arguments are sent verbatim (so they may be malformed JSON)."""
    return Step("tool_call", text=json.dumps({"name": name, "arguments": arguments}))


def error(
    status: int,
    message: str,
    kind: str | None = None,
    code: str | None = None,
    echo_key: bool = False,
    echo_headers: tuple[str, ...] = (),
) -> Step:
    """An error status with OpenAI's error body."""
    return Step(
        "error",
        status=status,
        body={"error": {"message": message, "type": kind, "param": None, "code": code}},
        echo_key=echo_key,
        echo_headers=echo_headers,
    )


def rate_limited() -> Step:
    return error(429, "Rate limit reached for requests", "requests", "rate_limit_exceeded")


def server_error(status: int = 500, echo_key: bool = False) -> Step:
    message = "The server had an error while processing your request."
    return error(status, message, "server_error", echo_key=echo_key)


def unauthorized() -> Step:
    """401 that echoes the presented key back, as careless providers do: nothing may print it."""
    return error(
        401, "Incorrect API key provided.", "invalid_request_error", "invalid_api_key", True
    )


def model_not_found(model: str = "no-such-model") -> Step:
    return error(
        404,
        f"The model `{model}` does not exist or you do not have access to it.",
        "invalid_request_error",
        "model_not_found",
    )


def context_overflow() -> Step:
    return error(
        400,
        "This model's maximum context length is 8192 tokens. However, your messages "
        "resulted in 9120 tokens. Please reduce the length of the messages.",
        "invalid_request_error",
        "context_length_exceeded",
    )


def content_filter() -> Step:
    """Azure OpenAI's prompt filter as an OpenAI-compatible gateway relays it (a plain 400)."""
    return error(
        400,
        "The response was filtered due to the prompt triggering Azure OpenAI's content "
        "management policy. Please modify your prompt and retry.",
        None,
        "content_filter",
    )


def hang(seconds: float = 30.0) -> Step:
    """No answer for `seconds` (longer than the client's timeout)."""
    return Step("hang", seconds=seconds)


def late(seconds: float) -> Step:
    """The usual answer (the model list to a GET), after `seconds`."""
    return Step("late", text="Thank you, I have noted your request.", seconds=seconds)


def dropped() -> Step:
    """The connection closes without any response."""
    return Step("drop")


def malformed() -> Step:
    """200 with a body that is not JSON."""
    return Step("malformed", text='{"id": "chatcmpl-broken", "choices": [')


def die() -> Step:
    """The server goes away: this connection drops, every later one is refused."""
    return Step("die")


class _Handler(BaseHTTPRequestHandler):
    server: _Server

    def log_message(self, format: str, *args: object) -> None:
        return

    def do_GET(self) -> None:
        """`GET /models` (the run's endpoint check): the list, or the server's `models` step."""
        headers = {name.lower(): value for name, value in self.headers.items()}
        step = self.server.owner.models_step(self.path, headers)
        if step is not None and step.kind == "late":
            self.server.owner.released.wait(step.seconds)
        if step is None or step.kind == "late":
            self._json(200, {"object": "list", "data": [{"id": "fake", "object": "model"}]})
        else:
            self._play(step, {})

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        body = json.loads(self.rfile.read(length) or b"{}")
        headers = {name.lower(): value for name, value in self.headers.items()}
        self._play(self.server.owner.next_step(body, headers), body)

    def _play(self, step: Step, body: dict[str, Any]) -> None:
        if step.kind == "die":
            self.server.owner.die()
        if step.kind == "hang":
            self.server.owner.released.wait(step.seconds)
            self.close_connection = True
            return
        if step.kind in ("drop", "die"):
            self.connection.shutdown(socket.SHUT_RDWR)
            self.close_connection = True
            return
        if step.kind == "late":
            self.server.owner.released.wait(step.seconds)
        if step.kind == "malformed":
            self._raw(200, step.text.encode())
        elif step.kind == "error":
            body = json.loads(json.dumps(step.body))
            if step.echo_key:
                presented = self.headers.get("Authorization", "").removeprefix("Bearer ")
                body["error"]["message"] += f" Key presented: {presented}"
            for name in step.echo_headers:
                body["error"]["message"] += f" {name}: {self.headers.get(name, '')}"
            self._json(step.status, body)
        else:
            self._json(200, _completion(step, body.get("model", "fake")))

    def _json(self, status: int, body: dict[str, Any]) -> None:
        self._raw(status, json.dumps(body).encode())

    def _raw(self, status: int, data: bytes) -> None:
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


def _completion(step: Step, model: str) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": step.text}
    if step.kind == "tool_call":
        call = json.loads(step.text)
        message = {
            "role": "assistant",
            "content": None,
            "tool_calls": [{"id": "call-1", "type": "function", "function": call}],
        }
    return {
        "id": "chatcmpl-fault",
        "object": "chat.completion",
        "created": 0,
        "model": model,
        "choices": [
            {
                "index": 0,
                "message": message,
                "finish_reason": "tool_calls" if step.kind == "tool_call" else "stop",
            }
        ],
        "usage": {"prompt_tokens": 100, "completion_tokens": 10, "total_tokens": 110},
    }


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    owner: FaultServer


class FaultServer:
    """The scripted server on 127.0.0.1 and a free port; `requests` holds each request body,
    `headers` its headers (names in lower case); `gets` the path and headers of each GET, which
    `models` answers (None: the model list)."""

    def __init__(self, default: Step | None = None) -> None:
        self.default = default or answer()
        self.steps: deque[Step] = deque()
        self.requests: list[dict[str, Any]] = []
        self.headers: list[dict[str, str]] = []
        self.models: Step | None = None
        self.gets: list[tuple[str, dict[str, str]]] = []
        self._stopped = False
        self.released = threading.Event()
        self._lock = threading.Lock()
        self._server = _Server(("127.0.0.1", 0), _Handler)
        self._server.owner = self
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def port(self) -> int:
        return int(self._server.server_address[1])

    @property
    def api_base(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    @property
    def count(self) -> int:
        with self._lock:
            return len(self.requests)

    def script(self, *steps: Step, default: Step | None = None) -> FaultServer:
        """Queue these steps (after any still queued); `default` answers once they run out."""
        with self._lock:
            self.steps.extend(steps)
            if default is not None:
                self.default = default
        return self

    def next_step(self, body: dict[str, Any], headers: dict[str, str]) -> Step:
        with self._lock:
            self.requests.append(body)
            self.headers.append(headers)
            if self._stopped:
                return dropped()  # dying: the requests it still accepts go unanswered
            return self.steps.popleft() if self.steps else self.default

    def models_step(self, path: str, headers: dict[str, str]) -> Step | None:
        with self._lock:
            self.gets.append((path, headers))
            return dropped() if self._stopped else self.models

    def start(self) -> FaultServer:
        self._thread.start()
        return self

    def die(self) -> None:
        """Stop answering now (from a handler): shutting down waits for the serving loop."""
        with self._lock:
            self._stopped = True
        threading.Thread(target=self._close, daemon=True).start()

    def stop(self) -> None:
        with self._lock:
            if self._stopped:
                return
            self._stopped = True
        self._close()

    def _close(self) -> None:
        self.released.set()  # hanging handlers return at once
        self._server.shutdown()
        self._server.server_close()  # from now on every connection is refused


def closed_port() -> str:
    """An api_base on 127.0.0.1 where nothing listens (connection refused)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"http://127.0.0.1:{port}/v1"
