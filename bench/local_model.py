"""The managed local model's speed and memory: start-up, the cached policy, calls in a session.

Starts the server the way the plugin does for `--bank-model local/gemma3-270m`, times the
warm-up (the policy and the 34 tool schemas evaluated once), then each question's first call
(the cached prefix plus the customer's words) and a second call after a tool result, and
prints the server's peak resident memory (VmHWM in /proc/<pid>/status).

    python bench/local_model.py
    python bench/local_model.py --questions 4 --max-tokens 96 --no-warm-up
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path
from typing import Any

from pytest_bankbench.bank.registry import tool_schemas
from pytest_bankbench.models.local import LocalServer, resolve
from pytest_bankbench.simulation.chat import policy_text

QUESTIONS = (
    "What is the balance of my savings account?",
    "I want to close my fixed deposit early. What will I get?",
    "Please block my debit card, I lost it.",
    "What is the interest rate for a one-year FD?",
)


def proc_status(pid: int) -> dict[str, int]:
    """VmHWM (peak) and VmRSS (now) of a process, in kB."""
    fields: dict[str, int] = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("VmHWM", "VmRSS"):
            fields[key] = int(value.split()[0])
    return fields


def timed(server: LocalServer, body: dict[str, Any]) -> tuple[float, dict[str, Any]]:
    started = time.perf_counter()
    answer: dict[str, Any] = server.post("/v1/chat/completions", body)
    return time.perf_counter() - started, answer


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default="local/gemma3-270m")
    parser.add_argument("--questions", type=int, default=3)
    parser.add_argument("--max-tokens", type=int, default=96)
    parser.add_argument("--no-warm-up", action="store_true")
    args = parser.parse_args()
    log_dir = Path(tempfile.mkdtemp(prefix="bankbench-local-model-"))
    server = LocalServer(resolve(args.model), log_dir=log_dir)
    tools = tool_schemas()
    system: dict[str, object] = {"role": "system", "content": policy_text()}
    try:
        started = time.perf_counter()
        server.start()
        assert server.pid is not None
        print(f"{args.model}: up in {time.perf_counter() - started:.1f} s; log in {log_dir}")
        if not args.no_warm_up:
            started = time.perf_counter()
            server.warm_up([system, {"role": "user", "content": "Hello"}], tools)
            print(f"  warm-up (policy and tools): {time.perf_counter() - started:.1f} s")
        for question in QUESTIONS[: args.questions]:
            body: dict[str, Any] = {
                "messages": [system, {"role": "user", "content": question}],
                "tools": tools,
                "tool_choice": "required",
                "max_tokens": args.max_tokens,
                "temperature": 0,
            }
            first, answer = timed(server, body)
            message = answer["choices"][0]["message"]
            call = message["tool_calls"][0]
            result = {
                "role": "tool",
                "tool_call_id": call["id"],
                "content": json.dumps({"ok": True}),
            }
            second, _ = timed(server, {**body, "messages": [*body["messages"], message, result]})
            print(
                f"  {question!r}: first call {first:.1f} s "
                f"({answer['usage']['prompt_tokens']} prompt tokens, "
                f"{call['function']['name']}), after its result {second:.1f} s"
            )
        status = proc_status(server.pid)
        print(
            f"  peak resident memory {status['VmHWM'] / 1024:.0f} MB, now {status['VmRSS'] / 1024:.0f} MB"
        )
    finally:
        server.stop()


if __name__ == "__main__":
    main()
