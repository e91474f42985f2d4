"""The bank as a Gymnasium environment (the `rl` extra: pip install "pytest-bankbench[rl]").

    env = gymnasium.make("pytest_bankbench.environment.gym:BankBench-v0", split="train")
    observation, info = env.reset(seed=0)          # or options={"task_id": "..."}
    observation, reward, terminated, truncated, info = env.step(assistant_message)

Observations are text: the new chat messages (OpenAI format) as ASCII JSON, the policy's system
prompt and the customer's opening on reset, tool results and the customer's reply after a
step; the tool schemas are in the reset's info. An action is the assistant's turn: a JSON
object {"content": ..., "tool_calls": [...]} (or {"end": true}), any other text a message to
the customer, or a dict of the same fields. The info holds the verdict and the rewards once
the session is over (pytest_bankbench/environment/rewards.py). BankEnv underneath plays the
plugin's own session, so the verdict is the one `pytest --bank-model ...` would give.
"""

from __future__ import annotations

import json
import string
from typing import Any, SupportsFloat

import gymnasium
from gymnasium import spaces

from pytest_bankbench.environment.env import BankEnv
from pytest_bankbench.environment.observation import Observation, StepResult

__all__ = ["ENV_ID", "BankGymEnv", "action_text"]

ENV_ID = "BankBench-v0"
# Observations are ASCII JSON (non-ASCII escaped), so a small character set holds every one.
CHARSET = string.printable
MAX_OBSERVATION = 2_000_000
MAX_ACTION = 4096


def action_text(message: dict[str, Any]) -> str:
    """An assistant message as the text action a policy's sampler would produce."""
    return json.dumps(message, ensure_ascii=True)


def _action(action: str | dict[str, Any]) -> dict[str, Any]:
    if isinstance(action, dict):
        return action
    try:
        parsed = json.loads(action)
    except json.JSONDecodeError:
        parsed = None
    if isinstance(parsed, dict) and parsed.keys() & {"content", "tool_calls", "end"}:
        return parsed
    return {"content": action}


class BankGymEnv(gymnasium.Env[str, str]):
    """One BankEnv behind Gymnasium's reset/step; each episode is one session."""

    def __init__(self, env: BankEnv | None = None, **options: Any) -> None:
        """Over `env`, or a BankEnv made of BankEnv's own arguments (split, tasks, customer,
        reward, limits, score_every_step), as gymnasium.make passes them."""
        self.bank = env or BankEnv(**options)
        self.metadata = {"render_modes": []}  # text sessions: nothing to render
        self.observation_space = spaces.Text(MAX_OBSERVATION, charset=CHARSET)
        self.action_space = spaces.Text(MAX_ACTION, charset=CHARSET)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[str, dict[str, Any]]:
        super().reset(seed=seed)
        task_id = (options or {}).get("task_id")
        if task_id is None:
            task_id = self.bank.tasks[int(self.np_random.integers(len(self.bank.tasks)))].task_id
        observation = self.bank.reset(task_id, seed)
        info = {"task_id": observation.task_id, "tools": observation.tools}
        return self._text(observation), info

    def step(self, action: str) -> tuple[str, SupportsFloat, bool, bool, dict[str, Any]]:
        result = self.bank.step(_action(action))
        terminated = result.done and not result.truncated
        return (
            self._text(result.observation),
            result.reward,
            terminated,
            result.truncated,
            (_info(result)),
        )

    def close(self) -> None:
        self.bank.close()

    @staticmethod
    def _text(observation: Observation) -> str:
        return json.dumps(observation.messages, ensure_ascii=True)


def _info(result: StepResult) -> dict[str, Any]:
    info = result.info
    return {
        "task_id": info.task_id,
        "end": info.end,
        "verdict": info.verdict.model_dump(mode="json") if info.verdict else None,
        "rewards": info.rewards.model_dump(mode="json") if info.rewards else None,
        "reward_config": info.reward_config.model_dump(mode="json"),
    }


def _register() -> None:
    if ENV_ID not in gymnasium.registry:
        gymnasium.register(ENV_ID, entry_point=f"{__name__}:BankGymEnv")


_register()
