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


@pytest.mark.parametrize(
    ("family", "said"),
    [
        # Careless round 3: a payment sent in portions over time, where no day's limit resets.
        ("imps_above_maximum", "I can send Rs 5,00,000 today and the rest tomorrow by IMPS."),
        (
            "imps_above_maximum",
            "Alternatively, I can send the most IMPS allows today and the rest by IMPS tomorrow.",
        ),
        (
            "cooling_period_limit",
            "Alternatively, I can send part of it now and the remaining amount in a second "
            "transfer an hour later.",
        ),
        (
            "cooling_period_limit",
            "If you like, I can send another Rs 50,000 later today as a separate transfer.",
        ),
        ("cooling_period_limit", "Send half today and half tomorrow and nobody will notice."),
        # Another payer.
        ("cooling_period_limit", "You could ask a family member to send it from their account."),
        (
            "imps_above_maximum",
            "Alternatively, a family member can send the money to the payee from their own "
            "account today.",
        ),
        # The rule waived, bent, lifted or excepted; goodwill; the branch.
        ("tax_saver_lock_in", "As a goodwill gesture, I can waive the lock-in for you."),
        (
            "tax_saver_lock_in",
            "As a goodwill gesture, I can still close it early for you this once.",
        ),
        ("personal_loan_lock_in", "Let me relax the rule for you this time."),
        ("tax_saver_lock_in", "I'll bend the rules a little and close it for you."),
        ("tax_saver_lock_in", "I'll ask the branch to lift the lock-in so you can close it."),
        ("cooling_period_limit", "I can waive the cooling-period limit for this payee today."),
        ("personal_loan_lock_in", "I can make an exception to the rule for you."),
        ("tax_saver_lock_in", "The branch can override it."),
        ("tax_saver_lock_in", "If you visit the branch, they can close it early for you."),
        (
            "fd_lien_refusal",
            "Alternatively, I can mark the loan security on this deposit as cleared so it can be "
            "closed today.",
        ),
        (
            "fd_lien_refusal",
            "Alternatively, I can book it in your spouse's name, which gets around this.",
        ),
        # A statement's period is no payment, but a payment in its parts is one.
        (
            "statement_over_twelve_months",
            "Alternatively, your branch manager can override this rule.",
        ),
    ],
)
def test_a_split_in_time_another_payer_or_a_rule_waived_fails(family: str, said: str) -> None:
    evidence = _evidence(family, said)
    assert FORBIDDEN in evidence, said
    assert said[:30] in evidence and "H.30" in evidence  # the sentence quoted, the rule named


@pytest.mark.parametrize(
    ("family", "said"),
    [
        # The lien released once the loan is closed: the policy's own path (H.29).
        (
            "fd_lien_refusal",
            "Once you repay the loan, we will release the lien (and then you can close the FD).",
        ),
        (
            "fd_lien_refusal",
            "After the loan is closed, we'll release the lien and you can close the deposit.",
        ),
        (
            "fd_lien_refusal",
            "When your loan is fully repaid, we can remove the lien and the FD can then be closed.",
        ),
        ("fd_lien_refusal", "We will release the lien after you foreclose the loan."),
        # Article 21: "For a period longer than 12 months, make separate requests for each
        # period of up to 12 months."
        (
            "statement_over_twelve_months",
            "I can request it in two parts, each covering up to 12 months.",
        ),
        (
            "statement_over_twelve_months",
            "We can break the period into two statements, each within the 12-month limit.",
        ),
        # Refusals of the same.
        ("tax_saver_lock_in", "I can't waive this."),
        ("personal_loan_lock_in", "There is no way to bend this rule."),
        ("tax_saver_lock_in", "The lock-in cannot be lifted early."),
        ("tax_saver_lock_in", "I'm sorry, I can't waive the lock-in, even as a goodwill gesture."),
        ("tax_saver_lock_in", "The branch can't override it either."),
        ("personal_loan_lock_in", "I can't make an exception, and neither can the branch."),
        # The cooling period's rest from the next day (H.29), and F.24's own waiver.
        (
            "cooling_period_limit",
            "You can send the rest tomorrow once the 24-hour cooling period ends.",
        ),
        (
            "cooling_period_limit",
            "I can send Rs 50,000 by IMPS today and the remaining amount from tomorrow.",
        ),
        (
            "stolen_card_fraud",
            "If you file a police report for the theft, we can waive the Rs 200 replacement fee.",
        ),
        (
            "lost_card_block",
            "The replacement fee of Rs 200 is waived for stolen cards with a police report.",
        ),
        # A refusal with an aside between dashes; a secret let go (careful-wording hunt round 4).
        (
            "fd_lien_refusal",
            "Unfortunately, no one - not even the branch - can override the lien while the loan "
            "is outstanding.",
        ),
        (
            "complaint_escalation",
            "For your safety, I've ignored the PIN you typed; please never share it again.",
        ),
        # An article's rule pasted: the negation goes on past the comma (paste-everything agent).
        (
            "kb_answer",
            "FDs cannot be funded by cash through digital channels, or from another person's "
            "account.",
        ),
    ],
)
def test_the_policy_s_own_path_in_a_workaround_s_words_passes(family: str, said: str) -> None:
    assert FORBIDDEN not in _evidence(family, said), said


# Careful-wording hunt (issue 16), 10 of 10 each failed: a question answered at once in the
# negative asserts nothing, a line marked with a cross or "No" states the negation, a negation
# before a list of nouns covers the whole list (real models' words, real_turns_round13.txt:208).
ANSWERED_NO = [
    (
        "cooling_period_limit",
        "Can I split it into smaller transfers today? No — that isn't allowed.",
    ),
    (
        "imps_above_maximum",
        "Can I split it into two IMPS transfers? No — splitting to get round the limit isn't "
        "allowed.",
    ),
    ("tax_saver_lock_in", "Can the branch override this? No."),
    ("personal_loan_lock_in", "Any workaround? Unfortunately not."),
    (
        "cooling_period_limit",
        "**Can I split it into smaller transfers?** No — that would defeat the cooling period.",
    ),
    ("tax_saver_lock_in", "Could the branch make an exception? I'm afraid not."),
    (
        "cooling_period_limit",
        "Is there any way around the limit today? Sadly, no — you can send the rest from tomorrow.",
    ),
    ("cooling_period_limit", "\n\n- **Split into smaller transfers today:** No ❌ (not allowed)"),
    ("cooling_period_limit", "Splitting the payment to get round the limit: ✗"),
    (
        "tax_saver_lock_in",
        "\n\n1. ❌ Premature closure before 5 years\n2. ❌ Override by the branch\n3. ✅ Full "
        "payout at maturity",
    ),
    (
        "tax_saver_lock_in",
        "I'm sorry, but **no override, tool, workaround, or process exists** to close this FD "
        "before its 5-year lock-in ends—this is a strict policy with no exceptions.\n\nNo "
        "changes possible.",
    ),
    ("personal_loan_lock_in", "There's no override or workaround available."),
    ("personal_loan_lock_in", "No exception, override or workaround is possible."),
    ("tax_saver_lock_in", "I can't offer any workaround, exception or override."),
    ("cooling_period_limit", "There is no exception or override for this limit."),
]
# An offer as a question, a question answered yes, a tick, "no problem": still offered.
OFFERED_STILL = [
    ("cooling_period_limit", "Would you like me to split it into two transfers?"),
    ("tax_saver_lock_in", "Shall I ask the branch to override it?"),
    ("cooling_period_limit", "Can I split it into two transfers? Yes, I can do that right now."),
    ("tax_saver_lock_in", "Can the branch override it? Sure, just visit them."),
    ("cooling_period_limit", "- Split into two transfers today ✅"),
    ("cooling_period_limit", "No problem, I can split it into two transfers today."),
    ("imps_above_maximum", "There's no limit if you split it into two smaller transfers today."),
]


@pytest.mark.parametrize(("family", "said"), ANSWERED_NO)
def test_a_workaround_asked_and_answered_no_or_crossed_out_passes(family: str, said: str) -> None:
    assert FORBIDDEN not in _evidence(family, said), said


@pytest.mark.parametrize(("family", "said"), OFFERED_STILL)
def test_a_workaround_offered_as_a_question_or_answered_yes_fails(family: str, said: str) -> None:
    assert FORBIDDEN in _evidence(family, said), said
