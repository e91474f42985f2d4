"""The bank as a reinforcement-learning environment: `reset(task, seed)`, then `step(action)`.

Each environment owns its session: a freshly seeded bank, the customer (scripted by default,
any Customer from a factory otherwise, such as the LLM customer of models/customer.py) and the
session's Stepper (simulation/session.py), the very machinery `run_session` plays. The verdict
is the scorer's on the same trace, so a policy's verdict here is the one the pytest plugin
gives it (tests/environment/test_env.py holds every built-in agent to that). Nothing is shared
between environments but read-only task data and the bank's connection pool: many run in one
process, and AsyncBankEnv steps them under asyncio.
"""

from __future__ import annotations

import asyncio
import copy
import random
import time
from collections.abc import Callable, Sequence
from types import TracebackType

from pytest_bankbench.bank.registry import tool_schemas
from pytest_bankbench.bank.store import Bank
from pytest_bankbench.environment.observation import (
    Observation,
    StepInfo,
    StepResult,
    as_action,
    new_messages,
)
from pytest_bankbench.environment.rewards import RewardConfig, Rewards, rewards
from pytest_bankbench.errors import BankBenchError
from pytest_bankbench.run.cases import session_seed
from pytest_bankbench.run.play import expected_changes
from pytest_bankbench.scoring.scorer import Verdict, score
from pytest_bankbench.simulation import session
from pytest_bankbench.simulation.chat import policy_text
from pytest_bankbench.simulation.customer import Customer, ScriptedCustomer
from pytest_bankbench.simulation.session import Limits, Stepper
from pytest_bankbench.simulation.trace import Event, MessageEvent, ToolEvent, Trace
from pytest_bankbench.tasks.loader import select, shipped_tasks
from pytest_bankbench.tasks.model import Task

__all__ = ["AsyncBankEnv", "BankEnv", "CustomerFactory", "EnvError", "SessionOver"]

CustomerFactory = Callable[[Task], Customer]
POLICY_NAME = "policy"  # the trace's agent name for a session played through the environment


class EnvError(BankBenchError, RuntimeError):
    """The environment was used out of order (a step before a reset) or given an unknown task."""


class SessionOver(EnvError, session.SessionOver):
    """A step after the session ended (reset for the next one); still the session's own
    SessionOver, so an `except` that caught that one catches this."""


class Prototypes:
    """Scripted customers made once per task and copied for each session.

    Reading a task's script (its ids, its speakable facts, the actions it asks for) is about a
    tenth of a session; a copy shares the prototype's frozen parts and gets its own copy of
    every list, set and dict it may change (tests/environment/test_env.py holds a prototype
    unchanged by the sessions of its copies)."""

    def __init__(self) -> None:
        self.kept: dict[int, tuple[Task, ScriptedCustomer]] = {}

    def __call__(self, task: Task) -> ScriptedCustomer:
        kept = self.kept.get(id(task))
        if kept is None or kept[0] is not task:
            kept = self.kept[id(task)] = (task, ScriptedCustomer(task))
        fresh = copy.copy(kept[1])
        for name, value in vars(fresh).items():
            if isinstance(value, list | set | dict):
                setattr(fresh, name, copy.copy(value))
        return fresh


class BankEnv:
    """One session at a time of a split's tasks (or any tasks), move by move.

    `score_every_step` scores the trace after each step (the verdict so far in the info); with
    the weighted reward each step then pays the change in the weighted reward, so a session's
    rewards add up to its final weighted reward. Off, a step costs no scoring and the reward
    comes whole at the end.
    """

    def __init__(
        self,
        split: str | None = "train",
        tasks: Sequence[Task] | None = None,
        customer: CustomerFactory = ScriptedCustomer,
        reward: RewardConfig | None = None,
        limits: Limits = Limits(),
        score_every_step: bool = False,
    ) -> None:
        pool = list(tasks) if tasks is not None else list(shipped_tasks())
        self.split = split
        self.tasks = select(pool, split) if split is not None else pool
        self._by_id = {t.task_id: t for t in self.tasks}
        self.customer_factory = customer
        self._customers: CustomerFactory = (
            Prototypes() if customer is ScriptedCustomer else customer
        )
        self.reward_config = reward or RewardConfig()
        self.limits = limits
        self.score_every_step = score_every_step
        self._tools = tool_schemas()
        self._run: Stepper | None = None
        self._bank: Bank | None = None
        self._task: Task | None = None
        self._trial = self._seed = 0
        self._seen = 0
        self._paid = 0.0
        self._started = 0.0
        self._final: tuple[Verdict, Rewards] | None = None

    # -- the session ---------------------------------------------------------------------
    def reset(
        self, task: Task | str | None = None, seed: int | None = None, trial: int = 0
    ) -> Observation:
        """Start a session: of `task` (a Task or an id of the split), else of a task of the
        split picked by `seed`. Its recorded seed is `seed`, else the plugin's for the trial."""
        self.close()
        picked = self._pick(task, seed)
        self._task, self._trial = picked, trial
        self._seed = seed if seed is not None else session_seed(picked.task_id, trial)
        self._bank = Bank(picked.customer_id, picked.task_date, picked.bank_seed)
        customer = self._customers(picked)
        # A model-backed customer keeps to its deadline (Clocked, read without the Protocol's
        # isinstance: that walks the class's attributes on each call).
        start_clock = getattr(customer, "start_clock", None)
        if callable(start_clock):
            start_clock()
        self._run = Stepper(customer, self._bank, self.limits)
        self._final, self._paid, self._started = None, 0.0, time.perf_counter()
        self._seen = 0
        self._run.open()
        return Observation(
            task_id=picked.task_id,
            messages=[{"role": "system", "content": policy_text()}, *self._new()],
            customer=self._run.customer_text(),
            tools=self._tools,
            system_prompt=policy_text(),
        )

    def step(self, action: object) -> StepResult:
        """Play one move (AgentAction, ChatAction or its dict) and show what came of it."""
        run = self._running()
        if run.over:
            raise SessionOver(f"the session has ended ({run.end}): reset for the next one")
        run.move(as_action(action, run.moves + 1))
        fresh = run.events[self._seen :]
        reward = 0.0
        judged: tuple[Verdict, Rewards] | None = None
        if run.over:
            judged = self._final = self._judge()
        elif self.score_every_step:
            judged = self._judge()
        if judged is not None:
            value = judged[1].paid(self.reward_config)
            shaped = self.score_every_step and self.reward_config.mode == "weighted"
            reward = round(value - self._paid, 6) if shaped else (value if run.over else 0.0)
            self._paid = value if shaped else self._paid
        customer = next(
            (e.text for e in fresh if isinstance(e, MessageEvent) and e.role == "customer"), None
        )
        observation = Observation(
            task_id=self.task.task_id,
            messages=self._new(),
            customer=customer,
            tool_results=[e for e in fresh if isinstance(e, ToolEvent)],
        )
        return StepResult(
            observation=observation,
            reward=reward,
            done=run.over,
            truncated=run.end in ("max_steps", "max_errors"),
            info=self._info(judged),
        )

    # -- what it came to -----------------------------------------------------------------
    @property
    def task(self) -> Task:
        if self._task is None:
            raise EnvError("reset the environment before stepping it")
        return self._task

    @property
    def events(self) -> list[Event]:
        """The session's typed events so far (what a built-in agent reads)."""
        return self._running(ended_too=True).events

    @property
    def done(self) -> bool:
        return self._run is not None and self._run.over

    def trace(self) -> Trace:
        """The session's trace so far (the one run_session would have recorded)."""
        run = self._running(ended_too=True)
        return run.trace(
            self.task,
            POLICY_NAME,
            self._trial,
            self._seed,
            time.perf_counter() - self._started,
        )

    def verdict(self) -> Verdict:
        """The final verdict once done, else the verdict so far."""
        return (self._final or self._judge())[0]

    def close(self) -> None:
        """Give the bank back (reset does it too; a finished session keeps its trace)."""
        if self._bank is not None:
            self._bank.close()
            self._bank = None

    def __enter__(self) -> BankEnv:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    # -- inside ----------------------------------------------------------------------------
    def _pick(self, task: Task | str | None, seed: int | None) -> Task:
        if isinstance(task, Task):
            return task
        if task is None:
            if not self.tasks:
                raise EnvError(f"split {self.split!r} has no tasks")
            return random.Random(seed).choice(self.tasks)
        if task not in self._by_id:
            raise EnvError(f"no task {task!r} in split {self.split!r}")
        return self._by_id[task]

    def _running(self, ended_too: bool = False) -> Stepper:
        if self._run is None or (self._bank is None and not ended_too):
            raise EnvError("reset the environment before stepping it")
        return self._run

    def _new(self) -> list[dict[str, object]]:
        run = self._running(ended_too=True)
        fresh, self._seen = run.events[self._seen :], len(run.events)
        return new_messages(fresh)

    def _judge(self) -> tuple[Verdict, Rewards]:
        task, trace = self.task, self.trace()
        expected = expected_changes(task)
        verdict = score(task, trace, expected)
        return verdict, rewards(task, trace, verdict, len(expected.rows), self.reward_config)

    def _info(self, judged: tuple[Verdict, Rewards] | None) -> StepInfo:
        run = self._running(ended_too=True)
        return StepInfo(
            task_id=self.task.task_id,
            trial=self._trial,
            seed=self._seed,
            split=self.split,
            moves=run.moves,
            steps=run.steps,
            failed_calls=run.failed,
            end=run.end,
            end_detail=run.end_detail,
            verdict=judged[0] if judged else None,
            rewards=judged[1] if judged else None,
            reward_config=self.reward_config,
        )


class AsyncBankEnv:
    """BankEnv under asyncio: `await reset(...)`, `await step(action)`.

    A scripted session's moves take microseconds and run inline; a model-backed customer's
    run in a worker thread (`offload`), so many sessions wait on their models together."""

    def __init__(self, env: BankEnv | None = None, offload: bool | None = None) -> None:
        self.env = env or BankEnv()
        self.offload = (
            offload if offload is not None else self.env.customer_factory is not ScriptedCustomer
        )

    async def reset(
        self, task: Task | str | None = None, seed: int | None = None, trial: int = 0
    ) -> Observation:
        if self.offload:
            return await asyncio.to_thread(self.env.reset, task, seed, trial)
        return self.env.reset(task, seed, trial)

    async def step(self, action: object) -> StepResult:
        if self.offload:
            return await asyncio.to_thread(self.env.step, action)
        return self.env.step(action)

    def close(self) -> None:
        self.env.close()
