"""Rewards: the verdict as the terminal reward, and per-check components that a corruption of
the metamorphic suite lowers exactly where it should."""

from __future__ import annotations

import random

import pytest

from pytest_bankbench.environment import BankEnv, RewardConfig, StepResult
from pytest_bankbench.environment.rewards import COMPONENT_ITEMS, SAFEGUARDS, components
from pytest_bankbench.scoring.scorer import CHECKS, FAILURE_CHECKS
from pytest_bankbench.simulation.agents import BUILTIN_AGENTS, Agent
from pytest_bankbench.tasks.loader import select, shipped_tasks
from pytest_bankbench.tasks.model import Task
from tests.scoring.test_metamorphic import CORRUPTIONS
from tests.scoring.variants import PlanAgent, plan

TASKS = list(shipped_tasks())
SHUFFLED = random.Random(3).sample(TASKS, len(TASKS))
PER_CORRUPTION = 12  # tasks each corruption is played on (the first that it applies to)
CHECK_OF = dict(FAILURE_CHECKS)


def _play(env: BankEnv, task: Task, agent: Agent) -> StepResult:
    env.reset(task)
    result = None
    while not env.done:
        result = env.step(agent.act(env.events))
    assert result is not None and result.info.rewards is not None
    return result


def test_every_check_has_a_documented_component() -> None:
    assert set(COMPONENT_ITEMS) == set(CHECKS)


@pytest.mark.parametrize("kind", sorted(CORRUPTIONS))
def test_a_corruption_lowers_exactly_its_component(kind: str) -> None:
    style, applies, failure_types, may_fail = CORRUPTIONS[kind]
    env = BankEnv(split=None, reward=RewardConfig(mode="weighted"))
    tasks = [t for t in SHUFFLED if applies(t)][:PER_CORRUPTION]
    assert tasks, f"{kind} applies to no task"
    wrong: list[str] = []
    for task in tasks:
        good = _play(env, task, BUILTIN_AGENTS["gold"](task)).info.rewards
        result = _play(env, task, PlanAgent(plan(task, style, 0), task))
        bad, verdict = result.info.rewards, result.info.verdict
        assert good is not None and bad is not None and verdict is not None
        assert set(good.components.values()) == {1.0} and good.weighted == 1.0
        lowered = {c for c, v in bad.components.items() if v < 1.0}
        own = CHECK_OF[verdict.failure_type] if verdict.failure_type else None
        if (
            verdict.failure_type not in failure_types
            or own not in lowered
            or (may_fail is not None and lowered - may_fail)
            or lowered != {c for c, ok in verdict.checks.items() if not ok}
            or result.reward >= good.weighted
        ):
            wrong.append(f"{task.task_id}: {verdict.failure_type}, lowered {sorted(lowered)}")
    assert not wrong, "\n".join(wrong[:5])


def test_components_are_one_exactly_when_their_check_passes() -> None:
    env = BankEnv()
    tasks = select(TASKS, "train")[:25]
    partial = 0
    for name, make in BUILTIN_AGENTS.items():
        for task in tasks:
            result = _play(env, task, make(task))
            rewards, verdict = result.info.rewards, result.info.verdict
            assert rewards is not None and verdict is not None
            for check in CHECKS:
                value = rewards.components[check]
                assert 0.0 <= value <= 1.0
                assert (value == 1.0) == verdict.checks[check], (name, task.task_id, check)
                partial += 0.0 < value < 1.0
            assert rewards.verdict == (1.0 if verdict.passed else 0.0) == result.reward
    assert partial > 0  # the components grade partly right sessions, not only pass/fail


def test_a_component_counts_its_share_of_what_the_check_judges() -> None:
    """Hand-checked: the no-reads baseline skips the reads, so its required-calls component is
    the share of the gold chain it covered, and the safeguards stay whole."""
    env = BankEnv()
    task = next(t for t in select(TASKS, "train") if len(t.gold) >= 3)
    result = _play(env, task, BUILTIN_AGENTS["no-reads"](task))
    rewards, verdict = result.info.rewards, result.info.verdict
    assert rewards is not None and verdict is not None
    missing = len(verdict.evidence["required_calls"])
    assert missing >= 1
    assert rewards.components["required_calls"] == pytest.approx(1 - missing / len(task.gold))
    trace = env.trace()
    expected_rows = len(task.expected_changes or ())
    assert components(task, trace, verdict, expected_rows) == rewards.components


def test_a_failed_safeguard_zeroes_the_weighted_reward_unless_ungated() -> None:
    task = select(TASKS, "train")[0]
    gated = _play(
        BankEnv(reward=RewardConfig(mode="weighted")), task, BUILTIN_AGENTS["ask-secrets"](task)
    )
    config = RewardConfig(mode="weighted", safety_gate=False)
    ungated = _play(BankEnv(reward=config), task, BUILTIN_AGENTS["ask-secrets"](task))
    assert gated.info.rewards is not None and ungated.info.rewards is not None
    assert gated.info.rewards.components["no_secrets"] == 0.0 and "no_secrets" in SAFEGUARDS
    assert gated.reward == 0.0 < ungated.reward
    assert ungated.info.reward_config.safety_gate is False


def test_weights_are_validated_and_recorded() -> None:
    with pytest.raises(ValueError):
        RewardConfig(weights={"final_state": -1.0})
    config = RewardConfig(mode="weighted", weights={"final_state": 3.0, "required_outputs": 1.0})
    task = select(TASKS, "train")[0]
    result = _play(BankEnv(reward=config), task, BUILTIN_AGENTS["silent"](task))
    rewards = result.info.rewards
    assert rewards is not None and result.info.reward_config == config
    parts = rewards.components
    assert result.reward == pytest.approx(
        (3 * parts["final_state"] + parts["required_outputs"]) / 4
    )


def test_doing_nothing_earns_no_weighted_reward() -> None:
    """The checks an idle agent passes only because it did nothing (no write to be impure or
    unconsented, no row changed) do not count: the do-nothing baselines earned 0.55 on
    average over these tasks while they did."""
    env = BankEnv(reward=RewardConfig(mode="weighted"))
    for name in ("reply-only", "claim-done"):
        for task in select(TASKS, "train")[:30]:
            result = _play(env, task, BUILTIN_AGENTS[name](task))
            rewards = result.info.rewards
            assert rewards is not None and result.reward == 0.0, (name, task.task_id)
            assert "write_purity" not in rewards.judged
    gold = _play(env, TASKS[0], BUILTIN_AGENTS["gold"](TASKS[0])).info.rewards
    assert gold is not None and "required_calls" in gold.judged and gold.weighted == 1.0
