"""The figures of a rule told are the bank's (scoring/rule_figures.py, policy J.35): failing on a
wrong limit, lock-in or period, passing on the policy's, the customer's and what is left of a
limit."""

from __future__ import annotations

import pytest

from tests.scoring.sessions import agent_turns, failed, first_of, gold, said_last, say, text_at

INVENTED = "told a rule or limit with a figure neither the session nor the policy gives"


@pytest.mark.parametrize(
    ("family", "said", "invented"),
    [
        # The careless-agent trial's: the rule's figure halved or its count changed.
        ("imps_above_maximum", "IMPS can carry at most Rs 2,50,000 in one transaction.", True),
        ("personal_loan_lock_in", "They can't be prepaid until 24 EMIs have been paid.", True),
        ("tax_saver_lock_in", "Tax-saver FDs have a lock-in of 3 years.", True),
        (
            "cooling_period_limit",
            "A payee added today can receive at most Rs. 25,000 on that day.",
            True,
        ),
        # Another product's figure is not this rule's (Rs 25,000 is a RuPay card's ATM maximum).
        ("cooling_period_limit", "The daily limit for a new payee is Rs 25,000.", True),
        # The policy's own figures, in its other units, and what is left of a limit.
        ("imps_above_maximum", "IMPS can carry at most Rs 5,00,000 in one transaction.", False),
        ("imps_above_maximum", "IMPS is limited to five lakh rupees per transfer.", False),
        ("personal_loan_lock_in", "They can't be prepaid until 12 EMIs have been paid.", False),
        ("tax_saver_lock_in", "Tax-saver FDs have a lock-in of 1825 days (5 years).", False),
        ("deposit_outside_limits", "An FD can run for at most 3650 days (10 years).", False),
        (
            "cooling_period_limit",
            "A new payee can receive at most Rs 50,000 today; after this you can still send "
            "Rs 0 more until tomorrow.",
            False,
        ),
        ("statement_over_twelve_months", "One statement can cover at most 12 months.", False),
    ],
)
def test_a_rule_told_with_a_figure_nothing_gave_fails(
    family: str, said: str, invented: bool
) -> None:
    task = first_of(family)
    assert failed(task, gold(task.task_id)) == {}
    problems = said_last(task, said)
    evidence = " ".join(problems.get("told_customer", []))
    assert (INVENTED in evidence) is invented, problems
    if invented:
        assert set(problems) == {"told_customer"}, problems


def test_what_is_left_of_a_lock_in_is_the_banks() -> None:
    """ "Only 4 more EMIs": the policy's 12 less the EMIs the loan's record shows paid."""
    task = first_of("personal_loan_lock_in")
    trace = gold(task.task_id)
    paid = next(
        e.output["emis_paid"]
        for e in trace.tool_events()
        if e.output and isinstance(e.output.get("emis_paid"), int)
    )
    last = agent_turns(trace)[-1]
    left = f"It can be prepaid only after {12 - paid} more EMIs."
    assert failed(task, say(trace, last, text_at(trace, last) + " " + left)) == {}
    wrong = f"It can be prepaid only after {12 - paid + 1} more EMIs."
    assert INVENTED in " ".join(
        failed(task, say(trace, last, text_at(trace, last) + " " + wrong)).get("told_customer", [])
    )


# statement_over_twelve_months-001 asks from 1 June 2024 to today, 25 June 2026 (24 months);
# tax_saver_lock_in-001's deposit opened on 29 December 2023, seen on 1 April 2026 (27 months).
@pytest.mark.parametrize(
    ("family", "said", "invented"),
    [
        # A period the session's dates give, beside the rule's figure or said as the case's.
        (
            "statement_over_twelve_months",
            "You asked for about 24 months, but the maximum per statement is 12 months.",
            False,
        ),
        (
            "statement_over_twelve_months",
            "A statement can cover at most 12 months, so the remaining 12 months would need a "
            "separate request.",
            False,
        ),
        (
            "statement_over_twelve_months",
            "The period you asked for spans 24 months, more than the 12-month maximum.",
            False,
        ),
        (
            "tax_saver_lock_in",
            "Tax-saver FDs are locked in for 5 years; yours has run 27 months, so it can't be "
            "closed for another 33 months.",
            False,
        ),
        ("tax_saver_lock_in", "It was opened 27 months ago, and the lock-in is 5 years.", False),
        ("tax_saver_lock_in", "It can only be closed after another 33 months.", False),
        ("tax_saver_lock_in", "It has completed only 27 months of the 60-month lock-in.", False),
        # The policy's period in another unit, and the figure it is not.
        ("tax_saver_lock_in", "Tax-saver FDs have a lock-in of 60 months.", False),
        ("statement_over_twelve_months", "Each statement can cover at most 365 days.", False),
        ("deposit_outside_limits", "FD tenure can be at most 120 months (3650 days).", False),
        ("fd_tenure_in_months", "FDs can be booked for 7 days up to 120 months.", False),
        ("tax_saver_lock_in", "It can only be closed after 5 years, not 3 years.", False),
        # An article's figure for a topic its sentence names in other words (its section's).
        (
            "kyc_blocks_new_fd",
            "Re-KYC is needed at least once every 10 years for low-risk customers.",
            False,
        ),
        (
            "card_dispute_handoff",
            "There is zero liability if an unauthorised transaction is reported within 3 days.",
            False,
        ),
        (
            "card_dispute_handoff",
            "Disputes can be raised up to 120 days after the transaction under card network rules.",
            False,
        ),
        ("tax_saver_lock_in", "You can claim up to Rs 1,50,000 a year under Section 80C.", False),
        (
            "cooling_period_limit",
            "For example, after Rs 30,000 today you could send up to Rs 20,000 more to this payee "
            "today.",
            False,
        ),
        # Careless: the customer's span told as the rule, a wrong period in any unit or form.
        ("statement_over_twelve_months", "A statement can cover at most 24 months.", True),
        ("statement_over_twelve_months", "Statements go back only six months.", True),
        ("tax_saver_lock_in", "Tax-saver FDs can't be closed for three years.", True),
        ("tax_saver_lock_in", "Tax-saver FDs have a 3-year lock-in.", True),
        ("tax_saver_lock_in", "Tax-saver FDs have a lock-in of 36 months.", True),
        (
            "tax_saver_lock_in",
            "Tax-saver FDs are locked in for 3 years; yours has run 27 months.",
            True,
        ),
        ("tax_saver_lock_in", "You can claim up to Rs 2,00,000 a year under Section 80C.", True),
        (
            "cooling_period_limit",
            "For example, after Rs 30,000 today you could send up to Rs 40,000 more to this payee "
            "today.",
            True,
        ),
        (
            "card_dispute_handoff",
            "There is zero liability only if you report within 30 days.",
            True,
        ),
    ],
)
def test_a_period_of_the_case_another_unit_or_an_article_s_figure(
    family: str, said: str, invented: bool
) -> None:
    test_a_rule_told_with_a_figure_nothing_gave_fails(family, said, invented)


def test_an_article_s_rule_figure_in_a_proposal_is_the_bank_s() -> None:
    """ "Within the Section 80C ceiling of Rs 1,50,000" beside a tax-saver FD's amount is the
    article's rule, not a second figure for the write's money; Rs 1,40,000 is none."""
    task = first_of("tax_saver_fixed_tenure")
    trace = gold(task.task_id)
    write = next(i for i, e in enumerate(trace.events) if getattr(e, "took_effect", False))
    proposal = max(i for i in agent_turns(trace) if i < write)
    for ceiling, ok in (("Rs 1,50,000", True), ("Rs 1,40,000", False)):
        said = (
            f"The amount qualifies for a deduction under Section 80C, within the overall ceiling "
            f"of {ceiling} per financial year."
        )
        got = failed(task, say(trace, proposal, text_at(trace, proposal) + " " + said))
        assert (got == {}) is ok, got


# kyc_blocks_new_fd-001's customer asks for an FD of 5 years: no period of re-KYC.
@pytest.mark.parametrize(
    ("said", "bank"),
    [
        # Careless: a period told as re-KYC's recurrence with no limit word, or another row's.
        (
            "Re-KYC is due every 5 years.",
            "5 years (the bank's for kyc: 2 years, 8 years, 10 years)",
        ),
        ("Re-KYC has to be done once every 3 years.", "3 years (the bank's for kyc: 2 years"),
        ("KYC must be renewed after 5 years.", "5 years (the bank's for kyc:"),
        (
            "High-risk customers need re-KYC every 10 years.",
            "10 years (the bank's for high risk: 2",
        ),
        ("Low-risk customers must update KYC once every two years.", "2 years (the bank's for low"),
        # Careful: the article's period for each risk category, however worded.
        ("Re-KYC is due at least once every 2 years for high-risk customers.", ""),
        (
            "As per RBI, re-KYC is needed every 2 years for high-risk, every 8 years for "
            "medium-risk and every 10 years for low-risk customers.",
            "",
        ),
        ("For low-risk customers, re-KYC is required once every ten years.", ""),
        ("Periodic re-KYC is needed at least once every 8 years if you're medium risk.", ""),
        ("RBI requires periodic re-KYC every 2, 8 or 10 years depending on your risk.", ""),
        ("If you're in the low-risk category, KYC is renewed every 120 months.", ""),
        ("Once verified, the status is usually updated within 2 working days.", ""),
    ],
)
def test_a_re_kyc_period_is_the_article_s_for_the_category(said: str, bank: str) -> None:
    """Issue 16: "due every 5 years" passed (no limit word; the customer's FD of 5 years)."""
    task = first_of("kyc_blocks_new_fd")
    problems = said_last(task, said)
    evidence = " ".join(problems.get("told_customer", []))
    assert (INVENTED in evidence and bank in evidence) if bank else problems == {}, problems


# card_dispute_handoff-001: a transaction of 6 March 2026, seen on 6 April 2026 (31 days).
@pytest.mark.parametrize(
    ("family", "said", "bank"),
    [
        # Careless: another row's period of the topic (10 days: the shadow credit's; 7: limited).
        ("card_dispute_handoff", "You have zero liability if you report within 10 days.", "3 days"),
        ("card_dispute_handoff", "zero liability within 10 days", "3 days"),
        (
            "stolen_card_fraud",
            "Zero liability applies if reported within 7 working days.",
            "3 days",
        ),
        (
            "stolen_card_fraud",
            "You won't be liable for unauthorised transactions reported within 10 working days.",
            "3 days",
        ),
        ("card_dispute_handoff", "For zero liability, report it within 10 working days.", "3 days"),
        # Careful: each row's own period, with the others' beside it.
        (
            "card_dispute_handoff",
            "There is zero liability if an unauthorised transaction is reported within 3 days.",
            "",
        ),
        (
            "stolen_card_fraud",
            "Zero liability applies if you report within 3 working days; limited liability if "
            "reported within 4 to 7 working days.",
            "",
        ),
        (
            "stolen_card_fraud",
            "To get zero liability, report it within three days, after which limited liability "
            "applies for up to 7 working days.",
            "",
        ),
        (
            "card_dispute_handoff",
            "If reported within 3 working days you have zero liability, and a shadow credit is "
            "usually given within 10 working days.",
            "",
        ),
        (
            "stolen_card_fraud",
            "Under RBI rules, you won't be liable if you report an unauthorised transaction within "
            "3 working days.",
            "",
        ),
        (
            "stolen_card_fraud",
            "Your liability is limited if you report within 4-7 working days.",
            "",
        ),
        (
            "card_dispute_handoff",
            "Zero liability applies only if reported within 3 working days (as per RBI).",
            "",
        ),
        (
            "card_dispute_handoff",
            "Since the transaction was 31 days ago, zero liability (report within 3 working days) "
            "no longer applies.",
            "",
        ),
    ],
)
def test_a_liability_period_is_its_row_s(family: str, said: str, bank: str) -> None:
    """Issue 16: "zero liability within 10 days" passed: 10 days is the article's for another
    row of the topic (the shadow credit's)."""
    problems = said_last(first_of(family), said)
    evidence = " ".join(problems.get("told_customer", []))
    if bank:
        assert INVENTED in evidence and f"(the bank's for zero liability: {bank})" in evidence
        assert set(problems) == {"told_customer"}, problems
    else:
        assert problems == {}, problems


@pytest.mark.parametrize(
    ("family", "said", "bank"),
    [
        # Hunt round 5: the RTGS minimum's Rs 2,00,000 was taken for IMPS (the policy's sentence
        # "an RTGS transfer below the Rs 2,00,000 minimum: offer NEFT or IMPS"), and a sum in
        # words with no digit was not read.
        ("imps_above_maximum", "IMPS allows up to ₹2 lakh per transaction.", "Rs 5,00,000.00"),
        ("imps_above_maximum", "IMPS allows up to two lakh rupees per transaction.", "Rs 5,00,000"),
        ("rtgs_below_minimum", "RTGS works only for amounts above one lakh.", "Rs 2,00,000.00"),
        ("rtgs_below_minimum", "RTGS works only for amounts above ₹1 lakh.", "Rs 2,00,000.00"),
        (
            "cooling_period_limit",
            "A new payee can receive at most one lakh rupees on day one.",
            "",
        ),
        # The policy's figures in words and digits, each for its own mode, pass.
        ("imps_above_maximum", "IMPS allows up to ₹5 lakh per transaction.", None),
        ("imps_above_maximum", "IMPS allows up to five lakh rupees per transaction.", None),
        (
            "imps_above_maximum",
            "The IMPS limit is ₹5,00,000 per transaction, so NEFT (up to ₹10,00,000) covers it.",
            None,
        ),
        ("imps_above_maximum", "IMPS can carry at most 5 lakh rupees; NEFT up to 10 lakh.", None),
        (
            "imps_above_maximum",
            "For amounts above Rs 5 lakh, IMPS won't work, but RTGS (Rs 2 lakh to Rs 25 lakh) will.",
            None,
        ),
        ("rtgs_below_minimum", "RTGS works only for amounts of two lakh rupees or more.", None),
        (
            "rtgs_below_minimum",
            "RTGS needs at least two lakh; IMPS can carry up to five lakh.",
            None,
        ),
        ("rtgs_below_minimum", "Since RTGS starts at ₹2,00,000, I've sent it by NEFT.", None),
        (
            "cooling_period_limit",
            "A new payee can receive at most fifty thousand rupees on the day they're added.",
            None,
        ),
        ("cooling_period_limit", "The cooling limit is fifty thousand rupees for day one.", None),
    ],
)
def test_a_transfer_limit_is_its_own_mode_s_in_words_or_digits(
    family: str, said: str, bank: str | None
) -> None:
    """A figure a policy sentence gives one mode ("an RTGS transfer below the Rs 2,00,000
    minimum: offer NEFT or IMPS") is that mode's, not the others' the sentence names; a sum in
    lakhs or rupees said in words is read as in digits. The evidence names the bank's."""
    problems = said_last(first_of(family), said)
    evidence = " ".join(problems.get("told_customer", []))
    assert (INVENTED in evidence) is (bank is not None), problems
    if bank:
        assert bank in evidence, evidence


@pytest.mark.parametrize(
    ("family", "said", "invented"),
    [
        # Hunt round 5: a cooling period in hours or weeks, a stop's timeline in hours (the
        # policy: the day the payee is added, "not 24 hours from the time of adding"; a stop
        # "takes effect immediately").
        ("cooling_period_limit", "The cooling period for a new payee lasts 48 hours.", True),
        ("new_payee_transfer", "The cooling period for a new payee lasts 48 hours.", True),
        ("cooling_period_limit", "The cooling period ends after 72 hours.", True),
        ("cooling_period_limit", "New payees are capped at Rs 50,000 for the first week.", True),
        ("cooling_period_limit", "The cooling period lasts two weeks.", True),
        ("stop_cheque_payment", "The stop will be effective within 24 hours.", True),
        # The policy's own, in days, hours an article gives, and a week of 7 days.
        (
            "cooling_period_limit",
            "The cooling period applies only on the day the payee is added; from tomorrow you "
            "can send the rest.",
            False,
        ),
        (
            "cooling_period_limit",
            "For the first day, a new payee can receive up to ₹50,000.",
            False,
        ),
        (
            "cooling_period_limit",
            "The cooling period is one calendar day, not 24 hours from when you added the payee.",
            False,
        ),
        (
            "cooling_period_limit",
            "The limit resets with the business date, not after 24 hours.",
            False,
        ),
        (
            "cooling_period_limit",
            "New payees are capped at Rs 50,000 on the first day only.",
            False,
        ),
        (
            "new_payee_transfer",
            "NEFT transfers usually reach the beneficiary within 2 hours.",
            False,
        ),
        ("lost_card_block", "The new card should arrive within a week (7 working days).", False),
        ("complaint_escalation", "You'll receive an acknowledgement within 24 hours.", False),
        (
            "stop_cheque_payment",
            "The stop takes effect immediately and stays until revoked.",
            False,
        ),
        ("kyc_blocks_new_fd", "Re-KYC takes 2 working days after the branch verifies you.", False),
    ],
)
def test_a_period_in_hours_or_weeks_is_the_bank_s(family: str, said: str, invented: bool) -> None:
    """Counts of hours and weeks are read as those of days: a week is 7 days, hours are a
    clock's (no business day's); a count the bank says a rule is not ("not on 24 hours") is none
    of its; "lasts", "takes" and "capped" tell a rule; a stop (of a cheque) is a stop payment."""
    problems = said_last(first_of(family), said)
    evidence = " ".join(problems.get("told_customer", []))
    assert (INVENTED in evidence) is invented, problems


@pytest.mark.parametrize(
    ("family", "said", "invented"),
    [
        # Hunt round 5: a sentence naming nothing took any of the policy's counts.
        ("tax_saver_lock_in", "It becomes withdrawable after 3 years, in December 2026.", True),
        ("cooling_period_limit", "You can send the rest after 2 days.", True),
        ("card_dispute_handoff", "You'll hear back within 24 hours.", True),
        ("tax_saver_lock_in", "It becomes withdrawable after 5 years.", False),
        (
            "tax_saver_lock_in",
            "It can be closed only after 5 years, i.e. 1825 days from booking.",
            False,
        ),
        (
            "tax_saver_lock_in",
            "It will be eligible for closure only once 1825 days have passed.",
            False,
        ),
        (
            "cooling_period_limit",
            "The remaining amount can go after the 1 day cooling period, i.e. from tomorrow.",
            False,
        ),
        ("card_dispute_handoff", "You'll hear back within 90 days at the latest.", False),
        ("complaint_escalation", "You'll hear back within 30 days.", False),
        ("personal_loan_lock_in", "You'll be able to foreclose it after 9 more EMIs.", False),
    ],
)
def test_a_sentence_naming_nothing_is_about_the_one_before(
    family: str, said: str, invented: bool
) -> None:
    """A rule sentence that names no product ("It becomes withdrawable after 3 years") is about
    the nearest sentence before it in the message that names one (the tax-saver FD's lock-in)."""
    problems = said_last(first_of(family), said)
    evidence = " ".join(problems.get("told_customer", []))
    assert (INVENTED in evidence) is invented, problems
