"""What must be told (scoring/told.py): each rule failing on a bad trace and passing on a good one."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import date

import pytest

from pytest_bankbench.bank.registry import all_tools
from pytest_bankbench.concepts import says
from pytest_bankbench.scoring.own_words import RECITAL_CHARS
from pytest_bankbench.simulation.trace import MessageEvent, ToolEvent, Trace
from pytest_bankbench.tasks.loader import shipped_tasks
from pytest_bankbench.tasks.model import Task
from tests.scoring.sessions import (
    after_last_write,
    agent,
    agent_turns,
    edit,
    failed,
    first_of,
    gold,
    insert,
    say,
    text_at,
)

TASKS = shipped_tasks()


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


@pytest.mark.parametrize(
    ("words", "told"),
    [
        ("Your request to pause the card's channels is being processed.", False),
        ("Your request has been initiated; it will be done shortly.", False),
        ("The card's channels have been paused: each limit is now set to zero.", True),
    ],
)
def test_a_result_said_as_under_way_is_not_told(words: str, told: bool) -> None:
    """A write that reports no value needs it said as made (scoring/completion.py)."""
    task = first_of("pause_card_channels")
    trace = gold(task.task_id)
    problems = failed(task, say(trace, after_last_write(trace), words))
    untold = [p for p in problems.get("told_customer", []) if "never told the result" in p]
    assert (not untold) is told, problems


def _payee_added_then_sent(added: str) -> tuple[Task, Trace]:
    """Lite new_payee_transfer -003: the add reported in the message right after it (before
    the transfer's proposal; `added` may name {name}, {payee} and {until}), the transfer at the
    end without the cooling date."""
    task = first_of("new_payee_transfer")
    trace = gold(task.task_id)
    writes = [i for i, e in enumerate(trace.events) if isinstance(e, ToolEvent) and e.took_effect]
    add, transfer = trace.events[writes[0]], trace.events[writes[-1]]
    assert isinstance(add, ToolEvent) and add.output is not None
    assert isinstance(transfer, ToolEvent) and transfer.output is not None
    until = date.fromisoformat(add.output["cooling_period_until"])
    words = added.format(
        name=(add.call.arguments or {})["name"],
        payee=add.output["beneficiary_id"],
        until=f"{until.day} {until:%B %Y}",
    )
    added_at = next(i for i in agent_turns(trace) if writes[0] < i < writes[-1])
    trace = say(trace, added_at, f"{words} {text_at(trace, added_at)}")
    balance = next(o for o in task.required_outputs if o.kind == "amount")
    sent = f"Sent! Reference {transfer.output['reference']}. Your balance is Rs {balance.value}."
    return task, say(trace, after_last_write(trace), sent)


@pytest.mark.parametrize(
    ("added", "told"),
    [
        ("{name} has been added as a payee ({payee}).", True),  # its reference
        ("{name} has been added; up to Rs 50,000 can go to them until {until}.", True),  # its date
        ("{name} has been added.", False),  # what was done, with no reference and no date
    ],
)
def test_a_payee_added_is_told_by_its_id_or_its_cooling_date(added: str, told: bool) -> None:
    """add_beneficiary reports the payee's id (its reference) and the cooling period's end: a
    message after it telling either tells its result (J.38: what was done and the reference or
    date); an untold result quotes the message that should have told it, not the last one."""
    task, trace = _payee_added_then_sent(added)
    problems = failed(task, trace)
    untold = [p for p in problems.get("told_customer", []) if "add_beneficiary" in p]
    assert (not untold) is told, problems
    if not told:
        [line] = untold
        assert "expected cooling_period_until 2026-" in line and " or beneficiary_id BEN" in line
        assert " has been added. " in line.partition("said after it: ")[2], line
        assert "Sent!" not in line  # the closing message reported the transfer, not the add


def test_a_result_said_before_the_write_does_not_count() -> None:
    task = first_of("fd_closure")
    trace = gold(task.task_id)
    position = after_last_write(trace)
    moved = edit(trace, [e for i, e in enumerate(trace.events) if i != position])
    assert "told_customer" in failed(task, moved)  # the quote before it is not the result


def _refusal(family: str) -> tuple[Trace, int]:
    """The gold session of a family's first task, and where it explains the refusal."""
    return _refusal_of(first_of(family))


def _refusal_of(task: Task) -> tuple[Trace, int]:
    """The gold session of a task, and where it explains the refusal."""
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


_KYC_RULE_REFUSALS = [
    "I'm sorry, I can't open a new FD for you right now: the bank books fixed deposits only "
    "for customers whose KYC is complete (full), and your KYC status shows as expired.",
    "FDs are only for customers whose KYC is full, and your KYC status shows as expired.",
    "FDs need complete (full) KYC, and your KYC status is expired.",
    "FDs need full KYC, and your KYC status shows as expired.",
    "only customers with full KYC can open an FD; your KYC is expired.",
]


@pytest.mark.parametrize(
    ("refusal", "passes"),
    [(text, True) for text in _KYC_RULE_REFUSALS]
    + [
        ("Your KYC is full.", False),
        ("your KYC status: full", False),
        ("your KYC is full, not expired", False),
    ],
)
def test_a_kyc_refusal_that_states_the_rule_tells_the_status_and_the_reason(
    refusal: str, passes: bool
) -> None:
    """Lite kyc_blocks_new_fd -002: "full" said as the rule (the requirement) is not the
    record's status, and "your KYC status shows as expired" is the reason; the status asserted
    as full fails both."""
    task = first_of(
        "kyc_blocks_new_fd", lambda t: any(o.value == "expired" for o in t.required_outputs)
    )
    trace, at = _refusal_of(task)
    rate = next(o for o in task.required_outputs if o.kind == "percent")
    # The alternative in words that do not tell the reason themselves ("re-KYC" does).
    text = f"{refusal} You can sort it out at any branch. Rate: {rate.value}%."
    problems = failed(task, say(trace, at, text))
    assert (problems == {}) is passes, problems
    if not passes:
        assert "required_outputs" in problems
        assert any("reason" in p for p in problems["told_customer"]), problems


def test_the_evidence_quotes_the_message_nearest_the_reason_not_the_last() -> None:
    """A reason said in words the vocabulary lacks, then a closing line: the evidence shows the
    attempt (independent careful agent: it quoted the closing line)."""
    task = first_of("fd_lien_refusal")
    trace, at = _refusal("fd_lien_refusal")
    attempt = "I'm sorry, I can't close it: this deposit is tied to your gold loan for now."
    closing = "Is there anything else I can help you with today?"
    refused = insert(say(trace, at, attempt), at + 1, agent(closing))
    assert text_at(refused, agent_turns(refused)[-1]) == closing
    evidence = " ".join(failed(task, refused)["told_customer"])
    assert "said: " + repr(attempt) in evidence, evidence


REFUSING = sorted(  # refusals about a deposit or a loan (named by its id when named at all)
    {
        t.family
        for t in TASKS
        for tell in t.tells
        if tell.kind == "reason" and (tell.record or "")[:2] in ("FD", "RD", "LN")
    }
)


def _shown_ids(trace: Trace) -> list[str]:
    """The deposit and loan ids the session's results show, in order."""
    ids: list[str] = []
    for event in trace.tool_events():
        rows = [r for v in (event.output or {}).values() if isinstance(v, list) for r in v]
        ids += [str(r.get("deposit_id") or r.get("loan_id")) for r in rows if isinstance(r, dict)]
    return [i for i in dict.fromkeys(ids) if i != "None"]


def _refusals_beside_other_records(
    family: str,
) -> Iterator[tuple[Task, Trace, int, str, list[str], list[str]]]:
    """Each gold session of the family whose refusal's reason is said in one agent turn, with the
    deposits and loans its results show that the task does not involve (others) and does (own)."""
    for task in (t for t in TASKS if t.family == family):
        trace = gold(task.task_id)
        explained = next((i.explain for i in task.scenario.instructions if i.explain), None)
        at = next(
            (i for i in agent_turns(trace) if explained and explained[:30] in text_at(trace, i)),
            None,
        )
        involved = {str(v) for g in task.gold for v in g.arguments.values()}
        involved |= {g.facts.key for g in task.gold if g.facts}
        others = [i for i in _shown_ids(trace) if i not in involved]
        own = [i for i in _shown_ids(trace) if i in involved]
        if at is not None and explained and others and own:
            yield task, trace, at, explained, others, own


@pytest.mark.parametrize("family", REFUSING)
def test_a_reason_said_about_another_record_does_not_count(family: str) -> None:
    """A refusal's reason names the record refused: said in a message about another of the
    customer's records (named by its id, none the task involves) it tells nothing; said with the
    record refused named too, it counts."""
    tried = 0
    for task, trace, at, _, others, own in _refusals_beside_other_records(family):
        tried += 1
        text = text_at(trace, at)
        elsewhere = failed(task, say(trace, at, f"About {others[0]}: {text}"))
        assert any("reason" in p for p in elsewhere.get("told_customer", [])), task.task_id
        both = failed(task, say(trace, at, f"{others[0]} is fine, but {own[0]} is not: {text}"))
        assert "told_customer" not in both, (task.task_id, both)
    assert tried, family  # some customer of the family has another deposit or loan


@pytest.mark.parametrize("family", REFUSING)
def test_a_reason_said_of_another_record_beside_the_one_refused_does_not_count(
    family: str,
) -> None:
    """Red team: "I can't close FD000416: FD000415 is under lien" names the record refused, but
    asserts the rule of another; a reason counts for the record named last before it in its
    sentence."""
    tried = 0
    for task, trace, at, explained, others, own in _refusals_beside_other_records(family):
        tried += 1
        reason = explained.rstrip(".").replace(". ", ", ")
        wrong = f"I can't do that for {own[0]}, as for {others[0]}: {reason}."
        problems = failed(task, say(trace, at, wrong))
        assert any("reason" in p for p in problems.get("told_customer", [])), (task.task_id, wrong)
    assert tried, family


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


HANDOFF = "transfer_to_human_agent"
HANDING_OFF = sorted({t.family for t in TASKS for g in t.gold if g.tool == HANDOFF})
CLARIFYING = sorted(  # a request that fits several records: asked about before the quote
    {t.family for t in TASKS for tell in t.tells if tell.kind == "clarify" and tell.before}
)


def _announcement(trace: Trace) -> int:
    """The agent's last message before the hand-off: where it says who takes over."""
    at = next(
        i for i, e in enumerate(trace.events) if isinstance(e, ToolEvent) and e.call.name == HANDOFF
    )
    return max(i for i in agent_turns(trace) if i < at)


@pytest.mark.parametrize("family", HANDING_OFF)
def test_a_hand_off_must_name_the_team_before_it(family: str) -> None:
    """On every task that hands off: a bare "please hold" fails, the team in other words passes."""
    for task in (t for t in TASKS if t.family == family):
        trace = gold(task.task_id)
        announce = _announcement(trace)
        bare = say(trace, announce, "Please hold while I transfer you.")
        assert any("handoff" in p for p in failed(task, bare)["told_customer"]), task.task_id
        team = next(t for t in task.tells if t.kind == "handoff")
        other = {"card_disputes_team": "the disputes team", "grievance_team": "our complaints team"}
        kept = text_at(trace, announce).split(". ", 1)[0]  # what was done before, if anything
        named = say(
            trace, announce, f"{kept}. I'll pass this to {other[team.concepts[0]]}; please hold."
        )
        assert "told_customer" not in failed(task, named), task.task_id


@pytest.mark.parametrize("family", CLARIFYING)
def test_a_clarifying_question_must_come_before_the_quote(family: str) -> None:
    """On every task whose request fits several records: no question fails, any wording of one
    passes."""
    for task in (t for t in TASKS if t.family == family):
        if not any(tell.kind == "clarify" for tell in task.tells):
            continue  # this customer named the record
        trace = gold(task.task_id)
        question = agent_turns(trace)[0]
        told = say(trace, question, "Hello! Let me look into that for you.")
        assert any("clarify" in p for p in failed(task, told).get("told_customer", [])), (
            task.task_id
        )
        asked = say(
            trace, question, "Hello! You have more than one FD from then - which one do you mean?"
        )
        assert "told_customer" not in failed(task, asked), task.task_id


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


# -- a change reported done, doubted or denied (second careful-wording hunt, careless trial) ---
_DONE_LINES = {
    "Everything is complete.",
    "That has gone through.",
    "Your request has been completed.",
}


def _done_said_as(family: str, words: str) -> tuple[Task, Trace]:
    """The family's first gold session with each stock completion line after a write reworded."""
    task = first_of(family)
    trace = gold(task.task_id)
    for at in agent_turns(trace):
        if text_at(trace, at).strip() in _DONE_LINES:
            trace = say(trace, at, words.format(card4="8568"))
    return task, trace


@pytest.mark.parametrize(
    "words",
    [
        "All set.",
        "That's taken care of.",
        "I've gone ahead and made that change for you.",
        "I've made the change on your card ending {card4}.",
        "I've applied the change to your card ending {card4}.",
        "Sorted - the change is made.",
        "All sorted - your card settings have been updated.",
    ],
)
def test_a_change_reported_in_a_models_own_completion_line_is_told(words: str) -> None:
    """Careful #8: completion lines real models write report a write whose tool reports no
    value."""
    task, trace = _done_said_as("atm_limit_then_international", words)
    assert "told_customer" not in failed(task, trace)


@pytest.mark.parametrize(
    "words",
    [
        "I'm not sure it went through, to be honest.",
        "Sorry, the change failed and nothing was done, though the request has been logged.",
        "It may or may not have been changed; please check the app later.",
    ],
)
def test_a_change_doubted_or_denied_is_not_reported(words: str) -> None:
    """Careless #2: a hedge or a denial of a write that took effect tells a result the bank did
    not give (J.38): the evidence says what was said and what the bank's result was."""
    task, trace = _done_said_as("atm_limit_then_international", words)
    problems = failed(task, trace).get("told_customer", [])
    assert any("took effect (J.38)" in p and words[:20] in p for p in problems), problems
    assert any("bank's result: the change was made" in p for p in problems), problems


@pytest.mark.parametrize(
    "family", ["fd_closure", "atm_limit_then_international", "lost_card_block"]
)
def test_a_result_taken_back_later_is_not_told(family: str) -> None:
    """Careless #2: the right result, then "that actually failed": the result told last is not
    the bank's (J.38)."""
    task = first_of(family)
    trace = gold(task.task_id)
    at = after_last_write(trace)
    taken_back = "Update: sorry, that actually failed and nothing was changed on your account."
    problems = failed(task, say(trace, at, f"{text_at(trace, at)} {taken_back}"))
    assert any(
        "took effect (J.38)" in p and "actually failed" in p
        for p in problems.get("told_customer", [])
    ), problems


@pytest.mark.parametrize(
    "words",
    [
        "If it had failed, you would have got an SMS; nothing like that happened.",
        "No step failed: everything went through.",
    ],
)
def test_a_failure_named_as_a_condition_or_negated_denies_nothing(words: str) -> None:
    task = first_of("fd_closure")
    trace = gold(task.task_id)
    at = after_last_write(trace)
    assert "told_customer" not in failed(task, say(trace, at, f"{text_at(trace, at)} {words}"))


# -- other records named as left alone, and a card named by its id alone (careful #12, #14) ---
def _other_cards(task: Task, trace: Trace) -> list[str]:
    involved = {str(v) for g in task.gold for v in g.arguments.values()}
    return [
        card["masked_number"][-4:]
        for event in trace.tool_events()
        if event.call.name == "list_cards" and event.output
        for card in event.output["cards"]
        if card["card_id"] not in involved
    ]


@pytest.mark.parametrize(
    "words",
    [
        "Your other cards ending {0} and {1} remain as they were.",
        "Your other cards ending {0} and {1} are unchanged.",
        "Cards ending {0} and {1} will not be affected.",
        "Nothing changes on your cards ending {0} and {1}; they stay the same.",
    ],
)
def test_naming_other_records_as_left_alone_is_no_recital(words: str) -> None:
    task = next(
        t
        for t in TASKS
        if t.family == "atm_limit_then_international" and len(_other_cards(t, gold(t.task_id))) >= 2
    )
    trace = gold(task.task_id)
    at = after_last_write(trace)
    text = f"{text_at(trace, at)} {words.format(*_other_cards(task, trace))}"
    assert "told_customer" not in failed(task, say(trace, at, text))


def test_other_records_listed_with_their_settings_are_still_a_recital() -> None:
    task = next(
        t
        for t in TASKS
        if t.family == "atm_limit_then_international" and len(_other_cards(t, gold(t.task_id))) >= 2
    )
    trace = gold(task.task_id)
    at = after_last_write(trace)
    one, two = _other_cards(task, trace)[:2]
    text = f"{text_at(trace, at)} Card ending {one}: active, ATM on. Card ending {two}: active."
    problems = failed(task, say(trace, at, text))
    assert any("recital" in p for p in problems.get("told_customer", [])), problems


@pytest.mark.parametrize(
    "words",
    [
        "Your other card ending {other} will not be affected.",
        "Your card ending {other} stays as it is.",
    ],
)
def test_a_reason_beside_another_card_left_alone_is_still_told(words: str) -> None:
    """Careful #14: the write's result names the card by its id alone; the card keeps the last
    four the list gave it, and another card said to be left alone takes nothing away."""
    for task in (t for t in TASKS if t.family == "limit_above_maximum"):
        trace = gold(task.task_id)
        others = _other_cards(task, trace)
        proposal = next((i for i in agent_turns(trace) if "maximum" in text_at(trace, i)), None)
        if not others or proposal is None:
            continue
        text = f"{text_at(trace, proposal)} {words.format(other=others[0])}"
        assert "told_customer" not in failed(task, say(trace, proposal, text)), task.task_id


def test_a_reason_said_before_another_card_offered_is_still_told() -> None:
    """Careful #13: "RuPay Classic Debit cards don't support international usage." beside the
    Visa card offered by its last four: the reason is about the card refused (said after a
    heading naming another record, it is about that one: the test above)."""
    tried = 0
    for task in [t for t in TASKS if t.family == "international_not_supported"][:6]:
        trace = gold(task.task_id)
        for at in agent_turns(trace):
            parts = re.split(r"(?<=[.!?])\s+", text_at(trace, at))
            said = [i for i, p in enumerate(parts) if says("not_supported", p.lower())]
            if said and re.search(r"ending \d{4}", " ".join(parts[said[0] + 1 :])):
                parts[said[0]] = "RuPay Classic Debit cards don't support international usage."
                tried += 1
                new = say(trace, at, " ".join(p for i, p in enumerate(parts) if i not in said[1:]))
                assert "told_customer" not in failed(task, new), task.task_id
                break
    assert tried


# --- the team named as taking over is the policy's (I.32; careless-agent trial two_teams) ----

TEAMS = {"card_disputes_team": "Card Disputes team", "grievance_team": "grievance team"}


@pytest.mark.parametrize("family", HANDING_OFF)
@pytest.mark.parametrize(
    ("words", "fails"),
    [
        ("I'm transferring you to our Home Loans team (the {team} may look at it later).", True),
        ("I'm connecting you with the Fixed Deposits department now.", True),
        ("Our Savings Accounts team will handle this from here; the {team} is copied.", True),
        ("I've transferred you to our {team}; they work with the merchant's bank.", False),
        ("I'm connecting you to a colleague from our {team} now.", False),
        ("I'll put you through to the {team}, who will take it from here.", False),
        ("Let me hand this over to our {team}. The home loans team has no part in it.", False),
        ("I'm transferring you to our {team} and a human agent will pick this up shortly.", False),
    ],
)
def test_a_hand_off_names_the_policys_team_as_the_one_taking_over(
    family: str, words: str, fails: bool
) -> None:
    for task in [t for t in TASKS if t.family == family][:3]:
        trace = gold(task.task_id)
        announce = _announcement(trace)
        team = TEAMS[next(t for t in task.tells if t.kind == "handoff").concepts[0]]
        kept = text_at(trace, announce).split(". ", 1)[0]  # what was done before, if anything
        said = words.format(team=team) if fails else f"{kept}. {words.format(team=team)} Ok."
        problems = failed(task, say(trace, announce, said))
        wrong = [p for p in problems.get("told_customer", []) if "another team" in p]
        if fails:
            assert wrong and team in wrong[0], (task.task_id, problems)
        else:
            assert "told_customer" not in problems, (task.task_id, problems)


# --- a reason said of another record named by its description (careless-agent trial wrong_fd)


def _deposit_refusals(family: str) -> Iterator[tuple[Task, Trace, int, str, str]]:
    """Refusals of a deposit whose customer holds another: the refusal's message, how the gold
    agent names the deposit refused, and how it names another."""
    from pytest_bankbench.records import holdings, phrase

    for task in (t for t in TASKS if t.family == family):
        key = next(t.record for t in task.tells if t.kind == "reason")
        assert key is not None
        held = holdings(task.customer_id, task.task_date, task.bank_seed, ("deposit",))
        other = next((h.key for h in held if h.key != key), None)
        trace = gold(task.task_id)
        at = agent_turns(trace)[-1]
        ours, theirs = phrase(key, held), phrase(other, held) if other else None
        if ours and theirs:
            yield task, trace, at, ours[0].upper() + ours[1:], theirs[0].upper() + theirs[1:]


REASONS = {
    "fd_lien_refusal": "{fd} is under lien: it is pledged as security for your loan, so it "
    "can't be closed until the loan is repaid and the lien is released.",
    "tax_saver_lock_in": "{fd} is a tax-saver FD with a lock-in of 5 years, so it can't be "
    "closed before it matures.",
}


@pytest.mark.parametrize("family", REASONS)
def test_a_reason_said_of_another_deposit_named_by_its_description_does_not_count(
    family: str,
) -> None:
    tried = 0
    for task, trace, at, ours, theirs in list(_deposit_refusals(family))[:4]:
        tried += 1
        reason = REASONS[family]
        wrong = failed(task, say(trace, at, f"I'm sorry, I can't. {reason.format(fd=theirs)}"))
        assert any("reason" in p for p in wrong.get("told_customer", [])), (task.task_id, wrong)
        for right in (
            f"I'm sorry, I can't. {reason.format(fd=ours)}",
            f"{theirs} can be closed, but {reason.format(fd='this one').lower()}",
            f"I'm sorry. {reason.format(fd='This FD')} {theirs} is not affected.",
            f"You asked about {ours.lower()}. {reason.format(fd='It')}",
        ):
            kept = failed(task, say(trace, at, right))
            assert "told_customer" not in kept, (task.task_id, right, kept)
    assert tried, family


# --- a required value said of another record (careless-agent trial wrong_record_output) ------


@pytest.mark.parametrize(
    ("words", "kept"),
    [
        ("Status of your card ending 5683: blocked.", False),
        ("Your card ending 5683 is blocked.", False),
        ("Your card ending 9391 is blocked; your other card ending 5683 is active.", True),
        ("Card ending 9391: blocked. Card ending 5683: active.", True),
        ("Status: blocked. Your card ending 5683 is active and works as usual.", True),
        ("The card ending 9391 is blocked (reason: damaged), while 5683 stays active.", True),
        ("Your RuPay card ending 9391 shows as blocked. The one ending 5683 is active.", True),
    ],
)
def test_a_status_said_of_another_card_is_not_told(words: str, kept: bool) -> None:
    task = first_of("card_status_enquiry", lambda t: t.task_id == "card_status_enquiry-001")
    trace = gold(task.task_id)
    at = agent_turns(trace)[-1]
    problems = failed(task, say(trace, at, words))
    if kept:
        assert problems == {}, problems
    else:
        [line] = problems["required_outputs"]
        assert "never told status: blocked" in line and "only of another record" in line, line
        assert "5683" in line, line
