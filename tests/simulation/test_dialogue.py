"""The gold dialogue a bank would publish: every phrasing passes every task with the scripted
customer, every wording of every register reads to the customer as its kind, the first question
asks only for what the customer's opening left out, the values told come from the agent's own
tool results (a wrong expected value fails the gold), the agent never shows tool names or
internal ids, and the customer never gives away an id or a fallback before the agent has stated
the rule that calls for it (a concept of the shared vocabulary said un-negated, or a phrase said
as it is: tests/tasks/stated.py)."""

from __future__ import annotations

import re
from datetime import date, timedelta
from decimal import Decimal
from functools import cache

import pytest

from pytest_bankbench.bank.registry import all_tools
from pytest_bankbench.concepts import says
from pytest_bankbench.runner import builtin_agent, run_task
from pytest_bankbench.simulation.acts import read
from pytest_bankbench.simulation.agents import GoldAgent, spoken_value
from pytest_bankbench.simulation.dialogue import Phrasing, already_told
from pytest_bankbench.simulation.phrasings import PHRASINGS
from pytest_bankbench.simulation.trace import MessageEvent, ToolEvent, Trace
from pytest_bankbench.tasks.loader import shipped_tasks
from pytest_bankbench.tasks.model import GoldCall, Task, ToldValue
from tests.tasks.stated import stated

TASKS = shipped_tasks()
INTERNAL_ID = re.compile(r"\b(FD|RD|SR|LN|CRD|BEN|CUST)\d{3,}\b")


@cache
def _gold_traces() -> tuple[Trace, ...]:
    return tuple(run_task(task, GoldAgent(task)).trace for task in TASKS)


def _messages(trace: Trace, role: str) -> list[tuple[int, str]]:
    return [
        (i, e.text)
        for i, e in enumerate(trace.events)
        if isinstance(e, MessageEvent) and e.role == role
    ]


@pytest.mark.parametrize("phrasing", sorted(PHRASINGS))
def test_every_phrasing_passes_every_task(phrasing: str) -> None:
    failed = [
        f"{t.task_id}: {v.failure_type}"
        for t in TASKS
        if not (v := run_task(t, GoldAgent(t, phrasing)).verdict).passed
    ]
    assert len(PHRASINGS) >= 5
    assert not failed, failed[:5]


TRANSFER = GoldCall(
    id="c1",
    tool="transfer_funds",
    arguments={"from_account": "50101234567890", "amount": 5000, "mode": "NEFT", "to": "BEN1"},
    match=(),
    instruction=0,
)
QUOTE = (ToldValue(label="amount", kind="amount", value="5000.00"),)


def _wordings(say: Phrasing) -> dict[str, list[str]]:
    """Each wording of each kind of turn, filled in as the gold agent fills it."""
    keys = [f"k{i}" for i in range(20 * len(say.proposes) * len(say.confirms))]
    return {
        "greet": [say.greet(k) for k in keys],
        "ask": [say.asking(("account", "amount"), k) for k in keys],
        "propose": [say.proposal(TRANSFER, QUOTE, key=k) for k in keys],
        "done": [say.closing(QUOTE, None, k) for k in keys],
        "answer": [say.closing(QUOTE, None, k, changed=False) for k in keys],
        "refuse": [say.closing((), "The account is dormant.", k) for k in keys],
    }


@pytest.mark.parametrize("phrasing", sorted(PHRASINGS))
def test_every_wording_reads_as_its_kind(phrasing: str) -> None:
    say = PHRASINGS[phrasing]
    wordings = _wordings(say)
    sizes = {
        "greet": say.greetings,
        "ask": say.asks,
        "propose": [p + c for p in say.proposes for c in say.confirms],
        "done": say.dones,
        "answer": say.answers,
        "refuse": say.refuses,
    }
    for kind, texts in wordings.items():
        assert len(set(texts)) == len(sizes[kind]), (kind, sorted(set(texts)))
    for text in set(wordings["greet"]):
        assert read(text).acts == {"greet"}, text
    for text in set(wordings["ask"]):
        reading = read(text)
        assert reading.has("ask") and not reading.proposes, text
        assert {"account", "amount"} <= reading.topics, (text, reading.topics)
    for text in set(wordings["propose"]):
        reading = read(text)
        assert reading.has("confirm") and "transfer" in reading.actions, (text, reading)
    for text in set(wordings["done"]) | set(wordings["answer"]):
        reading = read(text)
        assert reading.has("done") and not reading.has("ask", "confirm", "refuse"), text
    for text in set(wordings["done"]):
        assert says("completed", text), text  # a write's result told, even with no value
    for text in set(wordings["refuse"]):
        assert read(text).has("refuse"), text


def test_the_wordings_vary_across_the_tasks_but_not_between_runs() -> None:
    first = [_first_agent_text(t) for t in TASKS]
    assert first == [_first_agent_text(t) for t in TASKS]
    greetings = set(PHRASINGS["bank"].greetings)
    used = {g for g in greetings for text in first if text.startswith(g)}
    assert used == greetings


def _first_agent_text(task: Task) -> str:
    return next(
        e.text for e in _trace(task).events if isinstance(e, MessageEvent) and e.role == "agent"
    )


def _trace(task: Task) -> Trace:
    return _gold_traces()[TASKS.index(task)]


def test_the_first_question_asks_only_for_what_the_opening_left_out() -> None:
    asked_nothing = 0
    for task in TASKS:
        scenario = task.scenario
        facts = [f for f in scenario.structured_facts() if not f.after]
        missing = [f.text for f in facts if not already_told(f.text, scenario.first_message)]
        events = _trace(task).events
        first = next(
            i
            for i, e in enumerate(events)
            if not (isinstance(e, MessageEvent) and e.role == "customer")
        )
        if not missing:  # nothing to ask: straight to the reads (or the proposal)
            move = events[first]
            assert isinstance(move, ToolEvent) or not read(move.text).has("ask"), task.task_id
            asked_nothing += 1
            continue
        reply = events[first + 1]
        assert isinstance(reply, MessageEvent) and reply.role == "customer", task.task_id
        assert all(text in reply.text for text in missing), (task.task_id, reply.text)
    assert 0 < asked_nothing < len(TASKS)


def test_a_question_leaves_out_what_the_customer_just_said() -> None:
    # Issue 17: "which deposit, the amount and the date" after "the FD I opened in February".
    task = next(
        t
        for t in TASKS
        if t.family == "ambiguous_fd_clarify"
        and any(f.about[1:2] == ("amount",) for f in t.scenario.structured_facts())
    )
    question = _first_agent_text(task)
    assert read(question).topics == {"deposit"}, question


def _shifted(value: ToldValue) -> str:
    """Another value of the same kind, one no tool result of the session shows."""
    if value.kind == "amount":
        return str(value.amount() + Decimal("13.07"))
    if value.kind == "date":
        return (date.fromisoformat(value.value) + timedelta(days=3)).isoformat()
    return str(Decimal(value.value) + Decimal("0.13"))  # a percent


@pytest.mark.parametrize("kind", ["amount", "date", "percent"])
def test_a_wrong_expected_value_fails_the_gold_agent(kind: str) -> None:
    task = next(t for t in TASKS if t.graded and any(o.kind == kind for o in t.required_outputs))
    assert run_task(task, builtin_agent("gold", task)).verdict.passed
    outputs = list(task.required_outputs)
    at = next(i for i, o in enumerate(outputs) if o.kind == kind)
    outputs[at] = outputs[at].model_copy(update={"value": _shifted(outputs[at])})
    wrong = task.model_copy(update={"required_outputs": tuple(outputs)})
    verdict = run_task(wrong, builtin_agent("gold", wrong)).verdict
    assert not verdict.passed and not verdict.checks["required_outputs"], verdict.evidence
    assert verdict.failure_type == "missing_output"


def test_a_quoted_amount_is_the_amount_the_write_sends() -> None:
    """Before a transfer, payment or booking, the quote's amount is the write's own (no result
    shows it yet: read from the results, "amount" once found `hold_amount`, "Amount: Rs. 0"
    beside "send Rs. 15,000", and a statement line's figure)."""
    tasks = {t.task_id: t for t in TASKS}
    quoted = 0
    for trace in _gold_traces():
        task = tasks[trace.task_id]
        sent = {
            spoken_value(ToldValue(label="amount", kind="amount", value=str(g.arguments["amount"])))
            for g in task.gold
            if any(d.write == g.id and d.label == "amount" for d in task.disclosures)
        }
        for _, text in _messages(trace, "agent"):
            for figure in re.findall(r"\bAmount: (Rs\. [\d,]+(?:\.\d\d)?)", text):
                quoted += 1
                assert figure in sent, (trace.task_id, text)
    assert quoted


def test_the_agent_never_shows_tool_names_or_internal_ids() -> None:
    names = re.compile(r"\b(" + "|".join(sorted(all_tools())) + r")\b")
    for trace in _gold_traces():
        for _, text in _messages(trace, "agent"):
            assert not names.search(text), (trace.task_id, text)
            assert not INTERNAL_ID.search(text), (trace.task_id, text)


def test_the_customer_gives_no_id_and_no_fallback_before_the_rule() -> None:
    tasks = {t.task_id: t for t in TASKS}
    for trace in _gold_traces():
        scenario = tasks[trace.task_id].scenario
        said = _messages(trace, "customer")
        instructions = " ".join(i.text for i in scenario.instructions)
        for _, text in said:
            ids = set(INTERNAL_ID.findall(text)) - set(INTERNAL_ID.findall(instructions))
            assert not ids, (trace.task_id, text)
        agent = _messages(trace, "agent")
        for fact in scenario.structured_facts():
            if not fact.after:
                continue
            first = next((i for i, text in said if fact.text in text), None)
            if first is None:
                continue
            before = [text for i, text in agent if i < first]
            assert any(stated(p, text) for p in fact.after for text in before), (
                trace.task_id,
                fact.text,
            )
