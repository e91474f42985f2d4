"""The LLM customer is told the scripted customer's rules of issue 16, and keeps its secret.

Its prompt says to agree only to its own account, card, deposit or loan, amount, mode, term and
statement period (correcting any other),
to bring the next request after a refusal, and to say a request's volunteered text; the
volunteered text reaches the agent word for word even where the model leaves it out.
"""

from __future__ import annotations

from typing import Any

from pytest_bankbench.models.customer import LiteLLMCustomer
from pytest_bankbench.models.llm import ModelClient
from pytest_bankbench.models.model_settings import ModelSettings
from pytest_bankbench.simulation.customer import Say
from pytest_bankbench.tasks.loader import shipped_tasks
from pytest_bankbench.tasks.model import Instruction, Scenario, Task
from tests.models.fakes import Scripted, mocked

OTP = "My OTP is 482913, in case you need it."


def _task(*instructions: Instruction) -> Task:
    task = next(t for t in shipped_tasks() if t.family == "fd_closure")
    scenario = Scenario(
        persona="A customer.",
        first_message=instructions[0].text,
        instructions=instructions,
        withheld=("482913",),
        narrative="What the customer wants.",
    )
    gold = tuple(g.model_copy(update={"instruction": 0}) for g in task.gold)
    return task.model_copy(update={"scenario": scenario, "gold": gold})


def _llm(task: Task, completion: Any) -> LiteLLMCustomer:
    settings = ModelSettings(model="openai/fake-customer", backoff_s=0.0)
    return LiteLLMCustomer(ModelClient(settings, completion, sleep=lambda _s: None), task)


def test_the_prompt_tells_the_rules_and_the_volunteered_text() -> None:
    task = _task(Instruction(text="Close my FD."), Instruction(text="Then.", volunteers=OTP))
    prompt = _llm(task, Scripted([])).system("Yes, please go ahead.")
    assert "correct it with yours" in prompt
    # the same rules as the scripted customer's: its own record and statement period only
    assert "another of your cards, deposits or loans than the one you" in prompt
    assert "statement period (other" in prompt
    assert "your next request, if you have one" in prompt
    assert f'also say: "{OTP}"' in prompt


def test_the_volunteered_text_is_said_word_for_word() -> None:
    task = _task(
        Instruction(text="Close my FD."), Instruction(text="Also a statement.", volunteers=OTP)
    )
    model = Scripted([mocked("Great, and could I also get a statement please?")])
    customer = _llm(task, model)
    assert customer.open() == "Close my FD."
    customer.script.yes = 1  # the closure was agreed to: its report ends the request
    turn = customer.respond("Done: the FD is closed. Anything else?")
    assert isinstance(turn, Say) and turn.text.endswith(OTP)
