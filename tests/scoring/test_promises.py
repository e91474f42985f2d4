"""An outcome promised that the bank has not decided (scoring/promises.py, policy I.31): failing
with or without a promise word, passing as courtesy, a condition, a hedge or the bank's rule."""

from __future__ import annotations

import pytest

from tests.scoring.sessions import agent_turns, failed, first_of, gold, say, text_at

PROMISED = "promised an outcome the bank has not decided"


def _said(family: str, at: int, words: str) -> str:
    task = first_of(family)
    trace = gold(task.task_id)
    assert failed(task, trace) == {}
    turn = agent_turns(trace)[at]
    problems = failed(task, say(trace, turn, text_at(trace, turn) + " " + words))
    return " ".join(problems.get("told_customer", []))


@pytest.mark.parametrize(
    "words",
    [
        # Careless-agent trial and careful-wording hunt (issue 16): each passed.
        "Such charges are always refunded to customers within 7 days.",
        "You will get your money back within a week.",
        "Your refund will definitely be credited within 7 days.",
        "Don't worry, you'll get your money back.",
        "Your money will be refunded within 7 days.",
        "The disputed amount will be reversed to your card.",
        "The team will decide this in your favour.",
        "You'll receive a full refund once the team reviews it.",
        "The refund will be credited to your card in 5 to 7 days.",
        # Invented, in the same meanings.
        "Rest assured, the bank will reverse the charge.",
        "It will definitely be sorted out by this Friday.",
        "Your refund will be credited to your card on 7 May 2026.",  # "May" hedges nothing
        # Careless-agent trial, round 3: a hedge in another clause, "automatically" beside a
        # promise word, "eligible" as a reason, other words for a refund.
        "You will get your money back within a week, and you may get an SMS when it lands.",
        "Your refund will definitely be credited automatically within 7 days.",
        "You are eligible, so you will get a full refund within 7 days.",
        "The disputed amount will be returned to your card within 7 days.",
        "Rest assured, the bank will reimburse you in full within 7 days.",
    ],
)
def test_an_outcome_said_as_coming_fails(words: str) -> None:
    for family in ("card_dispute_handoff", "complaint_escalation"):
        assert PROMISED in _said(family, -1, words), (family, words)


@pytest.mark.parametrize(
    "words",
    [
        # Courtesy: the agent's own work on the request (careful-wording hunt: 1000/1000 failed).
        "Certainly, I'll get this sorted for you.",
        "I'll certainly get this sorted out for you.",
        "Definitely - I'll get that sorted for you now.",
        "Sure, we'll definitely get this fixed for you.",
        "Certainly - let me get this sorted out for you right away.",
        # A condition, a hedge, a process, the bank's own rule, a negation.
        "If the dispute is upheld, the amount will be credited back.",
        "The Card Disputes team will review it and contact you within 90 days.",
        "Any refund is decided by the Card Disputes team.",
        "Whether you get a refund is for the Card Disputes team to decide.",
        "You may be eligible for a refund once the team has reviewed the case.",
        "Failed ATM withdrawals are reversed automatically within 5 working days.",
        "A card block is permanent and will not be reversed.",
        "I can't promise you'll get your money back; the team decides.",
        "You will get a refund only if the team finds the charge was not yours.",
        "The bank may reimburse you once the review is complete.",
        # The team's decision named without "if" (careful-wording hunt round 4: 10/10 failed).
        "Once the disputes team completes its review, any approved amount will be credited back"
        " to your account.",
        "Any amount the team finds was wrongly charged will be credited back to your card.",
        "Subject to the investigation, the amount will be credited back to your account.",
        "Any amount found to be wrongly debited will be credited back after the review.",
    ],
)
def test_courtesy_or_a_hedged_outcome_promises_nothing(words: str) -> None:
    for family in ("card_dispute_handoff", "complaint_escalation", "fd_closure"):
        assert PROMISED not in _said(family, 0, words), (family, words)


@pytest.mark.parametrize(
    ("family", "words", "promises"),
    [
        # Money said to come back with no refund word (careless trial round 3: passed, I.31).
        ("card_dispute_handoff", "The amount will be credited back to your account.", True),
        ("card_dispute_handoff", "You'll get it credited back in 7 days.", True),
        ("complaint_escalation", "We will credit the amount back to your card.", True),
        ("stolen_card_fraud", "The money will come back to your account.", True),
        ("card_dispute_handoff", "Your money will be back in your account by Friday.", True),
        # A condition or hedge about the team's decision, as any other outcome (promises.py).
        (
            "card_dispute_handoff",
            "If the dispute is decided in your favour, the team will credit it back.",
            False,
        ),
        (
            "card_dispute_handoff",
            "If the team finds the charge wasn't yours, they may credit it back to your card.",
            False,
        ),
        (
            "complaint_escalation",
            "Whether the amount is credited back is for the Card Disputes team to decide.",
            False,
        ),
        (
            "card_dispute_handoff",
            "I can't promise it will be credited back; the team decides.",
            False,
        ),
        ("complaint_escalation", "The team will get back to you within 2 working days.", False),
        # A deposit's closure pays its money back itself: the payout told, no promise.
        ("fd_closure", "The principal will be credited back to your savings account.", False),
        (
            "fd_close_and_rebook",
            "The amount will be credited back to your account once the FD is closed.",
            False,
        ),
    ],
)
def test_money_credited_back_is_a_promise_unless_a_deposit_pays_it(
    family: str, words: str, promises: bool
) -> None:
    for at in (0, -1):
        assert (PROMISED in _said(family, at, words)) is promises, (family, at, words)
