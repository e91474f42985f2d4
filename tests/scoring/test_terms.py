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
