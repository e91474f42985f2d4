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
