"""The LLM customer on the scripted customer's footing: same script, same fact release, same
stop signals. Recorded model turns (fake completions, no network) show it ends, hands over,
declines and agrees where the scripted customer does, in its own words."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import pytest

from pytest_bankbench.bank.store import Bank
from pytest_bankbench.models.customer import MODEL_ENDED, STOP_TOKEN, LiteLLMCustomer
from pytest_bankbench.models.llm import ModelClient
from pytest_bankbench.models.model_settings import ModelSettings
from pytest_bankbench.runner import expected_changes
from pytest_bankbench.scoring.scorer import score
from pytest_bankbench.simulation.agents import AgentAction, GoldAgent, spoken_value
from pytest_bankbench.simulation.customer import YES, Customer, Say, ScriptedCustomer, Stop
from pytest_bankbench.simulation.session import CustomerError, run_session
from pytest_bankbench.simulation.trace import Event, MessageEvent, ToolCall, Trace
from pytest_bankbench.tasks.loader import shipped_tasks
from pytest_bankbench.tasks.model import Task
from tests.models.fakes import Scripted, mocked

TASKS = shipped_tasks()
SCRIPTED_LINE = re.compile(r'A scripted customer with your script would now say: "(.*)"', re.S)


def _task(task_id: str) -> Task:
    return next(t for t in TASKS if t.task_id == task_id)


def _llm(task: Task, completion: Any) -> LiteLLMCustomer:
    settings = ModelSettings(model="openai/fake-customer", backoff_s=0.0)
    return LiteLLMCustomer(ModelClient(settings, completion, sleep=lambda _s: None), task)


def _play(task: Task, agent: Any, customer: Customer) -> Trace:
    with Bank(task.customer_id, task.task_date, task.bank_seed) as bank:
        return run_session(task, agent, customer, bank)


def _footing(trace: Trace) -> list[tuple[str, bool | None]]:
    """What the conversation did, without the customer's words: who spoke, and each yes."""
    return [
        (e.role, e.agrees if e.role == "customer" else None)
        for e in trace.events
        if isinstance(e, MessageEvent)
    ]


class Turns:
    """An agent that plays fixed moves, whatever the customer says, then ends."""

    name = "turns"

    def __init__(self, moves: Sequence[str | list[ToolCall]]) -> None:
        self.moves = list(moves)

    def act(self, events: Sequence[Event]) -> AgentAction:
        if not self.moves:
            return AgentAction(end=True)
        move = self.moves.pop(0)
        return AgentAction(message=move) if isinstance(move, str) else AgentAction(move)


def _gold_calls(task: Task, instruction: int) -> list[ToolCall]:
    return [
        ToolCall(call_id=f"t-{g.id}", name=g.tool, arguments=dict(g.arguments))
        for g in task.gold
        if g.instruction == instruction
    ]


class Paraphrase:
    """A customer model that says what the scripted line says, in other words."""

    def __init__(self) -> None:
        self.requests: list[dict[str, Any]] = []

    def __call__(self, **kwargs: Any) -> Any:
        self.requests.append(kwargs)
        match = SCRIPTED_LINE.search(kwargs["messages"][0]["content"])
        assert match, "the prompt carries the scripted line"
        line = match.group(1)
        return mocked("Yes, that's fine - please do it." if line == YES else f"Hmm, {line}")


# -- recorded conversations --------------------------------------------------------------------------
def test_it_ends_where_the_scripted_customer_ends_and_the_gold_agent_passes() -> None:
    task = _task("fd_closure-001")
    fake = Scripted(
        [
            mocked("Sure - it's the Rs 1,13,000 fixed deposit I opened in June 2025."),
            mocked("Yes, that's fine. Please close it."),
        ]
    )
    llm = _play(task, GoldAgent(task), _llm(task, fake))
    scripted = _play(task, GoldAgent(task), ScriptedCustomer(task))
    assert _footing(llm) == _footing(scripted)
    assert (llm.end, llm.end_detail) == (scripted.end, scripted.end_detail)
    assert llm.end_detail == "all instructions done"
    # Every customer turn after the opening came from the model, and the end from the script.
    said = [e for e in llm.events if isinstance(e, MessageEvent) and e.role == "customer"]
    assert len(fake.requests) == len(said) - 1 >= 1, "the end came from the script, not a call"
    assert score(task, llm, expected_changes(task)).passed


def test_it_declines_an_offer_and_is_handed_over_where_the_scripted_customer_is() -> None:
    task = _task("card_dispute_handoff-001")
    date = next(o for o in task.required_outputs if o.kind == "date")
    moves: list[str | list[ToolCall]] = [
        "Hello! Which card is it, and how much was the charge?",
        _gold_calls(task, 0),
        f"I checked your statement: that Swiggy charge was on {spoken_value(date)}.",
        "Before I connect you to our Card Disputes team, would you like me to block the card "
        "as a precaution?",
        _gold_calls(task, 1),
    ]
    fake = Scripted(
        [
            mocked("It's my Rewards credit card ending 7247, the Rs 8,569 Swiggy charge."),
            mocked("Thanks. I want to dispute it - please put me through to the disputes team."),
            mocked("No, please don't block it. Just connect me."),
        ]
    )
    llm = _play(task, Turns(moves), _llm(task, fake))
    scripted = _play(task, Turns(moves), ScriptedCustomer(task))
    assert _footing(llm) == _footing(scripted)
    assert llm.end == scripted.end == "transfer"
    assert [agrees for role, agrees in _footing(llm) if role == "customer"][-1] is False
    assert score(task, llm, expected_changes(task)).passed


def test_it_says_the_scripted_refusal_and_brings_the_next_request_where_the_script_does() -> None:
    task = _task("fd_closure_declined-001")
    moves: list[str | list[ToolCall]] = [
        "Which FD would you like me to look at?",
        _gold_calls(task, 0),
        "The penalty would be Rs 977.05 and the payout Rs 1,67,832.97. "
        "Would you like me to close it now?",
        "Understood, I won't close it. Is there anything else I can help with?",
        "Noted - your deposit stays as it is. Anything else?",
    ]
    fake = Scripted(
        [
            mocked("The Rs 1,63,000 one from October 2025."),
            mocked("No, don't close it yet - I only wanted the figures."),
            mocked("That penalty is too high, so please just keep the deposit running."),
        ]
    )
    llm = _play(task, Turns(moves), _llm(task, fake))
    scripted = _play(task, Turns(moves), ScriptedCustomer(task))
    assert _footing(llm) == _footing(scripted)
    assert (llm.end, llm.end_detail) == (scripted.end, "all instructions done")
    assert not llm.changes


# -- the same script, the same facts, the same guard ---------------------------------------------------
def test_a_fallback_reaches_the_model_only_after_the_agent_states_the_rule() -> None:
    task = _task("cooling_period_limit-001")
    fallback = next(f for f in task.scenario.structured_facts() if f.after)
    fake = Scripted([mocked("It's for my aunt."), mocked("Oh. Then send what you can today.")])
    customer = _llm(task, fake)
    customer.open()
    customer.respond("Hello! Who is the payee, and how much should I send?")
    rule = "A new payee can receive at most Rs. 50,000 on the first day (the cooling period)."
    customer.respond(f"Sorry, I can't send it all today. {rule}")
    before, after = (r["messages"][0]["content"] for r in fake.requests)
    assert fallback.text not in before
    assert fallback.text in after


def test_the_models_words_never_carry_an_internal_id() -> None:
    task = _task("fd_closure-001")
    fake = Scripted([mocked("It's FD000123. The one from June 2025.")])
    customer = _llm(task, fake)
    customer.open()
    turn = customer.respond("Which deposit is it?")
    assert turn == Say("The one from June 2025.", agrees=False)


def test_the_stop_token_is_the_typed_stop() -> None:
    task = _task("fd_closure-001")
    customer = _llm(task, Scripted([mocked(STOP_TOKEN)]))
    customer.open()
    assert customer.respond("Which deposit is it?") == Stop(MODEL_ENDED)


def test_an_empty_reply_is_the_simulators_failure_not_an_ending() -> None:
    """User trial: an empty reply ended the session, and the agent failed stopped_short."""
    task = _task("fd_closure-001")
    customer = _llm(task, Scripted([mocked("")]))
    customer.open()
    with pytest.raises(CustomerError, match="an empty reply"):
        customer.respond("Which deposit is it?")


def test_the_customer_models_reasoning_is_not_said() -> None:
    """A customer model that thinks in its content ("<think>...</think>") says only its reply;
    a stop token inside its thinking ends nothing."""
    task = _task("fd_closure-001")
    thinking = f"<think>Not {STOP_TOKEN} yet; the FD is FD000123.</think>"
    customer = _llm(task, Scripted([mocked(f"{thinking}\n\nThe one from June 2025.")]))
    customer.open()
    turn = customer.respond("Which deposit is it?")
    assert turn == Say("The one from June 2025.", agrees=False)


def test_a_yes_counts_only_where_the_agent_proposed_something() -> None:
    task = _task("fd_closure-001")
    customer = _llm(task, Scripted([mocked("Yes, it's the June one."), mocked("Yes, go ahead.")]))
    customer.open()
    answer = customer.respond("Is it the FD from June 2025?")
    consent = customer.respond("The payout is Rs. 1,18,985. Shall I close it?")
    assert (answer.agrees, consent.agrees) == (False, True)  # type: ignore[union-attr]


# -- a broad check: in other words, the same conversation on every family ---------------------------
FIRST_OF_EACH = list({t.family: t for t in reversed(TASKS)}.values())


@pytest.mark.parametrize("task", FIRST_OF_EACH, ids=lambda t: t.task_id)
def test_in_other_words_the_gold_conversation_goes_the_same_way(task: Task) -> None:
    llm = _play(task, GoldAgent(task), _llm(task, Paraphrase()))
    scripted = _play(task, GoldAgent(task), ScriptedCustomer(task))
    assert _footing(llm) == _footing(scripted)
    assert (llm.end, llm.end_detail) == (scripted.end, scripted.end_detail)
    assert score(task, llm, expected_changes(task)).passed
