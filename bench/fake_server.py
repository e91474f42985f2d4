"""A loopback OpenAI-compatible endpoint that answers every chat request after a fixed delay.

Used by bench/model_path.py to measure parallel efficiency without a real model. Threaded, so
concurrent requests wait concurrently, like a real server with spare capacity.
"""

from __future__ import annotations

import json
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class Handler(BaseHTTPRequestHandler):
    delay_s = 1.0
    # Keep-alive, as real endpoints do: HTTP/1.0 would cost the client a new connection a call.
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True  # as real servers do: no 40 ms delayed-ACK stall per reply

    def log_message(self, format: str, *args: object) -> None:
        return

    def do_GET(self) -> None:
        self._send({"object": "list", "data": [{"id": "fake", "object": "model"}]})

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        self.rfile.read(length)
        time.sleep(self.delay_s)
        self._send(
            {
                "id": "chatcmpl-fake",
                "object": "chat.completion",
                "created": 0,
                "model": "fake",
                "choices": [
                    {
                        "index": 0,
                        "finish_reason": "stop",
                        "message": {
                            "role": "assistant",
                            "content": "Thank you, I have noted your request.",
                        },
                    }
                ],
                "usage": {"prompt_tokens": 100, "completion_tokens": 10, "total_tokens": 110},
            }
        )

    def _send(self, body: dict[str, object]) -> None:
        data = json.dumps(body).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


def serve(port: int, delay_s: float) -> ThreadingHTTPServer:
    Handler.delay_s = delay_s
    server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


if __name__ == "__main__":
    serve(int(sys.argv[1]), float(sys.argv[2]) if len(sys.argv) > 2 else 1.0)
    threading.Event().wait()
