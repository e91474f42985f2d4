"""The public agent interface (pytest_bankbench/api.py): a stable surface, importable from the
package without weighing on every pytest start, a task view without the gold, and a custom
agent judged through --bank-agent exactly as when its sessions are played directly."""

from __future__ import annotations

import dataclasses
import importlib
import random
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from types import FunctionType, ModuleType

import pytest

import pytest_bankbench
from pytest_bankbench import api, runner
from pytest_bankbench.bank.store import Bank
from pytest_bankbench.run.cases import session_seed
from pytest_bankbench.run.play import expected_changes
from pytest_bankbench.scoring import scorer
from pytest_bankbench.simulation import agents, baselines, chat, customer, gold_agent, trace
from pytest_bankbench.simulation.customer import ScriptedCustomer
from pytest_bankbench.simulation.session import run_session
from pytest_bankbench.tasks.loader import select, shipped_tasks
from pytest_bankbench.tasks.model import Task
from tests.plugin.helpers import load_report, run_bench, selected

# Where each public class lives: the API re-exports them, it never copies or renames one.
HOMES = {
    "Agent": agents,
    "AgentAction": agents,
    "ToolCall": trace,
    "MessageEvent": trace,
    "ToolEvent": trace,
    "Trace": trace,
    "Say": customer,
    "Stop": customer,
    "Verdict": scorer,
}


def test_every_public_name_imports_from_the_package() -> None:
    assert set(pytest_bankbench.__all__) == {*api.__all__, "__version__"}
    for name in api.__all__:
        assert getattr(pytest_bankbench, name) is getattr(api, name), name
    for name, home in HOMES.items():
        assert getattr(api, name) is getattr(home, name), name
    with pytest.raises(AttributeError, match="no attribute 'gold'"):
        _ = pytest_bankbench.gold


@pytest.mark.parametrize("module", [api, agents, trace, chat, runner], ids=lambda m: m.__name__)
def test_a_public_modules_all_lists_what_it_defines(module: ModuleType) -> None:
    """Every name in `__all__` exists, and every public class and function the module defines
    is in it (a new one cannot be left out); `agents` is the public face of the gold agent and
    the baselines, so what those two define counts as its own."""
    exported = set(module.__all__)
    assert all(hasattr(module, name) for name in exported)
    homes = {module.__name__} | (
        {gold_agent.__name__, baselines.__name__} if module is agents else set()
    )
    defined = {
        name
        for home in homes
        for name, value in vars(sys.modules[home]).items()
        if not name.startswith("_")
        and isinstance(value, type | FunctionType)
        and value.__module__ == home
    }
    assert defined and defined <= exported


def test_importing_the_package_loads_the_api_only_when_asked() -> None:
    """Every pytest run imports the package (the entry point): the API, and pydantic under it,
    load on first use, not before."""
    code = (
        "import sys, pytest_bankbench\n"
        "print('pydantic' in sys.modules, 'pytest_bankbench.api' in sys.modules)\n"
        "from pytest_bankbench import AgentAction, ToolCall\n"
        "print('pytest_bankbench.api' in sys.modules, AgentAction.__module__, ToolCall.__name__)\n"
    )
    root = Path(pytest_bankbench.__file__).parent.parent
    ran = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=root
    )
    assert ran.stdout.splitlines() == [
        "False False",
        "True pytest_bankbench.simulation.gold_agent ToolCall",
    ]


def test_the_task_view_is_what_an_agent_may_know() -> None:
    tasks = shipped_tasks()
    fields = {f.name for f in dataclasses.fields(api.TaskView)}
    assert fields == {"task_id", "task_date", "opening"}  # no gold, no expectations
    for task in tasks:
        view = api.task_view(task)
        assert view.opening == ScriptedCustomer(task).open()
        assert (view.task_id, view.task_date) == (task.task_id, task.task_date)
    view = api.task_view(tasks[0])
    assert view.system_prompt == chat.policy_text()
    names = {tool["function"]["name"] for tool in view.tools}
    assert {call.tool for task in tasks for call in task.gold} <= names
    with pytest.raises(dataclasses.FrozenInstanceError):
        view.opening = "changed"  # type: ignore[misc]


def test_a_context_rng_is_seeded_by_the_session() -> None:
    task = shipped_tasks()[0]
    draws = [api.agent_context(task, 0, seed).rng.random() for seed in (7, 7, session_seed("x", 1))]
    assert draws[0] == draws[1] == random.Random(7).random()
    assert draws[2] != draws[0]
    assert api.agent_context(task, 2, 9).trial == 2


def test_what_counts_as_an_agent() -> None:
    task = shipped_tasks()[0]
    assert all(api.is_agent(make(task)) for make in agents.BUILTIN_AGENTS.values())
    assert not api.is_agent(42)
    assert not api.is_agent(type("NoName", (), {"act": lambda self, events: None})())
    assert not api.is_agent(type("NoAct", (), {"name": "x", "act": "not a method"})())


# A custom agent that samples from its context's rng: a different seed than the suite's would
# change its calls and so its verdicts' evidence.
SAMPLER = """
from pytest_bankbench import AgentAction, AgentContext, MessageEvent, ToolCall, ToolEvent

READS = ["list_accounts", "list_deposits", "list_loans", "list_cards", "get_customer_profile"]


class Sampler:
    name = "sampler"

    def __init__(self, context: AgentContext) -> None:
        self.rng = context.rng
        self.reads = context.rng.sample(READS, k=context.rng.randint(1, 3))
        self.said = 0

    def act(self, events):
        if self.reads:
            name = self.reads.pop()
            return AgentAction(tool_calls=[ToolCall(call_id=name, name=name, arguments={})])
        if self.said >= 2:
            return AgentAction(end=True)
        self.said += 1
        seen = [e.call.name for e in events if isinstance(e, ToolEvent)]
        return AgentAction(message=f"I have checked {', '.join(seen)}. Shall I go ahead?")


def make(context: AgentContext) -> Sampler:
    return Sampler(context)
"""
KEYWORD = "fd_closure-"


def _direct(task: Task, factory: api.AgentFactory) -> api.Verdict:
    """One session played with run_session itself: the suite's seed, a fresh bank, the script."""
    seed = session_seed(task.task_id, 0)
    agent = factory(api.agent_context(task, 0, seed))
    with Bank(task.customer_id, task.task_date, task.bank_seed) as bank:
        played = run_session(task, agent, ScriptedCustomer(task), bank, seed=seed)
    return scorer.score(task, played, expected_changes(task))


def test_a_custom_agents_verdicts_via_the_option_equal_its_direct_sessions(
    pytester: pytest.Pytester,
) -> None:
    pytester.makepyfile(api_sampler=SAMPLER)
    report = pytester.path / "report.json"
    result = run_bench(
        pytester, "--bank-agent", "api_sampler:make", "-k", KEYWORD, "--bank-report", str(report)
    )
    sessions = load_report(report)["sessions"]
    assert len(sessions) == selected(KEYWORD) > 1
    assert load_report(report)["run_config"]["agent"] == "api_sampler:make"
    pytester.syspathinsert()
    module = importlib.import_module("api_sampler")  # the run's import was undone by pytester
    tasks = {t.task_id: t for t in select(shipped_tasks(), "base")}
    evidence: set[str] = set()
    for session in sessions:
        verdict = _direct(tasks[session["task_id"]], module.make)
        kept = {k: v for k, v in verdict.evidence.items() if v}
        assert (session["passed"], session["checks"], session["failure_type"]) == (
            verdict.passed,
            verdict.checks,
            verdict.failure_type,
        ), session["task_id"]
        assert session["evidence"] == kept, session["task_id"]
        evidence.update(line for lines in kept.values() for line in lines)
    assert len(evidence) > len(sessions)  # the sessions differ: the comparison means something
    result.assert_outcomes(failed=sum(not s["passed"] for s in sessions))


def test_the_direct_sessions_depend_on_the_seed(pytester: pytest.Pytester) -> None:
    """The comparison above can fail: another seed gives another sampler, other verdicts."""
    pytester.makepyfile(api_sampler_seeded=SAMPLER)
    pytester.syspathinsert()
    make = importlib.import_module("api_sampler_seeded").make

    task = next(t for t in shipped_tasks() if t.task_id.startswith(KEYWORD))
    seed = session_seed(task.task_id, 0)
    evidences = set()
    for other in range(seed, seed + 5):
        agent = make(api.agent_context(task, 0, other))
        with Bank(task.customer_id, task.task_date, task.bank_seed) as bank:
            played = run_session(task, agent, ScriptedCustomer(task), bank, seed=other)
        verdict = scorer.score(task, played, expected_changes(task))
        evidences.add(str(sorted(verdict.evidence.items())))
    assert len(evidences) > 1


def _typed_agent(events: Sequence[api.Event]) -> api.AgentAction:
    """mypy holds the public types usable as a custom agent uses them (this module is checked)."""
    calls = [e for e in events if isinstance(e, api.ToolEvent)]
    if not calls:
        return api.AgentAction(tool_calls=[api.ToolCall(call_id="1", name="x", arguments={})])
    return api.AgentAction(message=str(calls[0].output), end=True)


def test_the_public_types_play_a_session() -> None:
    task = shipped_tasks()[0]

    class Typed:
        name = "typed"

        def act(self, events: Sequence[api.Event]) -> api.AgentAction:
            return _typed_agent(events)

    agent: api.Agent = Typed()
    with Bank(task.customer_id, task.task_date, task.bank_seed) as bank:
        played = run_session(task, agent, ScriptedCustomer(task), bank)
    assert played.agent == "typed" and played.failed_calls == 1
    assert isinstance(scorer.score(task, played, expected_changes(task)), api.Verdict)
