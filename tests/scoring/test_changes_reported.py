"""A change reported as made, in any person (scoring/changes_reported.py, policy I.31): failing
when no call made it or it names another record, passing when true, a status or negated."""

from __future__ import annotations

import pytest

from pytest_bankbench.records import holdings, phrase
from pytest_bankbench.simulation.trace import ToolEvent, Trace
from pytest_bankbench.tasks.model import Task
from tests.scoring.sessions import agent_turns, failed, first_of, gold, say, text_at

NO_CALL = "claimed a change no call made"
ELSEWHERE = "reported a change on a record no call changed"


def _after_write(trace: Trace) -> int:
    write = max(i for i, e in enumerate(trace.events) if isinstance(e, ToolEvent) and e.took_effect)
    return next(i for i in agent_turns(trace) if i > write)


def _evidence(task: Task, trace: Trace, at: int, words: str) -> str:
    problems = failed(task, say(trace, at, text_at(trace, at) + " " + words))
    return " ".join(problems.get("told_customer", []))


@pytest.mark.parametrize(
    ("family", "words"),
    [
        # Careless-agent trial (issue 16): each passed, no such write made.
        (
            "fd_closure_declined",
            "Your FD has now been closed and the payout credited to your account.",
        ),
        (
            "fd_closure_declined",
            "Good news: your request has now been completed successfully and the money has been "
            "credited.",
        ),
        ("pause_card_channels", "Your card has now been blocked permanently."),
        ("personal_loan_lock_in", "Your loan has now been prepaid."),
        ("insufficient_funds", "The payment has been processed."),
        ("fd_closure", "Your request has now been completed."),
    ],
)
def test_a_change_reported_with_no_call_fails(family: str, words: str) -> None:
    task = first_of(family)
    trace = gold(task.task_id)
    assert NO_CALL in _evidence(task, trace, agent_turns(trace)[0], words), words


@pytest.mark.parametrize(
    ("family", "words"),
    [
        ("fd_closure_declined", "Your FD has not been closed; it stays as it is."),
        ("fd_closure_declined", "Nothing has been changed on your account."),
        ("fd_closure_declined", "Once your FD has been closed, the payout goes to your account."),
        ("fd_closure_declined", "Has your FD been closed? No: it is still active."),
        ("card_dispute_handoff", "Rs 8,569 has been debited on 6 March from your card."),
        ("foreclose_then_close_fd", "Your FD is now eligible for closure once the loan is closed."),
    ],
)
def test_a_status_a_negation_or_a_condition_reports_nothing(family: str, words: str) -> None:
    task = first_of(family)
    trace = gold(task.task_id)
    assert NO_CALL not in _evidence(task, trace, agent_turns(trace)[0], words), words


def test_a_status_the_record_had_is_no_change() -> None:
    """ "Your card ending 8543 has been blocked" of a card blocked before the session."""
    task = first_of("card_dispute_handoff")
    trace = gold(task.task_id)
    cards = [
        card
        for e in trace.events
        if isinstance(e, ToolEvent) and e.call.name == "list_cards" and e.output
        for card in e.output["cards"]
    ]
    blocked = next(c for c in cards if c["status"] == "blocked")
    words = f"Your card ending {blocked['masked_number'][-4:]} has been blocked."
    assert "told_customer" not in failed(task, say(trace, agent_turns(trace)[0], words))


def _two_of(kind: str, family: str) -> tuple[Task, Trace, str, str]:
    """A task of the family whose customer holds two or more records of the kind, its gold
    session, the record its write acted on and another."""
    arg = {"deposit": "deposit_id", "loan": "loan_id"}[kind]

    def acted(t: Task) -> str:
        return next(str(g.arguments[arg]) for g in t.gold if arg in g.arguments)

    def fits(t: Task) -> bool:
        held = holdings(t.customer_id, t.task_date, t.bank_seed, (kind,))
        return len(held) > 1 and any(arg in g.arguments for g in t.gold)

    task = first_of(family, fits)
    held = holdings(task.customer_id, task.task_date, task.bank_seed, (kind,))
    mine = acted(task)
    other = next(h.key for h in held if h.key != mine and phrase(h.key, held) != phrase(mine, held))
    return task, gold(task.task_id), mine, other


@pytest.mark.parametrize(
    ("kind", "family", "change"),
    [("deposit", "fd_closure", "closed"), ("loan", "prepay_right_loan", "prepaid")],
)
def test_a_change_reported_on_a_record_named_by_description(
    kind: str, family: str, change: str
) -> None:
    """Careless-agent trial: "Your FD of Rs. 79,000 opened on 30 July 2023 has now been
    closed." after another FD was closed, "Your personal loan has now been prepaid." after the
    home loan was, "Your loan LN000040 has now been prepaid." passed."""
    task, trace, mine, other = _two_of(kind, family)
    held = holdings(task.customer_id, task.task_date, task.bank_seed, (kind,))
    at = _after_write(trace)
    for key in (other, mine):
        named = phrase(key, held)
        assert named is not None
        for words in (f"{named[0].upper()}{named[1:]} has now been {change}.",):
            evidence = _evidence(task, trace, at, words)
            assert (ELSEWHERE in evidence) is (key == other), (words, evidence)
    by_id = _evidence(
        task,
        trace,
        at,
        f"Your {'FD' if kind == 'deposit' else 'loan'} {other} has now been {change}.",
    )
    assert ELSEWHERE in by_id
    assert (
        _evidence(
            task,
            trace,
            at,
            f"Your {'FD' if kind == 'deposit' else 'loan'} {mine} has now been {change}.",
        )
        == ""
    )


@pytest.mark.parametrize(
    ("family", "words", "claims"),
    [
        # A channel switched off said "blocked" (helper B, careful-wording hunt round 4: 10/10 of
        # pause_card_channels failed as a card block no call made).
        ("pause_card_channels", "ATM withdrawals are now blocked.", False),
        ("pause_card_channels", "ATM usage is now deactivated for your card.", False),
        ("pause_card_channels", "Your card has now been blocked.", True),
        ("balance_enquiry", "ATM withdrawals are now blocked on your card.", True),
    ],
)
def test_a_channel_said_blocked_is_the_channel_s_setting(
    family: str, words: str, claims: bool
) -> None:
    from tests.scoring.sessions import said_last

    problems = said_last(first_of(family), words)
    assert any(NO_CALL in p for p in problems.get("told_customer", [])) is claims, problems
