"""scoring/corrections.py: a value told, then corrected to another figure of its quantity, is not
told (careless-agent trial #3); other figures of its kind beside it take nothing away."""

from __future__ import annotations

import pytest

from pytest_bankbench.scoring.corrections import told
from pytest_bankbench.scoring.outputs import OutputKind, said, shown
from tests.scoring.sessions import (
    after_last_write,
    agent_turns,
    failed,
    first_of,
    gold,
    say,
    text_at,
)

# --- a value told, then corrected to another (careless-agent trial #3) ------------------------

CORRECTED = [
    (
        "amount",
        "368385.33",
        "balance_after",
        "Payout: Rs. 1,18,985.13. Balance after closure: Rs. 3,68,385.33. Correction: Your "
        "balance after is now Rs. 3,78,385.33.",
    ),
    (
        "percent",
        "6.50",
        "rate",
        "Rate: 6.50% p.a. Sorry, correction: for this tenure the interest rate is 3.50% p.a.",
    ),
    (
        "date",
        "2031-08-14",
        "maturity date",
        "Maturity date: 14 August 2031. Correction: the maturity date is 14 September 2031.",
    ),
    (
        "amount",
        "118985.13",
        "payout",
        "Payout: Rs. 1,18,985.13. To be clear: Payout: Rs. 1,28,985.13.",
    ),
    (
        "amount",
        "8000",
        "new EMI",
        "Your new EMI is Rs 8,000. Actually, I made a mistake: the EMI is now Rs 9,000.",
    ),
]
STILL_TOLD = [
    # a correction of another quantity
    ("amount", "118985.13", "payout", CORRECTED[0][3]),
    # the value restated, an old figure, a round form, the amount with a fee
    (
        "percent",
        "6.50",
        "rate",
        "Rate: 6.50% p.a. Actually, the rate of 6.50% applies to 1-year FDs too.",
    ),
    (
        "amount",
        "118985.13",
        "payout",
        "Payout: Rs. 1,18,985.13. Actually, the payout includes interest of Rs 5,985.13.",
    ),
    (
        "amount",
        "8000",
        "new EMI",
        "Your new EMI is Rs 8,000. To be clear, your old EMI was Rs 10,000.",
    ),
    (
        "amount",
        "118985.13",
        "payout",
        "Payout: Rs. 1,18,985.13. To be clear, that is about Rs 1.19 lakh.",
    ),
    (
        "amount",
        "5000",
        "amount sent today",
        "Sent Rs 5,000. Actually, with the Rs 5 fee, Rs 5,005 left your account.",
    ),
    (
        "amount",
        "4000",
        "balance after transfer",
        "Your balance was Rs 9,000 and is now Rs "
        "4,000. To be clear, your balance before the transfer was Rs 9,000.",
    ),
]


@pytest.mark.parametrize(("kind", "value", "label", "text"), CORRECTED)
def test_a_value_corrected_to_another_is_not_told(
    kind: OutputKind, value: str, label: str, text: str
) -> None:
    assert said(kind, value, text)  # the value is in the message
    assert not told(kind, value, [text], label=label)  # but taken back


@pytest.mark.parametrize(("kind", "value", "label", "text"), STILL_TOLD)
def test_a_value_beside_other_figures_of_its_kind_is_told(
    kind: OutputKind, value: str, label: str, text: str
) -> None:
    assert told(kind, value, [text], label=label)


def test_a_session_whose_balance_is_corrected_to_another_fails_with_both_figures() -> None:
    task = first_of("fd_closure")
    trace = gold(task.task_id)
    at = after_last_write(trace)
    right = text_at(trace, at)
    assert right is not None and "Balance after closure: Rs. 3,68,385.33" in right
    wrong = f"{right} Correction: Your balance after is now Rs. 3,78,385.33."
    problems = failed(task, say(trace, at, wrong))
    [line] = problems["required_outputs"]
    assert "two ways" in line and "3,78,385.33" in line, line
    assert "Rs 3,68,385.33" in line  # what it should have said


@pytest.mark.parametrize(
    "words",
    [
        "To be clear, your balance before the closure was Rs. 2,49,400.20.",
        "Actually, the payout includes interest of Rs. 5,985.13.",
        "Your balance is now Rs. 3,68,385.33.",
    ],
)
def test_a_session_with_other_figures_after_the_result_passes(words: str) -> None:
    task = first_of("fd_closure")
    trace = gold(task.task_id)
    at = after_last_write(trace)
    assert failed(task, say(trace, at, f"{text_at(trace, at)} {words}")) == {}


@pytest.mark.parametrize(
    ("kind", "value", "label", "text", "kept"),
    [
        # the correction runs to the message's end; "is now" restates
        (
            "amount",
            "368385.33",
            "balance_after",
            "Balance after closure: Rs. 3,68,385.33. Correction: Your payout is now Rs. "
            "1,28,985.13. Your balance after is now Rs. 3,78,385.33.",
            False,
        ),
        (
            "amount",
            "368385.33",
            "balance_after",
            "Balance after closure: Rs. 3,68,385.33. Your balance after is now Rs. 3,78,385.33.",
            False,
        ),
        # another quantity of a shared word ("available balance" is not "balance")
        (
            "amount",
            "5000",
            "available balance",
            "Available balance: Rs 5,000. Your balance is now Rs 5,200 including a hold.",
            True,
        ),
        (
            "amount",
            "4000",
            "balance after transfer",
            "Balance after transfer: Rs 4,000. Actually, the balance before: Rs 9,000.",
            True,
        ),
    ],
)
def test_a_correction_reads_to_the_message_end_for_the_same_quantity(
    kind: OutputKind, value: str, label: str, text: str, kept: bool
) -> None:
    assert told(kind, value, [text], label=label) is kept


# --- a quantity told two ways, with no correction word, in either order, or in the next
# message (careless-agent trial round 3: corr_noword, wrong_first, late_correction) -----------

TWO_WAYS = [
    # task family, where (None: after the last write's message; "first": before it), words
    ("fd_closure", None, "Your new balance is Rs. 3,78,385.33.", "3,78,385.33"),
    (
        "fd_closure",
        None,
        "Sorry, I read the wrong line: your payout stands at Rs. 1,28,985.13.",
        "",
    ),
    ("fd_closure", "first", "Your balance after closure is Rs. 3,78,385.33.", "3,78,385.33"),
    ("prepay_reduce_emi", None, "Your new EMI comes to Rs. 24,877.95.", "24,877.95"),
    ("new_payee_transfer", "first", "Balance after transfer: Rs. 11,68,659.12.", "11,68,659.12"),
]


@pytest.mark.parametrize(("family", "where", "words", "wrong"), TWO_WAYS)
def test_a_quantity_told_at_two_figures_is_not_told(
    family: str, where: str | None, words: str, wrong: str
) -> None:
    task = first_of(family)
    trace = gold(task.task_id)
    at = after_last_write(trace)
    right = text_at(trace, at)
    text = f"{words} {right}" if where == "first" else f"{right} {words}"
    problems = failed(task, say(trace, at, text))
    [line] = problems["required_outputs"]
    assert "two ways" in line and (wrong or words[-12:-1]) in line, line
    value = shown("amount", next(o.value for o in task.required_outputs if o.label in line))
    assert value in line, line  # what the bank gave


def test_a_result_told_again_at_another_figure_in_the_next_message_is_not_told() -> None:
    task = first_of("fd_close_and_rebook")
    trace = gold(task.task_id)
    closed = next(i for i, e in enumerate(trace.events) if getattr(e, "took_effect", False))
    after = [i for i in agent_turns(trace) if i > closed]
    said_next = f"Your payout is Rs. 7,18,682.19. {text_at(trace, after[1])}"
    problems = failed(task, say(trace, after[1], said_next))
    [line] = problems["required_outputs"]
    assert "closure payout two ways" in line and "7,18,682.19" in line, line
    assert "Rs 7,08,682.19" in line, line


@pytest.mark.parametrize(
    ("family", "words"),
    [
        # the same figure in other forms, rounded, or said as about it
        ("fd_closure", "Your payout comes to about Rs 1.19 lakh."),
        ("fd_closure", "So your payout is Rs 1.19 lakh, rounded off."),
        ("fd_closure", "That payout of Rs 1,18,985.13 (roughly Rs 1.2 lakh) is in your account."),
        ("fd_closure", "Your balance is now Rs 3,68,385.33."),
        # a before/after pair, an old figure, a figure of another quantity beside it
        ("fd_closure", "Your balance was Rs 2,49,400.20 and is now Rs 3,68,385.33."),
        ("fd_closure", "Your balance before the closure stood at Rs 2,49,400.20."),
        ("fd_closure", "The payout of Rs 1,18,985.13 includes interest of Rs 5,985.13."),
        ("prepay_reduce_emi", "Your EMI has come down from Rs. 19,353.26 to Rs. 14,877.95."),
        ("prepay_reduce_emi", "Your old EMI was Rs. 19,353.26; the new EMI is Rs. 14,877.95."),
        ("prepay_reduce_emi", "Previous EMI: Rs. 19,353.26. New EMI: Rs. 14,877.95."),
        (
            "prepay_reduce_emi",
            "Your new EMI of Rs. 14,877.95 is on an outstanding of Rs. 16,62,222.74.",
        ),
        (
            "prepay_reduce_emi",
            "The EMI (Rs. 19,353.26 until now) is Rs. 14,877.95 from next month.",
        ),
        (
            "new_payee_transfer",
            "Rs. 8,000 has gone to Ishita and your balance is now Rs. 11,58,659.12.",
        ),
    ],
)
def test_a_quantity_beside_its_other_forms_and_other_figures_is_told(
    family: str, words: str
) -> None:
    task = first_of(family)
    trace = gold(task.task_id)
    at = after_last_write(trace)
    assert failed(task, say(trace, at, f"{text_at(trace, at)} {words}")) == {}
