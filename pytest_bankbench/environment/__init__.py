"""The bank as a reinforcement-learning environment (README: "Training on the bank").

BankEnv and AsyncBankEnv play one session move by move with the session machinery the plugin
uses; rewards.py turns the verdict into the terminal reward and per-check components;
gym.py registers a Gymnasium environment (the `rl` extra); server.py serves reset/step as
JSON over HTTP, with a client.
"""

from pytest_bankbench.environment.env import (
    AsyncBankEnv,
    BankEnv,
    CustomerFactory,
    EnvError,
    SessionOver,
)
from pytest_bankbench.environment.observation import (
    ActionError,
    ChatAction,
    Observation,
    StepInfo,
    StepResult,
)
from pytest_bankbench.environment.rewards import (
    COMPONENT_ITEMS,
    DEFAULT_WEIGHTS,
    RewardConfig,
    Rewards,
)

__all__ = [
    "COMPONENT_ITEMS",
    "DEFAULT_WEIGHTS",
    "ActionError",
    "AsyncBankEnv",
    "BankEnv",
    "ChatAction",
    "CustomerFactory",
    "EnvError",
    "Observation",
    "RewardConfig",
    "Rewards",
    "SessionOver",
    "StepInfo",
    "StepResult",
]
