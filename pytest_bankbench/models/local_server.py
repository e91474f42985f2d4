"""The managed local model's server process: llama.cpp's engine (xllamacpp, a prebuilt wheel)
behind a small OpenAI-compatible front that speaks the turn format of `local_chat`.

    python -m pytest_bankbench.models.local_server --model FILE --port PORT [--threads N ...]

llama.cpp's own server listens on a second loopback port that only this process uses; the front
on `--port` converts each chat request (`to_local_request`), forwards it, and converts the
answer back (`from_local_response`). `POST /apply-template` returns the prompt exactly as the
engine renders it for a request, so a test can read what the model really sees. SIGTERM stops
both. `models/local.py` starts and stops this process; nothing else imports it.
"""

from __future__ import annotations

import argparse
import json
import signal
import sys
import threading
import urllib.error
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from pytest_bankbench.models.local import free_port
from pytest_bankbench.models.local_chat import from_local_response, to_local_request


def start_engine(args: argparse.Namespace) -> Any:
    """llama.cpp's server in this process, on a loopback port of its own."""
    import xllamacpp

    params = xllamacpp.CommonParams()
    params.model.path = args.model
    params.model_alias = args.alias
    params.n_ctx = args.ctx
    params.n_parallel = args.parallel
    params.kv_unified = True  # the slots share one cache: a long dialogue is not cut to ctx/slots
    params.port = args.engine_port
    params.chat_template = args.chat_template
    params.use_jinja = False  # llama.cpp's built-in template of the model's own turn markers
    params.cpuparams.n_threads = args.threads
    params.cpuparams_batch.n_threads = args.threads
    return xllamacpp.Server(params)


class Front(BaseHTTPRequestHandler):
    """OpenAI's chat API in front of the engine."""

    engine = ""  # the engine's base URL, set by main()
    alias = ""
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:
        sys.stdout.write(f"front: {self.command} {self.path} {format % args}\n")
        sys.stdout.flush()

    def _send(self, status: int, payload: Any) -> None:
        data = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _forward(self, path: str, body: Any) -> tuple[int, Any]:
        request = urllib.request.Request(
            self.engine + path,
            data=json.dumps(body).encode(),
            headers={"Content-Type": "application/json"},
        )
        try:
            with urllib.request.urlopen(request, timeout=3600) as response:
                return response.status, json.loads(response.read())
        except urllib.error.HTTPError as exc:
            try:
                return exc.code, json.loads(exc.read())
            except ValueError:
                return exc.code, {"error": {"message": str(exc), "code": exc.code}}

    def do_GET(self) -> None:
        if self.path.rstrip("/") in ("/v1/models", "/models"):
            self._send(200, {"object": "list", "data": [{"id": self.alias, "object": "model"}]})
        elif self.path.rstrip("/") == "/health":
            self._send(200, {"status": "ok"})
        else:
            self._send(404, {"error": {"message": f"no route {self.path}", "code": 404}})

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        try:
            body = json.loads(self.rfile.read(length) or b"{}")
        except ValueError:
            self._send(400, {"error": {"message": "the body is not JSON", "code": 400}})
            return
        if not isinstance(body, dict):
            self._send(400, {"error": {"message": "the body is not a JSON object", "code": 400}})
            return
        path = self.path.rstrip("/")
        if path in ("/v1/chat/completions", "/chat/completions"):
            status, answer = self._forward("/v1/chat/completions", to_local_request(body))
            if status == 200:
                answer = from_local_response(answer, tools=bool(body.get("tools")))
            self._send(status, answer)
        elif path == "/apply-template":
            request = to_local_request(body)
            self._send(*self._forward("/apply-template", {"messages": request["messages"]}))
        else:
            self._send(404, {"error": {"message": f"no route {self.path}", "code": 404}})


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m pytest_bankbench.models.local_server")
    parser.add_argument("--model", required=True, help="the GGUF file")
    parser.add_argument("--port", type=int, required=True, help="the OpenAI-compatible port")
    parser.add_argument("--alias", default="local")
    parser.add_argument("--ctx", type=int, default=16384, help="context tokens (all slots)")
    parser.add_argument("--parallel", type=int, default=4, help="sessions decoded together")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--chat-template", default="gemma", help="llama.cpp's built-in name")
    parser.add_argument("--engine-port", type=int, default=0, help="0: a free port")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    args.engine_port = args.engine_port or free_port()
    engine = start_engine(args)
    Front.engine, Front.alias = f"http://127.0.0.1:{args.engine_port}", args.alias
    front = ThreadingHTTPServer(("127.0.0.1", args.port), Front)
    front.daemon_threads = True
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    signal.signal(signal.SIGINT, lambda *_: stop.set())
    threading.Thread(target=front.serve_forever, daemon=True).start()
    print(f"front: listening on http://127.0.0.1:{args.port}/v1", flush=True)
    stop.wait()
    front.shutdown()
    del engine  # llama.cpp's server stops with its object


if __name__ == "__main__":
    main()
