"""The policy-edge families: every shipped task really poses the edge its family is named for."""

from __future__ import annotations

import re
from datetime import date, datetime
from decimal import Decimal

import pytest

from pytest_bankbench.bank import knowledge, rules
from pytest_bankbench.money import amounts_in, indian, to_paise
from pytest_bankbench.scoring.outputs import said
from pytest_bankbench.scoring.scorer import output_said
from pytest_bankbench.tasks.families.base import Context
from pytest_bankbench.tasks.families.policy_edges import (
    FD_CLARIFIERS,
    FD_DESCRIPTIONS,
    FD_TENURES,
    closable_fds,
)
from pytest_bankbench.tasks.generate import TASKS_PER_FAMILY
from pytest_bankbench.tasks.loader import shipped_tasks
from pytest_bankbench.tasks.model import GoldCall, Task
from pytest_bankbench.tasks.replay import replay
from tests.tasks.stated import stated

FAMILIES = (
    "kb_answer",
    "transfer_correction",
    "ambiguous_fd_clarify",
    "fd_quote_redo_after_change",
    "pay_more_than_owed",
    "statement_over_twelve_months",
)
INTERNAL_ID = re.compile(r"\b(?:FD|RD|LN|CRD|BEN|SR|CUST|CTX)\d{3,}")


def tasks_of(name: str) -> list[Task]:
    return [t for t in shipped_tasks() if t.family == name]


def gold_call(task: Task, tool: str, nth: int = 0) -> GoldCall:
    return [c for c in task.gold if c.tool == tool][nth]


def rupees(value: object) -> Decimal:
    return Decimal(str(value))


def said_amount(value: Decimal, text: str) -> bool:
    """The amount told in the text the way the scorer reads it (ids after 'ending' aside)."""
    return said("amount", f"{value:.2f}", text)


def customer_lines(task: Task) -> list[str]:
    """Everything the customer may say or read as their own story."""
    lines = [task.scenario.first_message, task.scenario.narrative]
    for ins in task.scenario.instructions:
        lines += [ins.text, ins.decline or "", ins.correction or "", ins.explain or ""]
    lines += [f.text for f in task.scenario.structured_facts()]
    return lines


@pytest.mark.parametrize("name", FAMILIES)
def test_family_ships_all_its_varied_tasks(name: str) -> None:
    tasks = tasks_of(name)
    assert len(tasks) == TASKS_PER_FAMILY
    assert len({t.customer_id for t in tasks}) == TASKS_PER_FAMILY
    assert len({t.scenario.first_message for t in tasks}) >= 15
    assert all(t.clause for t in tasks)


@pytest.mark.parametrize("name", FAMILIES)
def test_customer_never_says_an_internal_id(name: str) -> None:
    for task in tasks_of(name):
        for line in customer_lines(task):
            assert not INTERNAL_ID.search(line), (task.task_id, line)


@pytest.mark.parametrize("name", FAMILIES)
def test_a_fallback_waits_for_the_rule_and_the_refusal_states_it(name: str) -> None:
    for task in tasks_of(name):
        gated = [f for f in task.scenario.structured_facts() if f.after]
        for fact in gated:
            assert fact.text not in task.scenario.first_message, task.task_id
            assert not any(stated(p, task.scenario.first_message) for p in fact.after), task.task_id
        for ins in task.scenario.instructions:
            if ins.explain:
                phrases = [p for f in gated for p in f.after]
                assert any(stated(p, ins.explain) for p in phrases), task.task_id


def test_kb_answer_is_in_the_articles_the_gold_query_finds() -> None:
    queries = set()
    for task in tasks_of("kb_answer"):
        search = gold_call(task, "search_knowledge_base")
        assert search.match == ()
        query = str(search.arguments["query"])
        queries.add(query)
        articles = [doc.text for doc in knowledge.search(query)]
        assert task.required_outputs, task.task_id
        for output in task.required_outputs:
            assert output_said(output, articles), (task.task_id, output.label, output.value)
    assert len(queries) >= 6  # several knowledge-base documents


def test_transfer_correction_corrects_the_amount_of_the_opening() -> None:
    for task in tasks_of("transfer_correction"):
        amount = rupees(gold_call(task, "transfer_funds").arguments["amount"])
        opening = task.scenario.first_message
        correction = task.scenario.instructions[0].correction
        assert correction is not None
        assert not said_amount(amount, opening), task.task_id
        assert said_amount(amount, correction), task.task_id
        wrong = [v for v in amounts_in(opening) if v != amount and said_amount(v, opening)]
        assert len(wrong) == 1 and said_amount(wrong[0], correction), task.task_id
        told = {d.label: d.value for d in task.disclosures}
        assert rupees(told["amount"]) == amount


def test_ambiguous_fd_opening_fits_two_deposits_and_the_fact_one() -> None:
    ctx = Context(tasks_of("ambiguous_fd_clarify")[0].bank_seed)
    for task in tasks_of("ambiguous_fd_clarify"):
        ctx.today = task.task_date
        fds = closable_fds(ctx, task.customer_id)
        closed = str(gold_call(task, "close_fd_premature").arguments["deposit_id"])
        opening = task.scenario.first_message
        fitting = [
            fd["deposit_id"]
            for fd in fds
            if any(phrase(fd) in opening for _key, phrase in FD_DESCRIPTIONS.values())
        ]
        assert len(fitting) >= 2 and closed in fitting, (task.task_id, fitting)
        (fact,) = task.scenario.structured_facts()
        told = [
            fd["deposit_id"]
            for fd in fds
            if any(c(fd) == fact.text for c in FD_CLARIFIERS.values())
        ]
        assert told == [closed], task.task_id
        assert gold_call(task, "get_fd_closure_quote").arguments["deposit_id"] == closed


def test_fd_quote_redo_books_the_new_tenure_at_its_own_quote() -> None:
    words = dict(FD_TENURES)
    for task in tasks_of("fd_quote_redo_after_change"):
        first, second = (gold_call(task, "calculate_fd_maturity", n) for n in (0, 1))
        booking = gold_call(task, "create_fd")
        old, new = (
            int(str(first.arguments["tenure_days"])),
            int(str(second.arguments["tenure_days"])),
        )
        assert old != new and booking.arguments["tenure_days"] == new
        assert second.id in booking.after
        correction = task.scenario.instructions[0].correction
        assert correction is not None and words[new] in correction, task.task_id
        results = replay(task).results
        assert results[first.id]["rate_percent"] != results[second.id]["rate_percent"]
        told = {d.label: d.value for d in task.disclosures if d.write == booking.id}
        assert told["rate"] == results[second.id]["rate_percent"]
        assert rupees(told["maturity amount"]) == rupees(results[second.id]["maturity_amount"])
        assert rupees(told["maturity amount"]) != rupees(results[first.id]["maturity_amount"])


def test_pay_more_than_owed_asks_for_more_and_pays_the_outstanding() -> None:
    ctx = Context(tasks_of("pay_more_than_owed")[0].bank_seed)
    for task in tasks_of("pay_more_than_owed"):
        pay = gold_call(task, "pay_credit_card_bill")
        card = ctx.one("SELECT * FROM cards WHERE card_id = ?", pay.arguments["card_id"])
        paid = rupees(pay.arguments["amount"])
        assert to_paise(paid) == card["outstanding"], task.task_id
        opening = task.scenario.first_message
        asked = [v for v in amounts_in(opening) if said_amount(v, opening)]
        assert asked and max(asked) > paid, (task.task_id, asked, paid)
        assert indian(card["outstanding"]) not in opening
        assert [rupees(d.value) for d in task.disclosures] == [paid]


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
