"""What must be told (scoring/told.py): each rule failing on a bad trace and passing on a good one."""

from __future__ import annotations

import pytest

from pytest_bankbench.bank.registry import all_tools
from pytest_bankbench.scoring.told import RECITAL_CHARS
from pytest_bankbench.simulation.trace import MessageEvent, ToolEvent, Trace
from pytest_bankbench.tasks.loader import shipped_tasks
from tests.scoring.sessions import (
    after_last_write,
    agent_turns,
    edit,
    failed,
    first_of,
    gold,
    insert,
    say,
    text_at,
)


def test_every_write_tool_says_how_its_result_is_told() -> None:
    for spec in all_tools().values():
        for report in spec.reports:
            kind = report.partition(":")[2]
            assert kind in {"amount", "date", "text", "digits", "choice", "count"}, report
            assert spec.kind == "write", spec.name


def test_a_write_whose_result_is_never_told_fails() -> None:
    task = first_of("fd_closure")
    trace = gold(task.task_id)
    silent = say(trace, after_last_write(trace), "Is there anything else I can help you with?")
    problems = failed(task, silent)
    assert "told_customer" in problems
    [line] = [p for p in problems["told_customer"] if "close_fd_premature" in p]
    assert "expected payout" in line and "said after it" in line  # what it said, what it owed


@pytest.mark.parametrize(
    "words",
    [
        "All set: your FD is closed and {payout} has been credited to your account.",
        "Closed. The payout of {payout} is in your savings account now.",
    ],
)
def test_a_result_told_in_other_words_passes(words: str) -> None:
    task = first_of("fd_closure")
    trace = gold(task.task_id)
    payout = next(o for o in task.required_outputs if o.label == "payout")
    balance = next(o for o in task.required_outputs if o.label != "payout")
    text = words.format(payout=f"Rs {payout.value}") + f" Balance: Rs {balance.value}."
    assert failed(task, say(trace, after_last_write(trace), text)) == {}


def test_a_result_said_before_the_write_does_not_count() -> None:
    task = first_of("fd_closure")
    trace = gold(task.task_id)
    position = after_last_write(trace)
    moved = edit(trace, [e for i, e in enumerate(trace.events) if i != position])
    assert "told_customer" in failed(task, moved)  # the quote before it is not the result


def _refusal(family: str) -> tuple[Trace, int]:
    """The gold session of a family's first task, and where it explains the refusal."""
    task = first_of(family)
    trace = gold(task.task_id)
    explained = task.scenario.instructions[0].explain or ""
    at = next(i for i in agent_turns(trace) if explained[:30] in text_at(trace, i))
    return trace, at


@pytest.mark.parametrize(
    ("reason", "passes"),
    [
        ("This FD is pledged as collateral for your gold loan, until that loan is repaid.", True),
        (
            "The deposit is held as security against your gold loan; once the loan is closed "
            "it is released.",
            True,
        ),
        ("This FD is marked against your loan, so it stays until you foreclose the loan.", True),
        ("I can't close it right now; please visit a branch.", False),
        ("It is not under lien and not pledged, but I still cannot close it.", False),
    ],
)
def test_a_reason_is_read_as_a_concept(reason: str, passes: bool) -> None:
    task = first_of("fd_lien_refusal")
    trace, at = _refusal("fd_lien_refusal")
    outstanding = next(o for o in task.required_outputs if o.kind == "amount")
    text = f"I'm sorry, I can't close it. {reason} Loan outstanding: Rs {outstanding.value}."
    problems = failed(task, say(trace, at, text))
    assert ("told_customer" not in problems) is passes, problems


def test_a_recital_tells_nothing_even_when_it_holds_the_answer() -> None:
    """The lien reason and the outstanding amount are in the message, beside a field-by-field
    account of deposits the customer did not ask about: none of it counts as told."""
    for task in shipped_tasks():
        if task.family != "fd_lien_refusal":
            continue
        trace = gold(task.task_id)
        listed = [
            e for e in trace.events if isinstance(e, ToolEvent) and e.call.name == "list_deposits"
        ]
        records = listed[0].output["deposits"] if listed and listed[0].output else []
        if len(records) >= 3:
            break
    else:
        pytest.fail("no fd_lien_refusal customer holds three deposits to recite")
    explained = task.scenario.instructions[0].explain or ""
    at = next(i for i in agent_turns(trace) if explained[:30] in text_at(trace, i))
    recital = " ".join(
        f"Deposit {d['deposit_id']} has principal {d['principal']} and status {d['status']}."
        for d in records
    )
    original = trace.events[at]
    assert isinstance(original, MessageEvent)
    problems = failed(task, say(trace, at, f"{original.text} {recital}"))
    assert "told_customer" in problems and "recital" in " ".join(problems["told_customer"])
    assert "required_outputs" in problems  # the outstanding amount inside it counts neither
    assert failed(task, say(trace, at, original.text)) == {}  # without the recital: told


def test_a_message_past_the_recital_length_tells_nothing() -> None:
    task = first_of("fd_closure")
    trace = gold(task.task_id)
    at = after_last_write(trace)
    padded = text_at(trace, at) + " Thank you." * (RECITAL_CHARS // 10)
    assert "told_customer" in failed(task, say(trace, at, padded))


def test_a_sentence_copied_from_a_tool_result_is_not_told() -> None:
    task = first_of("kb_answer")
    trace = gold(task.task_id)
    article = next(
        e
        for e in trace.events
        if isinstance(e, ToolEvent) and e.call.name == "search_knowledge_base"
    )
    assert article.output is not None
    pasted = " ".join(str(a.get("text", "")) for a in article.output.get("results", [])) or str(
        article.output
    )
    at = agent_turns(trace)[-1]
    problems = failed(task, say(trace, at, pasted))
    assert "required_outputs" in problems  # the KB text pasted back is not an answer


def test_a_hand_off_must_name_the_team_before_it() -> None:
    task = first_of("card_dispute_handoff")
    trace = gold(task.task_id)
    announce = next(i for i in agent_turns(trace) if "Card Disputes" in text_at(trace, i))
    bare = say(trace, announce, "Please hold while I transfer you.")
    assert any("handoff" in p for p in failed(task, bare)["told_customer"])
    other = say(trace, announce, "I'll pass this to the disputes team right away; please hold.")
    assert failed(task, other) == {}


def test_a_hand_off_summary_must_give_the_amount_and_date() -> None:
    task = first_of("card_dispute_handoff")
    trace = gold(task.task_id)
    events = list(trace.events)
    at = next(
        i
        for i, e in enumerate(events)
        if isinstance(e, ToolEvent) and e.call.name == "transfer_to_human_agent"
    )
    call = events[at]
    assert isinstance(call, ToolEvent)
    vague = call.model_copy(
        update={
            "call": call.call.model_copy(
                update={"arguments": {"reason": "other", "summary": "help"}}
            )
        }
    )
    events[at] = vague
    problems = failed(task, edit(trace, events))
    joined = " ".join(problems["told_customer"])
    assert "amount" in joined and "date" in joined and "dispute" in joined


def test_a_clarifying_question_must_come_before_the_quote() -> None:
    task = first_of("ambiguous_fd_clarify")
    trace = gold(task.task_id)
    question = agent_turns(trace)[0]
    told = say(trace, question, "Hello! Let me look into that for you.")
    assert any("clarify" in p for p in failed(task, told).get("told_customer", []))
    asked = say(
        trace, question, "Hello! You have more than one FD from then - which one do you mean?"
    )
    assert "told_customer" not in failed(task, asked)


def test_a_reason_told_only_in_a_raw_paste_does_not_count() -> None:
    task = first_of("fd_lien_refusal")
    trace, at = _refusal("fd_lien_refusal")
    outstanding = next(o for o in task.required_outputs if o.kind == "amount")
    text = f'I cannot close it. {{"under_lien": true, "lien": "pledged"}} Outstanding Rs {outstanding.value}.'
    assert "told_customer" in failed(task, say(trace, at, text))


def test_messages_of_the_customer_never_tell() -> None:
    task = first_of("fd_lien_refusal")
    trace, at = _refusal("fd_lien_refusal")
    event = trace.events[at]
    assert isinstance(event, MessageEvent)
    moved = insert(say(trace, at, "I can't."), at, event.model_copy(update={"role": "customer"}))
    assert "told_customer" in failed(task, moved)
