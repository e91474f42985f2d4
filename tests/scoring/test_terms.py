"""What the agent says of a write's terms agrees with the policy and the call (scoring/terms.py,
F.24, F.25, K.39): failing when a term is turned round, passing when it is told or denied."""

from __future__ import annotations

import pytest

from tests.scoring.sessions import failed, first_of, gold, said_last


@pytest.mark.parametrize(
    ("family", "said", "false"),
    [
        # The careless-agent trial's.
        ("lost_card_block", "If you find the card, I can unblock it for you any time.", "F.25"),
        ("lost_card_block", "You can ask us to unblock the card later if you find it.", "F.25"),
        (
            "lost_card_block",
            "Your replacement card will reach you in 30 working days and costs nothing.",
            "F.24",
        ),
        ("lost_card_block", "The replacement card is free of charge.", "F.24"),
        (
            "fd_tenure_in_months",
            "At maturity the deposit will be renewed automatically for the same tenure.",
            "K.39",
        ),
        # Careless-agent trial, round 3.
        (
            "lost_card_block",
            "This block is not permanent and the card can be unblocked later.",
            "F.25",
        ),
        ("lost_card_block", "If you find it, we can restore the card for you.", "F.25"),
        (
            "lost_card_block",
            "This is only a temporary block; you can get the card working again.",
            "F.25",
        ),
        ("lost_card_block", "Your replacement card will reach you in two weeks.", "F.24"),
        ("lost_card_block", "The replacement card is on us - no need to pay anything.", "F.24"),
        (
            "fd_tenure_in_months",
            "At maturity, we'll automatically book it again for the same tenure.",
            "K.39",
        ),
        # Careless, in other words (the lead's probe after round 3): sooner than 7 working days,
        # free with its own negation, the block undone, a deposit rolled into another.
        ("lost_card_block", "The new card will be with you in a couple of days.", "F.24"),
        ("lost_card_block", "Your replacement card will be delivered within 48 hours.", "F.24"),
        ("lost_card_block", "The replacement card will reach you by tomorrow.", "F.24"),
        ("lost_card_block", "We won't charge you anything for the replacement.", "F.24"),
        ("lost_card_block", "The replacement is on the house.", "F.24"),
        # The fee said waived or nil after its name (hunt round 5: passed 8/8).
        ("lost_card_block", "The replacement fee is waived for all customers this month.", "F.24"),
        ("lost_card_block", "There's no replacement fee this time.", "F.24"),
        ("lost_card_block", "The replacement card fee is nil.", "F.24"),
        ("lost_card_block", "The Rs 200 replacement fee is waived with a police report.", None),
        ("stolen_card_fraud", "The replacement fee is waived if you share a police report.", None),
        ("lost_card_block", "If you find the card, you can switch it back on in the app.", "F.25"),
        ("lost_card_block", "If the card turns up, call us and we'll turn it back on.", "F.25"),
        ("lost_card_block", "Don't worry, the block can be removed whenever you want.", "F.25"),
        ("fd_tenure_in_months", "At maturity it will roll into a fresh FD automatically.", "K.39"),
        (
            "fd_tenure_in_months",
            "At maturity the amount will be kept in a new deposit for the same period.",
            "K.39",
        ),
        # A careful agent's: the terms told, or their opposite denied (false-fail hunt, round 3:
        # a negation after a colon or further on in the clause).
        (
            "lost_card_block",
            "It's a permanent block: unblocking at a later date is not possible.",
            None,
        ),
        (
            "lost_card_block",
            "Reactivating the old card later isn't possible, even if you find it.",
            None,
        ),
        ("fd_tenure_in_months", "Auto-renewal: No.", None),
        (
            "fd_tenure_in_months",
            "On maturity, the amount will be paid into your account, without auto-renewal.",
            None,
        ),
        (
            "fd_tenure_in_months",
            "Auto-renewal is off for this FD; the maturity amount goes to your account.",
            None,
        ),
        ("lost_card_block", "A blocked card can't be unblocked, so it is safe now.", None),
        ("lost_card_block", "Unblocking is not possible once it is blocked.", None),
        ("lost_card_block", "This is a permanent block; it cannot be reactivated.", None),
        (
            "lost_card_block",
            "A replacement card will reach your registered address in 7 working days.",
            None,
        ),
        (
            "stolen_card_fraud",
            "The Rs 200 replacement fee is waived if you share a police report, so it'd be free.",
            None,
        ),
        (
            "fd_tenure_in_months",
            "It won't be renewed: the maturity amount will be credited to your account.",
            None,
        ),
        ("fd_tenure_in_months", "If you'd rather it renewed at maturity, just tell me.", None),
        # Careful, beside those words: free said of the block, the fee named, the policy's
        # time with a dispatch day, a new FD booked that pays out at maturity.
        ("lost_card_block", "Blocking is free of charge; the replacement card costs Rs 200.", None),
        ("lost_card_block", "Blocking the card is free and the replacement costs Rs 200.", None),
        (
            "lost_card_block",
            "You don't need to pay anything extra beyond the Rs 200 replacement fee.",
            None,
        ),
        (
            "lost_card_block",
            "The new card will be dispatched tomorrow and should reach you within 7 working days.",
            None,
        ),
        (
            "lost_card_block",
            "A replacement card has been requested today and will reach you in 7 working days.",
            None,
        ),
        ("lost_card_block", "The old card can't be switched back on, even if you find it.", None),
        ("lost_card_block", "Your old card will never work again.", None),
        ("lost_card_block", "You can start shopping again once the new card arrives.", None),
        ("fd_tenure_in_months", "The new FD pays out to your account at maturity.", None),
        # The rebooking told, a card ordered today, a freeze set against the block, a scam
        # warning (careful-wording hunt round 4: each 10/10 or 5/5 failed).
        ("fd_close_and_rebook", "Your old FD has been rolled into a new FD.", None),
        (
            "fd_close_and_rebook",
            "Your old FD was closed before maturity, and the payout has gone into a new FD.",
            None,
        ),
        ("fd_close_and_rebook", "Your closure payout has been re-deposited into a new FD.", None),
        (
            "lost_card_block",
            "I'm sorry for the trouble. I've ordered a new card for you today.",
            None,
        ),
        ("lost_card_block", "Unlike a temporary freeze, a permanent block cannot be undone.", None),
        ("lost_card_block", "The block is only temporary.", "F.25"),
        (
            "stolen_card_fraud",
            "If a message asks you to 'unblock' your card via a link, ignore it - it's a scam.",
            None,
        ),
        (
            "lost_card_block",
            "A dormant account can be used again only once it is reactivated at a branch.",
            None,
        ),
        (
            "fd_tenure_in_months",
            "At maturity, the amount will be credited to your account; if you want a new FD "
            "then, just ask.",
            None,
        ),
        # A question answered at once in the negative asserts nothing of the question, a term
        # marked with a cross states its negation (careful-wording hunt, issue 16: 8-10 of 10
        # each failed); a question answered yes, an offer as a question, a tick, still fail.
        (
            "fd_tenure_in_months",
            "Will it renew automatically? No — the maturity amount will be credited to your "
            "account.",
            None,
        ),
        ("fd_tenure_in_months", "Will it renew? No.", None),
        ("fd_tenure_in_months", "Auto-renew: ❌", None),
        ("fd_tenure_in_months", "| Auto-renewal | ❌ |", None),
        ("fd_tenure_in_months", "Auto-renewal ✗ (payout to your account)", None),
        (
            "fd_tenure_in_months",
            "Will the FD auto-renew? Nope, the maturity amount goes to your savings account.",
            None,
        ),
        (
            "fd_tenure_in_months",
            "Will it renew at maturity?\n\nNo. The maturity amount will be credited to your "
            "account.",
            None,
        ),
        ("fd_tenure_in_months", "Rolled over at maturity? No — paid out to your account.", None),
        ("fd_tenure_in_months", "Will it renew? Yes.", "K.39"),
        ("fd_tenure_in_months", "Auto-renew: ✅", "K.39"),
        ("fd_tenure_in_months", "Will it renew automatically? Yes — for the same tenure.", "K.39"),
        (
            "fd_tenure_in_months",
            "Will it renew at maturity? No problem, it will renew automatically.",
            "K.39",
        ),
        ("lost_card_block", "Can it be unblocked later? No — the block is permanent.", None),
        ("lost_card_block", "Reactivation: ❌", None),
        ("lost_card_block", "Unblocking later ✗", None),
        (
            "lost_card_block",
            "Will I be able to unblock it if I find it? Unfortunately not.",
            None,
        ),
        (
            "lost_card_block",
            "**Can the card be reactivated?** No — a block is permanent.",
            None,
        ),
        (
            "lost_card_block",
            "Can I unblock it later? I'm afraid not — blocking is permanent.",
            None,
        ),
        ("lost_card_block", "Can the block be lifted? Not possible, I'm sorry.", None),
        (
            "stolen_card_fraud",
            "Replacement card free? No — ₹200 fee applies (waived with a police report for "
            "stolen cards).",
            None,
        ),
        (
            "lost_card_block",
            "Is the replacement free? Only with a police report; otherwise it's Rs 200.",
            None,
        ),
        ("lost_card_block", "Can it be unblocked later? Yes, anytime.", "F.25"),
        ("lost_card_block", "Can it be unblocked later? Of course!", "F.25"),
        ("lost_card_block", "Reactivation: ✅", "F.25"),
        ("lost_card_block", "Would you like me to unblock it if you find it?", "F.25"),
        ("lost_card_block", "Is the replacement free? Yes.", "F.24"),
        # The task's own rebooking told as done is no renewal at maturity (careful-wording hunt,
        # issue 16: 10 of 10 failed); a rebooking said to come at maturity still fails.
        (
            "fd_close_and_rebook",
            "**Summary of changes:**\n- FD closed early\n- Amount rebooked as a new 365-day "
            "FD\n\nIs there anything else I can help you with?",
            None,
        ),
        ("fd_close_and_rebook", "Amount rebooked as a new 365-day FD.", None),
        ("fd_close_and_rebook", "Your money is now rebooked in a new FD at 6.80%.", None),
        ("fd_close_and_rebook", "Closed and rebooked ✅", None),
        ("fd_close_and_rebook", "Your funds are now rebooked into a fresh deposit.", None),
        ("fd_close_and_rebook", "Payout reinvested in a new 1-year FD.", None),
        ("fd_close_and_rebook", "It will be rebooked at maturity.", "K.39"),
        ("fd_close_and_rebook", "At maturity it will be reinvested for another term.", "K.39"),
        ("fd_close_and_rebook", "The new FD is automatically renewed each year.", "K.39"),
    ],
)
def test_a_term_turned_round_fails(family: str, said: str, false: str | None) -> None:
    task = first_of(family)
    assert failed(task, gold(task.task_id)) == {}
    problems = said_last(task, said)
    evidence = " ".join(problems.get("told_customer", []))
    if false is None:
        assert problems == {}, problems
    else:
        assert f"({false}" in evidence, problems
        assert set(problems) == {"told_customer"}, problems
