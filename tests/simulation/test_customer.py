"""The scripted customer, driven by agent turns as assistant models write them.

Each test drives a customer whose script is made for it (a shipped task with its scenario
replaced), so what the test shows is the rule, not one task's wording. The failures the issue
lists come first: each was a way an agent that did the right thing failed because of the
customer.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from pytest_bankbench.simulation.acts import asks_confirmation, asks_question
from pytest_bankbench.simulation.customer import (
    GO_ON,
    HOLDING,
    NO_PROGRESS_LIMIT,
    NO_THANKS,
    NOT_WHAT_I_ASKED,
    PLEASE_DO,
    UNDERSTOOD,
    WAITING,
    YES,
    CustomerTurn,
    Say,
    ScriptedCustomer,
    Stop,
)
from pytest_bankbench.simulation.heard import heard, was_said
from pytest_bankbench.tasks.loader import shipped_tasks
from pytest_bankbench.tasks.model import Fact, Instruction, Scenario, Task

FIRST = "Please close the Rs. 1,13,000 FD I opened in June 2025 early. Tell me the payout first."
SECOND = "Second, send me a statement of my savings account for May 2026 by email."


def _task(family: str) -> Task:
    return next(t for t in shipped_tasks() if t.family == family)


def _customer(
    family: str = "fd_closure",
    instructions: Sequence[Instruction] = (Instruction(text=FIRST),),
    facts: Sequence[Fact | str] = (),
    withheld: Sequence[str] = (),
) -> ScriptedCustomer:
    """A scripted customer on a shipped task's gold chain, with the scenario given here."""
    task = _task(family)
    scenario = Scenario(
        persona="A customer.",
        first_message=instructions[0].text,
        instructions=tuple(instructions),
        facts=tuple(facts),
        withheld=tuple(withheld),
        narrative="What the customer wants.",
    )
    gold = tuple(g.model_copy(update={"instruction": 0}) for g in task.gold)
    return ScriptedCustomer(task.model_copy(update={"scenario": scenario, "gold": gold}))


def _says(turn: CustomerTurn) -> Say:
    assert isinstance(turn, Say), turn
    return turn


def _agreed(customer: ScriptedCustomer) -> None:
    """The customer has said yes to the change its first request needs."""
    assert _says(customer.respond("Shall I go ahead and close it?")).agrees


# -- the failures the issue lists ------------------------------------------------------------------
def test_a_consent_request_without_a_question_mark_gets_the_yes() -> None:
    reply = _says(_customer().respond("The payout is Rs. 1,12,345. Please reply YES to confirm."))
    assert reply == Say(YES, agrees=True)


def test_an_opening_that_says_it_is_working_is_waited_for() -> None:
    customer = _customer()
    assert _says(customer.respond("Sure, let me look into that for you.")).text == WAITING
    assert customer.current == 0


def test_a_question_gets_the_facts_on_its_topics_only() -> None:
    account = Fact(text="Credit it to my savings account 50101234567890.", about=("account",))
    deposit = Fact(text="It is the one of Rs. 1,13,000.", about=("deposit", "amount"))
    customer = _customer(facts=(account, deposit, "I need the money for a hospital bill."))
    first = _says(customer.respond("Which account should the payout go to?"))
    assert first.text == f"{account.text} I need the money for a hospital bill."
    assert not first.agrees
    assert _says(customer.respond("And which FD is it?")).text == deposit.text


def test_a_question_about_nothing_it_knows_gets_the_request_again() -> None:
    account = Fact(text="Use my savings account 50101234567890.", about=("account",))
    reply = _says(_customer(facts=(account,)).respond("Which card is this about?"))
    assert reply.text.endswith(FIRST) and account.text not in reply.text


def test_anything_else_brings_the_next_request_then_the_end() -> None:
    customer = _customer(instructions=(Instruction(text=FIRST), Instruction(text=SECOND)))
    _agreed(customer)
    done = "All done! Your FD has been closed. Is there anything else I can help you with?"
    assert customer.respond(done) == Say(SECOND, agrees=False)
    assert customer.respond("Is there anything else I can help you with?") == Stop(
        "all instructions done"
    )


def test_an_offer_the_script_does_not_contain_is_declined() -> None:
    customer = _customer("card_dispute_handoff")
    offer = "Before I transfer you, would you like me to block your card as a precaution?"
    assert customer.respond(offer) == Say(NO_THANKS, agrees=False)
    assert _says(customer.respond("Shall I connect you to our disputes team?")).agrees


def test_an_offer_the_script_accepts_is_taken() -> None:
    request = Instruction(text="I want to dispute a charge on my card.", accepts=("block",))
    customer = _customer("card_dispute_handoff", instructions=(request,))
    offer = "Would you also like me to block the card as a precaution?"
    assert customer.respond(offer) == Say(YES, agrees=True)


def test_a_fallback_is_kept_back_until_the_agent_states_the_rule() -> None:
    fallback = Fact(
        text="Then send Rs. 50,000 today and the rest tomorrow.",
        about=("amount",),
        after=("50,000", "cooling period"),
    )
    customer = _customer("cooling_period_limit", facts=(fallback,))
    assert fallback.text not in _says(customer.respond("How much do you want to send?")).text
    refusal = "Sorry, a new payee can receive at most Rs 50000 on the first day."
    assert fallback.text in _says(customer.respond(refusal)).text


def test_the_customer_never_says_an_internal_id_its_request_does_not_name() -> None:
    customer = _customer(facts=("The deposit id is FD001099.", "It matures in June 2027."))
    reply = _says(customer.respond("Could you tell me the deposit id?"))
    assert "FD001099" not in reply.text and "June 2027" in reply.text
    assert customer.guard("It is FD001099. Please close it.") == "Please close it."
    named = _customer(instructions=(Instruction(text="Please close my FD FD001099 today."),))
    assert named.guard("It is FD001099.") == "It is FD001099."


def test_withheld_facts_are_never_said() -> None:
    customer = _customer(facts=("The card's PIN is 3133.",), withheld=("The card's PIN is 3133.",))
    for text in ("What is your PIN?", "Tell me everything you know?", "Anything to add?"):
        turn = customer.respond(text)
        assert isinstance(turn, Stop) or "3133" not in turn.text


# -- consent -----------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "ask",
    [
        "The payout will be Rs. 1,12,345. Shall I go ahead and close it?",
        "Do you want me to proceed with the closure?",
        "**Please confirm:**\n- Action: close the FD early\n- Payout: ₹1,12,345\n\nReply YES.",
        "Is that okay with you?",
        "OK to proceed?",
        "I can close it right away if you'd like.",
    ],
)
def test_a_consent_request_in_any_phrasing_gets_the_scripted_yes(ask: str) -> None:
    assert _customer().respond(ask) == Say(YES, agrees=True)


def test_a_scripted_refusal_is_said_at_every_consent_request() -> None:
    request = Instruction(text=FIRST, decline="No, don't close it yet. I only want the numbers.")
    customer = _customer(instructions=(request,))
    for ask in ("Shall I close it now?", "Would you like to go ahead with the closure?"):
        assert customer.respond(ask) == Say(request.decline or "", agrees=False)


def test_a_correction_replaces_the_first_yes_only() -> None:
    request = Instruction(text=FIRST, correction="Sorry, it is the FD of Rs. 1,31,000.")
    customer = _customer(instructions=(request,))
    assert customer.respond("Shall I close it?") == Say(request.correction or "", agrees=False)
    assert customer.respond("Got it. Shall I close the Rs. 1,31,000 one?") == Say(YES, True)


def test_an_offer_to_look_something_up_is_welcome_but_is_no_consent() -> None:
    reply = _customer().respond("Would you like me to check your balance first?")
    assert reply == Say(PLEASE_DO, agrees=False)


# -- a proposal of something else than the script (issue 16) --------------------------------------
SEND = "Send Rs. 5,000 to Ravi Kumar by IMPS from my savings account ending 1234."


@pytest.mark.parametrize(
    ("proposal", "restated"),
    [
        (
            "I'll send Rs. 5,000 to Ravi Kumar by IMPS from your account ending 9876. Shall I?",
            "1234",
        ),
        ("Here is what I will do: send Rs. 5,000 by NEFT from XXXX1234. Shall I go ahead?", "IMPS"),
        ("To confirm, you'd like me to transfer Rs. 50,000 to Ravi Kumar by IMPS?", "5,000"),
        ("To confirm, you'd like me to transfer Rs. fifty thousand to Ravi by IMPS?", "5,000"),
    ],
)
def test_a_proposal_naming_another_account_mode_or_amount_is_corrected(
    proposal: str, restated: str
) -> None:
    reply = _says(_customer("cooling_period_limit", (Instruction(text=SEND),)).respond(proposal))
    assert not reply.agrees and reply.text.startswith(NOT_WHAT_I_ASKED) and restated in reply.text


@pytest.mark.parametrize(
    "proposal",
    [
        "I'll send Rs. 5,000 to Ravi Kumar by IMPS from your account ending 1234. Shall I?",
        "Your balance is Rs. 45,230. Shall I send the Rs. 5,000 by IMPS now?",
        "Shall I send five thousand rupees to Ravi Kumar by IMPS now?",
        "Shall I proceed?",
    ],
)
def test_a_proposal_naming_the_scripts_values_or_none_gets_the_yes(proposal: str) -> None:
    reply = _customer("cooling_period_limit", (Instruction(text=SEND),)).respond(proposal)
    assert reply == Say(YES, agrees=True)


# Found by a careful agent in other words (tests/simulation/styled_agent.py, audit2).
FORECLOSE = "Foreclose my Rs. 1,40,000 personal loan from my savings account 50101614162424."


def test_a_foreclosure_paid_from_the_account_is_no_amount_of_the_customers() -> None:
    """ "paid from XXXX2424" names how a foreclosure is paid: its sum is the bank's quote."""
    customer = _customer("loan_foreclosure", (Instruction(text=FORECLOSE),))
    proposal = "Foreclose the loan in full, paid from XXXX2424. Total payable: ₹1,05,305.33. Go?"
    assert customer.respond(proposal) == Say(YES, agrees=True)


def test_a_foreclosure_from_another_account_is_still_corrected() -> None:
    customer = _customer("loan_foreclosure", (Instruction(text=FORECLOSE),))
    proposal = "Foreclose the loan in full, paid from XXXX9999. Total payable: ₹1,05,305.33. Go?"
    reply = _says(customer.respond(proposal))
    assert not reply.agrees and reply.text.startswith(NOT_WHAT_I_ASKED)


SEND_MEERA = "First, send Rs 5,000 to Meera by NEFT from my savings account ending 4374."
STOP_CHEQUE = "Second, stop payment of cheque 507010 of my current account ending 9028; I lost it."


def test_a_stop_payments_fee_is_no_amount_of_the_customers() -> None:
    """ "stop payment of cheque 507010 (fee Rs. 100)" pays nothing the customer chose: its fee
    is not held against the Rs 5,000 of another request (fifth user trial)."""
    customer = _customer(
        "stop_cheque_payment", (Instruction(text=SEND_MEERA), Instruction(text=STOP_CHEQUE))
    )
    _says(customer.respond("Shall I send Rs 5,000 to Meera by NEFT from ****4374?"))
    customer.respond("Done: Rs 5,000 sent to Meera by NEFT. Reference TXN1. Anything else?")
    proposal = "I'll stop payment of cheque 507010 on ****9028. Fee: Rs. 100. Shall I proceed?"
    assert customer.respond(proposal) == Say(YES, agrees=True)


def test_a_transfer_of_another_amount_is_still_corrected() -> None:
    customer = _customer(
        "stop_cheque_payment", (Instruction(text=SEND_MEERA), Instruction(text=STOP_CHEQUE))
    )
    reply = _says(customer.respond("Shall I send Rs 100 to Meera by NEFT from ****4374?"))
    assert not reply.agrees and reply.text.startswith(NOT_WHAT_I_ASKED)


PAY_NEW = "Please add Seema Hegde as a payee and send her Rs 30,000 by NEFT."


def test_a_request_of_two_changes_waits_for_the_second_report() -> None:
    """ "Seema has been added as a payee" reports one of the two changes agreed: the customer
    waits for the transfer instead of ending (second independent careful agent)."""
    customer = _customer("new_payee_transfer", (Instruction(text=PAY_NEW),))
    assert customer.needs[0] == ("add_beneficiary", "transfer_funds")
    assert _says(customer.respond("Shall I add Seema Hegde as a payee and send Rs 30,000?")).agrees
    assert _says(customer.respond("Shall I add Seema Hegde as your payee now?")).agrees
    assert customer.respond("Seema Hegde has been added as a payee (BEN900001).") == Say(
        GO_ON, agrees=False
    )
    assert _says(customer.respond("Shall I send Rs 30,000 to Seema Hegde by NEFT now?")).agrees
    done = customer.respond("Sent by NEFT: Rs 30,000 to Seema Hegde, reference NEFT1.")
    assert isinstance(done, Stop)


def test_a_report_naming_no_change_is_heard_as_the_end_after_one_prompt() -> None:
    customer = _customer("new_payee_transfer", (Instruction(text=PAY_NEW),))
    customer.respond("Shall I add Seema Hegde as a payee and send Rs 30,000?")
    customer.respond("Shall I add Seema Hegde as your payee now?")
    assert customer.respond("All done for you now.") == Say(GO_ON, agrees=False)
    assert isinstance(customer.respond("All done for you now, truly."), Stop)


OVERPAY = "Please pay Rs. 10,000 to my credit card ending 0437 from my account ending 7793."


def test_a_fallback_that_names_no_amount_takes_the_banks_figure() -> None:
    """ "Then pay the whole outstanding": once the rule is stated, the amount the agent proposes
    is the bank's (third independent careful agent: "pay the whole outstanding, Rs 5,259?" was
    corrected back to Rs 10,000); before the rule, another amount is still corrected."""
    whole = Fact(
        text="Then pay the whole outstanding, please.",
        about=("amount",),
        after=("over_outstanding",),
    )
    recap = "Just to be sure: you want me to pay Rs 5,259 to your card ending 0437 from ****7793?"
    early = _customer("pay_more_than_owed", (Instruction(text=OVERPAY),), facts=(whole,))
    reply = _says(early.respond(recap))
    assert not reply.agrees and reply.text.startswith(NOT_WHAT_I_ASKED)
    customer = _customer("pay_more_than_owed", (Instruction(text=OVERPAY),), facts=(whole,))
    customer.respond("I'm afraid a payment can't be more than the total outstanding, Rs 5,259.")
    assert _says(customer.respond(recap)).agrees


def test_a_closure_credited_to_the_linked_account_is_the_banks_record() -> None:
    """A closure's payout goes to the deposit's linked account: naming it is no other account
    than the one the customer debits for another request."""
    customer = _customer("fd_closure", (Instruction(text=FORECLOSE), Instruction(text=FIRST)))
    _agreed(customer)
    customer.respond("Done. Amount paid Rs 1,05,305.33.")
    proposal = "I'll break the FD early; payout Rs 1,18,985.13 credited to ****0639. Confirm?"
    assert customer.respond(proposal) == Say(YES, agrees=True)


def test_a_closure_that_also_sends_the_payout_elsewhere_is_corrected() -> None:
    customer = _customer("fd_closure", (Instruction(text=FORECLOSE), Instruction(text=FIRST)))
    _agreed(customer)
    customer.respond("Done. Amount paid Rs 1,05,305.33.")
    other = "I'll break the FD early and transfer the payout to ****0639. Confirm?"
    reply = _says(customer.respond(other))
    assert not reply.agrees and reply.text.startswith(NOT_WHAT_I_ASKED)


def test_a_deposit_for_another_term_is_corrected_and_a_year_is_its_days() -> None:
    book = Instruction(text="Please book an FD of Rs. 1,00,000 for 1 year from my savings account.")
    customer = _customer("deposit_outside_limits", (book,))
    wrong = customer.respond("I'll book an FD of Rs. 1,00,000 for 180 days. Shall I go ahead?")
    assert not _says(wrong).agrees and "1 year" in _says(wrong).text
    right = "I'll book an FD of Rs. 1,00,000 for 365 days. Shall I go ahead?"
    assert customer.respond(right) == Say(YES, agrees=True)


def test_a_fallback_released_by_a_refusal_counts_as_the_scripts_own_value() -> None:
    own = Instruction(text="Send Rs. 5,000 to Ravi Kumar by IMPS from my account 50100011112222.")
    fallback = Fact(
        text="Then send it from my savings account 50107030950300 instead.",
        about=("account",),
        after=("dormant",),
    )
    customer = _customer("cooling_period_limit", (own,), facts=(fallback,))
    other = "Shall I send Rs. 5,000 to Ravi Kumar by IMPS from your account ending 0300?"
    assert not _says(customer.respond(other)).agrees  # not its account, yet
    refusal = "I'm sorry, I can't send it: the account ending 2222 has been inactive for years."
    assert fallback.text in _says(customer.respond(refusal)).text
    assert customer.respond(other.replace("Shall I", "So, shall I")) == Say(YES, agrees=True)


# -- a refused part does not end the conversation (issue 16) --------------------------------------
CLOSE = "Close my Rs. 1,13,000 FD today and credit my account. If you can't, tell me why."


def test_a_refusal_with_its_reason_is_followed_by_the_next_request() -> None:
    customer = _customer(instructions=(Instruction(text=CLOSE), Instruction(text=SECOND)))
    refusal = "I'm sorry, I can't close this FD: it is pledged as security for your loan."
    assert customer.respond(refusal) == Say(f"{UNDERSTOOD} {SECOND}", agrees=False)


def test_a_bare_refusal_still_gets_the_requests_own_question_first() -> None:
    customer = _customer(instructions=(Instruction(text=CLOSE), Instruction(text=SECOND)))
    assert _says(customer.respond("I'm sorry, I can't do that.")).text.endswith("tell me why.")
    assert _says(customer.respond("Unfortunately, it is under lien.")).text.endswith(SECOND)


def test_a_refusal_that_offers_something_unasked_brings_the_next_request() -> None:
    customer = _customer(instructions=(Instruction(text=CLOSE), Instruction(text=SECOND)))
    refusal = (
        "I can't close it before the lock-in ends. Would you like me to open a new FD instead?"
    )
    assert customer.respond(refusal) == Say(f"{NO_THANKS} {SECOND}", agrees=False)


# -- a volunteered secret ---------------------------------------------------------------------------
OTP = "My OTP is 482913, in case you need it."


def test_a_volunteered_secret_is_said_with_the_request_that_carries_it() -> None:
    first = _customer(instructions=(Instruction(text=FIRST, volunteers=OTP),), withheld=("482913",))
    assert first.open() == f"{FIRST} {OTP}"
    later = _customer(
        instructions=(Instruction(text=FIRST), Instruction(text=SECOND, volunteers=OTP)),
        withheld=("482913",),
    )
    assert later.open() == FIRST
    _agreed(later)
    assert later.respond("Done. Anything else?") == Say(f"{SECOND} {OTP}", agrees=False)
    assert OTP not in _says(later.respond("Which account is the statement for?")).text


# -- a fallback's rule, heard by concept -----------------------------------------------------------
def test_a_fallback_after_a_concept_is_released_by_any_wording_of_it_unnegated() -> None:
    fallback = Fact(text="Then tell me the loan outstanding.", about=("loan",), after=("lien",))
    customer = _customer("fd_lien_refusal", facts=(fallback,))
    assert fallback.text not in _says(customer.respond("Good news: it is not under lien.")).text
    assert not customer.ready(fallback)
    customer.respond("Sorry, I can't close it: the FD is pledged as collateral for your loan.")
    assert customer.ready(fallback)


# -- what ends a request -------------------------------------------------------------------------------
def test_a_report_before_the_yes_is_a_quote_not_the_end() -> None:
    customer = _customer()
    assert _says(customer.respond("The payout would be Rs. 1,12,345.")).text == GO_ON
    _agreed(customer)
    assert customer.respond("That is done. Payout: Rs. 1,12,345.") == Stop("all instructions done")


def test_a_question_wins_over_a_report_in_the_same_turn() -> None:
    customer = _customer(facts=(Fact(text="It's the June 2025 one.", about=("deposit",)),))
    turn = "I found two FDs: Rs 1,13,000 and Rs 2,00,000. Which one should I close?"
    assert _says(customer.respond(turn)).text == "It's the June 2025 one."


def test_a_refusal_is_accepted_and_followed_by_the_requests_own_fallback_question() -> None:
    request = Instruction(
        text="Close my FD today. If you can't, tell me why and how much I still owe on the loan."
    )
    customer = _customer("fd_lien_refusal", instructions=(request,))
    reply = _says(customer.respond("I'm sorry, I can't close this FD: it is under lien."))
    assert reply.text.endswith("Then tell me why and how much I still owe on the loan.")
    told = "Unfortunately it can't be closed. The loan outstanding is Rs. 2,10,000."
    assert customer.respond(told) == Stop("all instructions done")


def test_a_refusal_that_tells_the_results_ends_the_request() -> None:
    request = Instruction(text="Close my FD today. If you can't, tell me how much I owe.")
    customer = _customer("fd_lien_refusal", instructions=(request,))
    refusal = "I'm sorry, I can't do that: the FD is under lien. Outstanding: Rs. 2,10,000."
    assert customer.respond(refusal) == Stop("all instructions done")


def test_a_hand_off_is_waited_for_once_then_ends_the_conversation() -> None:
    customer = _customer("card_dispute_handoff")
    assert _says(customer.respond("I'll transfer you to a human agent now.")).text == HOLDING
    assert customer.respond("Connecting you to a specialist.") == Stop("the agent handed over")


def test_a_turn_it_cannot_read_gets_a_prompt_to_go_on_never_an_ending() -> None:
    customer = _customer()
    for text in ("Hmm.", "😊", "Theek hai."):
        assert customer.respond(text) == Say(GO_ON, agrees=False)


def test_stops_after_a_bounded_number_of_turns_without_progress() -> None:
    customer = _customer(facts=("It's the June 2025 one.",))
    turns = [customer.respond("Sorry, could you repeat that?") for _ in range(10)]
    assert turns[-1] == Stop("no progress")
    assert sum(isinstance(t, Say) for t in turns) == NO_PROGRESS_LIMIT + 1


def test_the_same_proposal_again_and_again_is_no_progress() -> None:
    customer = _customer()
    turns = [customer.respond("Shall I proceed?") for _ in range(NO_PROGRESS_LIMIT + 2)]
    assert turns[-1] == Stop("no progress")


# -- the shipped tasks and the module's helpers --------------------------------------------------
def test_opens_with_the_first_message() -> None:
    task = _task("fd_closure")
    assert ScriptedCustomer(task).open() == task.scenario.first_message


def test_a_greeting_with_a_question_gets_the_facts() -> None:
    task = _task("new_payee_transfer")
    customer = ScriptedCustomer(task)
    turn = "Hello! I can help with that. Could you tell me the payee's name and account number?"
    reply = _says(customer.respond(turn))
    assert reply.text and reply.agrees is False and reply.text != GO_ON


def test_the_old_helpers_read_through_the_acts() -> None:
    assert asks_question("Which account should I use?")
    assert asks_confirmation("Please reply YES to confirm.")
    assert not asks_question("Your balance is Rs. 5,000.")
    assert not asks_confirmation("Is there anything else I can help you with?")


@pytest.mark.parametrize(
    ("phrase", "transcript", "said"),
    [
        ("50,000", "You can send at most Rs. 50,000.00 today.", True),
        ("50,000", "The limit is ₹50000.", True),
        ("50,000", "The limit is half a lakh, or 0.5 lakh.", True),
        ("50,000", "You sent Rs. 1,50,000.", False),
        ("cooling period", "This payee is in its Cooling-Period.", True),
        ("2 lakh", "RTGS needs at least Rs 2,00,000.", True),
        ("Rs 5,000", "Shall I send five thousand rupees?", True),
        ("Rs 5,000", "Shall I send fifty thousand rupees?", False),
    ],
)
def test_a_constraint_is_heard_however_the_amount_is_written(
    phrase: str, transcript: str, said: bool
) -> None:
    assert was_said(phrase, heard(transcript)) is said
