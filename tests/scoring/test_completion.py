"""scoring/completion.py: a change reported as made, not as under way or to come (red team,
issue 16)."""

from __future__ import annotations

import pytest

from pytest_bankbench.concepts import says
from pytest_bankbench.scoring.completion import denies, reports_done
from tests.scoring.sessions import after_last_write, failed, first_of, gold, say

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


# Real models' words, the tuning2 part (AgentChangeBench's bank conversations): a participle that
# names a detail, a step for the customer, a log-in, a state to keep or check, a question, a
# habit; each beside the change reported in the same words, as a careless agent would put it.
@pytest.mark.parametrize(
    ("text", "done"),
    [
        # "registered" naming a detail, not a change.
        ("Could you please provide your full registered phone number?", False),
        ("Or the phone number registered with your account?", False),
        ("Your full name and date of birth (as registered with the bank).", False),
        ("I've registered your new payee.", True),
        ("Payee registered.", True),
        ("Your new payee has been registered with your account.", True),
        # "sent" describing what the customer gets, not reporting a payment.
        ("Follow the instructions sent to your registered email.", False),
        ("You may need to enter a code sent to your phone.", False),
        ("Your transfer was sent successfully.", True),
        ("I have sent the money to your registered account.", True),
        ("₹5,000 sent to your savings account.", True),
        # "complete" as the customer's step.
        ("Now, simply click the 'Log In' button to complete the login process.", False),
        ("5. **Complete the setup**:\n - Click the submit button.", False),
        ("Your request is complete.", True),
        ("Complete! Your card is blocked.", True),
        # "successfully" of a log-in, in a question or in the past.
        ("And the last time you successfully logged in?", False),
        ("When was the last time you were able to log in successfully?", False),
        ("Great to hear that you've successfully logged in!", False),
        ("Your card was successfully blocked.", True),
        ("Successfully blocked your card; you can log in to the app to see it.", True),
        # A state to keep or check, a condition behind a short parenthesis, a question, a habit.
        ("Keep your devices updated and use trusted security software.", False),
        ("Make sure your app is updated to the latest version.", False),
        ("If you have multi-factor authentication (MFA) enabled, keep your phone handy.", False),
        ("Have you recently changed your phone or phone number?", False),
        ("This is usually done by sending a verification code.", False),
        ("International usage (POS) is now enabled.", True),
        ("To make sure no one can use it, I have blocked your card.", True),
        ("I've updated your daily limit.", True),
        # Help given, a request quoted, readiness.
        ("I'm glad to have been able to help.", False),
        ("Here are the transaction details, as requested.", False),
        ("You're all set to proceed with the password reset.", False),
        ("I have been able to block your card.", True),
        ("I've updated your daily limit, as requested.", True),
        ("All set - your ATM channel is now off.", True),
        ("Your limit is all set to 5,000.", True),
    ],
)
def test_tuning2_words_read_both_ways(text: str, done: bool) -> None:
    assert reports_done(text.lower()) is done


@pytest.mark.parametrize(
    ("said", "told"),
    [
        # Careless: the change never said made, only a misread participle (each passed 20/20 in
        # the four card-setting families before).
        ("Alerts will go to the mobile number registered with your account.", False),
        ("Great to hear you've successfully logged in to the app!", False),
        ("Tap Submit in the app to complete the setup.", False),
        ("Check the SMS sent to your registered mobile.", False),
        ("Keep your mobile banking app updated to the latest version.", False),
        ("I'm glad to have been able to help.", False),
        # Careful: the change said made, in words a model writes.
        ("International usage is now enabled on your card.", True),
        ("Done! I've enabled international transactions on your card.", True),
        ("Your card has been successfully enabled for international use.", True),
        ("International payments are switched on for your card, as requested.", True),
        ("All set - your card now works abroad.", True),
        ("I've turned on international usage; alerts will go to your registered mobile.", True),
    ],
)
def test_a_write_is_told_only_by_a_change_said_made(said: str, told: bool) -> None:
    """J.38: the no-value write of international_not_supported (set_card_channel_limit) told by
    its message after it, said in these words instead."""
    task = first_of("international_not_supported")
    trace = gold(task.task_id)
    problems = failed(task, say(trace, after_last_write(trace), said))
    assert ("told_customer" not in problems) is told, problems
    if not told:
        assert "never told the result of set_card_channel_limit" in problems["told_customer"][0]
        assert "expected that the change was made" in problems["told_customer"][0]
