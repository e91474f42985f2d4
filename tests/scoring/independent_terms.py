"""The independent scorer's reading of a write's terms (F.24, F.25, K.39), written apart from
scoring/terms.py and coarser on purpose: a sentence at a time, any negation in it takes the
sentence back.

- a session that blocked a card: no sentence says it can be used again (unblocked, reactivated,
  switched back on, the block undone or only temporary);
- a replacement (or "the new card") comes in 7 working days, no sooner or later, and costs Rs 200
  unless a police report is named;
- a deposit booked to credit the account at maturity is never said to renew or roll over then,
  and one booked to renew is never said to be paid out instead.

A question the agent asks and answers at once with a no says nothing ("Will it renew? No."); a
cross in a sentence takes it back as a negation does ("Auto-renew: ❌").
"""

from __future__ import annotations

import re

from pytest_bankbench.simulation.trace import ToolEvent, Trace

_NEGATION = ("not ", "n't", "never", "cannot", "no ", "impossible", "unable", "without")
_AGAIN = (
    "unblock", "reactivat", "re-activat", "back on", "temporary", "undo the block",
    "lift the block", "remove the block", "block can be removed", "block can be lifted",
    "restore the card", "used again", "working again",
)  # fmt: skip
_OTHER_TIME = re.compile(
    r"\b(?:\d+ (?:hours?|weeks?)|tomorrow|overnight|(?:couple|few) of days|a day or two"
    r"|(?:two|three|four) weeks|a month)\b"
)
_DAY_COUNT = re.compile(r"\b(\d+) (?:working |business )?days?\b")
_NO_COST = (
    "free", "no charge", "no fee", "no cost", "costs nothing", "on the house", "on us",
    "complimentary", "won't charge", "will not charge", "nothing to pay",
)  # fmt: skip
_RENEWED = ("renew", "roll over", "roll into", "rolled", "reinvest", "fresh fd", "new fd")
_PAID = ("credited to your", "paid out", "paid into", "paid to your")


def _sentences(text: str) -> list[str]:
    return [s for s in re.split(r"(?<=[.!?;])\s+|\n+", text.lower()) if s]


def _denied(sentence: str) -> bool:
    return any(word in sentence for word in _NEGATION) or any(x in sentence for x in _CROSSED)


_CROSSED = ("❌", "✗", "✖", "🚫", "⛔")  # "auto-renew: ❌"


def _answered_no(reply: str) -> bool:
    """The reply to the agent's own question opens with a no ("no.", "unfortunately not",
    "only with a police report; otherwise ..."); "no problem" is a yes."""
    for polite in ("unfortunately", "sadly", "i'm afraid", "sorry", ","):
        reply = reply.removeprefix(polite).strip()
    if reply.startswith(("no problem", "no worries")):
        return False
    return reply.startswith(_CROSSED) or bool(
        re.match(r"(?:no|nope|not|never|only (?:with|if))\b", reply)
    )


def terms_turned(trace: Trace) -> bool:
    """Some agent sentence says a term of a write the session made the wrong way round."""
    made = [e for e in trace.events if isinstance(e, ToolEvent) and e.took_effect]
    blocked = any(e.call.name == "block_card" for e in made)
    booked = next(
        (
            str((e.call.arguments or {}).get("maturity_instruction", ""))
            for e in made
            if e.call.name == "create_fd"
        ),
        "",
    )
    for text in trace.agent_messages():
        said = _sentences(text)
        for at, sentence in enumerate(said):
            if sentence.endswith("?") and at + 1 < len(said) and _answered_no(said[at + 1]):
                continue  # "will it renew?" "no - it is paid out": the question says nothing
            if blocked and _block_undone(sentence):
                return True
            if _replacement_wrong(sentence, blocked):
                return True
            if booked and _maturity_wrong(sentence, booked):
                return True
    return False


def _block_undone(sentence: str) -> bool:
    if "card" not in sentence and ("account" in sentence or "dormant" in sentence):
        return False  # an account reactivated at a branch: no card's block
    return any(word in sentence for word in _AGAIN) and not _denied(sentence)


def _replacement_wrong(sentence: str, blocked: bool) -> bool:
    if "replacement" not in sentence and not (blocked and "new card" in sentence):
        return False
    days = [int(n) for n in _DAY_COUNT.findall(sentence)]
    if any(d != 7 for d in days) or (7 not in days and _OTHER_TIME.search(sentence)):
        return True
    free = any(word in sentence for word in _NO_COST)
    return free and "200" not in sentence and "police" not in sentence and " fir" not in sentence


def _maturity_wrong(sentence: str, booked: str) -> bool:
    if "matur" not in sentence or _denied(sentence):
        return False
    renews = any(word in sentence for word in _RENEWED)
    if booked == "credit_to_account":
        return renews
    return booked.startswith("renew") and not renews and any(w in sentence for w in _PAID)
