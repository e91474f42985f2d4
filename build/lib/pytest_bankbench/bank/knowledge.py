"""The knowledge base behind search_knowledge_base: 24 markdown documents, ranked keyword search."""

from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass
from functools import cache

from pytest_bankbench.paths import data_dir

_WORD = re.compile(r"[a-z0-9]+")
_STOP = frozenset(
    [
        "a",
        "an",
        "and",
        "are",
        "as",
        "at",
        "be",
        "by",
        "can",
        "do",
        "for",
        "from",
        "how",
        "i",
        "if",
        "in",
        "is",
        "it",
        "my",
        "of",
        "on",
        "or",
        "the",
        "to",
        "what",
        "when",
        "which",
        "will",
        "with",
        "you",
        "your",
        "me",
    ]
)


@dataclass(frozen=True)
class Document:
    """One knowledge-base article."""

    doc_id: str
    title: str
    text: str


def _terms(text: str) -> list[str]:
    return [w for w in _WORD.findall(text.lower()) if w not in _STOP]


@cache
def documents() -> tuple[Document, ...]:
    """The shipped articles, sorted by file name."""
    docs = []
    for path in sorted((data_dir() / "kb").glob("*.md")):
        text = path.read_text(encoding="utf-8")
        first = text.splitlines()[0] if text else path.stem
        docs.append(Document(path.stem, first.lstrip("# ").strip(), text))
    return tuple(docs)


@cache
def _index() -> tuple[list[Counter[str]], dict[str, float]]:
    counts = [Counter(_terms(doc.title + " " + doc.title + " " + doc.text)) for doc in documents()]
    total = len(counts)
    df = Counter(term for count in counts for term in count)
    idf = {term: math.log(1 + (total - n + 0.5) / (n + 0.5)) for term, n in df.items()}
    return counts, idf


def search(query: str, limit: int = 2) -> list[Document]:
    """Documents ranked by BM25-style keyword relevance to the query; ties keep file order."""
    counts, idf = _index()
    terms = _terms(query)
    scored = []
    for position, (doc, count) in enumerate(zip(documents(), counts, strict=True)):
        length = sum(count.values()) or 1
        score = sum(
            idf.get(t, 0.0) * count[t] * 2.2 / (count[t] + 1.2 * (0.25 + 0.75 * length / 400))
            for t in terms
        )
        if score > 0:
            scored.append((-score, position, doc))
    return [doc for _, _, doc in sorted(scored)[:limit]]
