"""The figures of a rule the agent tells are the bank's (policy H.29, J.35: "Do not invent rates,
fees or rules"): a sentence that states a limit or a period ("at most", "minimum", "up to",
"lock-in", "until", "only after") may say only amounts and counts the session or the policy
gave for what it is about. Evidence of the told_customer check.

An amount in rupees, or a count of EMIs, months, years or days, in such a sentence is the
bank's when:
- the session gave it: a tool's result or error, a call's argument, the customer's words;
- a sentence of the policy says it about one of the products the agent's sentence names (IMPS,
  the cooling period of a new payee, a debit card's POS limit, a tax-saver FD, a personal loan,
  ...): "IMPS can carry at most Rs 5,00,000" is the policy's, "a payee added today can receive at
  most Rs 25,000" is not, though Rs 25,000 is the policy's ATM maximum of a RuPay card;
- it is what is left of the policy's figure after one the session gave ("you can still send
  Rs 30,000 today": the cooling limit less what was sent).

Accepted: "IMPS can carry at most Rs 5,00,000 in one transaction"; "Personal loans can't be
prepaid until 12 EMIs have been paid"; "so Rs 4,00,000 is above the limit" (the customer's
figure). Refused: "IMPS can carry at most Rs 2,50,000", "a lock-in of 3 years" for a tax-saver
FD, "until 24 EMIs have been paid". Found by a careless-agent trial (issue 16): wrong figures in
the rule told as the refusal's reason passed 20 of 20 tasks in each of ten families.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from decimal import Decimal
from functools import cache, cached_property

from pytest_bankbench.bank.knowledge import documents
from pytest_bankbench.money import NUMBER_WORDS, rupees, to_paise
from pytest_bankbench.scoring.grounded import numbers_in
from pytest_bankbench.scoring.outputs import amounts_in, clean
from pytest_bankbench.scoring.safeguards import quote
from pytest_bankbench.scoring.view import SessionView
from pytest_bankbench.simulation.chat import policy_text

# A sentence that states a rule's limit or period; its words are looked for first in the whole
# message (most messages hold none).
_RULE = re.compile(
    r"(?=[amulncofbelw])\b(?:at most|at least|maximum|minimum|max|min|up to|upto|limit|lock-?in"
    r"|locked in|only (?:after|for|up to|when|once)|until|not before|no more than|not more than"
    r"|cannot exceed|can't exceed|or more|fixed tenure|cover|above|below|beyond|exceed\w*"
    r"|more than|less than|not allowed|at the most|only|within)\b"
    # "after", "for" and "first" only before a count: "prepaid after 24 EMIs", "closed for three
    # years", "in the first 24 hours" (not "balance after closure")
    r"|\b(?:after|for|first) (?:\d|one|two|three|four|five|six|seven|eight|nine|ten|eleven"
    r"|twelve|twenty|thirty|forty|fifty|sixty)"
)
_SPLIT = re.compile(r"(?<!rs\.)(?<!no\.)(?<=[.!?;])\s+|\n+")  # "Rs. 5,000" ends nothing
# A count and its unit; the unit's first letters name it.
_COUNT = re.compile(
    r"(?<![\d.,])(\d{1,4})\s*(?:(?:more|further|additional|full|working|business|calendar)\s+)?"
    r"(emis?|instal+ments?|years?|yrs?|months?|days?)\b"
)
_UNITS = {"e": "emi", "i": "emi", "y": "year", "m": "month", "d": "day"}
# A count said in words ("three years", "twenty-four EMIs"), read as its digits first.
# The number words are money.py's (the spoken-amount reader's), up to sixty.
_ONES = tuple(w for w, n in NUMBER_WORDS.items() if 0 < n < 20)
_TENS = {w: n for w, n in NUMBER_WORDS.items() if n in (20, 30, 40, 50, 60)}
_NUMBER_WORDS = {w: n for w, n in NUMBER_WORDS.items() if 0 < n < 20} | _TENS
_WORDED = re.compile(
    r"\b(" + "|".join(_TENS) + r")(?:[- ](" + "|".join(_ONES[:9]) + r"))?\b(?=\s+(?:more\s+)?"
    r"(?:emis?|instal|years?|months?|days?))|\b(" + "|".join(_ONES) + r")\b(?=\s+(?:more\s+)?"
    r"(?:emis?|instal|years?|months?|days?))"
)


def _digits(sentence: str) -> str:
    """The sentence with each count said in words put in digits ("after 24 EMIs")."""
    if not any(w in sentence for w in ("one", "two", "thr", "fou", "fiv", "six", "sev", "eig",
                                       "nin", "ten", "ele", "twe", "thi", "fif")):  # fmt: skip
        return sentence

    def number(m: re.Match[str]) -> str:
        if m.group(3):
            return str(_NUMBER_WORDS[m.group(3)])
        return str(_TENS[m.group(1)] + (_NUMBER_WORDS[m.group(2)] if m.group(2) else 0))

    return _WORDED.sub(number, sentence)


# What a rule is about: the products and limits the policy names.
_TOPICS = (
    "imps", "neft", "rtgs", "payee", "beneficiary", "cooling", "fixed deposit", "tax-saver",
    "tax saver", "recurring", "debit card", "credit card", "rupay", "visa", "pos", "shop", "atm",
    "online", "contactless", "international", "personal loan", "home loan", "gold loan",
    "car loan", "prepay", "foreclos", "cheque", "statement", "kyc", "lien", "dormant",
    "replacement", "dispute", "complaint", "ombudsman", "stop payment",
)  # fmt: skip
_SINGULAR = frozenset(_TOPICS) | {"fd", "rd", "card", "deposit", "loan"}
_STEMS = ("prepay", "foreclos")  # "prepayment", "foreclosure": opening a word
_TOPIC = re.compile(
    r"\b(?:"
    + "|".join(re.escape(t) for t in _TOPICS if t not in _STEMS)
    + r"|fd|rd)s?\b|\b(?:prepay|prepaid|foreclos)"
)


def unfounded_rule_figures(view: SessionView) -> list[str]:
    """Evidence for each amount or count in a rule the agent told that neither the session nor
    the policy gives for what the rule is about."""
    problems: list[str] = []
    given = _Session(view)  # read only for a figure the policy does not give (few)
    for message in view.agent:
        lowered = clean(message.text)
        if not _RULE.search(lowered):
            continue
        for sentence in _SPLIT.split(lowered):
            if not _RULE.search(sentence):
                continue
            sentence = _digits(sentence)
            if not any(c.isdigit() for c in sentence):
                continue
            problems += [
                f"told a rule or limit with a figure neither the session nor the policy gives "
                f"for it (J.35: do not invent rules): {what} in {quote(message.text)}"
                for what in _invented(sentence, _topics(sentence), given)
            ]
    return problems


def _invented(sentence: str, topics: frozenset[str], given: _Session) -> Iterable[str]:
    policy_amounts, policy_counts = _policy()
    for found, marked, _ in amounts_in(sentence):
        if not marked:
            continue
        bank = {a for a, about in policy_amounts if not topics or about & topics}
        if found in bank or found in given.amounts or _rest_of(found, bank, given.amounts):
            continue
        if any(s - found in bank or s - found in given.amounts for s in given.amounts if s > found):
            continue  # "Rs 2,50,000 will have to wait": the customer's Rs 3,00,000 over the limit
        yield rupees(to_paise(str(found)))
    for number, unit in _COUNT.findall(sentence):
        count, kind = Decimal(number), _UNITS[unit[0]]
        # The session's counts are its records' (a tenure of 1095 days): said as they are, not
        # as another unit's period ("a lock-in of 3 years" is no FD's 1095 days).
        if (
            any(
                _count_given(same, unit_of, topics, policy_counts, given)
                for same, unit_of in _same_period(count, kind)
            )
            or (count, kind) in given.counts
        ):
            continue
        yield f"{number} {unit}"


def _count_given(
    count: Decimal,
    kind: str,
    topics: frozenset[str],
    policy_counts: frozenset[tuple[Decimal, str, frozenset[str]]],
    given: _Session,
) -> bool:
    bank = {c for c, k, about in policy_counts if k == kind and (not topics or about & topics)}
    if count in bank:
        return True
    if kind not in ("emi", "month"):
        return False  # the session's days are its records' tenures: no rule's
    # EMIs are monthly: a loan's months to go are its EMIs to go; what is left of the policy's
    # EMIs after those paid ("only after 9 more months" when 3 of 12 are paid) is the bank's.
    monthly = {c for c, k, about in policy_counts if k in ("emi", "month") and about & topics}
    counts = {c for c, k in given.counts if k in ("emi", "month")}
    return count in counts or _rest_of(count, monthly, counts)


def _same_period(count: Decimal, kind: str) -> list[tuple[Decimal, str]]:
    """The count, and the same period in the policy's other units ("3650 days (10 years)": a year
    is 365 days (rule 10) and 12 months)."""
    same = [(count, kind)]
    if kind == "year":
        same += [(count * 365, "day"), (count * 12, "month")]
    elif kind == "day" and count % 365 == 0:
        same.append((count / 365, "year"))
    elif kind == "month" and count % 12 == 0:
        same.append((count / 12, "year"))
    return same


def _rest_of(found: Decimal, bank: set[Decimal], session: set[Decimal]) -> bool:
    """`found` is what is left of a figure of the bank's after one of the session's ("you can
    still send Rs 30,000 today": the cooling limit less what was sent; "3 more EMIs": 12 less
    those paid), read only for a figure not given as it is (few)."""
    return any(found + o in bank for o in session if o > 0)


class _Session:
    """The amounts and counts the session gave: results, errors, arguments, the customer's words
    (a count in a result's field named for its unit: "tenure_days": 365, "emis_paid": 10), each
    read when first asked for."""

    def __init__(self, view: SessionView) -> None:
        self.view = view

    @cached_property
    def amounts(self) -> set[Decimal]:
        found: set[Decimal] = set()
        for call in self.view.calls:
            found |= numbers_in(json.dumps([call.event.output, call.event.call.arguments]))
            found |= numbers_in(call.event.error or "")
        for message in self.view.messages:
            if message.role == "customer":
                found |= {a for a, _, _ in amounts_in(clean(message.text))}
        return found

    @cached_property
    def counts(self) -> set[tuple[Decimal, str]]:
        found: set[tuple[Decimal, str]] = set()
        for call in self.view.calls:
            raw = json.dumps([call.event.output, call.event.call.arguments])
            for field, number in _FIELD.findall(raw):
                kind = next((k for part, k in _FIELD_UNITS if part in field), None)
                if kind is not None:
                    found.add((Decimal(number), kind))
            # and said in a result's text ("within 90 days of the complaint": an article)
            found |= {(Decimal(n), _UNITS[u[0]]) for n, u in _COUNT.findall(raw.lower())}
        for message in self.view.messages:
            if message.role == "customer":
                lowered = clean(message.text)
                found |= {(Decimal(n), _UNITS[u[0]]) for n, u in _COUNT.findall(lowered)}
        return found


_FIELD = re.compile(r'"([a-z_]+)": "?(\d{1,4})\b')
_FIELD_UNITS = (("emis", "emi"), ("days", "day"), ("months", "month"), ("years", "year"))


def _topics(sentence: str) -> frozenset[str]:
    """What a sentence is about; a tax-saver FD is not any FD (the policy's rules of FDs in
    general do not give its lock-in)."""
    topics = {_topic(m.group()) for m in _TOPIC.finditer(sentence)}
    if "tax-saver" in topics:
        topics.discard("fixed deposit")
    return frozenset(topics)


def _topic(word: str) -> str:
    if word.endswith("s") and word[:-1] in _SINGULAR:  # "disputes", "personal loans"
        word = word[:-1]
    return {"beneficiary": "payee", "tax saver": "tax-saver", "fd": "fixed deposit",
            "rd": "recurring", "shop": "pos", "foreclos": "prepay",
            "prepaid": "prepay"}.get(word, word)  # fmt: skip


@cache
def _policy() -> tuple[
    frozenset[tuple[Decimal, frozenset[str]]], frozenset[tuple[Decimal, str, frozenset[str]]]
]:
    """Each figure the policy says in rupees, and each count, with the topics of its sentence
    (a table's row is one sentence)."""
    amounts: set[tuple[Decimal, frozenset[str]]] = set()
    counts: set[tuple[Decimal, str, frozenset[str]]] = set()
    # The articles give periods too ("within 90 days of the complaint", "dormant after 2
    # years"); their amounts are read from the policy only (an article's table rows of amount
    # bands, "Rs 2,00,000 to Rs 5,00,000 | NEFT, IMPS, RTGS", state no rule of either figure).
    articles = "\n".join(d.text for d in documents())
    for text, with_amounts in ((policy_text(), True), (articles, False)):
        for sentence in _SPLIT.split(clean(text)):
            sentence = _digits(sentence)
            topics = _topics(sentence)
            if with_amounts:
                amounts |= {(a, topics) for a, marked, _ in amounts_in(sentence) if marked}
            counts |= {(Decimal(n), _UNITS[u[0]], topics) for n, u in _COUNT.findall(sentence)}
    return frozenset(amounts), frozenset(counts)
