"""--bank-concurrency K: each process plays the sessions of its upcoming tests K at a time.

Each task stays one pytest test: the test's body takes its session's trace (or the exception it
raised) from a background daemon thread and scores it as before, so setup, reports, -k, -x,
resume, the gate and the JSON log are untouched. What comes next is `session.items` with -n 0;
in an xdist worker it is the worker's queue (`torun`, read from its interactor, which is
registered without a name); deeper per-worker queues come from `DeepLoadScheduling`. See
ECOSYSTEM_NOTES "Several sessions at once inside one process" for what was measured.
"""

from __future__ import annotations

import gc
import threading
import warnings
from collections.abc import Generator
from typing import TYPE_CHECKING, Any

import pytest

from pytest_bankbench.bank.store import Bank, template_image
from pytest_bankbench.run.cases import BankCase, CaseKey
from pytest_bankbench.run.inflight import CancelFlag, Inflight, Turn
from pytest_bankbench.run.play import SessionResult, play_case
from pytest_bankbench.run.session_output import SessionOutput
from pytest_bankbench.simulation.agents import Agent, AgentAction
from pytest_bankbench.simulation.customer import Customer, CustomerTurn
from pytest_bankbench.simulation.trace import Event

if TYPE_CHECKING:
    from collections.abc import Sequence

    from pytest_bankbench.plugin.bench import BankBench

# The fixtures a prefetched session builds for itself: a test whose conftest overrides any of
# them plays inline, with the overriding objects (a prefetch would ignore the override).
PLAYED_FIXTURES = ("bank", "bank_agent", "bank_customer", "bank_completion", "bank_user_completion")
SUITE_NODEID = "bankbench::test_task["
PREFETCH_KEY = pytest.StashKey["Prefetch"]()
YOUNG_GC = 20_000  # allocations between young-generation collections while sessions play


class ConcurrencyWarning(pytest.PytestWarning):
    """--bank-concurrency could not look ahead here; the sessions play one at a time."""


def prefetch_of(config: pytest.Config) -> Prefetch | None:
    """The run's prefetcher, or None with --bank-concurrency 1 (or --bank-regrade)."""
    return config.stash.get(PREFETCH_KEY, None)


class _CheckedAgent:
    """The agent, stopping at its next move once the run is cancelled (each move is a model call)."""

    def __init__(self, agent: Agent, cancel: CancelFlag, turn: Turn) -> None:
        self._agent = agent
        self._cancel = cancel
        self._turn = turn
        self.name = agent.name

    def act(self, events: Sequence[Event]) -> AgentAction:
        self._cancel.check()
        self._turn.done()
        return self._agent.act(events)

    def __getattr__(self, name: str) -> Any:  # usage, client, ...: the agent's own
        return getattr(self._agent, name)


class _CheckedCustomer:
    """The customer, stopping at its next turn once the run is cancelled."""

    def __init__(self, customer: Customer, cancel: CancelFlag) -> None:
        self._customer = customer
        self._cancel = cancel
        self.name = customer.name

    def open(self) -> str:
        self._cancel.check()
        return self._customer.open()

    def respond(self, agent_text: str) -> CustomerTurn:
        self._cancel.check()
        return self._customer.respond(agent_text)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._customer, name)


class PlayedAhead:
    """Stands in for the agent and the customer of a test whose session a thread plays.

    Building the real ones again for the test (a model agent renders the 34 tool schemas) would
    double the per-session work on the main thread, for objects `play` never uses.
    """

    def __init__(self, case: BankCase) -> None:
        self.name = f"played ahead: {case.id}"

    def _used(self) -> RuntimeError:
        return RuntimeError(
            f"{self.name}: this session is played in a background thread (--bank-concurrency); "
            "a fixture that needs the real agent or customer must override bank_agent or "
            "bank_customer in a conftest.py, which plays the session inline"
        )

    def act(self, events: Sequence[Event]) -> AgentAction:
        raise self._used()

    def open(self) -> str:
        raise self._used()

    def respond(self, agent_text: str) -> CustomerTurn:
        raise self._used()


def _cancellable_backoff(player: object, cancel: CancelFlag) -> None:
    """A model client's retry back-off ends as soon as the run is cancelled."""
    from pytest_bankbench.models.llm import ModelClient

    client = getattr(player, "client", None)
    if isinstance(client, ModelClient):
        client._sleep = cancel.sleep


def overridden_fixtures(item: pytest.Item) -> list[str]:
    """The benchmark fixtures this test gets from somewhere else than the plugin (a conftest)."""
    from pytest_bankbench.plugin import fixtures

    # pytest keeps an item's fixture definitions in `_fixtureinfo` (no public API); when its
    # shape changes, every fixture counts as overridden, so the test plays inline.
    defs = getattr(getattr(item, "_fixtureinfo", None), "name2fixturedefs", None)
    if not isinstance(defs, dict):
        return list(PLAYED_FIXTURES)
    return [
        name
        for name in PLAYED_FIXTURES
        if name in defs and getattr(defs[name][-1].func, "__module__", None) != fixtures.__name__
    ]


class Prefetch:
    """The pytest glue: which tests come next, their sessions in flight, each taken by its test."""

    NAME = "bankbench-prefetch"

    def __init__(self, run: BankBench) -> None:
        self.run = run
        self.config = run.config
        self.limit = run.options.concurrency
        self.pool: Inflight[str, SessionResult] = Inflight(self._play, self.limit, name="bankbench")
        self.output = SessionOutput()
        self.setup_lock = threading.Lock()  # a session's setup, one at a time (inflight.Turn)
        self.cases: dict[str, BankCase] = {}  # nodeid -> case, for the tests that may prefetch
        self.items: list[pytest.Item] = []
        self.position: dict[str, int] = {}
        self.offered = 0  # without xdist: the tests before this index were offered to the pool
        self.nodeids: dict[CaseKey, str] = {}  # each prefetched case's test
        self.inline_reason: str | None = None
        self.config.stash[PREFETCH_KEY] = self

    # -- which tests come next ---------------------------------------------------------------
    def pytest_collection_finish(self, session: pytest.Session) -> None:
        self.items = session.items
        self.position = {item.nodeid: i for i, item in enumerate(session.items)}
        for item in session.items:
            callspec = getattr(item, "callspec", None)
            case = callspec.params.get("bank_case") if callspec is not None else None
            if not isinstance(case, BankCase) or not item.nodeid.startswith(SUITE_NODEID):
                continue
            if not overridden_fixtures(item):
                self.cases[item.nodeid] = case
                self.nodeids[case.key] = item.nodeid
        self.output.install()
        if self.cases:
            _warm_up(
                {case.task.bank_seed for case in self.cases.values()},
                self.run.parties.models(),
                self.limit,
            )

    def _upcoming(self, nodeid: str) -> list[pytest.Item] | None:
        """This test and the ones this process runs after it, in order; None: unknown.

        Without xdist only the tests not offered before are returned: each was offered once.
        """
        if not self.run.is_worker:
            start = self.position.get(nodeid)
            if start is None:
                return None
            return self.items[max(start, self.offered) : start + self.pool.lookahead]
        interactor = self._interactor()
        try:
            with interactor.torun.lock() as queue:
                queued = list(queue)
            indices = [interactor.item_index, interactor.nextitem_index, *queued]
            if self.items[indices[0]].nodeid != nodeid:
                return None
        except (AttributeError, TypeError, IndexError):
            return None
        return [self.items[i] for i in indices if isinstance(i, int) and 0 <= i < len(self.items)]

    def _interactor(self) -> Any:
        for plugin in self.config.pluginmanager.get_plugins():
            if type(plugin).__name__ == "WorkerInteractor":
                return plugin
        return None

    def _refill(self, nodeid: str) -> None:
        if self.inline_reason is not None:
            return
        upcoming = self._upcoming(nodeid)
        if upcoming is None:
            self.inline_reason = (
                "cannot see which tests this process runs next (pytest-xdist changed?); "
                "--bank-concurrency plays the sessions one at a time"
            )
            self.pool.cancel()
            warnings.warn(ConcurrencyWarning(self.inline_reason), stacklevel=1)
            return
        keys = [i.nodeid for i in upcoming if i.nodeid in self.cases]
        if self.run.is_worker:
            self.pool.retain(set(keys))  # a stolen test (--dist worksteal) runs elsewhere
        passed = self.pool.want(keys)
        if not self.run.is_worker and upcoming:
            # The next refill starts at the first test that did not fit, else after these.
            unfit = keys[passed] if passed < len(keys) else None
            last = self.position[upcoming[-1].nodeid]
            self.offered = self.position[unfit] if unfit is not None else last + 1

    # -- playing and taking ------------------------------------------------------------------
    def _play(self, nodeid: str, cancel: CancelFlag) -> SessionResult:
        """Play and score the session in the background: its test only reports the result."""
        case = self.cases[nodeid]
        task = case.task
        run = self.run
        turn = Turn(self.setup_lock, cancel)
        try:
            with (
                self.output.collect(nodeid),
                Bank(task.customer_id, task.task_date, task.bank_seed) as bank,
            ):
                agent, customer = run.make_agent(case), run.make_customer(case)
                _cancellable_backoff(agent, cancel)
                _cancellable_backoff(customer, cancel)
                # The turn ends at the agent's first move: a session's first model call (the
                # customer's opening is its script's, even for a model customer).
                checked = _CheckedAgent(agent, cancel, turn), _CheckedCustomer(customer, cancel)
                return play_case(case, *checked, bank, run.limits)
        finally:
            turn.done()

    def holds(self, case: BankCase) -> bool:
        """This case's session was played (or is playing) in the background."""
        nodeid = self.nodeids.get(case.key)
        return nodeid is not None and self.pool.holds(nodeid)

    def take(self, case: BankCase) -> SessionResult:
        """The case's result, once its session ends; what its session raised is raised here."""
        nodeid = self.nodeids[case.key]
        return self.pool.take(nodeid, while_waiting=lambda: self._refill(nodeid))

    @pytest.hookimpl(wrapper=True, tryfirst=True)
    def pytest_runtest_protocol(self, item: pytest.Item) -> Generator[None, object, object]:
        try:
            return (yield)
        finally:
            # A test that never took its session (a setup error, a skip) frees its place.
            self.pool.forget(item.nodeid)
            self.output.pop(item.nodeid)

    # Background prints are routed inside each phase (after capture and logging set up theirs).
    @pytest.hookimpl(wrapper=True, trylast=True)
    def pytest_runtest_setup(self, item: pytest.Item) -> Generator[None, object, object]:
        with self.output.routed():
            self._refill(item.nodeid)  # sessions start inside a phase, where prints are routed
            return (yield)

    @pytest.hookimpl(wrapper=True, trylast=True)
    def pytest_runtest_call(self, item: pytest.Item) -> Generator[None, object, object]:
        try:
            with self.output.routed():
                return (yield)
        finally:
            text = self.output.pop(item.nodeid)  # what its session printed in the background
            if text:
                item.add_report_section("call", "bankbench session output", text)

    @pytest.hookimpl(wrapper=True, trylast=True)
    def pytest_runtest_teardown(self) -> Generator[None, object, object]:
        with self.output.routed():
            return (yield)

    @pytest.hookimpl(wrapper=True)
    def pytest_runtestloop(self, session: pytest.Session) -> Generator[None, object, object]:
        # K sessions allocate K times as fast: the young generation, collected every 700
        # allocations by default, cost ~0.9 s of CPU over bench/concurrency.py's 1,000 sessions;
        # collected every YOUNG_GC allocations it costs half, for a few MB more at any moment.
        thresholds = gc.get_threshold()
        gc.set_threshold(max(thresholds[0], YOUNG_GC), *thresholds[1:])
        # -x, a configuration stop, Ctrl-C or the end: nothing more starts, nor any model call.
        try:
            return (yield)
        finally:
            gc.set_threshold(*thresholds)
            self.pool.cancel()
            # A thousand sessions' traces and clients are long-lived until exit; pytest's full
            # collection at unconfigure walked them for ~1.8 s of bench/concurrency.py's run.
            gc.freeze()

    def pytest_unconfigure(self) -> None:
        self.pool.cancel()
        self.output.uninstall()


def _warm_up(seeds: set[int], models: list[str], limit: int) -> None:
    """Build the process-wide caches once, on the main thread, before the sessions' threads would
    race to build them (and wait on each other): the bank images, the tool schemas, the policy,
    litellm's import and first-call setup (which, from a background thread during the first
    test, would leave its import warnings on that test) and a connection pool for `limit`
    sessions in flight."""
    from pytest_bankbench.bank.registry import tool_schemas
    from pytest_bankbench.simulation.chat import policy_text

    tool_schemas()
    policy_text()
    for seed in seeds:
        template_image(seed)
    if models:
        from pytest_bankbench.models.litellm_setup import keep_connections, prepare_litellm

        for model in models:
            prepare_litellm(model)
        keep_connections(2 * limit)  # each session has one call in flight: agent or customer
