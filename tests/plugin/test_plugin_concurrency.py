"""--bank-concurrency K: sessions played ahead in background threads, each task still one test.

Nothing here asserts timing: the speed-up is measured by bench/concurrency.py. These tests hold
what must not change (outcomes, report records, -k, overrides, errors, output) and show that
sessions really overlap (a loopback server sees concurrent requests).
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from pytest_bankbench.run.inflight import CancelFlag, Cancelled, Inflight, Turn
from tests.plugin.helpers import load_report, without_timings

FEW = ("-k", "fd_closure or balance_enquiry")  # 60 sessions: closures write, enquiries read

# Written by each run: which sessions the background threads played, and how many at once.
PLAYED_PLUGIN = """
import json
from pytest_bankbench.plugin.prefetch import prefetch_of

def pytest_sessionfinish(session):
    prefetch = prefetch_of(session.config)
    if prefetch is not None and not hasattr(session.config, "workerinput"):
        with open("played.json", "w") as fh:
            json.dump({"started": prefetch.pool.started, "peak": prefetch.pool.peak_running}, fh)
"""


def _run(pytester: pytest.Pytester, *args: str) -> pytest.HookRecorder:
    return pytester.inline_run("-p", "no:cacheprovider", "-q", *args)


def _outcomes(recorder: pytest.HookRecorder) -> dict[str, str]:
    """nodeid -> the outcome of its call phase (or of setup, if setup failed)."""
    outcomes: dict[str, str] = {}
    for report in recorder.getreports("pytest_runtest_logreport"):
        if report.when == "call" or (report.when == "setup" and not report.passed):
            outcomes[report.nodeid] = report.outcome
    return outcomes


def _sessions(path: Path) -> list[Any]:
    data = without_timings(load_report(path))
    return sorted(data["sessions"], key=lambda s: (s["task_id"], s["trial"]))


def _summary(path: Path) -> Any:
    return without_timings(load_report(path))["summary"]


@pytest.mark.parametrize("agent", ["gold", "no-reads"])
def test_same_outcomes_and_records_as_one_at_a_time(pytester: pytest.Pytester, agent: str) -> None:
    pytester.makeconftest(PLAYED_PLUGIN)
    serial, parallel = pytester.path / "serial.json", pytester.path / "parallel.json"
    one = _run(pytester, "--bank-model", agent, *FEW, "--bank-report", str(serial))
    assert not (pytester.path / "played.json").exists()  # concurrency 1: no prefetcher at all
    eight = _run(
        pytester,
        "--bank-model",
        agent,
        *FEW,
        "--bank-concurrency",
        "8",
        "--bank-report",
        str(parallel),
    )
    assert _outcomes(eight) == _outcomes(one)
    assert len(_outcomes(one)) == 60
    if agent == "no-reads":
        assert "failed" in _outcomes(one).values()
    assert _sessions(parallel) == _sessions(serial)
    assert _summary(parallel) == _summary(serial)
    played = json.loads((pytester.path / "played.json").read_text())
    assert len(played["started"]) == 60  # every session was played in the background


def test_under_xdist_each_worker_looks_ahead(pytester: pytest.Pytester) -> None:
    serial, parallel = pytester.path / "serial.json", pytester.path / "parallel.json"
    one = _run(pytester, "--bank-model", "no-reads", *FEW, "--bank-report", str(serial))
    spread = _run(
        pytester,
        "--bank-model",
        "no-reads",
        *FEW,
        "-n",
        "2",
        "--bank-concurrency",
        "4",
        "--bank-report",
        str(parallel),
    )
    assert _outcomes(spread) == _outcomes(one)
    assert _sessions(parallel) == _sessions(serial)
    assert _summary(parallel) == _summary(serial)
    warned = [str(w.warning_message.message) for w in spread.getcalls("pytest_warning_recorded")]
    assert not [w for w in warned if "--bank-concurrency" in w]  # the worker queue was readable


def test_k_plays_only_the_selected_sessions(pytester: pytest.Pytester) -> None:
    pytester.makeconftest(PLAYED_PLUGIN)
    recorder = _run(
        pytester, "--bank-model", "gold", "-k", "fd_closure_declined-00", "--bank-concurrency", "4"
    )
    selected = sorted(_outcomes(recorder))
    assert selected and all("fd_closure_declined-00" in nodeid for nodeid in selected)
    played = json.loads((pytester.path / "played.json").read_text())
    assert sorted(played["started"]) == selected


def test_x_stops_within_the_lookahead(pytester: pytest.Pytester) -> None:
    pytester.makeconftest(PLAYED_PLUGIN)
    recorder = _run(
        pytester, "--bank-model", "no-reads", "-k", "fd_closure", "-x", "--bank-concurrency", "4"
    )
    assert list(_outcomes(recorder).values()) == ["failed"]
    played = json.loads((pytester.path / "played.json").read_text())
    assert 1 <= len(played["started"]) <= 8  # at most 2 x K queued; nothing starts after -x


def test_setups_take_turns_and_a_cancelled_wait_stops() -> None:
    lock, cancel = threading.Lock(), CancelFlag()
    first = Turn(lock, cancel)
    order: list[str] = []

    def second() -> None:
        Turn(lock, cancel).done()
        order.append("second")

    waiter = threading.Thread(target=second)
    waiter.start()
    waiter.join(0.2)
    assert waiter.is_alive() and order == []  # waits while the first session sets up
    order.append("first")
    first.done()
    first.done()  # given back once: a second release would free another's turn
    waiter.join(5)
    assert order == ["first", "second"] and not lock.locked()
    held = Turn(lock, cancel)
    cancel.set()
    with pytest.raises(Cancelled):
        Turn(lock, cancel)  # a stopped run's waiting session ends, it does not wait forever
    held.done()


def test_the_core_hands_over_results_and_errors_and_stops_on_cancel() -> None:
    gate = threading.Event()

    def play(key: int, cancel: CancelFlag) -> int:
        if key == 2:
            raise ValueError("two")
        if key >= 3:
            gate.wait(5)
            cancel.check()
        return key * 10

    pool: Inflight[int, int] = Inflight(play, limit=2, lookahead=4)
    assert pool.want(range(10)) == 4  # the lookahead bounds what is queued
    assert pool.take(0) == 0 and pool.take(1) == 10
    with pytest.raises(ValueError, match="two") as raised:
        pool.take(2)
    assert any(entry.name == "play" for entry in raised.traceback)  # the thread's frame
    pool.want(range(10))
    pool.cancel()
    gate.set()
    with pytest.raises(Cancelled):
        pool.take(3)
    assert pool.want(range(10)) == 0
    assert set(pool.started) <= {0, 1, 2, 3, 4, 5}


OVERRIDE = """
import threading
import pytest
from pytest_bankbench.simulation.agents import GoldAgent

class Recording(GoldAgent):
    def act(self, events):
        with open("threads.txt", "a") as fh:
            fh.write(threading.current_thread().name + "\\n")
        return super().act(events)

@pytest.fixture
def bank_agent(bank_case):
    return Recording(bank_case.task)
"""


def test_a_conftest_override_plays_inline(pytester: pytest.Pytester) -> None:
    pytester.makeconftest(OVERRIDE + PLAYED_PLUGIN)
    recorder = _run(
        pytester, "--bank-model", "gold", "-k", "fd_closure_declined-00", "--bank-concurrency", "4"
    )
    outcomes = _outcomes(recorder)
    assert outcomes and set(outcomes.values()) == {"passed"}
    assert set((pytester.path / "threads.txt").read_text().split()) == {"MainThread"}
    assert json.loads((pytester.path / "played.json").read_text())["started"] == []


# The gold agent, except that every session prints and logs its task id, and one task's agent
# hits a bug (an exception no harness layer expects) in the background thread.
BROKEN = """
import logging
from pytest_bankbench.simulation import agents

real = agents.BUILTIN_AGENTS["gold"]

class Noisy(real):
    def act(self, events):
        print(f"printed by {self.task.task_id}")
        logging.getLogger("noisy").warning("logged by %s", self.task.task_id)
        if self.task.task_id == "fd_closure_declined-003":
            raise RuntimeError("bug in the agent adapter")
        return super().act(events)

def pytest_configure(config):
    agents.BUILTIN_AGENTS["gold"] = Noisy

def pytest_unconfigure(config):
    agents.BUILTIN_AGENTS["gold"] = real
"""


def test_errors_and_output_reach_the_test_that_owns_the_session(
    pytester: pytest.Pytester,
) -> None:
    pytester.makeconftest(BROKEN + PLAYED_PLUGIN)
    recorder = _run(
        pytester, "--bank-model", "gold", "-k", "fd_closure_declined-00", "--bank-concurrency", "4"
    )
    reports = [r for r in recorder.getreports("pytest_runtest_logreport") if r.when == "call"]
    failed = [r for r in reports if r.failed]
    assert [r.nodeid for r in failed] == ["bankbench::test_task[edge_case-fd_closure_declined-003]"]
    text = failed[0].longreprtext
    assert "RuntimeError: bug in the agent adapter" in text
    assert "in act" in text  # the traceback reaches down into the background thread's frames
    played = json.loads((pytester.path / "played.json").read_text())
    assert len(played["started"]) == len(reports)
    for report in reports:
        task_id = report.nodeid.split("-", 1)[1].rstrip("]")
        output = "".join(c for name, c in report.sections if "bankbench session output" in name)
        assert f"logged by {task_id}" in output  # log records are routed at any time
        everything = "".join(content for _, content in report.sections)
        # Prints are routed during test phases (between them they reach the terminal), so a
        # test may miss its own, but never shows another session's.
        assert everything.count("printed by") == everything.count(f"printed by {task_id}")
        assert everything.count("logged by") == everything.count(f"logged by {task_id}")


class _Counting(BaseHTTPRequestHandler):
    """An OpenAI-compatible endpoint that answers after a delay and counts requests in flight
    and connections opened."""

    protocol_version = "HTTP/1.1"  # keep-alive, as real endpoints
    lock = threading.Lock()
    active = 0
    peak = 0
    requests = 0
    connections = 0

    def setup(self) -> None:
        super().setup()
        with self.lock:
            type(self).connections += 1

    def log_message(self, format: str, *args: object) -> None:
        return

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        cls = type(self)
        with cls.lock:
            cls.active += 1
            cls.requests += 1
            cls.peak = max(cls.peak, cls.active)
        time.sleep(0.3)
        with cls.lock:
            cls.active -= 1
        body = json.dumps(
            {
                "id": "chatcmpl-fake",
                "object": "chat.completion",
                "created": 0,
                "model": "fake",
                "choices": [
                    {
                        "index": 0,
                        "finish_reason": "stop",
                        "message": {"role": "assistant", "content": "Noted, thank you."},
                    }
                ],
                "usage": {"prompt_tokens": 10, "completion_tokens": 3, "total_tokens": 13},
            }
        ).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


@pytest.fixture
def endpoint() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Counting)
    server.request_queue_size = 64
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/v1"
    server.shutdown()
    server.server_close()


def _one_call_sessions(pytester: pytest.Pytester, endpoint: str, *args: str) -> pytest.RunResult:
    """The fake model against `endpoint`: the customer's opening and one agent reply, so one
    model call per session; litellm keeps process-wide state, so the run has its own process."""
    _Counting.peak = _Counting.requests = _Counting.connections = 0
    return pytester.runpytest_subprocess(
        "-p",
        "no:cacheprovider",
        "--bank-model",
        "openai/fake",
        "--bank-api-base",
        endpoint,
        "--bank-max-steps",
        "2",
        *args,
    )


def test_model_sessions_overlap_against_a_loopback_server(
    pytester: pytest.Pytester, endpoint: str
) -> None:
    """Sessions set up one at a time (inflight.Turn) but call their models together."""
    report = pytester.path / "r.json"
    result = _one_call_sessions(
        pytester, endpoint, "-k", "balance_enquiry-00", "--bank-concurrency", "4",
        "--bank-report", str(report),
    )  # fmt: skip
    sessions = load_report(report)["sessions"]
    assert len(sessions) == 9
    assert _Counting.requests == 9
    # Sessions overlapped (the point of --bank-concurrency): up to 4 in flight, not 1 (a turn
    # held through the model call would allow only that).
    assert _Counting.peak >= 3
    assert result.ret == pytest.ExitCode.TESTS_FAILED  # the fake's reply solves nothing


def test_connections_stay_open_for_every_session_in_flight(
    pytester: pytest.Pytester, endpoint: str
) -> None:
    """litellm's own client kept one connection per call at 40 in flight (a TLS handshake each
    against a real endpoint): the run's pool keeps one open per session in flight."""
    tasks = "balance_enquiry or fd_rate_query"  # 40 tasks
    _one_call_sessions(
        pytester, endpoint, "-k", tasks, "--bank-trials", "3", "--bank-concurrency", "40"
    )
    assert _Counting.requests == 120
    assert _Counting.connections <= 40 + 4  # one per session in flight (and a few raced)


GC_PLUGIN = """
import gc, json
seen = []
def pytest_runtest_call(item):
    seen.append(gc.get_threshold()[0])
def pytest_unconfigure(config):
    with open("gc.json", "w") as fh:
        json.dump({"during": sorted(set(seen)), "after": gc.get_threshold()[0]}, fh)
"""


def test_the_young_generation_is_collected_less_often_only_while_sessions_play(
    pytester: pytest.Pytester,
) -> None:
    import gc

    from pytest_bankbench.plugin.prefetch import YOUNG_GC

    # A plugin, not a conftest: the benchmark's items live outside the test directory.
    pytester.makepyfile(gcwatch=GC_PLUGIN)
    pytester.syspathinsert()
    before = gc.get_threshold()[0]
    watch = ("-p", "gcwatch", "--bank-model", "gold", "-k", "balance_enquiry")
    _run(pytester, *watch, "--bank-concurrency", "4")
    seen = json.loads((pytester.path / "gc.json").read_text())
    assert seen == {"during": [max(before, YOUNG_GC)], "after": before}
    _run(pytester, *watch)  # one at a time: untouched
    assert json.loads((pytester.path / "gc.json").read_text())["during"] == [before]


class _GoneWorker:
    """An xdist worker killed right after it reported a test: sending to it fails."""

    shutting_down = False

    def send_runtest_some(self, indices: list[int]) -> None:
        raise OSError("cannot send (already closed?)")


def test_a_worker_gone_before_its_tests_were_sent_does_not_end_the_run(
    pytester: pytest.Pytester,
) -> None:
    from xdist.scheduler import LoadScheduling

    from pytest_bankbench.plugin.deep_scheduler import SteadyLoadScheduling

    config = pytester.parseconfig("--tx", "2*popen")
    for scheduler, survives in ((LoadScheduling, False), (SteadyLoadScheduling, True)):
        sched = scheduler(config)
        gone = _GoneWorker()
        sched.collection = ["t0", "t1", "t2", "t3"]
        sched.node2pending = {gone: [0]}  # it was running t0 when it died
        sched.pending = [1, 2, 3]
        if not survives:
            with pytest.raises(OSError):  # xdist's own: INTERNALERROR, the run's end
                sched._send_tests(gone, 2)
            continue
        sched._send_tests(gone, 2)
        assert sched.node2pending[gone] == [0, 1, 2]  # still its tests, until its crash is seen
        assert sched.remove_node(gone) == "t0"  # then: the running one is lost, ...
        assert sorted(sched.pending) == [1, 2, 3]  # ... the others are queued again
