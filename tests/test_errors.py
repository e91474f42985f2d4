"""One error tree: every exception class of the package derives from BankBenchError."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from collections.abc import Sequence

import pytest_bankbench
from pytest_bankbench.bank.store import Bank
from pytest_bankbench.errors import BankBenchError
from pytest_bankbench.models.errors import DeadlineExceeded, InfraError
from pytest_bankbench.models.local import LocalModelError
from pytest_bankbench.plugin import bench
from pytest_bankbench.report.compare import ReportError
from pytest_bankbench.report.run_guard import ReportLocked
from pytest_bankbench.scoring.failures import CheckFailed
from pytest_bankbench.simulation import session
from pytest_bankbench.simulation.agents import AgentAction
from pytest_bankbench.simulation.customer import ScriptedCustomer
from pytest_bankbench.simulation.trace import Event
from pytest_bankbench.tasks.loader import TaskFileError, shipped_tasks
from pytest_bankbench.tasks.replay import GoldReplayError


def _exception_classes() -> list[type[BaseException]]:
    """Every exception class defined in a module of the package (not the ones it imports)."""
    found: list[type[BaseException]] = []
    for info in pkgutil.walk_packages(pytest_bankbench.__path__, "pytest_bankbench."):
        if info.name.endswith("__main__"):
            continue  # running it is the CLI
        module = importlib.import_module(info.name)
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if cls.__module__ != module.__name__ or issubclass(cls, Warning):
                continue  # imported, or a warning (pytest's PytestWarning tree, not an error)
            if issubclass(cls, BaseException):
                found.append(cls)
    return found


def test_every_exception_class_derives_from_the_root() -> None:
    classes = _exception_classes()
    assert len(classes) >= 20  # the walk found the package's modules
    outside = {
        f"{c.__module__}.{c.__qualname__}" for c in classes if not issubclass(c, BankBenchError)
    }
    assert outside == set()


def test_builtin_bases_that_callers_catch_are_kept() -> None:
    assert issubclass(TaskFileError, ValueError) and issubclass(ReportError, ValueError)
    assert issubclass(GoldReplayError, RuntimeError) and issubclass(LocalModelError, RuntimeError)
    assert issubclass(ReportLocked, RuntimeError)
    assert issubclass(CheckFailed, AssertionError)  # a failed check reads as a test failure


def test_infrastructure_failure_has_one_name() -> None:
    infra = [c for c in _exception_classes() if "infra" in c.__name__.lower()]
    assert infra == [InfraError]
    assert not issubclass(DeadlineExceeded, InfraError)  # a slow agent is no outage (issue 19)
    assert not hasattr(session, "InfraFailure")
    assert not hasattr(bench, "InfrastructureError")


class _Unreachable:
    """An agent whose provider stays down past the retries."""

    name = "unreachable-test-agent"

    def act(self, events: Sequence[Event]) -> AgentAction:
        raise InfraError("RateLimitError: slow down (after 4 attempts)")


def test_an_infra_error_ends_the_session_as_infra_error() -> None:
    task = shipped_tasks()[0]
    with Bank(task.customer_id, task.task_date) as bank:
        trace = session.run_session(task, _Unreachable(), ScriptedCustomer(task), bank)
    assert trace.end == "infra_error" and "RateLimitError" in trace.end_detail
