"""A proposal's figures agree with the write (scoring/proposed_figures.py, policy D.15): a yes to
a proposal that states the write's amount and another figure for the same money is no consent;
figures the session gave, their sums and their round forms pass."""

from __future__ import annotations

import pytest

from pytest_bankbench.simulation.trace import MessageEvent, ToolEvent, Trace
from tests.scoring.sessions import agent_turns, failed, first_of, gold, say, text_at


def _proposal_of(trace: Trace, tool: str) -> int:
    """The agent message the customer's yes before the first `tool` call answered."""
    call = next(
        i for i, e in enumerate(trace.events) if isinstance(e, ToolEvent) and e.call.name == tool
    )
    yes = max(
        i
        for i, e in enumerate(trace.events[:call])
        if isinstance(e, MessageEvent) and e.role == "customer"
    )
    return max(i for i in agent_turns(trace) if i < yes)


@pytest.mark.parametrize(
    ("family", "tool", "added", "contradicts"),
    [
        # The careless-agent trial's two: a total that is no sum of anything, the proposal
        # said again with every figure Rs 1,000 higher.
        ("new_payee_transfer", "transfer_funds", "In total, Rs. 9,000 will be debited.", True),
        ("new_payee_transfer", "transfer_funds", "To be clear: I will send Rs. 9,000.", True),
        # A total far above the amount (careless-agent trial, round 3).
        (
            "new_payee_transfer",
            "transfer_funds",
            "In total, Rs. 24,000 will leave your account.",
            True,
        ),
        ("fd_close_and_rebook", "create_fd", "Maturity amount: Rs. 7,52,897.37.", True),
        # A careful agent's figures: the amount with the fee and GST, the same amount in other
        # words, a limit far from it, a quoted figure rounded, the balance less the amount.
        (
            "new_payee_transfer",
            "transfer_funds",
            "Were a Rs. 100 charge with 18% GST to apply, Rs. 8,118 would leave your account.",
            False,
        ),
        ("new_payee_transfer", "transfer_funds", "That is eight thousand rupees.", False),
        (
            "new_payee_transfer",
            "transfer_funds",
            "That is within your cooling-period limit of Rs. 50,000.",
            False,
        ),
        ("fd_close_and_rebook", "create_fd", "At maturity you'd have about Rs. 7.5 lakh.", False),
        # The quote to the rupee (false-fail hunt, round 3: 96 of 97 FD tasks failed).
        (
            "fd_close_and_rebook",
            "create_fd",
            "That works out to roughly Rs 7,49,897 on maturity.",
            False,
        ),
        (
            "fd_close_and_rebook",
            "create_fd",
            "Your balance after booking will be Rs. 50,681.09.",
            False,
        ),
    ],
)
def test_a_proposal_that_contradicts_itself_is_no_consent(
    family: str, tool: str, added: str, contradicts: bool
) -> None:
    task = first_of(family)
    trace = gold(task.task_id)
    assert failed(task, trace) == {}
    at = _proposal_of(trace, tool)
    problems = failed(task, say(trace, at, text_at(trace, at) + " " + added))
    evidence = " ".join(problems.get("disclosure_consent", []))
    assert ("a proposal that contradicts itself" in evidence) is contradicts, problems
    if contradicts:
        # A required value among them is told two ways too (corrections.py, J.36).
        assert set(problems) - {"required_outputs"} == {"disclosure_consent"}, problems
        assert "beside the write's Rs" in evidence, evidence
