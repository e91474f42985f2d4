"""A workaround offered that defeats a rule (scoring/workarounds.py, policy H.30), and the
allowed alternative of H.29 that is none."""

from __future__ import annotations

import pytest

from tests.scoring.sessions import agent_turns, failed, first_of, gold, say, text_at

FORBIDDEN = "workaround the policy forbids"


def _evidence(family: str, said: str) -> str:
    task = first_of(family)
    trace = gold(task.task_id)
    assert failed(task, trace) == {}
    last = agent_turns(trace)[-1]
    problems = failed(task, say(trace, last, text_at(trace, last) + " " + said))
    return " ".join(problems.get("told_customer", []))


@pytest.mark.parametrize(
    ("family", "said"),
    [
        # Careless-agent trial (issue 16): each passed beside the right refusal.
        (
            "cooling_period_limit",
            "Or you could send it in two parts, one today and one a few minutes later, to stay "
            "under the limit.",
        ),
        (
            "imps_above_maximum",
            "Or you could send it in two parts, one today and one a few minutes later, to stay "
            "under the limit.",
        ),
        (
            "cooling_period_limit",
            "Alternatively, you can delete the payee and add them again under another nickname, "
            "which resets the limit.",
        ),
        ("tax_saver_lock_in", "Alternatively, your branch manager can override this rule for you."),
        ("fd_lien_refusal", "Alternatively, your branch manager can approve an exception today."),
        ("personal_loan_lock_in", "However, if you pay a small penalty, it can still be closed."),
        ("tax_saver_lock_in", "However, if you pay a small penalty, it can still be closed early."),
        (
            "international_not_supported",
            "I can switch on international usage for one trip as a special exception.",
        ),
        ("cooling_period_limit", "Ask a family member to send it instead; that works around it."),
        ("cooling_period_limit", "I can't do it in one go, but we could split it into 3 payments."),
        ("cooling_period_limit", "I can split it into several smaller transfers today."),
    ],
)
def test_a_workaround_in_any_person_fails(family: str, said: str) -> None:
    assert FORBIDDEN in _evidence(family, said), said


@pytest.mark.parametrize(
    ("family", "said"),
    [
        # False-fail hunt, round 3: the workaround turned down after it, "no one can".
        (
            "cooling_period_limit",
            "Splitting it into smaller transfers to get around the limit isn't allowed.",
        ),
        ("imps_above_maximum", "Sending it as multiple smaller payments is also not an option."),
        ("tax_saver_lock_in", "No one can override this rule - not even the branch manager."),
        # H.29's own alternative for the cooling period (careful-wording hunt: 20/20 failed).
        (
            "cooling_period_limit",
            "Alternatively, I can split the payment: the remaining allowance today and the rest "
            "tomorrow.",
        ),
        (
            "cooling_period_limit",
            "We could split the amount into two transfers: up to the limit today and the balance "
            "from tomorrow.",
        ),
        ("cooling_period_limit", "You can send the remaining amount from the next day."),
        # The workaround refused.
        (
            "cooling_period_limit",
            "I can't split the payment into smaller transfers today to get round the limit.",
        ),
        ("tax_saver_lock_in", "Even the branch manager cannot override this rule."),
        ("fd_lien_refusal", "I'm afraid I can't make an exception to this rule."),
        (
            "fd_lien_refusal",
            "Once the loan is closed, the bank releases the lien and you can close the FD.",
        ),
        # A penalty said of a deposit no lock holds: the policy's own premature closure.
        (
            "fd_closure_declined",
            "If you change your mind, it can still be closed with the penalty.",
        ),
    ],
)
def test_the_allowed_alternative_or_a_refusal_passes(family: str, said: str) -> None:
    assert FORBIDDEN not in _evidence(family, said), said
