"""The knowledge-base family: the answer is in the articles the gold query finds."""

from __future__ import annotations

from pytest_bankbench.bank import knowledge
from pytest_bankbench.scoring.scorer import output_said
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
