"""The `rl` extra: Gymnasium's own make, env checker and rollout loop over the bank, offline."""

from __future__ import annotations

import json
import warnings
from typing import Any

import gymnasium
import pytest
from gymnasium.utils.env_checker import check_env

from pytest_bankbench.environment.gym import ENV_ID, BankGymEnv, action_text
from pytest_bankbench.tasks.loader import select, shipped_tasks
from tests.environment.policies import ChatPolicy

MAKE_ID = f"pytest_bankbench.environment.gym:{ENV_ID}"
TRAIN = select(shipped_tasks(), "train")
ROLLOUT_TASKS = 20


def _rollout(
    env: gymnasium.Env[str, str], task_id: str, agent: str
) -> tuple[float, dict[str, Any]]:
    """Gymnasium's loop: reset, then step until terminated or truncated."""
    task = next(t for t in TRAIN if t.task_id == task_id)
    policy = ChatPolicy(task, agent)
    observation, info = env.reset(options={"task_id": task_id})
    assert info["tools"] and json.loads(observation)[0]["role"] == "system"
    total, done = 0.0, False
    while not done:
        policy.observe(json.loads(observation))
        observation, reward, terminated, truncated, info = env.step(action_text(policy.act()))
        total += float(reward)
        done = terminated or truncated
    return total, info


def test_gymnasium_env_checker_passes() -> None:
    env = gymnasium.make(MAKE_ID, split="train")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a warning of the checker is a failure here
        check_env(env.unwrapped, skip_render_check=True)
    env.close()


def test_a_rollout_loop_over_twenty_train_tasks() -> None:
    env = gymnasium.make(MAKE_ID, split="train")
    tasks = [t.task_id for t in TRAIN[:: len(TRAIN) // ROLLOUT_TASKS][:ROLLOUT_TASKS]]
    assert len(set(tasks)) == ROLLOUT_TASKS
    returns = {task_id: _rollout(env, task_id, "gold") for task_id in tasks}
    failed = {k: v[1]["verdict"]["failure_type"] for k, v in returns.items() if v[0] != 1.0}
    assert not failed
    assert all(info["verdict"]["passed"] and info["end"] for _, info in returns.values())
    # The same loop with a careless policy earns nothing where it acts without a yes.
    careless = [_rollout(env, task_id, "no-consent") for task_id in tasks]
    unasked = [info for reward, info in careless if reward == 0.0]
    assert unasked and all(i["verdict"]["failure_type"] for i in unasked)
    env.close()


def test_seeded_resets_pick_the_same_task_and_plain_text_is_a_message() -> None:
    env = BankGymEnv(split="train")
    first = env.reset(seed=5)[1]["task_id"]
    assert env.reset(seed=5)[1]["task_id"] == first
    observation, reward, terminated, truncated, info = env.step("Hello! How may I help you?")
    assert json.loads(observation)[0]["role"] == "user" or terminated
    assert reward == 0.0 and not truncated and info["verdict"] is None


@pytest.mark.parametrize("mode", ["verdict", "weighted"])
def test_the_reward_config_reaches_the_info(mode: str) -> None:
    from pytest_bankbench.environment import RewardConfig

    env = gymnasium.make(MAKE_ID, split="train", reward=RewardConfig(mode=mode))
    reward, info = _rollout(env, TRAIN[0].task_id, "silent")
    assert info["reward_config"]["mode"] == mode
    rewards = info["rewards"]
    assert reward == (rewards["verdict"] if mode == "verdict" else rewards["weighted"])
