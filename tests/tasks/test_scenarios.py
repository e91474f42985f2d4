"""What the customer says and knows: no internal ids, openings in several registers, and no
fallback before the agent has stated the rule that calls for it.

A family that always opened "Hello, Please ..." and whose customer announced "if RTGS can't,
send it by NEFT" or named "FD000123" gave the answer away; these tests keep it from coming back.
"""

from __future__ import annotations

import re
from collections import defaultdict
from decimal import Decimal

import pytest

from pytest_bankbench.money import amounts_in
from pytest_bankbench.tasks.loader import shipped_tasks
from pytest_bankbench.tasks.model import Fact, Scenario, Task
from tests.tasks.stated import stated

TASKS = shipped_tasks()
FAMILIES = sorted({t.family for t in TASKS})
INTERNAL_ID = re.compile(r"\b(FD|RD|SR|LN|CRD|BEN|CUST)\d{3,}\b")
MIN_REGISTERS = 6
# A fact that answers a refusal ("If you can't ...", "Then send it by NEFT instead.").
CONDITIONAL = re.compile(r"^(if|then)\b", re.IGNORECASE)
# Words of a fallback that would give it away if the customer said them first.
GIVEAWAY_WORDS = ("NEFT", "IMPS", "RTGS", "minimum", "maximum")
# Families whose refusal comes with an alternative the customer accepts once told the rule.
FALLBACK_FAMILIES = (
    "cooling_period_limit",
    "deposit_outside_limits",
    "dormant_source_account",
    "international_not_supported",
    "limit_above_maximum",
    "rtgs_below_minimum",
    "tax_saver_fixed_tenure",
)


def _said(scenario: Scenario) -> list[str]:
    """Everything the customer may say on its own: the opening and every request's texts."""
    texts = [scenario.first_message]
    for request in scenario.instructions:
        texts += [request.text, *request.accepts]
        texts += [t for t in (request.decline, request.correction) if t]
    return texts


def _customer_texts(scenario: Scenario) -> list[str]:
    """Every customer-side text: what it says, what it knows, what it keeps back."""
    facts = [f.text for f in scenario.structured_facts()]
    return [*_said(scenario), *facts, *scenario.withheld, scenario.narrative]


def _requests(scenario: Scenario) -> list[str]:
    """The texts the customer says without being asked: the opening and the requests."""
    return [scenario.first_message, *(r.text for r in scenario.instructions)]


def _figures(text: str) -> set[Decimal]:
    """The amounts and record numbers in a text (Rs 50,000, an account, a card's last digits);
    years and days of dates are left out."""
    text = re.sub(r"\b(19|20)\d{2}\b", " ", text)
    return {n for n in amounts_in(text) if n >= 100}


def _gated(task: Task) -> list[Fact]:
    return [f for f in task.scenario.structured_facts() if f.after]


def _register(message: str) -> str:
    """An opening with what varies between tasks taken out (numbers, amounts, names, products,
    months, modes: any word with a digit or a capital), so that what is left is its register."""
    return " ".join(re.sub(r"\S*[\dA-Z]\S*", "#", message).split())


def test_no_customer_text_names_an_internal_id() -> None:
    leaks = [
        (t.task_id, text)
        for t in TASKS
        for text in _customer_texts(t.scenario)
        if INTERNAL_ID.search(text)
    ]
    assert not leaks, leaks[:5]


@pytest.mark.parametrize("family", FAMILIES)
def test_every_family_opens_in_six_registers(family: str) -> None:
    openings = {_register(t.scenario.first_message) for t in TASKS if t.family == family}
    assert len(openings) >= MIN_REGISTERS, sorted(openings)


def test_no_family_mostly_opens_the_same_way() -> None:
    """The old suite opened 852 of 1,000 chats with "Hello, Please"."""
    starts = [" ".join(t.scenario.first_message.split()[:2]) for t in TASKS]
    commonest = max(starts.count(s) for s in set(starts))
    assert commonest <= len(TASKS) // 10


def test_every_fact_says_what_it_is_about() -> None:
    vague = [
        (t.task_id, f.text) for t in TASKS for f in t.scenario.structured_facts() if not f.about
    ]
    assert not vague, vague[:5]


def test_fallback_facts_wait_for_the_rule() -> None:
    """A conditional fact ("Then send it by NEFT instead.") is released only after the agent
    states the rule: it has `after` phrases."""
    ungated = [
        (t.task_id, f.text)
        for t in TASKS
        for f in t.scenario.structured_facts()
        if CONDITIONAL.match(f.text) and not f.after
    ]
    assert not ungated, ungated[:5]


@pytest.mark.parametrize("family", FALLBACK_FAMILIES)
def test_fallback_families_gate_their_alternative(family: str) -> None:
    members = [t for t in TASKS if t.family == family]
    assert members
    assert all(_gated(t) for t in members), family


def test_no_request_gives_a_fallback_away() -> None:
    """Neither the opening nor a request says a gated fact, its numbers (the Rs 50,000 of the
    cooling period, the other account or card) or its mode or limit words."""
    given_away = []
    for task in TASKS:
        requests = _requests(task.scenario)
        said_numbers: set[Decimal] = set().union(*(_figures(r) for r in requests))
        said_words = " ".join(requests).lower()
        for fact in _gated(task):
            numbers = _figures(fact.text) & said_numbers
            words = [w for w in GIVEAWAY_WORDS if w in fact.text and w.lower() in said_words]
            if any(fact.text in r for r in requests) or numbers or words:
                given_away.append((task.task_id, fact.text, sorted(numbers), words))
    assert not given_away, given_away[:5]


def test_a_refusal_explains_the_rule_that_releases_its_fallback() -> None:
    """The gold agent's explanation of a refusal states the rule: it contains one of the phrases
    that release each gated fact (a phrase, or a concept said un-negated)."""
    missing = []
    for task in TASKS:
        explained = " ".join(r.explain or "" for r in task.scenario.instructions)
        for fact in _gated(task):
            if not any(stated(p, explained) for p in fact.after):
                missing.append((task.task_id, fact.text))
    assert not missing, missing[:5]


def test_families_vary_the_record_not_just_the_amount() -> None:
    """Within a family the tasks are about different records (accounts, deposits, loans, cards,
    payees): the first required fact differs from task to task."""
    records: dict[str, set[str]] = defaultdict(set)
    for task in TASKS:
        fact = next((c.facts for c in task.gold if c.facts and c.facts.entity != "customer"), None)
        if fact is not None:
            records[task.family].add(f"{fact.entity}:{fact.key}")
    sizes = {f: sum(t.family == f for t in TASKS) for f in records}
    few = {f: len(keys) for f, keys in records.items() if len(keys) < sizes[f] // 2}
    assert not few, few
