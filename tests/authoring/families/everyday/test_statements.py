"""Statement families: a period over twelve months asked, a gold period within them."""

from __future__ import annotations

import re
from datetime import date, datetime

from pytest_bankbench.bank import rules
from tests.authoring.families.shipped import (
    gold_call,
    tasks_of,
)


def _day(text: str) -> date:
    return datetime.strptime(text, "%d %B %Y").date()


def test_statement_opening_asks_over_twelve_months_and_gold_stays_within() -> None:
    for task in tasks_of("statement_over_twelve_months"):
        found = re.search(r"from (\d{1,2} [A-Z][a-z]+ \d{4}) to today", task.scenario.first_message)
        assert found, task.task_id
        start, today = _day(found.group(1)), task.task_date
        assert today > rules.add_months(start, 12), task.task_id
        call = gold_call(task, "request_account_statement")
        begin = date.fromisoformat(str(call.arguments["from_date"]))
        end = date.fromisoformat(str(call.arguments["to_date"]))
        assert start <= begin <= end <= today, task.task_id
        assert end <= rules.add_months(begin, 12), task.task_id
