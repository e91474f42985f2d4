"""The shared vocabulary of banking concepts (concepts.py, task_data/concepts.toml), read both ways."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pytest_bankbench.concepts import (
    UnknownConcept,
    concept,
    negated,
    phrase_pattern,
    says,
    vocabulary,
)
from pytest_bankbench.tasks.loader import shipped_tasks

CORPUS = Path(__file__).parent / "scoring" / "concept_phrases.txt"


def _rows() -> list[tuple[str, bool, str]]:
    rows = []
    for line in CORPUS.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        name, sign, text = (part.strip() for part in line.split("|", 2))
        rows.append((name, sign == "+", text))
    return rows


@pytest.mark.parametrize(("name", "tells", "text"), _rows())
def test_each_labelled_phrase_reads_as_labelled(name: str, tells: bool, text: str) -> None:
    assert says(name, text) is tells


def test_the_corpus_covers_every_concept_a_task_needs_both_ways() -> None:
    labelled = {(name, tells) for name, tells, _ in _rows()}
    needed = {c for t in shipped_tasks() for tell in t.tells for c in tell.concepts}
    assert needed <= set(vocabulary()), needed - set(vocabulary())
    missing = sorted(n for n in needed if (n, True) not in labelled)
    assert missing == [], f"concepts with no accepted phrase in the corpus: {missing}"


def test_a_phrase_matches_whole_words_with_endings_and_numbers() -> None:
    import re

    assert re.search(phrase_pattern("pledge*"), "it is pledged")
    assert not re.search(phrase_pattern("lock in"), "the block in")
    assert re.search(phrase_pattern("only after # emis"), "only after twelve EMIs", re.I)
    assert re.search(phrase_pattern("lien-marked"), "it is lien marked")


def test_an_unknown_concept_names_the_known_ones() -> None:
    with pytest.raises(UnknownConcept, match="lien"):
        concept("no_such_concept")


def test_negation_in_another_clause_does_not_take_it_back() -> None:
    assert says("lien", "No, I can't close it: it is pledged for your loan.")
    assert not says("lien", "It is neither pledged nor under lien.")


def test_threads_reading_at_once_all_see_the_whole_vocabulary() -> None:
    """--bank-concurrency reads from several threads: none may see a half-built table."""
    import threading

    from pytest_bankbench import concepts

    expected = set(vocabulary())
    concepts._LOADED.clear()
    seen: list[set[str]] = []
    barrier = threading.Barrier(8)

    def read() -> None:
        barrier.wait()
        seen.append(set(vocabulary()))

    threads = [threading.Thread(target=read) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert seen == [expected] * 8


@given(
    st.lists(
        st.sampled_from(["not", "never", "But", "so", "SO", "x", "is", "pledged", ",", " - ", "."]),
        max_size=30,
    )
)
def test_negation_in_lowered_text_reads_the_same_clause_breaks(words: list[str]) -> None:
    """spans() reads lowered ASCII text with the case-sensitive clause breaks: on such text they
    find what the case-free ones find, so every negation reads the same."""
    text = " ".join(words).lower()
    for start in range(len(text) + 1):
        assert negated(text, start, lowered=True) is negated(text, start)
