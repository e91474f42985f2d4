"""Lists in an agent turn: a proposal that is one item of a list asks the customer to pick.

A turn that lists options ("Options to proceed: - Keep it. - Transfer to a human agent?"), a
question followed by examples ("For example: - Add checked baggage?"), "Please confirm:" before
a list of questions, or several details asked at once ("Which cabin? Would you like to add
bags?") asks for what the customer picks or tells; none of its items is a yes to the agent
(rounds 9 to 11). simulation/acts.py reads the turn with these; acts_context.py holds the other
readings of a sentence in its place.
"""

from __future__ import annotations

import re
from dataclasses import replace
from itertools import pairwise
from typing import TYPE_CHECKING

from pytest_bankbench.simulation.acts_rules import PROPOSALS as _PROPOSALS

if TYPE_CHECKING:
    from pytest_bankbench.simulation.acts_sentence import Sentence

_LIST_OPENS = re.compile(r":\s*$")
_WH = re.compile(r"^((and|also|so|then),? )?(\d+[.)]\s*)?(what|which|how|when|where|who)\b", re.I)

# "- Do you want to return them, or\n- Do you want to exchange them?": options, one a line.
_OR_LAST = re.compile(r",?\s+or\W*$", re.IGNORECASE)


# "Options to proceed:", "Next steps:", "Alternatives:" open a list the customer picks from.
_OPTIONS_OPEN = re.compile(
    r"^(your |the )?(options|next steps|alternatives|choices)\b[^:]{0,40}:\s*$", re.IGNORECASE
)


# An option offered on the customer's preference: "If you prefer, we can try the exchange again."
_IF_PREFER = re.compile(r"^if you('d| would)? (prefer|rather)\b(?![^?]*\?)", re.IGNORECASE)
# An option as a list item, with no question word: "Transfer to a human agent?"
_ITEM = re.compile(
    r"^(?!(would|shall|should|do|does|can|could|may|will|is|are|if|please|confirm)\b)[^?]{3,120}\?$",
    re.I,
)


_WHAT_WHICH = re.compile(r"^((and|also|so|then),? )?(what|which)\b[^?]*\?\s*$", re.IGNORECASE)


def _items(sentences: tuple[Sentence, ...]) -> tuple[Sentence, ...]:
    """The run of bare question items that opens these sentences ("Upgrade the card? Close it?")."""
    run = 0
    while run < len(sentences) and _ITEM.match(sentences[run].text):
        run += 1
    return sentences[:run]


def options_listed(sentences: tuple[Sentence, ...]) -> bool:
    """A line that ends on "or" before a proposal, or a list opened as options ("Options: - Keep
    it. - Transfer to a human agent?"): the proposal is one option of a list (tuning-19); so is
    one of two or more bare question items under "What would you like to do?" (round 11)."""
    return (
        any(_OR_LAST.search(a.text) and b.acts & _PROPOSALS for a, b in pairwise(sentences))
        or any(
            _OPTIONS_OPEN.match(s.text)
            and any(
                t.acts & _PROPOSALS and (_ITEM.match(t.text) or _IF_PREFER.match(t.text))
                for t in sentences[at + 1 :]
            )
            for at, s in enumerate(sentences)
        )
        or any(
            _WHAT_WHICH.match(s.text)
            and "ask" in s.acts
            and len(items := _items(sentences[at + 1 :])) > 1
            and any(t.acts & _PROPOSALS for t in items)
            for at, s in enumerate(sentences)
        )
    )


# "Please confirm the following details:", not "Please confirm if you want to proceed with:"
_CONFIRM_FOLLOWING = re.compile(
    r"\bconfirm (the following|these|the details|this information)\b(?![^:]*\b(proceed|go ahead)\b)",
    re.IGNORECASE,
)


def confirm_asks_list(proposing: list[Sentence], sentences: tuple[Sentence, ...]) -> bool:
    """ "Could you confirm:" before a list of questions ("1. Is your order delivered? 2. Which
    item ...?"): the questions are what it asks, none of them a yes (tuning-14)."""
    if not proposing or not all(p.text.rstrip().endswith(":") for p in proposing):
        return False
    after = sentences[sentences.index(proposing[-1]) + 1 :]
    listed = after[:3]  # "Please confirm the following: 1. The item ... 2. Please provide the ID"
    return bool(after) and (
        (after[0].question and "ask" in after[0].acts)
        or (
            _CONFIRM_FOLLOWING.search(proposing[-1].text) is not None
            and any("ask" in s.acts for s in listed)
            and not any(s.acts & _PROPOSALS for s in after)
        )
    )


# "What would you like to change? For example:" opens examples of what the customer may ask for.
_EXAMPLES_OPEN = re.compile(r"\b(for example|for instance|e\.g\.)\s*:?\s*$", re.IGNORECASE)


def examples_follow(sentences: tuple[Sentence, ...]) -> bool:
    """A question, then "For example:" and a list: the proposals in the list ("- Add checked
    baggage?") are examples of an answer, not a yes asked for (tuning-17)."""
    for at, sentence in enumerate(sentences):
        if at and _EXAMPLES_OPEN.search(sentence.text) and sentences[at - 1].question:
            return any(s.acts & _PROPOSALS for s in sentences[at + 1 :])
    return False


# "Would you like to add checked bags?", "Do you want travel insurance?": a yes/no question about
# what the customer wants in the request, not a go-ahead for the agent to act.
_WANTS = re.compile(
    r"^((and|also|so|then),? )?(\d+[.)]\s*)?(would|do) you (also )?(like|want|wish|need)\b"
    r"(?! (me|us) to\b)(?! to (go ahead|proceed|continue|confirm|move forward)\b)[^?]*\?",
    re.IGNORECASE,
)


# "the cabin class (e.g., basic_economy, economy, or business)": a value asked for, its examples
# given (round 13).
_EXAMPLE_VALUES = re.compile(r"\((e\.g\.|for example)[^()]*(,|\bor\b)[^()]*\)", re.IGNORECASE)


def asks_a_form(sentences: tuple[Sentence, ...]) -> bool:
    """Several details asked at once ("What cabin class? Will Sophia be the passenger? Would you
    like to add bags? Would you like travel insurance?", or "I need some details: ..."): a yes/no
    question among them about what the request includes is one more detail, not a go-ahead
    (round 11)."""
    proposing = [s for s in sentences if s.acts & _PROPOSALS]
    asking = [s for s in sentences if "ask" in s.acts and not s.acts & _PROPOSALS]
    return bool(
        proposing
        and all(_WANTS.match(s.text) for s in proposing)
        and len(asking) > 1
        and any(
            _WH.match(s.text) or _LIST_OPENS.search(s.text) or _EXAMPLE_VALUES.search(s.text)
            for s in asking
        )
    )


# An item of a list with no end mark: "Cancel or modify a pending order", "Transfer to a human agent"
_BARE_ITEM = re.compile(r"[^.?!:]\s*$")


def menu_follows(sentences: tuple[Sentence, ...]) -> bool:
    """A question "Is there anything else I can help with?" followed by a list opened with a
    colon ("For example:", "Here are some things I can do next:") or by bare items ("Return or
    exchange an order", "Transfer to a human agent"): the items are examples of a next request, a
    menu, not questions or a hand-off (round 12). A request after "anything else?" with no list
    before it ("Anything else? Please also share your email.") still asks."""
    for at, sentence in enumerate(sentences):
        if "more" in sentence.acts and sentence.question:
            rest = sentences[at + 1 :]
            return bool(rest) and (
                _LIST_OPENS.search(rest[0].text) is not None
                or (len(rest) > 1 and all(_BARE_ITEM.search(s.text) for s in rest))
            )
    return False


# "If you want to pursue exchanges for those items, I can:" opens the ways the agent offers.
_CAN_OPENS = re.compile(r"\b(i|we) can( also| either){0,2}\s*:\s*$", re.IGNORECASE)
# "Would you like help with anything else (e.g., ..., or transferring to a human agent)?"
_EXAMPLE_TRANSFER = re.compile(
    r"\b(e\.g\.|for example|such as)[^?]*\b(transferr|connect|escalat)\w*", re.IGNORECASE
)


# "Transfer you to a human agent who can review it": a way told as a bare verb, one item of a list.
_TRANSFER_ITEM = re.compile(r"^(transfer|connect|escalate|hand|pass|route)\b", re.IGNORECASE)


def handoff_only_offered(sentences: tuple[Sentence, ...]) -> bool:
    """Every transfer the turn names is one item of the ways opened by "I can:" ("- Explain how
    to request it yourself, or - Transfer you to a human agent who can review it"), or an example
    of a next request ("Anything else (e.g., ... or transferring to a human agent)?"): a way
    offered, no hand-off made (round 23)."""
    handing = [at for at, s in enumerate(sentences) if "handoff" in s.acts]
    return bool(handing) and all(
        ("more" in sentences[at].acts and _EXAMPLE_TRANSFER.search(sentences[at].text))
        or (
            _TRANSFER_ITEM.match(sentences[at].text) is not None
            and any(
                _CAN_OPENS.search(sentences[start].text)
                and not any(s.question for s in sentences[start + 1 : at + 1])
                for start in range(at)
            )
        )
        for at in handing
    )


# "To summarize what we covered today:", "Here's a summary of your requests:" (round 17)
_SUMMARY_OPENS = re.compile(
    r"^(to (summari[sz]e|recap)|here'?s a (quick |short )?(summary|recap))\b[^:?]{0,60}:\s*$", re.I
)
_HANDED_BEFORE = re.compile(
    r"\b(been|was|were) (transferred|connected|escalated|handed)\b|\b(i|we) (transferred|connected"
    r"|escalated)\b",
    re.IGNORECASE,
)


def summed_up(sentences: tuple[Sentence, ...]) -> tuple[Sentence, ...]:
    """Under "To summarize what we covered today:", "- Locker request: You've been transferred to
    a branch officer" recaps a hand-off made earlier in the session, not one made now (round 17)."""
    out = list(sentences)
    summing = False
    for at, sentence in enumerate(sentences):
        if _SUMMARY_OPENS.match(sentence.text) or sentence.question:
            summing = not sentence.question
        elif summing and "handoff" in sentence.acts and _HANDED_BEFORE.search(sentence.text):
            out[at] = replace(sentence, acts=sentence.acts - {"handoff"})
    return tuple(out)


# "Please hold on while I perform these checks.": the agent at work on what the turn listed.
_HOLD_WHILE = re.compile(
    r"\b(hold on|bear with me|one moment)\b[^.?!]{0,60}\b(while|as) (i|we)\b", re.IGNORECASE
)


def checks_it_runs(sentences: tuple[Sentence, ...]) -> bool:
    """ "1. Airplane Mode: check it is off. ... Let's start with the first two. Please hold on
    while I perform these checks.": a turn asking no question that closes on the agent's own
    checks lists what it checks, not steps for the customer (round 19)."""
    return bool(
        sentences
        and _HOLD_WHILE.search(sentences[-1].text)
        and not any(s.question or s.acts & _PROPOSALS for s in sentences)
    )
