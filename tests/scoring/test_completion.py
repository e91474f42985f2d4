"""scoring/completion.py: a change reported as made, not as under way or to come (red team,
issue 16)."""

from __future__ import annotations

import pytest

from pytest_bankbench.concepts import says
from pytest_bankbench.scoring.completion import denies, reports_done

DONE = [
    "Your FD has been closed.",
    "Done - the card is now blocked.",
    "The FD has been closed and the payout will be credited today.",
    "The FD is now closed, and the payout is being processed.",
    "Your payment was processed successfully.",
    "International usage is now enabled on your card.",
]
UNDER_WAY = [
    "Your FD closure request is being processed.",
    "Your request has been initiated.",
    "It will be done by end of day.",
    "The change is now under process.",
    "Your request has been sent for processing.",
    "We'll get it done today.",
    "Once it is processed you will get an SMS.",
    "The transfer is now in progress.",
    "Your card block has been put on pending.",
]


@pytest.mark.parametrize("text", DONE)
def test_a_change_said_as_made_is_reported(text: str) -> None:
    assert reports_done(text.lower())


@pytest.mark.parametrize("text", UNDER_WAY)
def test_a_change_said_as_under_way_or_to_come_is_not(text: str) -> None:
    assert says("completed", text.lower())  # a completion phrase is said: its tense decides
    assert not reports_done(text.lower())


@pytest.mark.parametrize(
    "text",
    ["Your FD has not been closed.", "International usage is not enabled on your card."],
)
def test_a_negated_completion_is_none(text: str) -> None:
    assert not reports_done(text.lower())


# Real models' words (tests/scoring/real_sentences.txt, tuning part): each rule both ways, the
# misread said and the change reported in the same words.
@pytest.mark.parametrize(
    ("text", "done"),
    [
        # Found, not changed.
        ("I have successfully located your user account.", False),
        ("I have successfully blocked your card.", True),
        ("Since it has been delivered, I can assist you with returning it.", False),
        ("Since it has been blocked, I can order a replacement.", True),
        ("Great! I've successfully authenticated your account.", False),
        # A figure's name.
        ("- Total paid: $430", False),
        ("- Paid: $430 from your savings account", True),
        ("The total refund will be the sum of the amounts paid for those items.", False),
        # One word after a determiner, or before "summary": an adjective.
        ("Here's the updated summary with just the backpack.", False),
        ("I'll proceed with preparing the updated details.", False),
        ("Your address is updated.", True),
        ("Let me provide you with a complete summary of all the changes.", False),
        ("The change is complete.", True),
        # A condition anywhere before, a modal just before.
        ("If you are sure the order was placed successfully, check the email.", False),
        ("The order was placed successfully.", True),
        ("The flight might have been booked under a different user id.", False),
        ("The flight has been booked.", True),
        # Quoted: an option or a status named.
        ('Please confirm the reason as either "no longer needed" or "ordered by mistake."', False),
        ("The status will be changed to 'return requested' once you confirm.", False),
        ('Your keyboard and bed are marked as "return requested."', True),
        ("Your card is now 'blocked'.", True),
    ],
)
def test_real_models_words_read_both_ways(text: str, done: bool) -> None:
    assert reports_done(text.lower()) is done


@pytest.mark.parametrize(
    ("text", "denied"),
    [
        ("I encountered an issue with the garden hose exchange.", True),
        ("If you encounter an issue with the card, let me know.", False),
        ("It seems there is still an issue with processing the return.", True),
        ("In case there is an issue with processing, we will call you.", False),
        ("I've encountered an issue with the other two orders.", True),
        # "failed" said of a kind of transaction (helper B: read as the block denied).
        ("Failed ATM withdrawals are automatically credited back within 5 working days.", False),
        ("Failed transactions are reversed by the bank automatically.", False),
        ("Sorry, that payment failed.", True),
        ("The transfer failed, so nothing was sent.", True),
    ],
)
def test_an_attempt_that_hit_a_problem_is_denied(text: str, denied: bool) -> None:
    assert denies(text.lower()) is denied
