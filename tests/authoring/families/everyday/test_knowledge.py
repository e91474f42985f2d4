"""The knowledge-base family: the answer is in the articles the gold query finds."""

from __future__ import annotations

import random

import pytest
from pydantic import ValidationError

from pytest_bankbench.authoring import base
from pytest_bankbench.authoring.base import Context, Known, Out
from pytest_bankbench.authoring.families.everyday import knowledge as everyday_knowledge
from pytest_bankbench.bank import knowledge
from pytest_bankbench.bank.image import DEFAULT_SEED
from pytest_bankbench.scoring.scorer import output_said
from pytest_bankbench.tasks.model import RequiredOutput
from pytest_bankbench.tasks.passages import passage_problem
from tests.authoring.families.shipped import (
    gold_call,
    tasks_of,
)


def test_kb_answer_is_in_the_articles_the_gold_query_finds() -> None:
    queries = set()
    for task in tasks_of("kb_answer"):
        search = gold_call(task, "search_knowledge_base")
        assert search.match == ()
        query = str(search.arguments["query"])
        queries.add(query)
        articles = [doc.text for doc in knowledge.search(query)]
        assert task.required_outputs, task.task_id
        for output in task.required_outputs:
            assert output_said(output, articles), (task.task_id, output.label, output.value)
    assert len(queries) >= 6  # several knowledge-base documents


def test_every_fixed_question_is_asked_and_its_answer_is_in_the_articles() -> None:
    """The table of knowledge_questions.toml: each question is in the family's order and what
    it expects is what the articles its query finds say (a wrong value in the table fails)."""
    fixed = everyday_knowledge._fixed_questions()
    assert set(fixed) <= set(everyday_knowledge._ORDER)
    for name, row in fixed.items():
        question = row.question()
        articles = [doc.text for doc in knowledge.search(question.query)]
        for out in question.outputs:
            assert isinstance(out.source, Known), (name, out.label)
            told = RequiredOutput(
                label=out.label,
                kind=out.kind,
                value=out.source.value,
                unit=out.unit,
                also=out.also,
                instruction=0,
            )
            assert output_said(told, articles), (name, out.label, out.source.value)


def _passage_problem(out: Out, articles: list[str]) -> str | None:
    """Why the article an output names does not give its value, or is not one its query finds."""
    assert isinstance(out.source, Known) and out.source.of.article is not None
    doc_id, near = out.source.of.article, out.source.of.near
    if doc_id not in articles:
        return f"{doc_id} is not found by the question's query ({articles})"
    text = next(doc.text for doc in knowledge.documents() if doc.doc_id == doc_id)
    return passage_problem(out.kind, out.source.value, text, near, doc_id)


def test_every_answer_names_the_article_that_states_it() -> None:
    """Each question's value is the figure of the article it names, after its `near`, and that
    article is one the gold query finds (the gold agent reads it there). The questions that
    depend on a record are asked of many customers, so that each variant is met (the senior
    threshold, the fee of each card type)."""
    ctx = Context(DEFAULT_SEED)
    customers = ctx.all("SELECT * FROM customers ORDER BY customer_id")[:300]
    rng = random.Random(7)
    checked: set[tuple[str, str, str]] = set()
    questions = [
        (name, row.question()) for name, row in everyday_knowledge._fixed_questions().items()
    ]
    for name, maker in everyday_knowledge._MAKERS.items():
        made = (maker(ctx, rng, customer) for customer in customers)
        questions += [(name, question) for question in made if question is not None]
    for name, question in questions:
        found = [doc.doc_id for doc in knowledge.search(question.query)]
        for out in question.outputs:
            assert _passage_problem(out, found) is None, (name, out.label)
            assert isinstance(out.source, Known)
            checked.add((name, out.label, out.source.value))
    variants = {name for name, _, _ in checked}
    assert variants == set(everyday_knowledge._ORDER)
    assert {v for n, label, v in checked if label == "TDS threshold"} == {"40000.00", "50000.00"}
    lost_card = base.article("15-lost-or-stolen-card", near="Replacement fee:")
    wrong = Out("fee", "amount", base.known("250.00", lost_card))
    assert _passage_problem(wrong, ["15-lost-or-stolen-card"]) == (
        "amount 250.00 is not what 15-lost-or-stolen-card says after 'Replacement fee:': 200"
    )


def test_a_fixed_question_with_an_unknown_field_or_kind_is_refused() -> None:
    good = {"label": "fee", "kind": "amount", "rupees": 200, "article": "15-lost-or-stolen-card"}
    assert everyday_knowledge._KbOutput.model_validate(good).out().kind == "amount"
    for bad in ({**good, "kind": "fee"}, {**good, "rupee": 200}):
        with pytest.raises(ValidationError):
            everyday_knowledge._KbOutput.model_validate(bad)
