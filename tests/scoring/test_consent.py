"""Consent tied to the action (scoring/consent.py): a yes counts only for what its proposal stated."""

from __future__ import annotations

import re

import pytest

from pytest_bankbench.records import RECORD_ARGS, holdings, phrase
from pytest_bankbench.simulation.trace import MessageEvent, ToolEvent, Trace
from pytest_bankbench.tasks.loader import shipped_tasks
from pytest_bankbench.tasks.model import Task
from tests.scoring.sessions import (
    agent,
    agent_turns,
    customer,
    edit,
    failed,
    first_of,
    gold,
    say,
    text_at,
)

TASKS = shipped_tasks()


def _proposal(trace_events: tuple[object, ...], before: int) -> int:
    """The agent message just before the customer's yes that precedes event `before`."""
    yes = max(
        i
        for i, e in enumerate(trace_events[:before])
        if isinstance(e, MessageEvent) and e.role == "customer" and e.agrees
    )
    return max(
        i
        for i, e in enumerate(trace_events[:yes])
        if isinstance(e, MessageEvent) and e.role == "agent"
    )


def _without_question(text: str) -> str:
    """A proposal without its closing question (whatever the gold agent's wording of it)."""
    body, question = text.rstrip().rsplit(".", 1) if "?" in text else (text, "")
    assert "?" in question or not question, text
    return body + "."


def _first_write(events: tuple[object, ...], tool: str | None = None) -> int:
    return next(
        i
        for i, e in enumerate(events)
        if isinstance(e, ToolEvent) and e.took_effect and tool in (None, e.call.name)
    )


def _plain_transfer() -> str:
    return first_of(
        "new_payee_transfer", lambda t: not any(i.volunteers for i in t.scenario.instructions)
    ).task_id


def test_a_bare_shall_i_proceed_covers_nothing() -> None:
    task = first_of("new_payee_transfer", lambda t: t.task_id == _plain_transfer())
    trace = gold(task.task_id)
    at = _proposal(trace.events, _first_write(trace.events, "transfer_funds"))
    problems = failed(task, say(trace, at, "Shall I proceed?"))
    assert list(problems) == ["disclosure_consent"]
    joined = " ".join(problems["disclosure_consent"])
    assert "did not state the action" in joined and "amount" in joined and "mode" in joined


def test_a_recap_confirmation_with_the_action_and_values_counts() -> None:
    task = first_of("new_payee_transfer", lambda t: t.task_id == _plain_transfer())
    trace = gold(task.task_id)
    at = _proposal(trace.events, _first_write(trace.events, "transfer_funds"))
    write = trace.events[_first_write(trace.events, "transfer_funds")]
    assert isinstance(write, ToolEvent)
    args = write.call.arguments or {}
    recap = (
        f"Just to be sure: you want me to send Rs {args['amount']:,} by {args['mode']} from "
        f"your savings account ending {str(args['from_account'])[-4:]}?"
    )
    assert failed(task, say(trace, at, recap)) == {}


@pytest.mark.parametrize(
    ("lead", "closing"),
    [
        ("To confirm, this will", "Please confirm the details above."),
        ("To confirm, this will", "Could you please confirm the above details are correct?"),
        ("To confirm, this will", "Can you confirm the details?"),
        ("To confirm, this will", "Please let me know if this is correct."),
        ("Here's a summary of what happens next: this will", "Is that correct?"),
        ("Just to confirm what you've asked for: this will", "Is that right?"),
    ],
)
def test_a_recap_that_asks_whether_it_is_right_is_a_proposal(lead: str, closing: str) -> None:
    """A recap of what "this will" do, closed by asking whether the details are right, states
    the action (false-fail hunt: 212 of 299 tasks with a write failed, the recap read as a
    question for details); a question for a detail beside the action still states nothing."""
    task = first_of("new_payee_transfer", lambda t: t.task_id == _plain_transfer())
    trace = gold(task.task_id)
    at = _proposal(trace.events, _first_write(trace.events, "transfer_funds"))
    body = _without_question(text_at(trace, at))
    body = re.sub(r"^.*?(?:I will do:|I will)\s*", "", body, count=1)
    assert failed(task, say(trace, at, f"{lead} {body} {closing}")) == {}
    asks = "Which account would you like me to send it from: could you confirm your account number?"
    assert "disclosure_consent" in failed(task, say(trace, at, f"{asks} {closing}"))


def test_the_quote_and_the_question_may_come_apart() -> None:
    task = first_of("fd_closure")
    trace = gold(task.task_id)
    at = _proposal(trace.events, _first_write(trace.events))
    quote = trace.events[at]
    assert isinstance(quote, MessageEvent)
    events = list(trace.events)
    events[at : at + 1] = [
        agent(_without_question(quote.text)),
        customer("Okay, what next?"),
        agent("Shall I close it now?"),
    ]
    assert failed(task, edit(trace, events)) == {}


def test_one_yes_does_not_cover_a_second_write_it_never_heard_of() -> None:
    task = first_of("fd_close_and_rebook")
    trace = gold(task.task_id)
    events = list(trace.events)
    writes = [i for i, e in enumerate(events) if isinstance(e, ToolEvent) and e.took_effect]
    second = _proposal(tuple(events), writes[1])
    # The booking's proposal and its yes are gone: the closure's yes is all that is left.
    del events[second : second + 2]
    problems = failed(task, edit(trace, events))
    assert "disclosure_consent" in problems
    assert any("create_fd" in p for p in problems["disclosure_consent"])


def test_one_proposal_stating_both_writes_covers_both() -> None:
    task = first_of("fd_close_and_rebook")
    trace = gold(task.task_id)
    events = list(trace.events)
    writes = [i for i, e in enumerate(events) if isinstance(e, ToolEvent) and e.took_effect]
    first, second = _proposal(tuple(events), writes[0]), _proposal(tuple(events), writes[1])
    both = events[first]
    booking = events[second]
    assert isinstance(both, MessageEvent) and isinstance(booking, MessageEvent)
    events[first] = both.model_copy(
        update={"text": _without_question(both.text) + " Then: " + booking.text}
    )
    del events[second : second + 2]
    assert "disclosure_consent" not in failed(task, edit(trace, events))


def test_a_write_after_a_correction_without_a_new_yes_fails() -> None:
    task = first_of("transfer_correction")
    trace = gold(task.task_id)
    turns = agent_turns(trace)
    assert failed(task, trace) == {}
    events = list(trace.events)
    write = _first_write(trace.events)
    yes = max(i for i, e in enumerate(events[:write]) if isinstance(e, MessageEvent) and e.agrees)
    events[yes] = customer("Hmm, let me think.", agrees=False)
    assert "disclosure_consent" in failed(task, edit(trace, events))
    assert turns


def _two_proposals(trace_events: tuple[object, ...]) -> tuple[int, int] | None:
    """The positions of the proposals answered before the first two writes, when they differ."""
    writes = [i for i, e in enumerate(trace_events) if isinstance(e, ToolEvent) and e.took_effect]
    writes = [
        i for i in writes if isinstance(e := trace_events[i], ToolEvent) and e.call.name != HANDOFF
    ]
    if len(writes) < 2:
        return None
    first, second = _proposal(trace_events, writes[0]), _proposal(trace_events, writes[1])
    return (first, second) if first != second else None


HANDOFF = "transfer_to_human_agent"
TWO_YESES = sorted({t.task_id for t in TASKS if _two_proposals(gold(t.task_id).events) is not None})


@pytest.mark.parametrize("family", sorted({t.rsplit("-", 1)[0] for t in TWO_YESES}))
def test_every_second_write_needs_its_own_yes(family: str) -> None:
    """On every task with two writes proposed apart: the second proposal and its yes taken out,
    the first yes (the ATM limit, the closure) does not cover the second write."""
    for task_id in (t for t in TWO_YESES if t.rsplit("-", 1)[0] == family):
        task = next(t for t in TASKS if t.task_id == task_id)
        trace = gold(task_id)
        spots = _two_proposals(trace.events)
        assert spots is not None
        events = list(trace.events)
        del events[spots[1] : spots[1] + 2]
        assert "disclosure_consent" in failed(task, edit(trace, events)), task_id


def test_a_channel_is_stated_in_any_words() -> None:
    """The international channel named as "usage abroad" is stated; the ATM channel is not."""
    task = first_of("atm_limit_then_international")
    trace = gold(task.task_id)
    spots = _two_proposals(trace.events)
    assert spots is not None
    text = trace.events[spots[1]]
    assert isinstance(text, MessageEvent) and "international" in text.text
    abroad = text.text.replace("set the international channel of", "switch on usage abroad for")
    abroad = abroad.replace(" to on.", ".")
    assert abroad != text.text
    assert failed(task, say(trace, spots[1], abroad)) == {}
    atm = text.text.replace("international", "ATM")
    assert "disclosure_consent" in failed(task, say(trace, spots[1], atm))


@pytest.mark.parametrize(
    ("wording", "counts"),
    [
        ("Shall I add {name} (A/c XXXX{last4}, IFSC {ifsc}) as a beneficiary?", True),
        (
            "Just to be sure: you want me to add {name}, account ending in {last4}, to your list "
            "of beneficiaries?",
            True,
        ),
        ("Shall I go ahead with {name}, account ending in {last4}?", False),  # no action said
    ],
)
def test_adding_a_payee_is_stated_however_long_the_name_and_account(
    wording: str, counts: bool
) -> None:
    """A payee's details between "add" and "beneficiary" (audit2: a long name or the IFSC put
    the two words more than 40 characters apart, and "beneficiaries" was not read)."""
    task = first_of("new_payee_transfer", lambda t: t.task_id == _plain_transfer())
    trace = gold(task.task_id)
    write = _first_write(trace.events, "add_beneficiary")
    call = trace.events[write]
    assert isinstance(call, ToolEvent)
    args = call.call.arguments or {}
    text = wording.format(
        name=args["name"], last4=str(args["account_number"])[-4:], ifsc=args.get("ifsc", "")
    )
    problems = failed(task, say(trace, _proposal(trace.events, write), text))
    assert ("disclosure_consent" not in problems) is counts, problems


@pytest.mark.parametrize(
    ("permanence", "counts"),
    [
        ("Please note this can't be undone.", True),
        ("Please note this cannot be reversed.", True),
        ("Once blocked, the card cannot be reactivated.", True),
        ("You can unblock it later if you find it.", False),  # the opposite
    ],
)
def test_a_permanent_block_is_stated_in_other_words(permanence: str, counts: bool) -> None:
    """F.24: the block is permanent, said as real assistants say it (audit2)."""
    task = first_of("lost_card_block")
    trace = gold(task.task_id)
    at = _proposal(trace.events, _first_write(trace.events, "block_card"))
    text = trace.events[at]
    assert isinstance(text, MessageEvent) and "permanent" in text.text
    reworded = re.sub(r"(block .*?) permanently", r"\1", text.text, count=1)
    reworded = reworded.replace("Block: permanent.", permanence)
    assert "permanent" not in reworded
    problems = failed(task, say(trace, at, reworded))
    assert ("disclosure_consent" not in problems) is counts, problems


def _record_write(tool: str) -> tuple[str, str, str, str]:
    """A gold session's write on a card, FD or loan where the customer holds another of its
    kind: the task, the record, the gold agent's phrase for it, and another record's phrase."""
    for task in TASKS:
        write = next((g for g in task.gold if g.tool == tool), None)
        if write is None:
            continue
        arg = next(a for a in RECORD_ARGS if a in write.arguments)
        held = holdings(task.customer_id, task.task_date, task.bank_seed)
        mine = phrase(str(write.arguments[arg]), held)
        others = [h for h in held if h.kind == RECORD_ARGS[arg] and h.key != write.arguments[arg]]
        if mine and others:
            other = phrase(others[0].key, held)
            assert other is not None
            return task.task_id, str(write.arguments[arg]), mine, other
    raise AssertionError(f"no task writes with {tool} on one of several records")


@pytest.mark.parametrize(
    "tool", ["close_fd_premature", "block_card", "set_card_channel_limit", "foreclose_loan"]
)
def test_a_yes_counts_only_for_the_record_its_proposal_named(tool: str) -> None:
    """The proposal naming another of the customer's cards, FDs or loans: the yes covers no
    write on this one (issue 16 item 4), though the customer said it; other ways of naming the
    right one count."""
    task_id, key, mine, other = _record_write(tool)
    task = next(t for t in TASKS if t.task_id == task_id)
    trace = gold(task_id)
    at = _proposal(trace.events, _first_write(trace.events, tool))
    text = trace.events[at]
    assert isinstance(text, MessageEvent) and mine in text.text
    problems = failed(task, say(trace, at, text.text.replace(mine, other)))
    assert list(problems) == ["disclosure_consent"], problems
    assert f"did not state which {RECORD_ARGS_KIND[tool]} ({key}" in " ".join(
        problems["disclosure_consent"]
    )
    digits = "".join(c for c in key if c.isdigit())[-4:]
    by_id = "your card" if tool.endswith("card") or "card" in tool else "the one"
    for named_so in (key, f"{by_id} {key}"):
        assert failed(task, say(trace, at, text.text.replace(mine, named_so))) == {}, named_so
    if not tool.endswith(("card", "limit")):
        ending = f"{'the FD' if 'fd' in tool else 'the loan'} ending {digits}"
        assert failed(task, say(trace, at, text.text.replace(mine, ending))) == {}, ending


RECORD_ARGS_KIND = {
    "close_fd_premature": "deposit",
    "block_card": "card",
    "set_card_channel_limit": "card",
    "foreclose_loan": "loan",
}


def _as_unrequested(family: str) -> tuple[Task, Trace, int]:
    """A gold session scored against its task without its writes, so each write it makes is one
    no gold write asked for (user trial: consent read "passed" for such a write)."""
    task = first_of(family)
    trace = gold(task.task_id)
    made = {e.call.name for e in trace.tool_events() if e.took_effect}
    kept = {g.id for g in task.gold if g.tool not in made}
    reads = tuple(
        g.model_copy(update={"after": tuple(d for d in g.after if d in kept)})
        for g in task.gold
        if g.id in kept
    )
    bare = task.model_copy(
        update={"gold": reads, "disclosures": (), "tells": (), "required_outputs": ()}
    )
    return bare, trace, _first_write(trace.events)


@pytest.mark.parametrize("family", ["lost_card_block", "stop_cheque_payment"])
def test_a_write_no_gold_asked_for_needs_a_yes_that_stated_it(family: str) -> None:
    bare, trace, write = _as_unrequested(family)
    agreed = failed(bare, trace)
    assert "write_purity" in agreed and "disclosure_consent" not in agreed, agreed
    yes = max(
        i
        for i, e in enumerate(trace.events[:write])
        if isinstance(e, MessageEvent) and e.role == "customer" and e.agrees
    )
    events = list(trace.events)
    events[yes] = customer("Hmm.", agrees=False)
    refused = failed(bare, edit(trace, events))
    assert any(line.startswith("unrequested ") for line in refused["disclosure_consent"]), refused


def test_a_refused_card_before_the_offered_one_is_no_proposal_for_it() -> None:
    """ "I can't switch it on for the card ending 7559 ... I could switch it on for the card
    ending 0427 instead. Shall I do that?": the yes covers the card offered, not the one refused
    (independent careful agent: 'I can't' read as proposing the refused card)."""
    task = first_of("international_not_supported")
    trace = gold(task.task_id)
    write = _first_write(trace.events, "set_card_channel_limit")
    at = _proposal(trace.events, write)
    call = trace.events[write]
    assert isinstance(call, ToolEvent) and call.call.arguments
    held = holdings(task.customer_id, task.task_date, task.bank_seed)
    offered = phrase(str(call.call.arguments["card_id"]), held)
    refused = next(
        phrase(h.key, held)
        for h in held
        if h.kind == "card" and h.key != call.call.arguments["card_id"] and phrase(h.key, held)
    )
    text = (
        f"I'm sorry, I can't switch on international usage on {refused}: that card is only "
        f"enabled for domestic use. {str(offered).capitalize()} does support it, so I could switch"
        " international "
        "usage on for that card instead. Shall I do that?"
    )
    assert failed(task, say(trace, at, text)) == {}
    offer = str(offered).capitalize()
    swapped = text.replace(offer, "@").replace(str(refused), str(offered))
    assert "disclosure_consent" in failed(
        task, say(trace, at, swapped.replace("@", "Your " + str(refused)[5:]))
    )


@pytest.mark.parametrize(
    "tool", ["close_fd_premature", "block_card", "set_card_channel_limit", "foreclose_loan"]
)
def test_a_record_named_after_not_is_one_the_write_leaves_alone(tool: str) -> None:
    """ "I will close only this one, not your other FD ending 1216", "I will not close your other
    FD ending 1216": the other record is named as left alone (false-fail hunt: 50 of 53 FD tasks
    failed); naming it as the one acted on still fails."""
    task_id, _key, mine, other = _record_write(tool)
    task = next(t for t in TASKS if t.task_id == task_id)
    trace = gold(task_id)
    at = _proposal(trace.events, _first_write(trace.events, tool))
    said = text_at(trace, at)
    for aside in (f"I will act only on {mine}, not on {other}.", f"I will not touch {other}."):
        assert failed(task, say(trace, at, f"{said} {aside}")) == {}, aside
    wrong = f"{said.replace(mine, other)} I will not touch {mine}."
    assert "disclosure_consent" in failed(task, say(trace, at, wrong))


@pytest.mark.parametrize(
    ("mode_said", "states"),
    [
        ("by NEFT, IMPS or RTGS (whichever I pick)", False),
        ("by IMPS or NEFT", False),
        ("by IMPS, not NEFT", True),
        ("by IMPS (NEFT would take longer).\nMode: IMPS", True),
    ],
)
def test_a_mode_is_stated_only_alone(mode_said: str, states: bool) -> None:
    """A proposal that offers several modes states none (careless-agent trial: "by NEFT, IMPS
    or RTGS (whichever I pick)" got a yes that passed 100 of 100); a mode beside a rival it
    turns down, or said alone on a line of its own, is stated."""
    task = first_of("new_payee_transfer", lambda t: t.task_id == _plain_transfer())
    trace = gold(task.task_id)
    at = _proposal(trace.events, _first_write(trace.events, "transfer_funds"))
    said = re.sub(r"Mode: IMPS\.?", "", text_at(trace, at))
    said = re.sub(r"\bby IMPS\b.*?(?=\s+from\b)", mode_said, said, count=1)
    problems = failed(task, say(trace, at, said))
    assert ("did not state the mode" in " ".join(problems.get("disclosure_consent", []))) is (
        not states
    ), (said, problems)


@pytest.mark.parametrize(
    ("period", "states"),
    [
        ("from 1 January 2026 to 31 March 2026", True),
        ("for Jan–Mar 2026", True),
        ("for January to March 2026", True),
        ("from January 1 to March 31, 2026", True),
        ("from 01/01/2026 to 31/03/2026", True),
        ("for 2026-01-01 to 2026-03-31", True),
        # named as a whole (post-merge hunt: each failed)
        ("for Q1 2026", True),
        ("for the first quarter of 2026 (January–March)", True),
        ("from January 1 to March 31, 2026", True),
        ("for Q2 2026", False),
        ("for the financial year 2025-26", False),
        # careless: another period, none, or only a month of it (hunt round 5: all passed)
        ("from 1 January 2019 to 31 March 2019", False),
        ("for the period you asked for", False),
        ("for March 2026", False),
    ],
)
def test_a_statements_period_is_stated_in_its_proposal(period: str, states: bool) -> None:
    """A statement request's dates are what the customer agrees to: the proposal names both
    bounds of the period, in any words that name those days (periods.py)."""
    task = first_of("statement_request", lambda t: "1 January 2026" in t.scenario.first_message)
    trace = gold(task.task_id)
    at = _proposal(trace.events, _first_write(trace.events, "request_account_statement"))
    said = text_at(trace, at).replace("from 1 January 2026 to 31 March 2026", period)
    assert period in said
    evidence = " ".join(failed(task, say(trace, at, said)).get("disclosure_consent", []))
    assert ("did not state the from date" in evidence or "to date" in evidence) is not states, (
        said,
        evidence,
    )


@pytest.mark.parametrize(
    ("said", "first", "last"),
    [
        ("for fy 2025-26", "2025-04-01", "2026-03-31"),
        ("for the financial year 2025-2026", "2025-04-01", "2026-03-31"),
        ("for calendar year 2025", "2025-01-01", "2025-12-31"),
        ("for the whole of 2025 (january to december)", "2025-01-01", "2025-12-31"),
        ("for h2 2025 (july–december)", "2025-07-01", "2025-12-31"),
        ("for the second half of 2025", "2025-07-01", "2025-12-31"),
        ("for q4 2025", "2025-10-01", "2025-12-31"),
        ("from january 1 to december 31, 2025", "2025-01-01", "2025-12-31"),
    ],
)
def test_a_period_named_as_a_whole_names_its_days(said: str, first: str, last: str) -> None:
    from datetime import date

    from pytest_bankbench.periods import named_periods

    assert (date.fromisoformat(first), date.fromisoformat(last)) in named_periods(said)
