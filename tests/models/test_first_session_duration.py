"""A process's first session is timed without the provider library's import and setup.

Issue 19: each process's first session's duration included litellm's import and one-time
setup (42.7 s against 0.4 s for the others). The parties now set litellm up when they are
made, before the session's clock starts; the import stands in here as a 0.5 s sleep.
"""

from __future__ import annotations

import time
from typing import Any

import pytest

from pytest_bankbench.bank.store import Bank
from pytest_bankbench.models import llm
from pytest_bankbench.run.cases import cases_of
from pytest_bankbench.run.parties import Parties
from pytest_bankbench.run.settings import RunSettings
from pytest_bankbench.simulation.session import run_session
from pytest_bankbench.tasks.loader import shipped_tasks
from tests.models.fakes import Scripted, mocked

IMPORT_S = 0.5


class SlowImport:
    """litellm as a fresh process meets it: the first use costs IMPORT_S."""

    def __init__(self) -> None:
        self.completion = Scripted([mocked("Your balance is as shown."), mocked("Goodbye.")])
        self.prepared = 0

    def __call__(self, model: str) -> Any:
        self.prepared += 1
        time.sleep(IMPORT_S)
        return self


def test_the_first_sessions_duration_leaves_out_the_import(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    slow = SlowImport()
    monkeypatch.setattr(llm, "prepare_litellm", slow)
    task = next(t for t in shipped_tasks() if t.family == "balance_enquiry")
    case = cases_of([task], 1)[0]
    settings = RunSettings(
        model="openai/fake",
        user_model="openai/fake-customer",
        split="base",
        tasks_path=None,
        trials=1,
        max_steps=4,
        max_errors=2,
        report=None,
        traces=None,
        session_deadline=IMPORT_S * 0.8,  # shorter than the import: it must not count
    )
    parties = Parties(settings)
    agent = parties.agent(case)
    customer = parties.customer(case)
    assert slow.prepared == 2  # both set up as they were made
    with Bank(task.customer_id, task.task_date, task.bank_seed) as bank:
        trace = run_session(task, agent, customer, bank)
    assert trace.duration_s < IMPORT_S / 2 and trace.end != "infra_error", trace.end_detail
