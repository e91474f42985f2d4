"""What a sentence is about: the products and limits the policy names (its topics: IMPS, a
replacement card, re-KYC, ...), and the row of an article's table it tells (its item: zero or
limited liability, a customer's risk category). The bank's sentences, each with its topics and
items, are read once from the policy and the articles.

A figure the agent tells is the bank's only for what its sentence is about: the rule figures'
check (scoring/rule_figures.py) reads a rule's limits and periods by topic and an article's
period by item ("zero liability within 3 working days", not the 10 days of the shadow credit's
row; "every 2 years" for high-risk customers, not the low-risk 10), the grounded values' check
(scoring/grounded.py) a fee by topic ("the replacement card costs Rs 200", not the Rs 500 of a
cheque returned). Issue 16: the careless wordings of each passed.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

from pytest_bankbench.bank.knowledge import documents
from pytest_bankbench.scoring.outputs import clean
from pytest_bankbench.simulation.chat import policy_text

# What a rule is about: the products and limits the policy names.
_TOPICS = (
    "imps", "neft", "rtgs", "payee", "beneficiary", "cooling", "fixed deposit", "tax-saver",
    "tax saver", "recurring", "debit card", "credit card", "rupay", "visa", "pos", "shop", "atm",
    "online", "contactless", "international", "personal loan", "home loan", "gold loan",
    "car loan", "prepay", "foreclos", "cheque", "statement", "kyc", "lien", "dormant",
    "replacement", "dispute", "complaint", "ombudsman", "stop payment", "liability", "80c",
)  # fmt: skip
_SINGULAR = frozenset(_TOPICS) | {"fd", "rd", "card", "deposit", "loan"}
_STEMS = ("prepay", "foreclos", "replacement")  # "prepayment", "foreclosure": opening a word
_TOPIC = re.compile(
    r"\b(?:"
    + "|".join(re.escape(t) for t in _TOPICS if t not in _STEMS)
    + r"|fd|rd)s?\b|\b(?:prepay|prepaid|foreclos|unauthori[sz]ed|replac|re-?issu)"
    # a stop payment said otherwise: "stopping a cheque", "the stop will be effective"
    r"|\bstop-payment\b|\bstop(?:ping|ped)?(?=\s+(?:(?:a|the|this|that|your)\s+)?cheques?\b)"
    r"|\bthe stop\b|\bstop (?:instruction|request)"
)


def topics(sentence: str) -> frozenset[str]:
    """What a sentence is about; a tax-saver FD is not any FD (the policy's rules of FDs in
    general do not give its lock-in), a stop payment not any cheque service."""
    found = {_topic(m.group()) for m in _TOPIC.finditer(sentence)}
    if "tax-saver" in found:
        found.discard("fixed deposit")
    if "stop payment" in found:  # nor a stop payment any cheque service (a cheque book's Rs 200)
        found.discard("cheque")
    return frozenset(found)


def _topic(word: str) -> str:
    if word.startswith(("stop", "the stop")):
        return "stop payment"
    if word.endswith("s") and word[:-1] in _SINGULAR:  # "disputes", "personal loans"
        word = word[:-1]
    return {"beneficiary": "payee", "tax saver": "tax-saver", "fd": "fixed deposit",
            "rd": "recurring", "shop": "pos", "foreclos": "prepay",
            "prepaid": "prepay", "unauthorised": "liability", "unauthorized": "liability",
            "replac": "replacement", "reissu": "replacement",
            "re-issu": "replacement"}.get(word, word)  # fmt: skip


# The rows of an article that give one topic's periods apart ("| High risk | 2 years |", "Zero
# liability if ... within 3 working days", "Shadow (provisional) credit ... within 10 working
# days"), each with the words an agent names it by ("a high-risk customer", "you won't be liable").
_ITEM = re.compile(
    r"(?=[zlnhmpsy])(?:\b(?:(zero|limited)[- ]liability|liability (?:is|will be) (zero|nil|limited)"
    r"|(no) liability|(high|medium|low)(?:er)?[- ]risk|(shadow|provisional) (?:\(provisional\) )?"
    r"credit)|(not|n't) be (?:held )?liable)\b"
)
_ITEM_NAMES = {"zero": "zero liability", "nil": "zero liability", "no": "zero liability",
               "not": "zero liability", "n't": "zero liability", "limited": "limited liability",
               "high": "high risk", "medium": "medium risk", "low": "low risk",
               "shadow": "shadow credit", "provisional": "shadow credit"}  # fmt: skip
_ITEM_HINT = ("liab", "risk", "credit")


def items(text: str) -> frozenset[str]:
    """The rows of an article a text names ("zero liability", "high risk")."""
    if not any(h in text for h in _ITEM_HINT):
        return frozenset()
    return frozenset(_ITEM_NAMES[next(g for g in m.groups() if g)] for m in _ITEM.finditer(text))


# A sentence's clauses: a row's name binds the counts of its own clause ("zero liability if
# reported within 3 working days, and a shadow credit within 10 working days").
_CLAUSE = re.compile(r",\s|\s(?:and|but|while|whereas|so|or)\s|\s[-–—]\s|[()]")


def bound_items(sentence: str, counted: re.Pattern[str]) -> Callable[[int], frozenset[str]] | None:
    """The article rows the count (`counted`) at a position is told for: those its clause
    names, else those a clause without a count of its own names ("for zero liability, report
    within 3 working days"); None when the sentence names none (most)."""
    if not items(sentence):
        return None
    clauses: list[tuple[int, frozenset[str]]] = []  # each clause's end and its items
    loose: set[str] = set()
    start = 0
    for cut in [*_CLAUSE.finditer(sentence), None]:
        end = cut.start() if cut else len(sentence)
        clause = sentence[start:end]
        named = items(clause)
        if named and not counted.search(clause):
            loose |= named
        clauses.append((end, named))
        start = cut.end() if cut else end
    unbound = frozenset(loose)
    return lambda at: next((n for end, n in clauses if at < end), frozenset()) or unbound


# A sentence ends at ".", "!", "?" or ";" and a space ("Rs. 5,000" ends nothing), or a line.
SENTENCE_END = re.compile(r"(?<!rs\.)(?<!no\.)(?<=[.!?;])\s+|\n+")
_QUESTION = re.compile(r'"[^"]*\?"|[^.!?;"]*\?')


@dataclass(frozen=True)
class BankSentence:
    """One sentence of the policy or an article, lowered."""

    text: str
    topics: frozenset[str]  # its own, else its table row's, its section's, its document's
    line: frozenset[str]  # its line's ("43. Stop payment: ... Mention the Rs 100 fee")
    items: frozenset[str]  # its own, else its table row's
    article: str  # the article's title, "" for the policy
    table: bool


@cache
def bank_sentences() -> tuple[BankSentence, ...]:
    """The policy's and the articles' sentences; a sentence that names no topic is about its
    table row's, else its section's, else its document's ("| Low risk | 10 years |" under
    "Periodic re-KYC"). An article's question states no rule ('- "can i book a 3-year tax-saver
    fd?" - no.'): it is left out."""
    found: list[BankSentence] = []
    texts = [("", policy_text())] + [(d.title, d.text) for d in documents()]
    for title, text in texts:
        whole = topics(clean(title))
        heading = frozenset[str]()
        for line in clean(text).splitlines():
            if line.startswith("#"):
                heading = topics(line) or whole
                continue
            table = line.startswith("|")
            named = topics(line)
            row = named if table else frozenset[str]()
            row_items = items(line) if table else frozenset[str]()
            for sentence in SENTENCE_END.split(_QUESTION.sub("", line)):
                own = topics(sentence)
                found.append(
                    BankSentence(
                        sentence,
                        own or row or heading or whole,
                        named,
                        items(sentence) or row_items,
                        title,
                        table,
                    )
                )
    return tuple(found)
