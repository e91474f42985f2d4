"""scoring/completion.py: a change reported as made, not as under way or to come (red team,
issue 16)."""

from __future__ import annotations

import pytest

from pytest_bankbench.concepts import says
from pytest_bankbench.scoring.completion import reports_done

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
