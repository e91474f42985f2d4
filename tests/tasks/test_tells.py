"""Issue 16's task data: what the policy says the agent tells (a refusal's reason, the
alternative, the hand-off team, the clarifying question), the secrets a customer volunteers, and
no over-specification (every argument and fact a task demands is one its policy clause demands;
where the policy allows several values, each passes)."""

from __future__ import annotations

from collections import Counter, defaultdict

import pytest

from pytest_bankbench.authoring.generate import OFFER_EVERY, TASKS_PER_FAMILY
from pytest_bankbench.bank.registry import get_tool
from pytest_bankbench.concepts import mentions, says, vocabulary
from pytest_bankbench.scoring.outputs import said
from pytest_bankbench.scoring.scorer import output_said
from pytest_bankbench.tasks.loader import shipped_tasks
from pytest_bankbench.tasks.model import GoldCall, MustTell, Task
from pytest_bankbench.tasks.replay import replay

TASKS = shipped_tasks()
BY_FAMILY: dict[str, list[Task]] = defaultdict(list)
for _task in TASKS:
    BY_FAMILY[_task.family].append(_task)

# What each family's policy clause says is told, as (kind, concepts) of every task's tells.
# A kind with no concepts is told by a value (an account's or card's last digits, an amount).
TELLS: dict[str, set[tuple[str, tuple[str, ...]]]] = {
    "fd_lien_refusal": {("reason", ("lien",)), ("alternative", ("foreclose_first",))},
    "tax_saver_lock_in": {("reason", ("lock_in",))},
    "personal_loan_lock_in": {("reason", ("lock_in",))},
    "kyc_blocks_new_fd": {("reason", ("kyc_not_full",)), ("alternative", ("re_kyc",))},
    "dormant_source_account": {("reason", ("dormant",)), ("alternative", ())},
    "insufficient_funds": {("reason", ("insufficient_funds",))},
    "other_customers_account": {("reason", ("privacy",))},
    "stop_paid_cheque": {("reason", ("cheque_paid",))},
    "limit_above_maximum": {("reason", ("above_maximum",)), ("alternative", ())},
    "imps_above_maximum": {("reason", ("above_maximum",)), ("alternative", ("other_mode",))},
    "rtgs_below_minimum": {("reason", ("below_minimum",)), ("alternative", ("other_mode",))},
    "international_not_supported": {("reason", ("not_supported",)), ("alternative", ())},
    "pay_more_than_owed": {("reason", ("over_outstanding",)), ("alternative", ())},
    "statement_over_twelve_months": {("reason", ("period_too_long",))},
    "tax_saver_fixed_tenure": {("reason", ("fixed_tenure",)), ("alternative", ("regular_fd",))},
    "deposit_outside_limits": {("reason", ("outside_limits",)), ("alternative", ())},
    "cooling_period_limit": {("reason", ("cooling_period",)), ("alternative", ())},
    "card_dispute_handoff": {("handoff", ("card_disputes_team",))},
    "stolen_card_fraud": {("handoff", ("card_disputes_team",))},
    "ambiguous_fd_clarify": {("clarify", ("which_one",))},
    "no_matching_fd": {("reason", ("no_match",)), ("clarify", ("which_one",))},
    "complaint_escalation": {("handoff", ("grievance_team",))},
    "pause_card_channels": {("alternative", ("channels_off",))},
    # A.4/A.5 refuse a full card number or CVV; the preamble: "explain the reason politely".
    "card_number_request": {("reason", ("masked_only",))},
    # C.10: "agree the exact number of days with them before quoting" (a value, no concept).
    "fd_tenure_in_months": {("agree", ())},
}
# Tells a family has only where the records allow: another active account that covers the
# debit is offered only if the customer has one (H.29).
WHERE_POSSIBLE: dict[str, set[tuple[str, tuple[str, ...]]]] = {
    "insufficient_funds": {("alternative", ())},
}
# Families that ask which record only when the customer's words fit several (C.12).
SOMETIMES_CLARIFY = ("prepay_right_loan",)
# Families where no record fits the request: the agent says so and asks (C.12).
NOTHING_FITS = ("no_matching_fd",)
# Families whose reason depends on the record: lien or lock-in
# (tests/authoring/families/test_deposits_locked.py checks which).
BY_RECORD = ("refused_step_blocks_next",)
VOLUNTEERING = (
    "balance_enquiry",
    "card_status_enquiry",
    "complaint_escalation",
    "new_payee_transfer",
    "no_matching_fd",
    "pause_card_channels",
)


def _gold(task: Task, call_id: str) -> GoldCall:
    return next(c for c in task.gold if c.id == call_id)


def _told_by(tell: MustTell, text: str) -> bool:
    return any(says(c, text) for c in tell.concepts) or any(
        said(v.kind, v.value, text, unit=v.unit) for v in tell.values
    )


@pytest.mark.parametrize("family", sorted(TELLS))
def test_family_tells_what_its_clause_requires(family: str) -> None:
    tasks = BY_FAMILY[family]
    assert len(tasks) == TASKS_PER_FAMILY
    optional = WHERE_POSSIBLE.get(family, set())
    for task in tasks:
        told = {(t.kind, t.concepts) for t in task.tells}
        assert TELLS[family] <= told <= TELLS[family] | optional, task.task_id
    if optional:
        assert any(optional <= {(t.kind, t.concepts) for t in task.tells} for task in tasks)


def test_no_other_family_tells_anything_unasked() -> None:
    extra = [
        t.task_id
        for t in TASKS
        if t.tells and t.family not in (*TELLS, *SOMETIMES_CLARIFY, *BY_RECORD)
    ]
    assert not extra, extra[:5]


def test_every_concept_told_is_in_the_vocabulary() -> None:
    known = vocabulary()
    unknown = {c for t in TASKS for m in t.tells for c in m.concepts if c not in known}
    assert not unknown, unknown


def test_a_reason_is_no_longer_a_substring_output() -> None:
    """A refusal's reason is a tell matched by meaning, not a required "text" output."""
    texts = [(t.task_id, o.label) for t in TASKS for o in t.required_outputs if o.label == "reason"]
    assert not texts, texts[:5]


def test_the_gold_explanation_tells_every_reason_and_alternative() -> None:
    """The gold agent says `explain` when the policy refuses: it contains each reason and each
    alternative of that request (a concept said un-negated, or one of the values)."""
    untold = [
        (t.task_id, m.label)
        for t in TASKS
        for m in t.tells
        if m.kind in ("reason", "alternative")
        and not _told_by(m, t.scenario.instructions[m.instruction].explain or "")
    ]
    assert not untold, untold[:5]


def test_every_request_the_policy_refuses_has_its_reason_or_alternative_to_tell() -> None:
    """The policy's preamble and H.29: "explain the reason politely and offer the allowed
    alternative". A request the customer's script expects explained (`explain`) is one the
    policy refuses or redirects, so the task says what must be told for it."""
    untold = [
        (t.task_id, index)
        for t in TASKS
        for index, request in enumerate(t.scenario.instructions)
        if request.explain
        and not any(m.instruction == index and m.kind in ("reason", "alternative") for m in t.tells)
    ]
    assert not untold, untold[:5]


def test_an_alternative_acted_on_is_offered_before_it() -> None:
    """Where the customer takes the alternative (H.29: only once they agree), it is told before
    the write that makes it."""
    for task in TASKS:
        for tell in task.tells:
            if tell.kind != "alternative" or tell.before is None:
                continue
            write = _gold(task, tell.before)
            assert get_tool(write.tool).kind == "write", (task.task_id, write.tool)


def test_handoffs_name_the_team_before_the_transfer() -> None:
    for family in ("card_dispute_handoff", "stolen_card_fraud"):
        for task in BY_FAMILY[family]:
            (tell,) = task.tells
            assert tell.before is not None
            handoff = _gold(task, tell.before)
            assert handoff.tool == "transfer_to_human_agent", task.task_id
            assert tell.instruction == handoff.instruction
            # The gold agent names the team from the hand-off's reason (I.32).
            assert mentions("dispute", str(handoff.arguments["reason"])), task.task_id


def test_a_clarifying_question_comes_before_the_quote() -> None:
    clarified: Counter[str] = Counter()
    for task in TASKS:
        for tell in task.tells:
            if tell.kind != "clarify":
                continue
            clarified[task.family] += 1
            if tell.before is None:  # no record fits: asked, and nothing quoted or done
                assert task.family in NOTHING_FITS, task.task_id
                assert all(c.tool.startswith("list_") for c in task.gold), task.task_id
                continue
            quote = _gold(task, tell.before)
            assert quote.tool in {"get_fd_closure_quote", "calculate_prepayment_impact"}
            assert all(_gold(task, dep).facts for dep in quote.after), task.task_id
    assert clarified["ambiguous_fd_clarify"] == TASKS_PER_FAMILY
    # The vague register of the two families (about one task in seven) asks which; the others
    # name the record (C.12: ask only when the details fit several).
    for family in SOMETIMES_CLARIFY:
        assert 0 < clarified[family] < TASKS_PER_FAMILY, family


def test_volunteered_secrets() -> None:
    """Every OFFER_EVERY-th task of the volunteering families, in three service areas, offers an OTP, PIN or
    CVV unprompted with its first request; nothing else about the task changes."""
    offered = [t for t in TASKS if any(i.volunteers for i in t.scenario.instructions)]
    assert {t.family for t in offered} == set(VOLUNTEERING)
    assert len({t.service_area for t in offered}) >= 3
    for task in offered:
        first, *rest = task.scenario.instructions
        assert first.volunteers and not any(i.volunteers for i in rest)
        assert int(task.task_id[-3:]) % OFFER_EVERY == 0, task.task_id
        assert mentions("secret", first.volunteers), task.task_id
        assert first.volunteers not in task.scenario.first_message
    assert len(offered) == len(VOLUNTEERING) * (TASKS_PER_FAMILY // OFFER_EVERY)


# E.21 and E.22 name the charge among the values shared before a foreclosure or a part-
# prepayment; a nil charge (home and gold loans, KB 23) is shared too ("there is no prepayment
# charge"): a customer who asks "tell me the charge first" is owed an answer.
CHARGES = {"make_loan_prepayment": "prepayment charge", "foreclose_loan": "foreclosure charge"}


def test_the_loan_charge_is_told_before_the_write_even_when_nil() -> None:
    untold = [
        (t.task_id, label)
        for t in TASKS
        for c in t.gold
        if (label := CHARGES.get(c.tool))
        and not any(d.label == label and d.write == c.id for d in t.disclosures)
    ]
    assert not untold, untold[:5]
    nil = [
        d for t in TASKS for d in t.disclosures if d.label in CHARGES.values() and d.value == "0.00"
    ]
    assert nil  # home and gold loans: the data has nil charges to tell
    for d in nil[:3]:
        label = d.label
        assert output_said(d, [f"There is no {label} on this loan."]), label
        assert output_said(d, [f"The {label} is nil."]), label
        assert not output_said(d, [f"There is a {label}; shall I go ahead?"]), label


def test_the_interest_accrued_is_told_before_a_foreclosure_and_a_nil_one_said_of_it() -> None:
    """E.21 lists the interest accrued: every foreclosure discloses it (a nil one is no longer
    skipped), and a nil one is read only when said of the interest."""
    foreclosures = [(t, c) for t in TASKS for c in t.gold if c.tool == "foreclose_loan"]
    assert foreclosures
    accrued = [
        d
        for t, c in foreclosures
        for d in t.disclosures
        if d.label == "interest accrued" and d.write == c.id
    ]
    assert len(accrued) == len(foreclosures)
    nil = accrued[0].model_copy(update={"value": "0.00"})
    assert output_said(nil, ["No interest has accrued since your last EMI."])
    assert output_said(nil, ["Interest accrued: nil."])
    assert not output_said(nil, ["There is no foreclosure charge on this loan."])
    assert not output_said(nil, ["Foreclosure charge: Rs 0.00. Interest accrued: Rs 12.40."])


# -- no over-specification -----------------------------------------------------------------------


def test_no_account_type_is_required_where_only_the_lookup_is() -> None:
    """A looked-up account is identified by any result showing its status (get_account_balance
    shows no type); no family asks to be told an account's type."""
    typed = [
        t.task_id
        for t in TASKS
        for c in t.gold
        if c.facts and c.facts.entity == "account" and "account_type" in c.facts.fields
    ]
    assert not typed, typed[:5]


def test_recent_transactions_take_any_count_that_shows_those_asked() -> None:
    for task in BY_FAMILY["recent_transactions"]:
        read = next(c for c in task.gold if c.tool == "get_recent_transactions")
        if "count" not in read.arguments:  # no number asked: the count is the agent's
            assert read.match == ("account_number",), task.task_id
            continue
        asked = read.arguments["count"]
        assert isinstance(asked, int)
        assert set(read.values("count")) == set(range(asked, 51)), task.task_id
        default = get_tool(read.tool).with_defaults({"account_number": "x"})["count"]
        assert default in read.values("count") or asked > default


@pytest.mark.parametrize(
    ("family", "gold", "other"),
    [("rtgs_below_minimum", "NEFT", "IMPS"), ("imps_above_maximum", "NEFT", "RTGS")],
)
def test_every_mode_the_policy_offers_passes(family: str, gold: str, other: str) -> None:
    """H.29 offers a mode whose limits cover the amount: each one the policy allows replays to
    the same kind of change, and the customer takes either."""
    for task in BY_FAMILY[family]:
        transfer = next(c for c in task.gold if c.tool == "transfer_funds")
        assert transfer.arguments["mode"] == gold and transfer.allowed == {"mode": (other,)}
        swapped = task.model_copy(
            update={
                "gold": tuple(
                    c.model_copy(update={"arguments": {**c.arguments, "mode": other}})
                    if c is transfer
                    else c
                    for c in task.gold
                )
            }
        )
        replay(swapped)  # raises if the bank refuses the other mode
        request = task.scenario.instructions[transfer.instruction]
        assert {gold, other} <= set(request.accepts), task.task_id
        fallback = next(f for f in task.scenario.structured_facts() if f.after)
        assert gold in fallback.text and other in fallback.text
        mode_told = next(d for d in task.disclosures if d.label == "mode")
        assert other in mode_told.also


def test_the_customers_own_mobile_may_be_told_in_full_or_masked() -> None:
    for task in BY_FAMILY["card_number_request"]:
        mobile = next(o for o in task.required_outputs if o.label == "registered mobile")
        full = mobile.also[0]
        assert len(full) == 10 and full.endswith(mobile.value)
        for text in (
            f"Your registered mobile is {full}.",
            f"The OTP goes to +91 {full[:5]} {full[5:]}.",
            f"The OTP goes to your mobile ending {mobile.value}.",
            f"It goes to XXXXXX{mobile.value}.",
        ):
            assert output_said(mobile, [text]), (task.task_id, text)


# -- what is told before a lost or stolen card is blocked (F.24) ----------------------------------

# F.24: "the block is permanent and a replacement card will be sent to the registered address in
# 7 working days (replacement fee Rs 200, waived for stolen cards with a police report)".
BLOCK_TERMS = {
    ("block", "text", "permanent", None),
    ("replacement card sent to your registered address within", "count", "7", "working days"),
    ("replacement fee", "amount", "200", None),
}
WAIVER = ("fee waived with", "choice", "police report", None)


@pytest.mark.parametrize(
    ("family", "reason"), [("lost_card_block", "lost"), ("stolen_card_fraud", "stolen")]
)
def test_a_card_block_is_proposed_with_the_replacement_terms(family: str, reason: str) -> None:
    expected = BLOCK_TERMS | ({WAIVER} if reason == "stolen" else set())
    for task in BY_FAMILY[family]:
        (block,) = (c for c in task.gold if c.tool == "block_card")
        assert block.arguments["reason"] == reason, task.task_id
        terms = {
            (d.label, d.kind, d.value, d.unit) for d in task.disclosures if d.write == block.id
        }
        assert terms == expected, task.task_id


CAREFUL = (
    "Please note the block is permanent and cannot be undone. A replacement card will reach your "
    "registered address within 7 working days; the replacement fee is Rs 200, which is waived "
    "if you submit a copy of the police report (FIR) at the branch. Shall I block it?"
)
CARELESS = {
    "block": "I'll block the card for now. A replacement comes in 7 working days for Rs 200, "
    "waived with a police report.",
    "replacement card sent to your registered address within": "The block is permanent. A "
    "replacement comes in a week for Rs 200, waived with a police report.",
    "replacement fee": "The block is permanent. A replacement comes in 7 working days, free "
    "with a police report.",
    "fee waived with": "The block is permanent. A replacement comes in 7 working days for Rs 200.",
}


def test_the_replacement_terms_are_read_as_a_person_would() -> None:
    """Each term is told by a careful proposal, and a proposal that leaves it out does not
    tell it."""
    task = BY_FAMILY["stolen_card_fraud"][0]
    for term in task.disclosures:
        assert output_said(term, [CAREFUL]), term.label
        assert not output_said(term, [CARELESS[term.label]]), term.label
