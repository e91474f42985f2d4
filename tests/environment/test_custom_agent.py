"""Issue 20's promise across the two ways in: the README's custom agent gets the same verdict
from `pytest --bank-agent my_agent:make` as from driving it through `BankEnv` by hand (reset,
then `step(agent.act(env.events))` until done), session by session, checks and failure type."""

from __future__ import annotations

import re
import types
from pathlib import Path

import pytest

import pytest_bankbench
from pytest_bankbench.api import agent_context
from pytest_bankbench.environment import BankEnv
from pytest_bankbench.run.cases import session_seed
from tests.plugin.helpers import load_report, run_bench

README = (Path(pytest_bankbench.__file__).parent.parent / "README.md").read_text(encoding="utf-8")
SECTION = README.split("## Testing your own agent", 1)[1].split("\n## ", 1)[0]
AGENT = next(
    block
    for block in re.findall(r"```python\n(.*?)```", SECTION, re.DOTALL)
    if block.startswith("# my_agent.py")
)
# The agent passes its balance enquiries and fails the closures: both verdicts are compared.
KEYWORD = "balance_enquiry- or fd_closure-"
Outcome = tuple[bool, str | None, dict[str, bool]]


def _module() -> types.ModuleType:
    module = types.ModuleType("my_agent")
    exec(compile(AGENT, "my_agent.py", "exec"), module.__dict__)
    return module


def _through_the_environment(task_ids: list[str]) -> dict[str, Outcome]:
    make = _module().make
    env = BankEnv(split="base")
    verdicts: dict[str, Outcome] = {}
    for task_id in task_ids:
        env.reset(task_id, trial=0)
        agent = make(agent_context(env.task, 0, session_seed(task_id, 0)))
        while not env.done:
            env.step(agent.act(env.events))
        verdict = env.verdict()
        verdicts[task_id] = (
            verdict.passed,
            verdict.failure_type,
            {str(name): ok for name, ok in verdict.checks.items()},
        )
    return verdicts


def test_the_readme_agent_gets_the_same_verdicts_from_the_plugin_and_the_environment(
    pytester: pytest.Pytester,
) -> None:
    (pytester.path / "my_agent.py").write_text(AGENT, encoding="utf-8")
    report = pytester.path / "out" / "r.json"
    run_bench(
        pytester, "--bank-agent", "my_agent:make", "-k", KEYWORD, "--bank-report", str(report)
    )
    sessions = load_report(report)["sessions"]
    by_plugin = {s["task_id"]: (s["passed"], s["failure_type"], s["checks"]) for s in sessions}
    assert {passed for passed, _, _ in by_plugin.values()} == {True, False}  # both kinds compared
    assert _through_the_environment(sorted(by_plugin)) == by_plugin
