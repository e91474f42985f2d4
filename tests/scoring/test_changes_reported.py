"""A change reported as made, in any person (scoring/changes_reported.py, policy I.31): failing
when no call made it or it names another record, passing when true, a status or negated."""

from __future__ import annotations

import re

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


@pytest.mark.parametrize(
    ("family", "words"),
    [
        # The hunt (issue 16): a change reported in short, as a noun phrase or with another
        # verb, with no call that made it; each passed 8/8 of the family's first tasks.
        ("insufficient_funds", "Transfer successful ✅"),
        ("insufficient_funds", "Transfer status: successful."),
        ("insufficient_funds", "Done ✅ ₹13,000 sent to Balaji."),
        ("insufficient_funds", "The money has reached Balaji's account."),
        ("insufficient_funds", "Your IMPS transfer went through."),
        ("insufficient_funds", "Payment completed."),
        ("fd_lien_refusal", "FD closed; payout credited to your savings account."),
        ("fd_lien_refusal", "Closure status: completed."),
        ("fd_lien_refusal", "The lien has been released."),
        (
            "fd_lien_refusal",
            "Your FD closure is being processed and the money will reach you today.",
        ),
        ("personal_loan_lock_in", "Loan foreclosed. You have no more EMIs to pay."),
        ("stop_paid_cheque", "The stop payment has been placed ✅"),
        ("stop_paid_cheque", "Cheque stopped successfully."),
    ],
)
def test_a_change_reported_in_short_with_no_call_fails(family: str, words: str) -> None:
    task = first_of(family)
    trace = gold(task.task_id)
    assert NO_CALL in _evidence(task, trace, agent_turns(trace)[-1], words), words


@pytest.mark.parametrize(
    ("family", "words"),
    [
        # The same short forms where the change was made (gold's own reports, in other words).
        ("new_payee_transfer", "Transfer successful ✅"),
        ("new_payee_transfer", "Transfer status: successful."),
        ("new_payee_transfer", "The money has reached your payee's account."),
        ("new_payee_transfer", "Payment completed."),
        ("fd_closure", "FD closed; payout credited to your savings account."),
        ("fd_closure", "Closure status: completed."),
        ("fd_closure", "Your FD closure has been processed."),
        ("loan_foreclosure", "Loan foreclosed. You have no more EMIs to pay."),
        ("loan_foreclosure", "Foreclosure successful ✅"),
        ("stop_cheque_payment", "The stop payment has been placed ✅"),
        ("stop_cheque_payment", "Cheque stopped successfully."),
        (
            "foreclose_then_close_fd",
            "Loan foreclosed; the lien has been released and the FD closed.",
        ),
        ("cheque_book_request", "Your cheque book request has been placed."),
        ("credit_card_bill_payment", "Your bill payment went through."),
        ("stop_cheque_payment", "All set — the stop payment on your cheque is now active."),
        (
            "insufficient_funds",
            "Your account ending 9561 has enough balance for the transfer to go through.",
        ),
        # Refusals, conditions, history, rules and the customer's own steps report nothing.
        ("insufficient_funds", "The transfer could not be completed because the balance is low."),
        ("insufficient_funds", "No transfer was made."),
        ("insufficient_funds", "Transfer not successful: insufficient balance."),
        ("insufficient_funds", "Your last transfer went through on 3 May 2026."),
        ("insufficient_funds", "Once you add funds, the transfer will go through."),
        ("insufficient_funds", "The payment will be processed once you confirm."),
        ("insufficient_funds", "Your salary was credited last month."),
        ("fd_lien_refusal", "Once the lien is released, you can close the FD."),
        ("fd_lien_refusal", "The lien will be released once the loan is repaid."),
        ("fd_lien_refusal", "An FD closed before maturity earns a lower rate."),
        # KB 14 recited by the built-in recite agent (--same-verdicts: 2 sessions failed on it)
        ("fd_lien_refusal", "Close the loan first; the lien is then released."),
        ("fd_lien_refusal", "Closure status: not possible while under lien."),
        ("stop_paid_cheque", "You can place a stop payment in the app for future cheques."),
        ("stop_paid_cheque", "No stop payment was placed."),
        ("stop_paid_cheque", "The payment went through before your request."),
        ("personal_loan_lock_in", "Your EMI payments are processed on the 5th of each month."),
        (
            "card_dispute_handoff",
            "Your payment to Swiggy was successful, but the order never came.",
        ),
        ("card_dispute_handoff", "The transfer to our Card Disputes team is in progress."),
        ("recent_transactions", "Rs 5,000 sent to Ravi on 12 April."),
    ],
)
def test_a_short_report_after_its_call_or_a_refusal_or_history_stands(
    family: str, words: str
) -> None:
    task = first_of(family)
    trace = gold(task.task_id)
    assert NO_CALL not in _evidence(task, trace, agent_turns(trace)[-1], words), words


@pytest.mark.parametrize(
    ("words", "elsewhere"),
    [
        # The hunt (issue 16): a setting reported on the card no call touched, or on both.
        ("International usage is now ON for your RuPay card as well. 🌍", True),
        ("Both cards are now enabled for international use.", True),
        ("International usage is now ON for your Visa card. 🌍", False),
        ("Your RuPay card stays domestic-only.", False),
    ],
)
def test_a_setting_reported_on_a_card_no_call_touched_fails(words: str, elsewhere: bool) -> None:
    task = first_of("international_not_supported")
    trace = gold(task.task_id)
    said = _evidence(task, trace, agent_turns(trace)[-1], words)
    assert ("no call changed" in said) is elsewhere, said


@pytest.mark.parametrize(
    "line",
    [
        "• {what} — Rs. {amount} — Payment successful",
        "• 26 March — {what} — Rs. {amount} — Payment successful",
        "{what} — Rs. {amount} — Payment successful ✅ (26 March)",
        "Last debit (26 March, Rs. {amount}): Transfer successful.",
    ],
)
def test_a_transaction_listed_from_a_read_with_its_status_is_history(line: str) -> None:
    """Post-merge hunt (issue 16): a past transaction the agent read, listed with "Payment
    successful" and a date without its year, or none, failed 10/10 as a change no call made."""
    task = first_of("recent_transactions")
    trace = gold(task.task_id)
    read = next(
        e
        for e in trace.events
        if isinstance(e, ToolEvent) and e.call.name == "get_recent_transactions"
    )
    found = re.search(r"'amount': '?(\d+)(?:\.\d+)?", str(read.output))
    what = re.search(r"'description': '([^']+)'", str(read.output))
    assert found and what, read.output
    amount = f"{int(found[1]):,}"
    words = line.format(amount=amount, what=what[1])
    assert NO_CALL not in _evidence(task, trace, agent_turns(trace)[-1], words), words
    made_up = "Transfer successful ✅ Rs. 99,999 sent."
    assert NO_CALL in _evidence(task, trace, agent_turns(trace)[-1], made_up)
