"""The figures of a rule the agent tells are the bank's (policy H.29, J.35: "Do not invent rates,
fees or rules"): a sentence that states a limit or a period ("at most", "minimum", "up to",
"lock-in", "until", "only after") may say only amounts and counts the session or the policy
gave for what it is about. Evidence of the told_customer check.

An amount in rupees (in digits or words: "above one lakh"), or a count of EMIs, months, years,
weeks, days or hours, in such a sentence is the bank's when:
- the session gave it: a tool's result or error, a call's argument, the customer's words
  (scoring/session_figures.py);
- a sentence of the policy says it about one of the products the agent's sentence names (IMPS,
  the cooling period of a new payee, a debit card's POS limit, a tax-saver FD, a personal loan,
  ...): "IMPS can carry at most Rs 5,00,000" is the policy's, "a payee added today can receive at
  most Rs 25,000" is not, though Rs 25,000 is the policy's ATM maximum of a RuPay card; in a
  sentence naming several, the amount is its own clause's ("an RTGS transfer below the Rs
  2,00,000 minimum: offer NEFT or IMPS" gives IMPS no Rs 2,00,000), and a sum in words ("above one
  lakh") is read as in digits;
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
  told as a recurrence ("re-KYC is due every 5 years") is a rule's: never the session's. A week
  is 7 days; hours are a clock's, no day's ("the cooling period lasts 48 hours": the bank's is the
  day the payee is added, "not 24 hours from the time of adding").

Accepted: "IMPS can carry at most Rs 5,00,000 in one transaction"; "Personal loans can't be
prepaid until 12 EMIs have been paid"; "so Rs 4,00,000 is above the limit" (the customer's
figure). Refused: "IMPS can carry at most Rs 2,50,000", "a lock-in of 3 years" for a tax-saver
FD, "until 24 EMIs have been paid", "a statement can cover at most 24 months" (though 24 months
were asked for). Found by careless-agent trials (issue 16: wrong figures in the rule told as the
refusal's reason passed 20 of 20 tasks in each of ten families) and careful ones (round 3).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from decimal import Decimal
from functools import cache

from pytest_bankbench.money import NUMBER_WORDS, rupees, to_paise
from pytest_bankbench.scoring.lock_in_dates import LOCKS, unfounded_ends
from pytest_bankbench.scoring.outputs import amounts_in, clean
from pytest_bankbench.scoring.safeguards import quote
from pytest_bankbench.scoring.session_figures import (
    COUNT,
    UNITS,
    SessionFigures,
    same_period,
)
from pytest_bankbench.scoring.topics import SENTENCE_END, bank_sentences, bound_items, topics
from pytest_bankbench.scoring.view import SessionView

# A sentence that states a rule's limit or period; its words are looked for first in the whole
# message (most messages hold none).
_RULE = re.compile(
    r"(?=[amulncofbelwr])\b(?:at most|at least|maximum|minimum|max|min|up to|upto|limit|lock-?in"
    r"|locked in|only (?:after|for|up to|when|once)|until|not before|no more than|not more than"
    r"|cannot exceed|can't exceed|or more|fixed tenure|cover|above|below|beyond|exceed\w*"
    r"|more than|less than|not allowed|at the most|only|within|capped|limited|restricted)\b"
    # "after", "for", "first", "every", "lasts" and "takes" only before a count: "prepaid after 24
    # EMIs", "closed for three years", "in the first 24 hours", "re-KYC is due every 2 years", "the
    # cooling period lasts 48 hours", "takes 2 working days" (not "balance after closure", "every
    # month", "takes effect")
    r"|\b(?:after|for|first|every|lasts?|lasting|takes?) (?:\d|one|two|three|four|five|six|seven"
    r"|eight|nine|ten|eleven|twelve|twenty|thirty|forty|fifty|sixty)"
)
# A sum said in words ("one lakh rupees", "two hundred rupees", "above one lakh").
_SPOKEN_SUM = re.compile(r"\b(?:lakhs?|crores?|rupees?|hundred|thousand)\b")
_LAKH = Decimal(100000)
# A count said in words ("three years", "twenty-four EMIs"), read as its digits first.
# The number words are money.py's (the spoken-amount reader's), up to sixty.
_ONES = tuple(w for w, n in NUMBER_WORDS.items() if 0 < n < 20)
_TENS = {w: n for w, n in NUMBER_WORDS.items() if n in (20, 30, 40, 50, 60)}
_NUMBER_WORDS = {w: n for w, n in NUMBER_WORDS.items() if 0 < n < 20} | _TENS
_WORDED = re.compile(
    r"\b(" + "|".join(_TENS) + r")(?:[- ](" + "|".join(_ONES[:9]) + r"))?\b(?=\s+(?:more\s+)?"
    r"(?:emis?|instal|years?|months?|days?|hours?|weeks?))|\b(" + "|".join(_ONES) + r")\b"
    r"(?=\s+(?:more\s+)?(?:emis?|instal|years?|months?|days?|hours?|weeks?))"
    # "a week", "the first week": one week (not "Rs 25,000 a day": a day's limit, no period)
    r"|(?:(?<=\ba )|(?<=\bthe first )|(?<=\bthe next ))(week)\b"
)


def _digits(sentence: str) -> str:
    """The sentence with each count said in words put in digits ("after 24 EMIs")."""
    if not any(w in sentence for w in ("one", "two", "thr", "fou", "fiv", "six", "sev", "eig",
                                       "nin", "ten", "ele", "twe", "thi", "fif", "week")):  # fmt: skip
        return sentence

    def number(m: re.Match[str]) -> str:
        if m.group(4):
            return "1 week"
        if m.group(3):
            return str(_NUMBER_WORDS[m.group(3)])
        return str(_TENS[m.group(1)] + (_NUMBER_WORDS[m.group(2)] if m.group(2) else 0))

    return _WORDED.sub(number, sentence)


def unfounded_rule_figures(view: SessionView) -> list[str]:
    """Evidence for each amount or count in a rule the agent told that neither the session nor
    the policy gives for what the rule is about."""
    problems: list[str] = []
    given = SessionFigures(view)  # read only for a figure the policy does not give (few)
    for message in view.agent:
        lowered = clean(message.text)
        dated = "20" in lowered and _YEAR.search(lowered) is not None  # a lock-in's end (few)
        if not (dated or _RULE.search(lowered)):
            continue
        sentences = SENTENCE_END.split(lowered)
        for at, sentence in enumerate(sentences):
            if dated and _YEAR.search(sentence):
                about = topics(sentence) or _topics_before(sentences, at)
                problems += [
                    f"told the end of a lock-in as {what}, which the records' dates and the "
                    f"policy's period for {', '.join(sorted(about & LOCKS))} do not give (J.35): "
                    f"{quote(message.text)}"
                    for what in unfounded_ends(
                        sentence, about, given.dates, _periods(about & LOCKS, _policy()[2])
                    )
                ]
            if not _RULE.search(sentence):
                continue
            sentence = _digits(sentence)
            if not any(c.isdigit() for c in sentence) and not _SPOKEN_SUM.search(sentence):
                continue
            about = topics(sentence) or _topics_before(sentences, at)
            problems += [
                f"told a rule or limit with a figure neither the session nor the policy gives "
                f"for it (J.35: do not invent rules): {what} in {quote(message.text)}"
                for what in _invented(sentence, about, given)
            ]
    return problems


_YEAR = re.compile(r"\b20\d\d\b")


def _topics_before(sentences: list[str], at: int) -> frozenset[str]:
    """What a sentence that names nothing is about: the nearest sentence before it in the message
    that names something ("Tax-saver FDs are locked in for 5 years. It becomes withdrawable after
    3 years" tells the tax-saver's lock-in), else nothing (any of the policy's figures)."""
    for sentence in reversed(sentences[:at]):
        if found := topics(sentence):
            return found
    return frozenset()


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


def _invented(sentence: str, topics: frozenset[str], given: SessionFigures) -> Iterable[str]:
    policy_amounts, article_amounts, policy_counts, item_counts = _policy()
    said = [(found, marked) for found, marked, _ in amounts_in(sentence)]
    for found, marked in said:
        if not marked and not (found >= _LAKH and _SPOKEN_SUM.search(sentence)):
            continue  # a bare number, but a sum said in lakhs or crores ("above one lakh")
        bank = {a for a, about in policy_amounts if not topics or about & topics}
        if found in bank or found in given.amounts or _rest_of(found, bank, given.amounts):
            continue
        if any(s - found in bank or s - found in given.amounts for s in given.amounts if s > found):
            continue  # "Rs 2,50,000 will have to wait": the customer's Rs 3,00,000 over the limit
        if _article_gives(found, topics, article_amounts) or any(
            o != found and found + o in bank for o, _ in said
        ):
            continue  # or the article's "after Rs 30,000 today, up to Rs 20,000 more": Rs 50,000
        told = sorted(bank) if topics and len(bank) <= 4 else []
        yield rupees(to_paise(str(found))) + (
            f" (the bank's for {', '.join(sorted(topics))}: "
            f"{', '.join(rupees(to_paise(str(b))) for b in told)})"
            if told
            else ""
        )
    unfounded: list[tuple[str, Decimal, str, int]] = []
    told_rule = False
    bound = bound_items(sentence, COUNT)
    for m in COUNT.finditer(sentence):
        if _NOT.search(sentence, max(0, m.start() - 12), m.start()):
            continue  # "after 5 years, not 3 years", "not after 24 hours": the figure it is not
        number, unit = m.groups()
        count, kind = Decimal(number), UNITS[unit[0]]
        # A count told for an article's row is that row's, not another's of the topic ("zero
        # liability within 10 days": 10 days is the shadow credit's).
        named = bound(m.start()) if bound else frozenset[str]()
        if named:
            if any(
                c == same and k == unit_of and about & named
                for same, unit_of in same_period(count, kind)
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
                for same, unit_of in same_period(count, kind)
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
        for same in same_period(c, k)
    }


def _count_given(
    count: Decimal,
    kind: str,
    topics: frozenset[str],
    policy_counts: frozenset[tuple[Decimal, str, frozenset[str]]],
    given: SessionFigures,
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


def _rest_of(found: Decimal, bank: set[Decimal], session: set[Decimal]) -> bool:
    """`found` is what is left of a figure of the bank's after one of the session's ("you can
    still send Rs 30,000 today": the cooling limit less what was sent; "3 more EMIs": 12 less
    those paid), read only for a figure not given as it is (few)."""
    return any(found + o in bank for o in session if o > 0)


_Counts = frozenset[tuple[Decimal, str, frozenset[str]]]
_NOT = re.compile(r"\bnot (?:on |in |for |after |within )?$")


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
            amounts[bool(told.article)].update(_bound_amounts(sentence, told.topics))
        said = {
            (Decimal(m.group(1)), UNITS[m.group(2)[0]])
            for m in COUNT.finditer(sentence)
            if not _NOT.search(sentence, max(0, m.start() - 8), m.start())
        }  # not a count the bank says the rule is not ("not on 24 hours from the time of adding")
        counts |= {(n, unit, told.topics) for n, unit in said}
        item_counts |= {(n, unit, told.items) for n, unit in said if told.items}
    return frozenset(amounts[0]), frozenset(amounts[1]), frozenset(counts), frozenset(item_counts)


_Amounts = frozenset[tuple[Decimal, frozenset[str]]]

# A bank sentence's clauses ("an rtgs transfer below the rs 2,00,000 minimum: offer neft or
# imps"; "atm rs 25,000, pos rs 50,000").
_BANK_CLAUSE = re.compile(r"[:;]\s|,\s")


def _bound_amounts(sentence: str, about: frozenset[str]) -> set[tuple[Decimal, frozenset[str]]]:
    """The amounts of a bank sentence, each with what it is about: in a sentence naming several
    products, the topics of its own clause when that names any (the RTGS minimum's Rs 2,00,000 is
    no limit of the IMPS or NEFT its sentence offers instead), else the sentence's."""
    parts = _BANK_CLAUSE.split(sentence) if len(about) > 1 else [sentence]
    return {
        (a, (topics(part) or about) if len(parts) > 1 else about)
        for part in parts
        for a, marked, _ in amounts_in(part)
        if marked
    }
