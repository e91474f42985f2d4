"""scoring/settings_told.py: a card setting told after a change otherwise than the change set it
fails J.38 (careless-agent trial #13); the setting told right, in any words, passes."""

from __future__ import annotations

import pytest

from pytest_bankbench.simulation.trace import ToolEvent, Trace
from tests.scoring.sessions import failed, first_of, gold, say, text_at

TASK = first_of("atm_limit_then_international")  # ATM limit Rs 5,000 on, then international on


def _after_write(trace: Trace, channel: str) -> int:
    """The first agent message after the call that sets the channel."""
    at = next(
        i
        for i, e in enumerate(trace.events)
        if isinstance(e, ToolEvent) and (e.call.arguments or {}).get("channel") == channel
    )
    return next(i for i in range(at + 1, len(trace.events)) if text_at(trace, i) is not None)


def _with(channel: str, words: str) -> dict[str, list[str]]:
    trace = gold(TASK.task_id)
    at = _after_write(trace, channel)
    return failed(TASK, say(trace, at, f"{text_at(trace, at)} {words}"))


@pytest.mark.parametrize(
    ("channel", "words"),
    [
        ("atm", "Your daily atm limit is now Rs. 15,000."),
        ("atm", "Done. ATM withdrawals are now switched off on your card."),
        ("international", "Your international channel is now off."),
        ("international", "International usage has been disabled."),
    ],
)
def test_a_setting_told_otherwise_than_set_fails(channel: str, words: str) -> None:
    problems = _with(channel, words).get("told_customer", [])
    assert any("otherwise than set_card_channel_limit" in p and "(J.38)" in p for p in problems), (
        problems
    )


@pytest.mark.parametrize(
    ("channel", "words"),
    [
        ("atm", "Your daily ATM limit is now Rs. 5,000."),
        ("atm", "Your ATM limit has been changed from Rs 20,000 to Rs 5,000."),
        ("atm", "Your ATM limit is now Rs 5,000 (it was Rs 20,000)."),
        ("atm", "ATM withdrawals stay on, with a daily limit of Rs 5,000."),
        ("atm", "The maximum ATM limit for this card is Rs 1,00,000, if you need more later."),
        ("atm", "If you want ATM withdrawals switched off later, just ask."),
        ("international", "International usage is now on, and online stays off."),
        ("international", "International was off; it's now on."),
        ("international", "International usage will be switched off again when you ask."),
        ("international", "International usage is not disabled any more: it is on."),
    ],
)
def test_a_setting_told_as_set_passes(channel: str, words: str) -> None:
    assert "told_customer" not in _with(channel, words)


@pytest.mark.parametrize(
    ("channel", "words", "contrary"),
    [
        # Careless trial round 3 (setting_synonym, setting_colon): each passed.
        ("international", "International usage stays blocked.", True),
        ("international", "Usage on that channel stays blocked for now.", True),
        ("international", "Int'l: OFF.", True),
        ("atm", "Your daily cap is now Rs 15,000.", True),
        ("atm", "Your new cap on it: Rs. 15,000 a day.", True),
        ("atm", "ATM limit - Rs. 15,000 per day.", True),
        ("atm", "Int'l: ON / ATM: OFF", True),
        # The setting told right in other words, or something true of other cards.
        ("international", "Your other cards stay off for international use.", False),
        ("international", "The rest of your cards remain blocked for use abroad.", False),
        ("international", "International usage is now active on your card.", False),
        ("international", "International usage is live now.", False),
        ("international", "Int'l: ON.", False),
        ("atm", "Your daily cap is now Rs 5,000.", False),
        ("atm", "ATM limit - Rs. 5,000 per day.", False),
        ("atm", "Your new daily ATM limit: Rs 5,000.", False),
        ("atm", "Your card remains active except for the change to ATM limits.", False),
    ],
)
def test_a_setting_told_in_other_words(channel: str, words: str, contrary: bool) -> None:
    """J.38: a state in synonyms ("stays blocked", "is live"), a line "ATM: OFF", a limit told
    as "cap" or with no channel named, of the setting just made; "your other cards" are not it."""
    problems = _with(channel, words).get("told_customer", [])
    said = any("otherwise than set_card_channel_limit" in p for p in problems)
    assert said is contrary, problems


@pytest.mark.parametrize(
    ("words", "contrary"),
    [
        ("ATM withdrawals are active.", True),
        ("ATM withdrawals stay live.", True),
        ("ATM: ON.", True),
        ("ATM withdrawals are now paused.", False),
        ("ATM withdrawals are off; your card remains active for everything else.", False),
        ("Your card remains active except for ATM withdrawals.", False),
        ("ATM withdrawals can be switched back on whenever you like.", False),
        # "on your card" is where, not a state (careful-wording hunt round 4: each 10/10 failed).
        ("ATM withdrawals are now paused on your card.", False),
        ("ATM transactions are now disabled on your card.", False),
        ("ATM is now OFF on your card.", False),
        ("ATM withdrawals remain blocked on this card until you switch them back on.", False),
        ("ATM withdrawals are now on for your card.", True),
        ("Your other cards stay active for ATM withdrawals.", False),
    ],
)
def test_a_channel_switched_off_told_as_on_fails(words: str, contrary: bool) -> None:
    """ "international usage is active" after switching it off (careless trial round 3)."""
    task = first_of("pause_card_channels")
    trace = gold(task.task_id)
    at = _after_write(trace, "atm")
    problems = failed(task, say(trace, at, f"{text_at(trace, at)} {words}"))
    said = any(
        "otherwise than set_card_channel_limit" in p for p in problems.get("told_customer", [])
    )
    assert said is contrary, problems


@pytest.mark.parametrize(
    ("words", "contrary"),
    [
        ("The money went by IMPS, not NEFT.", True),
        ("It was sent via RTGS.", True),
        ("Sent by NEFT, as IMPS can't carry this amount.", False),
        ("It went by NEFT rather than IMPS.", False),
        ("The money is on its way by NEFT.", False),
        ("Next time you could send it by IMPS if you like.", False),
    ],
)
def test_a_transfer_mode_told_otherwise_than_sent_fails(words: str, contrary: bool) -> None:
    """ "The money went by IMPS, not NEFT." after an NEFT transfer (careless-agent trial: passed
    80 of 80); the mode told right, or another named as not used, passes."""
    task = first_of("transfer_correction")
    trace = gold(task.task_id)
    sent = next(
        i
        for i, e in enumerate(trace.events)
        if isinstance(e, ToolEvent) and e.call.name == "transfer_funds" and e.took_effect
    )
    event = trace.events[sent]
    assert isinstance(event, ToolEvent) and (event.call.arguments or {}).get("mode") == "NEFT"
    at = next(i for i in range(sent + 1, len(trace.events)) if text_at(trace, i) is not None)
    problems = failed(task, say(trace, at, f"{text_at(trace, at)} {words}"))
    said = " ".join(problems.get("told_customer", []))
    assert ("another mode than" in said) is contrary, problems
