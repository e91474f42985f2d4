"""Peak resident memory of the managed local model's servers (issue 10 item 11).

Starts the llama.cpp server(s) the way the plugin does for `--bank-model local/gemma3-270m`
(one per role, cores shared between them), sends each a few chat requests carrying the bank's
policy and every tool schema (both servers at once, as two sessions under -n 2 do), and prints
each server's peak RSS (VmHWM in /proc/<pid>/status).

    python bench/local_memory.py                        # agent and customer servers
    python bench/local_memory.py --roles agent          # one server
    python bench/local_memory.py --logits-all true      # the old llama_cpp.server default
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from pytest_bankbench.bank.registry import tool_schemas
from pytest_bankbench.models.local import ROLES, LocalServer, resolve, thread_share
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


def chat(server: LocalServer, question: str, max_tokens: int) -> tuple[float, dict[str, Any]]:
    """One tool-carrying chat request; its wall time and the response."""
    body = {
        "model": server.spec.name,
        "messages": [
            {"role": "system", "content": policy_text()},
            {"role": "user", "content": question},
        ],
        "tools": tool_schemas(),
        "tool_choice": "auto",
        "max_tokens": max_tokens,
        "temperature": 0,
    }
    request = urllib.request.Request(
        f"{server.api_base}/chat/completions",
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
    )
    started = time.perf_counter()
    with urllib.request.urlopen(request, timeout=600) as response:
        answer: dict[str, Any] = json.loads(response.read())
    return time.perf_counter() - started, answer


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default="local/gemma3-270m")
    parser.add_argument("--roles", default=",".join(ROLES), help="comma-separated roles")
    parser.add_argument("--requests", type=int, default=3, help="chat requests per server")
    parser.add_argument("--max-tokens", type=int, default=120)
    parser.add_argument(
        "--logits-all", choices=("true", "false"), default="false", help="to measure the old way"
    )
    args = parser.parse_args()
    roles = [r for r in args.roles.split(",") if r]
    extra = ("--logits_all", "true") if args.logits_all == "true" else ()
    log_dir = Path(tempfile.mkdtemp(prefix="bankbench-local-memory-"))
    servers = [
        LocalServer(resolve(args.model), role=role, log_dir=log_dir, extra_args=extra)
        for role in roles
    ]
    print(
        f"{len(servers)} server(s) of {args.model}, logits_all {args.logits_all}, "
        f"{thread_share(servers[0].servers)} threads each; logs in {log_dir}"
    )
    try:
        for server in servers:
            started = time.perf_counter()
            server.start()
            assert server.pid is not None
            print(
                f"  {server.role}: pid {server.pid} up in {time.perf_counter() - started:.1f} s, "
                f"RSS {proc_status(server.pid)['VmRSS'] / 1024:.0f} MB"
            )
        for index in range(args.requests):
            question = QUESTIONS[index % len(QUESTIONS)]
            # Both servers at once, as two sessions in flight under -n 2 keep them.
            with ThreadPoolExecutor(len(servers)) as pool:
                results = list(
                    pool.map(
                        chat, servers, [question] * len(servers), [args.max_tokens] * len(servers)
                    )
                )
            for server, (seconds, answer) in zip(servers, results, strict=True):
                message = answer["choices"][0]["message"]
                calls = [c["function"]["name"] for c in message.get("tool_calls") or []]
                usage = answer.get("usage", {})
                print(
                    f"  request {index + 1} {server.role}: {seconds:.1f} s, "
                    f"{usage.get('prompt_tokens')} prompt tokens, tool calls {calls or 'none'}"
                )
        print("peak resident memory (VmHWM):")
        for server in servers:
            assert server.pid is not None
            status = proc_status(server.pid)
            print(
                f"  {server.role}: {status['VmHWM'] / 1024:.0f} MB peak, "
                f"{status['VmRSS'] / 1024:.0f} MB now"
            )
    finally:
        for server in servers:
            server.stop()


if __name__ == "__main__":
    main()
