"""The knowledge-base family: the answer is in the articles the gold query finds."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from pytest_bankbench.authoring.base import Known
from pytest_bankbench.authoring.families.everyday import knowledge as everyday_knowledge
from pytest_bankbench.bank import knowledge
from pytest_bankbench.scoring.scorer import output_said
from pytest_bankbench.tasks.model import RequiredOutput
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


def test_a_fixed_question_with_an_unknown_field_or_kind_is_refused() -> None:
    good = {"label": "fee", "kind": "amount", "rupees": 200}
    assert everyday_knowledge._KbOutput.model_validate(good).out().kind == "amount"
    for bad in ({**good, "kind": "fee"}, {**good, "rupee": 200}):
        with pytest.raises(ValidationError):
            everyday_knowledge._KbOutput.model_validate(bad)
