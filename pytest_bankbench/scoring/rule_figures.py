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
  Rs 30,000 today": the cooling limit less what was sent), or it and another of the sentence
  make the policy's ("after Rs 30,000 today, up to Rs 20,000 more");
- an article says it for the topic (its sentence's, else its row's, section's or title's: "Re-KYC
  every 10 years"); an amount only for a topic the policy has none for (Section 80C's ceiling);
  a count told for a row of an article (zero liability, a high-risk customer: scoring/topics.py)
  only that row's ("zero liability within 10 days" is the shadow credit's 10 days);
- it is a period between the session's dates, beside the rule's own figure or said as the
  case's ("you asked for about 24 months, but the maximum is 12 months", "has run 27 months, so
  another 33 months remain"); any count in whichever unit it is said ("120 months"). A period
  told as a recurrence ("re-KYC is due every 5 years") is a rule's: never the session's.

Accepted: "IMPS can carry at most Rs 5,00,000 in one transaction"; "Personal loans can't be
prepaid until 12 EMIs have been paid"; "so Rs 4,00,000 is above the limit" (the customer's
figure). Refused: "IMPS can carry at most Rs 2,50,000", "a lock-in of 3 years" for a tax-saver
FD, "until 24 EMIs have been paid", "a statement can cover at most 24 months" (though 24 months
were asked for). Found by careless-agent trials (issue 16: wrong figures in the rule told as the
refusal's reason passed 20 of 20 tasks in each of ten families) and careful ones (round 3).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from datetime import date
from decimal import Decimal
from fractions import Fraction
from functools import cache, cached_property

from pytest_bankbench.money import NUMBER_WORDS, rupees, to_paise
from pytest_bankbench.scoring.dates_told import dates_in, task_day
from pytest_bankbench.scoring.grounded import numbers_in
from pytest_bankbench.scoring.outputs import amounts_in, clean
from pytest_bankbench.scoring.safeguards import quote
from pytest_bankbench.scoring.topics import SENTENCE_END, bank_sentences, bound_items, topics
from pytest_bankbench.scoring.view import SessionView

# A sentence that states a rule's limit or period; its words are looked for first in the whole
# message (most messages hold none).
_RULE = re.compile(
    r"(?=[amulncofbelw])\b(?:at most|at least|maximum|minimum|max|min|up to|upto|limit|lock-?in"
    r"|locked in|only (?:after|for|up to|when|once)|until|not before|no more than|not more than"
    r"|cannot exceed|can't exceed|or more|fixed tenure|cover|above|below|beyond|exceed\w*"
    r"|more than|less than|not allowed|at the most|only|within)\b"
    # "after", "for", "first" and "every" only before a count: "prepaid after 24 EMIs", "closed for
    # three years", "in the first 24 hours", "re-KYC is due every 2 years" (not "balance after
    # closure", "every month")
    r"|\b(?:after|for|first|every) (?:\d|one|two|three|four|five|six|seven|eight|nine|ten|eleven"
    r"|twelve|twenty|thirty|forty|fifty|sixty)"
)
# A count and its unit; the unit's first letters name it.
_COUNT = re.compile(
    r"(?<![\d.,])(\d{1,4})(?:\s*|-)(?:(?:more|further|additional|full|working|business|calendar)\s+)?"
    r"(emis?|instal+ments?|years?|yrs?|months?|days?)\b(?!-old)"  # not "a 45-year-old"
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


def unfounded_rule_figures(view: SessionView) -> list[str]:
    """Evidence for each amount or count in a rule the agent told that neither the session nor
    the policy gives for what the rule is about."""
    problems: list[str] = []
    given = _Session(view)  # read only for a figure the policy does not give (few)
    for message in view.agent:
        lowered = clean(message.text)
        if not _RULE.search(lowered):
            continue
        for sentence in SENTENCE_END.split(lowered):
            if not _RULE.search(sentence):
                continue
            sentence = _digits(sentence)
            if not any(c.isdigit() for c in sentence):
                continue
            problems += [
                f"told a rule or limit with a figure neither the session nor the policy gives "
                f"for it (J.35: do not invent rules): {what} in {quote(message.text)}"
                for what in _invented(sentence, topics(sentence), given)
            ]
    return problems


def told_as_rule(found: Decimal, lowered: str) -> bool:
    """Some sentence of the text tells `found` as the figure of a rule the policy or an article
    gives for a topic it names ("within the Section 80C ceiling of Rs 1,50,000 a year"): read by
    the proposal's figures for a figure nothing else gave (few)."""
    articles = _policy()[1]
    for sentence in SENTENCE_END.split(lowered):
        if _RULE.search(sentence) and _article_gives(found, topics(sentence), articles):
            return True
    return False


def _article_gives(found: Decimal, topics: frozenset[str], articles: _Amounts) -> bool:
    """An article's figure as it is (the Section 80C ceiling), not what is left of one, for a
    topic the policy gives no figure in rupees for: the policy's are its topics' (an article's
    "Rs 50,000 across NEFT, IMPS and RTGS" to a new payee is no limit of RTGS)."""
    left = topics.difference(*(about for _, about in _policy()[0])) if topics else topics
    return bool(left) and any(a == found and about & left for a, about in articles)


def _invented(sentence: str, topics: frozenset[str], given: _Session) -> Iterable[str]:
    policy_amounts, article_amounts, policy_counts, item_counts = _policy()
    said = [(found, marked) for found, marked, _ in amounts_in(sentence)]
    for found, marked in said:
        if not marked:
            continue
        bank = {a for a, about in policy_amounts if not topics or about & topics}
        if found in bank or found in given.amounts or _rest_of(found, bank, given.amounts):
            continue
        if any(s - found in bank or s - found in given.amounts for s in given.amounts if s > found):
            continue  # "Rs 2,50,000 will have to wait": the customer's Rs 3,00,000 over the limit
        if _article_gives(found, topics, article_amounts) or any(
            o != found and found + o in bank for o, _ in said
        ):
            continue  # or the article's "after Rs 30,000 today, up to Rs 20,000 more": Rs 50,000
        yield rupees(to_paise(str(found)))
    unfounded: list[tuple[str, Decimal, str, int]] = []
    told_rule = False
    bound = bound_items(sentence, _COUNT)
    for m in _COUNT.finditer(sentence):
        if sentence.endswith("not ", 0, m.start()):
            continue  # "after 5 years, not 3 years": the figure it is not
        number, unit = m.groups()
        count, kind = Decimal(number), _UNITS[unit[0]]
        # A count told for an article's row is that row's, not another's of the topic ("zero
        # liability within 10 days": 10 days is the shadow credit's).
        named = bound(m.start()) if bound else frozenset[str]()
        if named:
            if any(
                c == same and k == unit_of and about & named
                for same, unit_of in _same_period(count, kind)
                for c, k, about in item_counts
            ):
                told_rule = True
            else:
                unfounded.append((f"{number} {unit}", count, kind, m.start()))
            continue
        if _RECURS.search(sentence, max(0, m.start() - 20), m.start()):
            # "Re-KYC is due every 5 years": a rule's own period, never the session's (the 5
            # years of the deposit the customer asked for)
            if (count, kind) in _periods(topics, policy_counts):
                told_rule = True
            else:
                unfounded.append((f"{number} {unit}", count, kind, m.start()))
            continue
        # The session's counts are its records' (a tenure of 1095 days): said as they are, not
        # as another unit's period ("a lock-in of 3 years" is no FD's 1095 days).
        if (
            any(
                _count_given(same, unit_of, topics, policy_counts, given)
                for same, unit_of in _same_period(count, kind)
            )
            or (count, kind) in given.counts
        ):
            told_rule = True
        else:
            unfounded.append((f"{number} {unit}", count, kind, m.start()))
    # A period the session's dates give is the customer's case, not the rule, beside the rule's
    # own figure or said as the case's ("you asked for about 24 months, but the maximum is 12
    # months", "it has run 27 months, so another 33 months remain").
    if unfounded and (told_rule or _CASE.search(sentence)):
        periods = _periods(topics, policy_counts)
        unfounded = [u for u in unfounded if not given.spans_give(u[1], u[2], periods)]
    for what, _, kind, at in unfounded:
        yield what + _banks(
            kind, topics, bound(at) if bound else frozenset(), policy_counts, item_counts
        )


def _banks(
    kind: str,
    topics: frozenset[str],
    named: frozenset[str],
    policy_counts: _Counts,
    item_counts: _Counts,
) -> str:
    """What the bank gives for it, in the unit said: the row's period, else the topic's (read
    for the evidence of a failure only)."""
    if named:
        figures = {c for c, k, about in item_counts if k == kind and about & named}
        what = " and ".join(sorted(named))
    else:
        figures = {c for c, k, about in policy_counts if k == kind and about & topics}
        what = ", ".join(sorted(topics))
    if not figures:
        return ""
    told = ", ".join(f"{c} {'EMIs' if kind == 'emi' else kind + 's'}" for c in sorted(figures))
    return f" (the bank's for {what}: {told})"


# A period told as a rule's recurrence: "every 2 years", "once in 10 years", "renewed after".
_RECURS = re.compile(r"\b(?:every|once in|renew\w* after) $")
# Words that tell a period as the case's: how long it has run, was asked for, is left.
_CASE = re.compile(
    r"\b(?:another|more|further|remain\w*|left|to go|ago|so far|already|completed|run|ran"
    r"|asked|requested|wanted|opened|booked|started|spans?|covers? about|since)\b"
)


def _periods(
    topics: frozenset[str], policy_counts: frozenset[tuple[Decimal, str, frozenset[str]]]
) -> set[tuple[Decimal, str]]:
    """The policy's periods for the topics, in each of the units they can be said in."""
    return {
        same
        for c, k, about in policy_counts
        if not topics or about & topics
        for same in _same_period(c, k)
    }


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
    """The count, and the same period in the policy's other units ("3650 days (10 years)", "120
    months", "60 months" for 5 years, "365 days" for 12 months: a year is 365 days (rule 10) and
    12 months)."""
    if kind not in _DAYS:
        return [(count, kind)]
    days = Fraction(count) * _DAYS[kind]
    return [(count, kind)] + [
        (Decimal(same.numerator), unit)
        for unit, per in _DAYS.items()
        if unit != kind and (same := days / per).denominator == 1
    ]


_DAYS = {"year": Fraction(365), "month": Fraction(365, 12), "day": Fraction(1)}


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
    def results(self) -> list[str]:
        """Each call's result and arguments as JSON, dumped once for the readings below."""
        return [json.dumps([c.event.output, c.event.call.arguments]) for c in self.view.calls]

    @cached_property
    def amounts(self) -> set[Decimal]:
        found: set[Decimal] = set()
        for call, raw in zip(self.view.calls, self.results, strict=True):
            found |= numbers_in(raw)
            found |= numbers_in(call.event.error or "")
        for message in self.view.messages:
            if message.role == "customer":
                found |= {a for a, _, _ in amounts_in(clean(message.text))}
        return found

    @cached_property
    def counts(self) -> set[tuple[Decimal, str]]:
        found: set[tuple[Decimal, str]] = set()
        for raw in self.results:
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

    @cached_property
    def spans(self) -> set[tuple[Decimal, str]]:
        """The periods between the session's dates: from each date a result, a call or the
        customer gave to the task's day, and between two the customer gave, in days and in whole
        months and years either side (a deposit run 27 months 10 days has run 27 or 28 months)."""
        today = task_day()
        if today is None:
            return set()
        found: set[date] = set()
        for raw in self.results:
            for iso in _ISO.findall(raw):
                try:
                    found.add(date.fromisoformat(iso))
                except ValueError:
                    continue
        said = [
            d
            for m in self.view.messages
            if m.role == "customer"
            for *_, d in dates_in(clean(m.text))
        ]
        pairs = [(d, today) for d in found | {d for d in said if d}]
        pairs += [(a, b) for a in said for b in said if a and b and a < b]
        spans: set[tuple[Decimal, str]] = set()
        for a, b in pairs:
            a, b = min(a, b), max(a, b)
            months = (b.year - a.year) * 12 + b.month - a.month - (b.day < a.day)
            years, part = divmod(months, 12)
            spans |= {(Decimal(months), "month"), (Decimal(months + 1), "month")}
            spans |= {(Decimal(years), "year"), (Decimal(years + (part > 0)), "year")}
            spans.add((Decimal((b - a).days), "day"))
        return spans

    def spans_give(self, count: Decimal, kind: str, periods: set[tuple[Decimal, str]]) -> bool:
        """The count is a period between the session's dates, or what is between one and a
        period of the policy's ("another 33 months" of a 60-month lock-in run 27 months)."""
        spans = self.spans
        for same, unit in _same_period(count, kind):
            had = {s for s, u in spans if u == unit}
            rule = {p for p, u in periods if u == unit}
            if same in had or any(same + s in rule for s in had):
                return True
            if any(same + r in had for r in rule):
                return True
        return False


_ISO = re.compile(r"\b(\d{4}-\d\d-\d\d)\b")
_FIELD = re.compile(r'"([a-z_]+)": "?(\d{1,4})\b')
_FIELD_UNITS = (("emis", "emi"), ("days", "day"), ("months", "month"), ("years", "year"))


_Counts = frozenset[tuple[Decimal, str, frozenset[str]]]


@cache
def _policy() -> tuple[_Amounts, _Amounts, _Counts, _Counts]:
    """Each figure the policy and the articles say in rupees, and each count, with the topics of
    its sentence (scoring/topics.py); and each count of an article's row or sentence that names an
    item, with its items ("| High risk | 2 years |": 2 years for high-risk customers)."""
    amounts: tuple[set[tuple[Decimal, frozenset[str]]], ...] = (set(), set())
    counts: set[tuple[Decimal, str, frozenset[str]]] = set()
    item_counts: set[tuple[Decimal, str, frozenset[str]]] = set()
    for told in bank_sentences():
        sentence = _digits(told.text)
        # An article's table rows of amount bands ("Rs 2,00,000 to Rs 5,00,000 | NEFT, IMPS,
        # RTGS") state no rule of either figure: its amounts are read from its prose only.
        if not (told.table and told.article):
            found = {(a, told.topics) for a, marked, _ in amounts_in(sentence) if marked}
            amounts[bool(told.article)].update(found)
        said = {(Decimal(n), _UNITS[u[0]]) for n, u in _COUNT.findall(sentence)}
        counts |= {(n, unit, told.topics) for n, unit in said}
        item_counts |= {(n, unit, told.items) for n, unit in said if told.items}
    return frozenset(amounts[0]), frozenset(amounts[1]), frozenset(counts), frozenset(item_counts)


_Amounts = frozenset[tuple[Decimal, frozenset[str]]]
