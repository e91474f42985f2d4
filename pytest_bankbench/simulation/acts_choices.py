"""Whether a turn that proposes asks its yes now: a proposal beside a choice, a yes put off.

A proposal beside an alternative ("Shall I order P1 only? Or would you like me to check P3
later?") offers a choice, and one beside a yes the agent says it will ask for later ("Once you
confirm, I'll summarize the changes and ask for your final yes") is for later: the customer
answers the question first (rounds 6 to 14). Long plans (round 16, tuning-32: gpt-5-mini under a
harness that states its flow) also say the yes they will ask again after this one ("... and ask
you to confirm one final time"), or put the yes off and then ask it in the same turn ("Before I
make any changes I must list them and ask you to confirm. ... Please confirm (yes/no)"), or list
ways to amend a yes under the request for it ('Please confirm "yes" ..., or tell me if you want
to: ... - Or cancel ...'): each asks its yes now; so does a yes asked beside a value ("Please
provide the reason and confirm 'yes'"). simulation/acts.py reads the turn with these.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from pytest_bankbench.simulation.acts_context import completes, says_yes_last
from pytest_bankbench.simulation.acts_patterns import (
    ALTERNATIVE,
    AMEND,
    GO_AHEAD,
    LATER_YES,
    LITERAL_YES,
    OR,
    PICK,
    YES_AGAIN,
)
from pytest_bankbench.simulation.acts_rules import PROPOSALS as _PROPOSALS
from pytest_bankbench.simulation.acts_rules import Act

if TYPE_CHECKING:
    from pytest_bankbench.simulation.acts_sentence import Sentence


def puts_yes_off(sentences: tuple[Sentence, ...], at: int) -> bool:
    """Sentence `at` puts the turn's yes off until later ("After you choose, I'll list the
    details and ask for your final yes"); not when the yes it puts off is a second one ("...
    and ask you to confirm one final time"), nor when a later sentence of the turn asks that yes
    with a literal yes or no ("Before I change it I must list the changes and ask you to
    confirm. ... Please confirm (yes/no) that ...", tuning-32)."""
    text = sentences[at].text
    return bool(
        LATER_YES.search(text)
        and not YES_AGAIN.search(text)
        and not any(
            s.acts & _PROPOSALS and LITERAL_YES.search(s.text) and not LATER_YES.search(s.text)
            for s in sentences[at + 1 :]
        )
    )


# '"Yes" — proceed with the exchange as summarized': a literal yes offered as an item to reply with.
_YES_ITEM = re.compile(r"^\W?yes\W?\s*(—|–|-|:)", re.IGNORECASE)


def _amends_the_yes(sentences: tuple[Sentence, ...], at: int) -> bool:
    """Sentence `at` is an item of a list opened by a request for a literal yes ('Please confirm
    "yes" to proceed with both returns, or tell me if you want to: - Return only some items -
    Or cancel ...'), or of a list that offers the yes as a reply ('Please confirm one of the
    following: - "Yes" — proceed ... - "No" — cancel ... - Or tell me if you want to wait'): a way
    to amend the proposal, not a second option (tuning-32)."""
    items: list[Sentence] = []
    for before in reversed(sentences[:at]):
        if before.question:
            return False
        if before.text.rstrip().endswith(":"):
            return bool(before.acts & _PROPOSALS and LITERAL_YES.search(before.text)) or any(
                _YES_ITEM.match(s.text) for s in items
            )
        items.append(before)
    return False


def offers_a_choice(sentences: tuple[Sentence, ...]) -> bool:
    """A question or proposal, then a sentence that opens an alternative which asks or proposes
    ("Shall I order P1 only? Or would you like me to check P3 later?"): neither is a yes. But
    when a conditional alternative is followed by a yes/no proposal of its own that closes the
    turn ("Could you check the APN? If you're unsure, I can reset it. Would you like me to
    proceed?"), the turn's last request asks for that yes."""
    for at, sentence in enumerate(sentences):
        if (
            at
            and ALTERNATIVE.search(sentence.text)
            and not AMEND.match(sentence.text)
            and not _amends_the_yes(sentences, at)
        ):
            before, after = sentences[:at], sentences[at:]
            asked = any(s.question or s.acts & (_PROPOSALS | {"ask"}) for s in before)
            if asked and any(
                s.question or s.acts & _PROPOSALS or ("ask" in s.acts and PICK.search(s.text))
                for s in after
            ):  # "Alternatively, we could book a new one. Let me know how you'd like to move
                # forward.": the second option, then the pick (round 14)
                if says_yes_last(after):  # "Alternatively, if you wish to cancel, type yes."
                    return False
                # "Otherwise, I recommend contacting a human agent. Would you like me to transfer
                # you?": an alternative that only advises, then the yes asked (round 19)
                opens = OR.match(sentence.text) is not None and not (
                    _OTHERWISE.match(sentence.text) and not sentence.acts
                )
                return opens or not _asks_yes(after[1:])
    return False


_OTHERWISE = re.compile(r"^otherwise\b", re.IGNORECASE)


def _asks_yes(sentences: tuple[Sentence, ...]) -> bool:
    """The last request among these sentences is a yes/no proposal of its own: a question that
    proposes, offers no options and opens no alternative."""
    asking = [s for s in sentences if s.question or s.acts & (_PROPOSALS | {"ask", "more"})]
    if not asking:
        return False
    last = asking[-1]
    return bool(
        last.question
        and last.acts & _PROPOSALS
        and not last.choice
        and not ALTERNATIVE.search(last.text)
    )


# "Once you confirm these changes and select a payment method, I'll proceed", "Once I have your
# confirmation and payment method choice, ...": the yes to the change asked beside a value, both
# now (round 13); not "Once you confirm which order ..." nor "Once you confirm selections ...".
YES_AND_VALUE = re.compile(
    r"^once (you confirm|i have your confirmation)( (these|the|this|those) (above )?(changes?|details|plan"
    r"|update|request))?,? (\(?and |with )(\w+ ){0,2}(choose|select|pick|provide|share|give|payment)\b"
    r"(?![^.?!]*\b(ask for|request) (your|a) (final|explicit))"
    # "If this is the correct reservation you'd like to cancel, please confirm and provide the
    # reason" (round 14)
    # "If you want to start a return, I need you to confirm these details (please reply yes/no), and
    # provide:" (tuning-32)
    r"|^(if [^,.?!]*, )?(please confirm|i need you to confirm)( (it|this|that|these details))?"
    r"( \([^()]*\byes\s*/\s*no\b[^()]*\))?,? and (provide|share|give|tell me|specify)\b"
    # "Which item_id do you choose, and do you confirm (yes/no) to proceed?", "Do you confirm? (yes/no
    # + choice)": the pick and a literal yes asked in one breath (tuning-32)
    r"|^(which|what)\b[^?]*,? and (do you )?confirm\b[^?]*\byes\s*/\s*no\b"
    r"|^\(?yes\s*/\s*no\s*\+\s*(your )?(choice|option|selection|item)"
    # 'Please provide the reason and confirm "yes" to proceed with closing the FD' (round 19)
    r"|^(to [^,.?!]{1,60}, )?(please |kindly )?(provide|share|give|tell me)\b([^.?!]|\be\.g\.)*\b(and|then) "
    r"(reply |confirm |say |respond )+"
    r"(with )?(a )?[\"“'*]*yes\b",
    re.IGNORECASE,
)
# "Regarding the card replacement: ...", "As for your FD:": the turn turns to another matter.
_NEW_MATTER = re.compile(
    r"^(regarding|as for|as to|now,? for) (the|your) [^:.?!]{1,60}:", re.IGNORECASE
)


def asked_apart(sentences: tuple[Sentence, ...]) -> frozenset[Act]:
    """ "Would you like me to: - Renew it? - Close it? For your locker: it cannot be moved here.
    Would you like me to transfer you to a branch officer for that?": after a choice, a yes/no
    proposal set apart by a statement on another matter asks its own yes (round 17); so does one
    before a choice under a heading of another matter ("Shall I update your address? Regarding
    the card: ... Home or branch?", round 19). Its acts."""
    for at, asked in enumerate(sentences):
        later = sentences[at + 1 :]
        turn = next((i for i, s in enumerate(later) if _NEW_MATTER.match(s.text)), None)
        if (
            turn is not None
            and asked.question
            and asked.acts & _PROPOSALS
            and not asked.choice
            and not ALTERNATIVE.search(asked.text)
            and not any(s.choice or "ask" in s.acts for s in sentences[: turn + at + 1])
            and any(s.choice for s in later[turn:])
            and not any(s.acts & _PROPOSALS for s in later[turn:])
        ):
            return asked.acts & (_PROPOSALS | {"handoff"})
    for at in range(2, len(sentences)):
        asked, before = sentences[at], sentences[at - 1]
        if (
            asked.question
            and asked.acts & _PROPOSALS
            and not asked.choice
            and not ALTERNATIVE.search(asked.text)
            and not before.question
            and before.acts & {"refuse", "done"}
            and any(s.choice for s in sentences[: at - 1])
            and not any(s.choice or s.acts & (_PROPOSALS | {"ask"}) for s in sentences[at + 1 :])
        ):
            return asked.acts & (_PROPOSALS | {"handoff"})
    return frozenset()


def go_ahead_beside_which(proposing: list[Sentence], sentences: tuple[Sentence, ...]) -> bool:
    """ "Would you like to proceed with this option? ... Which payment method would you like to
    use?": the go-ahead for the whole change, asked beside a value; not a proposal among
    options, nor a yes put off until later (round 13)."""
    return (
        any(GO_AHEAD.match(s.text) and not s.choice for s in proposing)
        and not offers_a_choice(sentences)
        and not any(s.choice or LATER_YES.search(s.text) for s in sentences)
    )


# "Could you confirm which payment method you'd like to use for the refund?": a thing named in
# up to three words asked for, and a yes/no question after it that names one candidate answer.
_WHICH_NAMED = re.compile(
    r"\bwhich (\w+ ){1,3}(you('d| would) (prefer|like)|would you (prefer|like))\b", re.IGNORECASE
)
_CANDIDATE = re.compile(
    r"\bwould you (like|prefer) (to use )?the (?!(\w+ ){0,2}(options?|changes?|plan|details)\b)[^?]*\?\s*$",
    re.IGNORECASE,
)


def names_a_candidate(sentences: tuple[Sentence, ...], at: int) -> bool:
    """Sentence `at` asks which one ("Could you confirm which payment method you'd like to use for
    the refund?"), and a later question names one candidate answer ("Would you like to use the
    credit card?", "would you like the Google Assistant one at $249.01?"): the pick, not a yes
    (round 20); "Would you like me to proceed with the change?" beside it is still the go-ahead."""
    return bool(
        "ask" in sentences[at].acts
        and _WHICH_NAMED.search(sentences[at].text)
        and any(s.question and _CANDIDATE.search(s.text) for s in sentences[at + 1 :])
    )


def checks_in_brackets(sentence: Sentence) -> bool:
    """ "Kevin Smith: DOB? (I have 1957-10-05 from your profile, but please confirm.)": a value
    in brackets checked beside the others asked for (round 14)."""
    return (
        sentence.text.startswith("(")
        and bool(sentence.acts & _PROPOSALS)
        and not says_yes_last((sentence,))
    )


# "Thanks — I found your user id: ...", "Thanks — you're verified (user id ...)": the account found.
_FOUND_YOU = re.compile(
    r"\b(found your (account|user ?id|profile)|(you'?re|you are) (now )?(verified|authenticated)"
    r"|(verified|authenticated) your (identity|account))\b",
    re.IGNORECASE,
)
# "What would you like me to do next?", "Which would you like to do first: cancel items, return
# delivered items, or exchange delivered items?"
_WHAT_FIRST = re.compile(
    r"^((thanks|so|and|now|then|great)\W+)?(what|which)( \w+)? would you like (me )?to (do|start with)"
    r" (first|next)\b",
    re.IGNORECASE,
)


def asks_the_next_request(sentences: tuple[Sentence, ...]) -> bool:
    """A change reported done ("Your FD is closed."), the turn's one request asks what to do next
    ("What would you like to do next (e.g., open a new FD)?"): ready for the next request, as
    "Anything else?" is (round 19); not beside a refusal or a finding."""
    asking = [s for s in sentences if s.acts - {"greet", "done"}]
    return bool(asking) and all(_WHAT_FIRST.match(s.text) for s in asking) and completes(sentences)


def invites_the_request(sentences: tuple[Sentence, ...]) -> bool:
    """The customer's account found ("Thanks — you're verified."), the turn's one request asks
    what to do first or next: the customer states its request, as after "How can I help?"
    (tuning-24, tuning-32); not after a report of what was done or found in the records."""
    asking = [s for s in sentences if s.acts - {"greet", "done"}]
    return (
        bool(asking)
        and all(_WHAT_FIRST.match(s.text) for s in asking)
        and any(_FOUND_YOU.search(s.text) for s in sentences)
        and not any("done" in s.acts for s in sentences)
    )


# "Unfortunately, there are no direct flights available on 24 May." / "Would you like me to search
# for one-stop flights instead?": a search's empty result, then the next search proposed.
_EMPTY_RESULT = re.compile(
    r"^(?![^.?!]*\b(cannot|can'?t|unable|not able|won'?t)\b)[^.?!]*\bthere (are|is) no\b[^.?!]{0,60}"
    r"\bavailable\b",
    re.IGNORECASE,
)
_SEARCH_AGAIN = re.compile(r"\b(search|look|check)\b[^.?!]*\binstead\W*$", re.IGNORECASE)


def searches_again(sentences: tuple[Sentence, ...]) -> bool:
    """Each refusal of the turn is a search's empty result before the agent proposes the next
    search ("There are no FDs of 5 years available. Would you like me to check 3-year FDs
    instead?"): no refusal, as before "Let me check ..." (round 17, round 19)."""
    refusing = [at for at, s in enumerate(sentences) if "refuse" in s.acts]
    return bool(refusing) and all(
        _EMPTY_RESULT.search(sentences[at].text)
        and any(s.acts & _PROPOSALS and _SEARCH_AGAIN.search(s.text) for s in sentences[at + 1 :])
        for at in refusing
    )
