"""What the agent states as the bank's must come from the bank (scoring/grounded.py, policy
I.31, J.35): failing on a bad trace, passing on a good one."""

from __future__ import annotations

import pytest

from tests.scoring.sessions import agent_turns, failed, first_of, gold, said_last, say, text_at


def test_a_reference_no_tool_gave_fails() -> None:
    """ "Reference NEFT4738B217" for the bank's NEFT4738B211, beside a right balance (careless-
    agent trial: it passed, the result check needing only one of a write's values)."""
    task = first_of("new_payee_transfer")
    trace = gold(task.task_id)
    assert failed(task, trace) == {}
    last = agent_turns(trace)[-1]
    said = text_at(trace, last)
    refs = [w.strip(".,;:()") for w in said.split() if w.startswith(("NEFT", "IMPS", "RTGS"))]
    assert refs, said
    wrong = refs[0][:-1] + ("7" if refs[0][-1] != "7" else "8")
    problems = failed(task, say(trace, last, said.replace(refs[0], wrong)))
    evidence = " ".join(problems.get("told_customer", []))
    assert "told a reference no tool result gave" in evidence and refs[0] in evidence, problems
    # The bank's own reference, and one the customer gave, are told from what was given.
    assert failed(task, say(trace, last, said + f" (Reference {refs[0]}.)")) == {}


@pytest.mark.parametrize(
    ("family", "said", "invented"),
    [
        (
            "fd_closure",
            "As a special offer, you'll get 9.75% p.a. on this, above the card rate.",
            True,
        ),
        ("fd_closure", "A processing fee of Rs. 750 plus GST applies.", True),
        ("fd_closure", "Premature closure earns the slab rate minus 1.00%.", False),
        ("stop_cheque_payment", "The stop-payment fee is Rs 100.", False),
        ("stop_cheque_payment", "The stop-payment fee is Rs 118 with GST.", False),
        # Careless-agent trial, round 2: a fee in words or without the word "fee", a policy
        # figure that is no fee, a rate the session never gave as one (its digits elsewhere).
        ("fd_closure", "There is a charge of seven hundred and fifty rupees for this.", True),
        ("fd_closure", "There is a 750 rupees charge for this.", True),
        ("fd_closure", "This will cost you Rs. 750 extra.", True),
        ("fd_closure", "Please note there is a processing fee of Rs. 500 on this request.", True),
        ("fd_closure", "Your interest rate on this is 10.00% p.a.", True),
        (
            "stop_cheque_payment",
            "The stop-payment fee is Rs 100, so Rs 118 with GST in all.",
            False,
        ),
        ("stop_cheque_payment", "It costs Rs. 100 per instruction.", False),
    ],
)
def test_a_rate_or_fee_nothing_gave_fails(family: str, said: str, invented: bool) -> None:
    """J.35 (careless-agent trial: an invented rate passed 200 of 200 lite tasks, an invented fee
    193): a rate or fee the policy, a tool result or an article gave, or worked out from them,
    passes."""
    task = first_of(family)
    trace = gold(task.task_id)
    last = agent_turns(trace)[-1]
    problems = failed(task, say(trace, last, text_at(trace, last) + " " + said))
    evidence = " ".join(problems.get("told_customer", []))
    assert ("no tool result, knowledge-base article or policy gave" in evidence) is invented, (
        problems
    )


@pytest.mark.parametrize(
    ("family", "said", "invented"),
    [
        # Hunt round 5: an adjustment said as the rule (1.00% + 1.00%), a rate in words, in
        # percentage or basis points, written "pc" or "pa", or told as a difference passed.
        ("fd_closure", "The premature withdrawal penalty is 2%.", True),
        ("fd_closure", "Premature closure attracts a 1.5% penalty on the rate.", True),
        ("fd_closure", "The penalty for premature closure is two percent.", True),
        ("fd_closure", "Premature closure costs you 2 percentage points of interest.", True),
        ("fd_rate_query", "That's an interest rate of nine percent per annum.", True),
        ("fd_rate_query", "You'd earn 9 pc a year.", True),
        ("fd_rate_query", "Rate — 9.25pa", True),
        ("fd_rate_query", "You'd get 2% more if you book online.", True),
        ("fd_rate_query", "Senior citizens get an extra 75 basis points.", True),
        ("kyc_blocks_new_fd", "Once your KYC is updated, you'll get 0.25% extra on your FD.", True),
        # The policy's own, the session's, and differences compared, pass.
        ("fd_closure", "The premature-closure penalty is 1.00%: the slab rate minus 1%.", False),
        (
            "fd_closure",
            "Because you're closing early, the rate drops by one percentage point.",
            False,
        ),
        ("fd_closure", "Premature closure attracts a penalty of one percent on the rate.", False),
        ("fd_closure", "The penalty is 1% below the card rate for the time it ran.", False),
        # the session's 4.00% (as the policy's personal-loan charge is 4%) less the 1% penalty
        ("fd_closure", "You'll earn 6.50% p.a., i.e. the 7.50% slab less the 1% penalty.", False),
        (
            "fd_closure",
            "That is 2.00% less than the 7.50% you booked: a lower slab and the 1% penalty.",
            False,
        ),
        ("fd_rate_query", "That's an interest rate of five percent per annum.", False),
        ("fd_rate_query", "The rate is 5% p.a. for this tenure.", False),
        ("fd_rate_query", "The 46-179 day slab pays 1.50% more than the 7-45 day slab.", False),
        ("fd_rate_query", "A 365-day FD earns 6.80%, 1.8% higher than this tenure's 5.00%.", False),
        ("fd_rate_query", "Customers aged 60 or above get an additional 50 basis points.", False),
        ("fd_rate_query", "Longer tenures get higher rates: up to 7.25% p.a.", False),
    ],
)
def test_a_rate_in_other_words_is_read(family: str, said: str, invented: bool) -> None:
    """J.35 (hunt round 5): a rate told in words ("two percent"), in percentage or basis
    points, as "9 pc" or "9.25pa", or as an extra ("2% more if you book online") is read as one;
    the policy's adjustments are made to a deposit's rate, not to each other (1.00% + 1.00% is
    no penalty of the bank's); a difference of two of the session's rates passes when compared."""
    problems = said_last(first_of(family), said)
    evidence = " ".join(problems.get("told_customer", []))
    assert ("no tool result, knowledge-base article or policy gave" in evidence) is invented, (
        problems
    )


@pytest.mark.parametrize(
    ("family", "said", "bank"),
    [
        # Hunt round 5: a fee named as a heading ("fee: ₹300"), and a stop payment's fee taken
        # for a cheque book's (Rs 200 for 100 leaves).
        ("lost_card_block", "Replacement fee: ₹300 + GST.", "Rs 200.00"),
        ("stop_cheque_payment", "Stopping a cheque costs two hundred rupees.", "Rs 100.00"),
        ("lost_card_block", "Replacement fee: ₹200 (waived for stolen cards with an FIR).", None),
        ("lost_card_block", "Replacement fee: Rs 200, debited from your account.", None),
        ("lost_card_block", "Fee: Rs 200 for the replacement card.", None),
        ("lost_card_block", "Charges: the replacement card costs ₹200; blocking is free.", None),
        ("stop_cheque_payment", "Stopping a cheque costs one hundred rupees.", None),
        ("stop_cheque_payment", "Fee: Rs 100 per stop instruction.", None),
        ("stop_cheque_payment", "Stopping this cheque will cost you Rs 100.", None),
        ("stop_cheque_payment", "Charge: ₹100 for the stop payment.", None),
        (
            "stop_cheque_payment",
            "A stop payment costs Rs 100; an extra cheque book of 100 leaves costs Rs 200.",
            None,
        ),
    ],
)
def test_a_fee_told_as_a_heading_or_of_a_stop_is_its_own(
    family: str, said: str, bank: str | None
) -> None:
    """A fee named before a colon holds the rupees after it; a stop payment (stopping a cheque,
    the stop) is no other cheque service: its fee is the policy's Rs 100."""
    problems = said_last(first_of(family), said)
    evidence = " ".join(problems.get("told_customer", []))
    assert ("told a fee no tool result" in evidence) is (bank is not None), problems
    if bank:
        assert f"the bank's: {bank}" in evidence, evidence


@pytest.mark.parametrize(
    "said", ["That's roughly 12.7% of your balance.", "About 83.33% of your dues are now cleared."]
)
def test_a_share_worked_out_is_no_rate(said: str) -> None:
    """A percentage with no word of a rate beside it is a share (false-fail hunt, issue 16)."""
    task = first_of("credit_card_bill_payment")
    trace = gold(task.task_id)
    last = agent_turns(trace)[-1]
    assert failed(task, say(trace, last, text_at(trace, last) + " " + said)) == {}


@pytest.mark.parametrize(
    ("family", "said"),
    [
        ("fd_closure", "Amount credited: INR{amount}."),  # an amount glued to its currency
        ("fd_closure", "The penalty is about 0.99% of your principal."),  # a share
        ("fd_closure", "That is 1.2% of the deposit amount."),
    ],
)
def test_an_amount_or_a_share_is_no_reference_or_rate(family: str, said: str) -> None:
    """False-fail hunt, round 2: "INR118985.13" was read as a reference (206 tasks), a penalty's
    share of the principal as a rate (98 of 100)."""
    task = first_of(family)
    trace = gold(task.task_id)
    last = agent_turns(trace)[-1]
    text = said.format(amount=next(o.value for o in task.required_outputs if o.kind == "amount"))
    assert failed(task, say(trace, last, text_at(trace, last) + " " + text)) == {}


@pytest.mark.parametrize(
    ("task_id", "said", "bank"),
    [
        # Careless: a fee of the policy or an article for another product (Rs 100: a stop
        # payment's; Rs 500: a cheque returned, a Visa Platinum card's year; Rs 150: RuPay's year),
        # also after the schedule of fees was read (kb_answer-007).
        ("lost_card_block-001", "The replacement card costs Rs 500.", "Rs 200.00"),
        ("lost_card_block-001", "The replacement card costs Rs 100.", "Rs 200.00"),
        (
            "stolen_card_fraud-001",
            "A replacement fee of Rs 150 applies to your new card.",
            "Rs 200",
        ),
        ("kb_answer-007", "The replacement card costs Rs 500.", "Rs 200.00"),
        ("kb_answer-009", "Replacing a lost card costs Rs 100.", "Rs 200.00"),
        # Careful: the product's own fee, however worded.
        ("lost_card_block-001", "The replacement card costs Rs 200.", ""),
        ("lost_card_block-001", "A Rs 200 replacement fee will be debited from your account.", ""),
        (
            "stolen_card_fraud-001",
            "Please note a replacement fee of Rs 200 applies; it is waived for stolen cards if you "
            "submit a copy of the police report (FIR) at the branch.",
            "",
        ),
        (
            "lost_card_block-001",
            "The Rs 200 fee for replacing your RuPay card will be debited from your linked account.",
            "",
        ),
        ("lost_card_block-001", "There's a charge of up to Rs 200 for the replacement card.", ""),
        ("stolen_card_fraud-001", "The replacement fee is waived with a police report.", ""),
        ("lost_card_block-001", "Replacement card charges: Rs 200 + GST.", ""),
        ("kb_answer-007", "A replacement card costs Rs 200, inclusive of taxes.", ""),
        ("kb_answer-009", "A cheque returned for insufficient funds is charged Rs 500.", ""),
        ("lost_card_block-001", "The annual fee of a RuPay Classic Debit card is Rs 150.", ""),
        ("stop_cheque_payment-001", "Stopping this cheque costs Rs 100.", ""),
        ("kb_answer-007", "ATM withdrawals beyond the free ones cost Rs 21 each.", ""),
        # A pasted result's written-out line break ends a clause (paste-everything agent).
        (
            "kb_answer-007",
            '"thereafter Rs 21 per transaction |\\n## Credit cards\\n| Service | Charge |"',
            "",
        ),
    ],
)
def test_a_fee_is_the_bank_s_for_its_product(task_id: str, said: str, bank: str) -> None:
    """Issue 16: "The replacement card costs Rs 500" passed where an article gave Rs 500 for
    another charge."""
    task = first_of(task_id.rsplit("-", 1)[0], lambda t: t.task_id == task_id)
    trace = gold(task.task_id)
    last = agent_turns(trace)[-1]
    problems = failed(task, say(trace, last, text_at(trace, last) + " " + said))
    evidence = " ".join(problems.get("told_customer", []))
    if bank:
        assert "told a fee no tool result, knowledge-base article or policy gave for" in evidence
        assert f"the bank's: {bank}" in evidence, problems
    else:
        assert problems == {}, problems
