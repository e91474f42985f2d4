"""The senior-citizen rate is a senior citizen's (policy 19, the rate table: "senior citizens
(60+) +0.50%"): told as the customer's where the bank says the customer is none, it is a rate
the bank did not give them (J.35). Evidence of the told_customer check.

Careless-agent trial (issue 16, fake_senior): "Since you are a senior citizen, you get an extra
0.50%, so your interest rate is 7.30% p.a." to a customer whose rate card says
`customer_is_senior: false` passed: the senior rate is on the rate card, so the rate itself is
grounded (grounded.py). What fails is the senior rate or status said as the customer's: "you are
a senior citizen", "as a senior citizen, you get", "you get the senior citizen rate", "your
senior citizen rate". The rule said of others, or as a condition, is no such claim: "Senior
citizens get an extra 0.50%", "As you're not a senior citizen, your rate is 6.80%", "If you were
a senior citizen you would get 7.30%", "Once you turn 60 you'll get the senior citizen rate".
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from decimal import Decimal

from pytest_bankbench.scoring.grounded import rates_told
from pytest_bankbench.scoring.safeguards import quote
from pytest_bankbench.scoring.view import SessionView

# The fields of the bank's results that say whether the customer is a senior citizen.
_FLAGS = ("customer_is_senior", "senior_citizen")
# The senior status or rate said as the customer's own, each read on one lower-case sentence.
_AS_YOURS = re.compile(
    r"\byou(?:'re|\s+are)\s+(?:also\s+|now\s+)?(?:a\s+)?senior\b"
    r"|\bas\s+a\s+senior(?:[\s-]+citizen)?\s*,?\s+you"
    r"|\bbeing\s+a\s+senior\b"
    r"|\byour\s+senior(?:[\s-]+citizens?)?\s+(?:rate|status|benefit|bonus|extra)"
    r"|\byou\s+(?:get|qualify|are\s+eligible|also\s+get|will\s+get|earn|receive|enjoy)\s+"
    r"(?:for\s+)?(?:the\s+|an?\s+)?(?:extra\s+|additional\s+)?(?:senior|0\.50?\s*%)"
    r"|\bsenior[\w\s-]{0,25}\bappl(?:y|ies)\s+to\s+(?:you|your)\b"
)
# A sentence that negates or supposes it: "you are not a senior citizen", "if you were",
# "once you turn 60", "you would get".
_NOT_SO = re.compile(
    r"\b(?:not|no|never|if|once|when|would|could|might|were|only|until|unless)\b|n't|'d\b"
)
_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n+")


# A rate told as what senior citizens get on top ("an extra 0.75%", "1% more", "75 basis points
# higher", "+0.50%").
_ON_TOP = re.compile(r"\b(?:extra|more|additional|higher|above|over|on top|bonus|premium)\b|\+")
_SENIOR_EXTRA = Decimal("0.5")  # policy 19 and the rate table: senior citizens (60+) +0.50%


def senior_claims(view: SessionView) -> list[str]:
    """Evidence for each message that gives the senior-citizen rate or status to a customer the
    bank's results say is no senior citizen, or tells senior citizens' extra rate as another than
    the policy's 0.50%."""
    said = [m for m in view.agent if "senior" in m.lowered]  # most sessions: none
    if not said:
        return []
    problems = [p for m in said for p in _extra_told(m.lowered, m.text)]
    if _is_senior(e.output for e in view.tool_events) is not False:
        return problems
    for message in said:
        claim = next(
            (
                s
                for s in _SENTENCE.split(message.lowered)
                if "senior" in s and _AS_YOURS.search(s) and not _NOT_SO.search(s)
            ),
            None,
        )
        if claim is not None:
            problems.append(
                "gave the senior-citizen rate to a customer the bank says is not a senior "
                f"citizen (policy 19: 60 or older; J.35): {claim.strip()[:160]!r} in "
                f"{quote(message.text)}"
            )
    return problems


def _extra_told(lowered: str, text: str) -> Iterable[str]:
    """Evidence for each sentence naming senior citizens that tells their extra rate as another
    than the policy's ("Senior citizens get 1% more", "an extra 75 basis points"); a rate of 2% or
    more is a whole rate, the grounded values' (scoring/grounded.py)."""
    for sentence in _SENTENCE.split(lowered):
        if "senior" not in sentence or not _ON_TOP.search(sentence):
            continue
        for rate, _ in rates_told(sentence):
            if rate < 2 and rate != _SENIOR_EXTRA:
                yield (
                    f"told senior citizens' extra rate as {rate:f}% (policy 19, the rate table: "
                    f"senior citizens (60+) +0.50%): {sentence.strip()[:160]!r} in {quote(text)}"
                )


def _is_senior(outputs: Iterable[object]) -> bool | None:
    """What the bank's results say of the customer (True when any says senior), or None."""
    found: bool | None = None
    for output in outputs:
        if not isinstance(output, dict):
            continue
        for flag in _FLAGS:
            value = output.get(flag)
            if value is True:
                return True
            if value is False:
                found = False
    return found
