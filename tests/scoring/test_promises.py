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
        # The hunt (issue 16): money the bank gives said as coming, any verb "in your favour",
        # a condition of the merchant's silence; each passed 8/8.
        "You'll get a chargeback credit shortly.",
        "Rest assured, the team will sort this out in your favour.",
        "A temporary credit of the amount will be given to your card while the team investigates.",
        "The charge will be reversed if Swiggy doesn't respond.",
        "The grievance team will compensate you for the delay.",
        "You'll receive a compensation of ₹100 per day of delay.",
        "You will be given a provisional credit within 10 working days.",
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
        # The hunt's near-misses (issue 16): the rule told of no one, the decision left to the
        # team, the merchant's silence beside a hedge.
        "As per RBI rules, a delay in reversing a failed ATM withdrawal attracts compensation of "
        "Rs 100 per day.",
        "Compensation, if any, is decided under the bank's Customer Compensation Policy.",
        "The team will decide whether a refund or chargeback is due.",
        "I can't promise a chargeback or compensation; that's for the team to decide.",
        "If the merchant doesn't respond, the team may decide the dispute in your favour.",
        "The team will keep you updated on the chargeback process.",
        "If it isn't resolved within 30 days, you can approach the RBI Integrated Ombudsman.",
        "The Ombudsman scheme is free; you can file online on RBI's Complaint Management System.",
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


@pytest.mark.parametrize(
    ("words", "promises"),
    [
        # The hunt (issue 16): the Ombudsman said to take the complaint up by itself (KB 24: the
        # customer may approach it), each passed 8/8; a condition hedges nothing here.
        ("The Banking Ombudsman will take it up automatically if not resolved.", True),
        (
            "If it isn't resolved in 30 days, your complaint will be escalated to the RBI "
            "Ombudsman.",
            True,
        ),
        ("If you're not satisfied within 30 days, you can approach the Banking Ombudsman.", False),
        ("You may approach the RBI Integrated Ombudsman if the bank rejects it.", False),
        ("The Ombudsman will not take it up automatically; you need to file it yourself.", False),
    ],
)
def test_the_ombudsman_said_to_act_by_itself_is_a_promise(words: str, promises: bool) -> None:
    for family in ("complaint_escalation", "card_dispute_handoff"):
        said = _said(family, -1, words)
        assert ("escalation the customer must make" in said) is promises, (family, words, said)
