"""BankEnv: the same session machinery as run_session, so the same verdicts, and no shared state."""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

import pytest

from pytest_bankbench.bank.registry import tool_schemas
from pytest_bankbench.environment import (
    ActionError,
    AsyncBankEnv,
    BankEnv,
    ChatAction,
    RewardConfig,
    StepResult,
)
from pytest_bankbench.environment.env import EnvError
from pytest_bankbench.models.customer import LiteLLMCustomer
from pytest_bankbench.models.llm import ModelClient
from pytest_bankbench.models.model_settings import ModelSettings
from pytest_bankbench.run.cases import BankCase
from pytest_bankbench.run.play import play_case
from pytest_bankbench.scoring.scorer import Verdict
from pytest_bankbench.simulation.agents import BUILTIN_AGENTS, AgentAction, GoldAgent
from pytest_bankbench.simulation.chat import policy_text, to_chat
from pytest_bankbench.simulation.customer import ScriptedCustomer
from pytest_bankbench.simulation.session import SessionOver
from pytest_bankbench.simulation.trace import MessageEvent, Trace
from pytest_bankbench.tasks.loader import select, shipped_tasks
from pytest_bankbench.tasks.model import Task
from tests.models.fakes import ScriptedCustomerThroughLitellm

TRAIN = select(shipped_tasks(), "train")
SAMPLE = random.Random(20).sample(TRAIN, 100)


def play(env: BankEnv, task: Task, agent_name: str = "gold") -> StepResult:
    """Drive the environment with a built-in agent reading the env's own events."""
    env.reset(task)
    agent = BUILTIN_AGENTS[agent_name](task)
    result = None
    while not env.done:
        result = env.step(agent.act(env.events))
    assert result is not None
    return result


def _session_view(trace: Trace) -> dict[str, Any]:
    return trace.model_dump(exclude={"duration_s", "agent"})


@pytest.mark.parametrize("agent_name", sorted(BUILTIN_AGENTS))
def test_env_verdicts_equal_run_sessions(agent_name: str) -> None:
    env = BankEnv()
    mismatched: list[str] = []
    for task in SAMPLE:
        result = play(env, task, agent_name)
        expected = play_case(BankCase(task, 0, env.trace().seed), BUILTIN_AGENTS[agent_name](task))
        got = result.info.verdict
        assert got is not None
        if got != expected.verdict or _session_view(env.trace()) != _session_view(expected.trace):
            mismatched.append(
                f"{task.task_id}: {got.failure_type} != {expected.verdict.failure_type}"
            )
        assert result.reward == (1.0 if expected.verdict.passed else 0.0)
    env.close()
    assert not mismatched, "\n".join(mismatched[:5])


def test_the_sample_reaches_every_failure_of_the_baselines() -> None:
    """The identity test above is not vacuous: its sessions pass and fail for many reasons."""
    env = BankEnv()
    seen = {
        play(env, task, name).info.verdict.failure_type  # type: ignore[union-attr]
        for name in BUILTIN_AGENTS
        for task in SAMPLE[:20]
    }
    assert None in seen and len(seen) >= 5


def test_reset_shows_the_policy_the_tools_and_the_opening() -> None:
    task = TRAIN[0]
    observation = BankEnv().reset(task)
    opening = ScriptedCustomer(task).open()
    assert observation.system_prompt == policy_text() == observation.messages[0]["content"]
    assert observation.messages[1:] == [{"role": "user", "content": opening}]
    assert observation.customer == opening and observation.tools == tool_schemas()


def test_a_step_shows_tool_results_then_the_customer_reply() -> None:
    task = TRAIN[0]
    env = BankEnv()
    env.reset(task)
    read = next(g for g in task.gold if g.instruction == 0)
    function = {"name": read.tool, "arguments": json.dumps(read.arguments)}
    call = {"id": "c1", "type": "function", "function": function}
    result = env.step({"content": "thinking aloud", "tool_calls": [call]})
    assert [m["role"] for m in result.observation.messages] == ["tool"]
    assert result.observation.customer is None and result.observation.tool_results[0].ok
    result = env.step(ChatAction(content="Hello! Which deposit do you mean?"))
    assert result.observation.messages == [{"role": "user", "content": result.observation.customer}]
    said = env.events[-2]
    assert isinstance(said, MessageEvent) and said.role == "agent"


def test_the_observations_of_each_session_add_up_to_its_chat() -> None:
    """One environment, reset again and again: each session's observations hold exactly the
    environment's side of that session's chat (simulation/chat.py's to_chat of its trace)."""
    env = BankEnv()
    for task in SAMPLE[:8]:
        seen = env.reset(task).messages
        agent = GoldAgent(task)
        while not env.done:
            seen += env.step(agent.act(env.events)).observation.messages
        chat = to_chat(env.trace().events)
        assert seen == [m for m in chat if m["role"] != "assistant"], task.task_id


def test_chat_messages_play_as_the_plugin_reads_a_model() -> None:
    """A policy sending OpenAI-format assistant messages gets the gold agent's verdict."""
    env = BankEnv()
    for task in SAMPLE[:15]:
        env.reset(task)
        agent = GoldAgent(task)
        result = None
        while not env.done:
            action = agent.act(env.events)
            calls = [
                {
                    "id": c.call_id,
                    "function": {"name": c.name, "arguments": json.dumps(c.arguments)},
                }
                for c in action.tool_calls
            ]
            message = {"content": action.message, "tool_calls": calls, "end": action.end}
            if calls and action.message:  # the plugin would drop the text: send it apart
                env.step({"tool_calls": calls})
                message = {"content": action.message}
            result = env.step(message)
        assert result is not None and result.info.verdict is not None
        assert result.info.verdict.passed, (task.task_id, result.info.verdict.failure_type)


def test_many_environments_interleaved_keep_their_own_sessions() -> None:
    tasks = SAMPLE[:8]
    alone = {t.task_id: play(BankEnv(), t).info.verdict for t in tasks}
    envs = [BankEnv() for _ in tasks]
    agents = [GoldAgent(t) for t in tasks]
    for env, task in zip(envs, tasks, strict=True):
        env.reset(task)
    finals: dict[str, Verdict | None] = {}
    while not all(e.done for e in envs):
        for env, agent in zip(envs, agents, strict=True):
            if not env.done:
                finals[env.task.task_id] = env.step(agent.act(env.events)).info.verdict
    assert finals == alone and all(v is not None and v.passed for v in finals.values())


def test_async_environments_run_together() -> None:
    tasks = SAMPLE[:6]

    async def one(task: Task) -> bool:
        env = AsyncBankEnv(BankEnv())
        await env.reset(task)
        agent = GoldAgent(task)
        result = None
        while not env.env.done:
            result = await env.step(agent.act(env.env.events))
        env.close()
        return result is not None and result.info.verdict is not None and result.info.verdict.passed

    async def together() -> list[bool]:
        return await asyncio.gather(*(one(t) for t in tasks))

    assert asyncio.run(together()) == [True] * len(tasks)


def test_the_llm_customer_plays_through_an_offloaded_async_env() -> None:
    settings = ModelSettings(model="openai/fake-customer", backoff_s=0.0)

    def llm(task: Task) -> LiteLLMCustomer:
        return LiteLLMCustomer(ModelClient(settings, ScriptedCustomerThroughLitellm(task)), task)

    task = SAMPLE[0]
    env = AsyncBankEnv(BankEnv(customer=llm))
    assert env.offload

    async def run() -> StepResult:
        await env.reset(task)
        agent, result = GoldAgent(task), None
        while not env.env.done:
            result = await env.step(agent.act(env.env.events))
        assert result is not None
        return result

    result = asyncio.run(run())
    assert env.env.trace().customer == "llm:openai/fake-customer"
    assert result.info.verdict is not None and result.info.verdict.passed


def test_splits_stay_disjoint_and_a_seed_picks_the_task() -> None:
    train, test = BankEnv("train"), BankEnv("test")
    assert {t.task_id for t in train.tasks}.isdisjoint(t.task_id for t in test.tasks)
    assert all("train" in t.splits for t in train.tasks)
    assert train.reset(seed=7).task_id == train.reset(seed=7).task_id
    assert len({train.reset(seed=s).task_id for s in range(10)}) > 1
    with pytest.raises(EnvError):
        train.reset(test.tasks[0].task_id)


def test_a_move_after_the_end_and_a_step_before_a_reset_are_refused() -> None:
    env = BankEnv()
    with pytest.raises(EnvError):
        env.step(AgentAction(end=True))
    env.reset(TRAIN[0])
    result = env.step(AgentAction(end=True))
    assert result.done and not result.truncated and result.info.end == "agent_end"
    with pytest.raises(SessionOver):
        env.step(AgentAction(message="hello?"))
    env.reset(TRAIN[0])
    with pytest.raises(ActionError):
        env.step("hello")


def test_dense_rewards_add_up_to_the_final_weighted_reward() -> None:
    env = BankEnv(reward=RewardConfig(mode="weighted"), score_every_step=True)
    for name in ("gold", "silent", "no-reads"):
        for task in SAMPLE[:5]:
            env.reset(task)
            agent, paid, result = BUILTIN_AGENTS[name](task), [], None
            while not env.done:
                result = env.step(agent.act(env.events))
                assert result.info.verdict is not None  # the verdict so far, every step
                paid.append(result.reward)
            assert result is not None and result.info.rewards is not None
            assert sum(paid) == pytest.approx(result.info.rewards.weighted, abs=1e-5)
            assert result.info.reward_config.mode == "weighted"


def _state(customer: ScriptedCustomer) -> dict[str, Any]:
    return {k: v for k, v in vars(customer).items() if k != "reading"} | {
        "reading": repr(customer.reading)
    }


def test_a_copied_customer_leaves_its_prototype_as_made() -> None:
    env = BankEnv()
    for task in SAMPLE[:10]:
        first = play(env, task)
        kept = env._customers.kept[id(task)][1]  # type: ignore[attr-defined]
        assert _state(kept) == _state(ScriptedCustomer(task)), task.task_id
        again = play(env, task)
        assert again.info.verdict == first.info.verdict
        assert env.trace().events == play_case(BankCase(task, 0, 0), GoldAgent(task)).trace.events
