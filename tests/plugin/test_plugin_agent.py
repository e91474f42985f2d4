"""--bank-agent module:factory: the README's agent runs on the suite (also under -n 2) and gets
verdicts, a bad value is one usage error naming the option, resume and merge treat the factory
like a model, and every agent is made through the same checked factory path."""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

import pytest

import pytest_bankbench
from pytest_bankbench.api import agent_context
from pytest_bankbench.cli import main
from pytest_bankbench.models.errors import ConfigurationError
from pytest_bankbench.run.cases import BankCase
from pytest_bankbench.run.parties import Parties, made
from pytest_bankbench.run.settings import RunSettings
from pytest_bankbench.simulation.agents import BUILTIN_AGENTS
from pytest_bankbench.tasks.loader import shipped_tasks
from tests.plugin.helpers import load_report, run_bench, selected

README = (Path(pytest_bankbench.__file__).parent.parent / "README.md").read_text(encoding="utf-8")
SECTION = README.split("## Testing your own agent", 1)[1].split("\n## ", 1)[0]
KEYWORD = "fd_closure-"
ACCEPTED = "give module:factory, a module importable from the current folder*"


def _python_block(first_line: str) -> str:
    """The README section's Python example that starts with `first_line` (its file name)."""
    blocks: list[str] = re.findall(r"```python\n(.*?)```", SECTION, re.DOTALL)
    return next(block for block in blocks if block.startswith(first_line))


def _command(start: str) -> list[str]:
    """The README section's indented command that starts with `start`, split into words."""
    line = next(line.strip() for line in SECTION.splitlines() if line.strip().startswith(start))
    return line.split("#", 1)[0].split()


def _agent_names(traces: Path) -> set[str]:
    lines = (traces / "traces.jsonl").read_text(encoding="utf-8").splitlines()
    return {json.loads(line)["agent"] for line in lines}


def test_the_readme_agent_runs_on_the_suite_under_xdist(pytester: pytest.Pytester) -> None:
    (pytester.path / "my_agent.py").write_text(_python_block("# my_agent.py"), encoding="utf-8")
    command = _command("pytest --bank-agent my_agent:make -n 2")
    assert command == ["pytest", "--bank-agent", "my_agent:make", "-n", "2"]
    report, traces = pytester.path / "out" / "r.json", pytester.path / "out" / "t"
    result = run_bench(
        pytester,
        *command[1:],
        "-k",
        KEYWORD,
        "--bank-report",
        str(report),
        "--bank-traces",
        str(traces),
    )
    sessions = load_report(report)["sessions"]
    assert len(sessions) == selected(KEYWORD) > 1
    assert all(s["outcome"] == "scored" for s in sessions)  # verdicts, no harness error
    result.assert_outcomes(
        passed=sum(s["passed"] for s in sessions), failed=sum(not s["passed"] for s in sessions)
    )
    provenance = load_report(report)["provenance"]
    assert provenance["agent"]["model"] == "my_agent:make" and not provenance["agent"]["builtin"]
    assert _agent_names(traces) == {"balance-teller"}
    told = [
        e["text"]
        for line in (traces / "traces.jsonl").read_text(encoding="utf-8").splitlines()
        for e in json.loads(line)["events"]
        if e["kind"] == "message" and e["role"] == "agent"
    ]
    assert told and all(text.startswith("Your balances are: ") for text in told)


def test_the_readme_fixture_override_plays_every_session(pytester: pytest.Pytester) -> None:
    (pytester.path / "my_agent.py").write_text(_python_block("# my_agent.py"), encoding="utf-8")
    pytester.makeconftest(_python_block("# conftest.py"))
    command = _command("pytest --bank-model claim-done")
    traces = pytester.path / "t"
    result = run_bench(pytester, *command[1:], "-k", KEYWORD, "--bank-traces", str(traces))
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    assert _agent_names(traces) == {"balance-teller"}


def _agent_module(pytester: pytest.Pytester, name: str, body: str) -> None:
    (pytester.path / f"{name}.py").write_text(body, encoding="utf-8")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--bank-agent", "agent_mod"), "*--bank-agent 'agent_mod': expected module:factory; "),
        (("--bank-agent", "agent_mod:"), "*--bank-agent 'agent_mod:': expected module:factory; "),
        (("--bank-agent", "missing_mod:make"), "*no module named 'missing_mod'; "),
        (("--bank-agent", "agent_broken:make"), "*importing 'agent_broken' failed: Runtime*"),
        (
            ("--bank-agent", "agent_deps:make"),
            "*importing 'agent_deps' failed: No module named 'agent_missing_dependency'; ",
        ),
        (("--bank-agent", "agent_mod:nothing"), "*'agent_mod' has no attribute 'nothing'; "),
        (("--bank-agent", "agent_mod:NUMBER"), "*'NUMBER' is not callable (it is 3); "),
        (("--bank-agent", "agent_mod:number"), "*the factory returned int 42, not an agent*"),
        (("--bank-agent", "agent_mod:nameless"), "*the factory returned Nameless*not an agent*"),
        (("--bank-agent", "agent_mod:fails"), "*the factory raised KeyError: 'nope' (for *"),
        (
            ("--bank-agent", "agent_mod:make", "--bank-model", "gold"),
            "*--bank-agent 'agent_mod:make' and --bank-model 'gold': give one agent under test*",
        ),
        (
            ("--bank-agent", "agent_mod:make", "--bank-regrade", "t"),
            "*and --bank-regrade 't': give one agent*a re-grade runs no agent",
        ),
        (
            ("--bank-agent", "agent_mod:make", "--bank-agent", "agent_mod:make"),
            "*argument --bank-agent: given twice*",
        ),
    ],
)
def test_a_bad_agent_is_one_usage_error(
    pytester: pytest.Pytester, args: tuple[str, ...], message: str
) -> None:
    _agent_module(
        pytester,
        "agent_mod",
        "from pytest_bankbench import AgentAction\n"
        "NUMBER = 3\n"
        "class Good:\n    name = 'good'\n    def act(self, events):\n"
        "        return AgentAction(end=True)\n"
        "class Nameless:\n    def act(self, events):\n        return AgentAction(end=True)\n"
        "def make(context):\n    return Good()\n"
        "def number(context):\n    return 42\n"
        "def nameless(context):\n    return Nameless()\n"
        "def fails(context):\n    return {}['nope']\n",
    )
    _agent_module(pytester, "agent_broken", "raise RuntimeError('no GPU here')\n")
    _agent_module(pytester, "agent_deps", "import agent_missing_dependency\n")
    result = run_bench(pytester, *args)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    # The option, what is wrong, and (for the option's own problems) what it accepts.
    pattern = message if message.endswith(("*", "agent")) else message + ACCEPTED
    result.stderr.fnmatch_lines([pattern])
    assert "Traceback" not in result.stderr.str()


def test_a_factory_that_stops_making_agents_stops_the_run(pytester: pytest.Pytester) -> None:
    """Checked at every session, not only the first: one configuration error, run stopped."""
    _agent_module(
        pytester,
        "agent_late",
        "from pytest_bankbench import AgentAction\n"
        "class Good:\n    name = 'good'\n    def act(self, events):\n"
        "        return AgentAction(end=True)\n"
        "made = []\n"
        "def make(context):\n    made.append(1)\n    return Good() if len(made) < 3 else None\n",
    )
    result = run_bench(pytester, "--bank-agent", "agent_late:make", "-k", KEYWORD)
    result.stdout.fnmatch_lines(
        [
            "*configuration error, run stopped: --bank-agent 'agent_late:make': the factory "
            "returned NoneType None, not an agent*"
        ]
    )
    outcomes = result.parseoutcomes()
    assert outcomes["failed"] < selected(KEYWORD)
    # Said once in the failure, not again as "During handling of the above exception" (user
    # trial); the summary's "Interrupted:" line says it once more.
    assert "During handling" not in result.stdout.str()


@pytest.mark.parametrize(
    ("returned", "shown"),
    [
        ('{"message": "hi"}', "dict {'message': 'hi'}"),
        ('"hi"', "str 'hi'"),
        ("None", "NoneType None"),
    ],
)
def test_an_agent_returning_no_action_is_a_harness_error_naming_it(
    pytester: pytest.Pytester, returned: str, shown: str
) -> None:
    """Each session with the garbage is a harness error that names the agent, what it returned
    and what a move is; the run goes on to the next session."""
    _agent_module(
        pytester,
        "agent_garbage",
        "class Garbage:\n    name = 'garbage-agent'\n    def act(self, events):\n"
        f"        return {returned}\n"
        "def make(context):\n    return Garbage()\n",
    )
    report = pytester.path / "r.json"
    keyword = "fd_closure-001 or fd_closure-002"
    result = run_bench(
        pytester, "--bank-agent", "agent_garbage:make", "-k", keyword, "--bank-report", str(report)
    )
    sessions = load_report(report)["sessions"]
    assert len(sessions) == 2
    assert all(s["outcome"] == "harness_error" for s in sessions)
    for session in sessions:
        assert "agent 'garbage-agent' returned " + shown in session["error"]
        assert "not an AgentAction" in session["error"]
        assert "Testing your own agent" in session["error"]
    result.stdout.fnmatch_lines(["*agent 'garbage-agent' returned " + shown + "*"])
    result.assert_outcomes(errors=0, failed=2)


SAMPLE_AGENT = (
    "from pytest_bankbench import AgentAction\n"
    "class Teller:\n    name = 'teller'\n    def act(self, events):\n"
    "        return AgentAction(message='Done.', end=True)\n"
    "def make(context):\n    return Teller()\n"
)


def test_resume_takes_the_agent_for_a_model(pytester: pytest.Pytester) -> None:
    _agent_module(pytester, "agent_resume", SAMPLE_AGENT)
    report = pytester.path / "r.json"
    mine = ("--bank-agent", "agent_resume:make", "--bank-report", str(report))
    run_bench(pytester, *mine, "-k", "fd_closure-00")
    first = {s["task_id"] for s in load_report(report)["sessions"]}
    assert len(first) == selected("fd_closure-00")
    refused = run_bench(pytester, "--bank-model", "claim-done", "--bank-resume", str(report))
    assert refused.ret == pytest.ExitCode.USAGE_ERROR
    refused.stderr.fnmatch_lines(["*agent: saved 'agent_resume:make', now 'claim-done'*"])
    resumed = run_bench(pytester, *mine, "--bank-resume", str(report), "-k", KEYWORD)
    resumed.assert_outcomes(failed=selected(KEYWORD) - len(first))
    assert len(load_report(report)["sessions"]) == selected(KEYWORD)


def test_merge_takes_the_agent_for_a_model(
    pytester: pytest.Pytester, capsys: pytest.CaptureFixture[str]
) -> None:
    _agent_module(pytester, "agent_merge", SAMPLE_AGENT)
    _agent_module(pytester, "agent_other", SAMPLE_AGENT)
    shards = []
    for index, spec in ((1, "agent_merge:make"), (2, "agent_merge:make"), (2, "agent_other:make")):
        path = pytester.path / f"s{index}-{spec[:11]}.json"
        run_bench(
            pytester,
            "--bank-agent",
            spec,
            "-k",
            KEYWORD,
            "--bank-shard",
            f"{index}/2",
            "--bank-report",
            str(path),
        )
        shards.append(str(path))
    merged = pytester.path / "m.json"
    assert main(["merge", str(merged), shards[0], shards[1]]) == 0
    assert load_report(merged)["run_config"]["agent"] == "agent_merge:make"
    assert len(load_report(merged)["sessions"]) == selected(KEYWORD)
    assert main(["merge", str(pytester.path / "n.json"), shards[0], shards[2]]) == 2
    assert "agent is 'agent_merge:make' in" in capsys.readouterr().err


def _settings(model: str, agent: str | None = None) -> RunSettings:
    return RunSettings(
        model=model,
        user_model="scripted",
        split="base",
        tasks_path=None,
        trials=1,
        max_steps=200,
        max_errors=10,
        report=None,
        traces=None,
        agent=agent,
    )


def test_every_agent_is_made_through_a_checked_factory() -> None:
    case = BankCase(shipped_tasks()[0], 0, 5)
    for name, cls in BUILTIN_AGENTS.items():
        agent = Parties(_settings(name)).agent(case)
        assert type(agent) is cls  # the built-in, given the whole task
    parties = Parties(dataclasses.replace(_settings("(regrade)"), regrade=Path("traces.jsonl")))
    assert type(parties.agent(case)).__name__ == "GoldAgent"
    unmade = made("m:f", lambda context: None, agent_context(case.task))  # type: ignore[arg-type,return-value]
    with pytest.raises(ConfigurationError, match="'m:f': the factory returned NoneType None"):
        unmade.act(())
