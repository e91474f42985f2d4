"""--bank-session-deadline at --bank-concurrency 4: a stalling agent fails its own session only.

Before issue 19 the deadline was checked only before model calls: an agent that stalled in its
turn was scored as if nothing happened, and the sessions in flight beside it ran past their
deadline. Here one of four sessions in flight stalls, holding the interpreter lock (a builtin
burning CPU: no other thread runs Python meanwhile) or sleeping; it alone ends deadline_exceeded,
and the three others pass although their wall time passed the deadline. And an agent whose
act() sleeps for an hour ends its session at the deadline, the run going on (also under -n 2).
"""

from __future__ import annotations

import time

import pytest

from tests.plugin.helpers import load_report

DEADLINE_S = 1.5
STALL_S = 2 * DEADLINE_S
TASKS = [f"fd_closure_declined-00{n}" for n in (1, 2, 3, 4)]
STALLER = TASKS[1]

# Every built-in gold agent of the run waits 0.05 s a move (a model's latency); the staller's
# stalls once all four sessions are in flight.
CONFTEST = """
import time
from pytest_bankbench.simulation import agents
from tests.simulation.stalls import StallingAgent, hold_interpreter

STALL = {stall!r}
made = []
real = agents.BUILTIN_AGENTS["gold"]

def stall():
    waited = time.monotonic()
    while len(made) < 4 and time.monotonic() - waited < 10:
        time.sleep(0.01)
    if STALL == "burn":
        hold_interpreter({seconds})
    else:
        time.sleep({seconds})

def gold(task):
    made.append(task.task_id)
    stalls = task.task_id == {staller!r}
    return StallingAgent(real(task), 0.05, 2 if stalls else None, stall)

def pytest_configure(config):
    agents.BUILTIN_AGENTS["gold"] = gold

def pytest_unconfigure(config):
    agents.BUILTIN_AGENTS["gold"] = real
"""


@pytest.mark.parametrize("stall", ["burn", "sleep"])
def test_a_stalling_agent_fails_its_session_and_no_other(
    pytester: pytest.Pytester, stall: str
) -> None:
    pytester.makeconftest(CONFTEST.format(stall=stall, seconds=STALL_S, staller=STALLER))
    report = pytester.path / "report.json"
    result = pytester.runpytest(
        "-p",
        "no:cacheprovider",
        "--bank-model",
        "gold",
        "-k",
        " or ".join(TASKS),
        "--bank-concurrency",
        "4",
        "--bank-session-deadline",
        str(DEADLINE_S),
        "--bank-report",
        str(report),
    )
    sessions = {s["task_id"]: s for s in load_report(report)["sessions"]}
    assert sorted(sessions) == TASKS
    staller = sessions.pop(STALLER)
    assert staller["outcome"] == "scored" and not staller["passed"]
    assert staller["end"] == "deadline_exceeded"
    assert staller["failure_type"] == "deadline_exceeded"
    for task_id, record in sessions.items():
        assert record["passed"], (task_id, record["end"])
    if stall == "burn":
        # Frozen by the stall, the others ran past the deadline in wall time, uncharged.
        assert max(r["duration_s"] for r in sessions.values()) > DEADLINE_S
    summary = load_report(report)["summary"]
    assert summary["failure_types"]["deadline_exceeded"] == 1
    assert summary["infra_errors"] == 0
    result.stdout.fnmatch_lines(["*deadline_exceeded=1*"])
    assert result.ret == 1


# An agent whose act() never comes back within the deadline (README: "The session deadline").
STUCK_AGENT = """
import time
from pytest_bankbench import AgentAction

class Stuck:
    name = "stuck-agent"

    def __init__(self, task_id):
        self.task_id = task_id

    def act(self, events):
        if self.task_id == "fd_closure-001":
            time.sleep(3600)
        return AgentAction(end=True)

def make(context):
    return Stuck(context.task.task_id)
"""
STUCK_TASKS = ["fd_closure-001", "fd_closure-002"]


@pytest.mark.parametrize("workers", ["0", "2"])
def test_an_agent_stuck_in_its_move_ends_at_the_deadline(
    pytester: pytest.Pytester, workers: str
) -> None:
    (pytester.path / "stuck_agent.py").write_text(STUCK_AGENT, encoding="utf-8")
    report = pytester.path / "report.json"
    started = time.monotonic()
    result = pytester.runpytest(
        "-p",
        "no:cacheprovider",
        "--bank-agent",
        "stuck_agent:make",
        "-k",
        " or ".join(STUCK_TASKS),
        "--bank-session-deadline",
        "1",
        "--bank-report",
        str(report),
        "-n",
        workers,
    )
    assert time.monotonic() - started < 60  # not the agent's hour
    sessions = {s["task_id"]: s for s in load_report(report)["sessions"]}
    assert sorted(sessions) == STUCK_TASKS  # the run went on past the stuck session
    stuck = sessions["fd_closure-001"]
    assert stuck["outcome"] == "scored" and not stuck["passed"]
    assert stuck["end"] == "deadline_exceeded"
    assert stuck["failure_type"] == "deadline_exceeded"
    assert stuck["duration_s"] < 10
    (line,) = stuck["evidence"]["ended_normally"]
    assert "'stuck-agent'" in line and "1 s" in line and "abandoned" in line
    assert sessions["fd_closure-002"]["end"] == "agent_end"
    assert result.ret == 1
