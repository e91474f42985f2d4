"""Reading an agent turn as dialogue acts: what a customer hears in it.

The turn is cleaned of markdown, cut into sentences, and each sentence is read alone
(simulation/acts_sentence.py), then in its place among the others (acts_context.py), then the
turn as a whole, here. A turn can carry several acts ("Hello! Which account should I use?" is a
greeting and a question); the customer decides what to answer from the whole set. Questions also
say what they are about (topics), and proposals what they would do (actions).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from pytest_bankbench.simulation.acts_context import (
    after_a_report,
    answered,
    confirm_asks_list,
    consequences,
    ends_on_choice,
    ends_on_which,
    narrows_the_invitation,
    options_listed,
    refuses_only_the_unknown,
    says_yes_last,
    verifies_first,
)
from pytest_bankbench.simulation.acts_rules import PROPOSALS as _PROPOSALS
from pytest_bankbench.simulation.acts_rules import Act
from pytest_bankbench.simulation.acts_sentence import (
    Sentence,
    actions_of,
    read_sentence,
    topics_of,
)
from pytest_bankbench.simulation.acts_text import said, split
from pytest_bankbench.tasks.model import Topic

__all__ = [
    "Reading",
    "Sentence",
    "actions_of",
    "asks_confirmation",
    "asks_question",
    "read",
    "read_sentence",
    "topics_of",
]

# "Please let me know which you'd prefer", "Which flight would you prefer?", "Let me know which
# order you want to proceed with": the customer picks among options, never a yes.
_WHICH = re.compile(
    r"\bwhich (one |option |of (these|those|the (two|three|four|options)) |(?!one\b|option\b)\w+ )?"
    r"(you('d| would) "
    r"(prefer|like)|would you (prefer|like)|do you (prefer|want)|you (prefer|want)(?! me to))\b",
    re.IGNORECASE,
)
# "Once you confirm, I'll summarize the changes and ask for your final yes": the customer
# answers; its yes is asked for later.
_LATER_YES = re.compile(
    r"\b(ask for|request) (your|a) (final|explicit|formal) (\W?yes\W?|confirmation|consent|go-?ahead)"
    # "After you provide the details, I will list the changes and ask for your yes confirmation"
    r"|\b(will|'ll|then)\b[^.?!]*\b(ask for|request|get|obtain|seek) (your|a) ((final|explicit|formal|clear) )?"
    r"(\W?yes\W?|confirmation|consent|approval|go-?ahead)"
    # "I'll list the items and the refund for your confirmation", "after I present the masked
    # details, reply yes": a yes to what has not been put yet (issue 16, round 4).
    r"|\b(i'll|i will) (then )?(list|summari[sz]e|present|show|send|share|lay out|prepare)\b[^.?!]*\bfor your "
    r"(confirmation|approval|review|go-?ahead)\b"
    r"|\bafter i (present|share|show|list|send|give)\b[^.?!]*\b(reply|respond|say|type)\b[^.?!]{0,20}\byes\b"
    # "... and present the pricing before we finalize the reservation" (issue 16, tuning-4)
    r"|\b(present|show|give) (you )?(the )?(pricing|price|total|summary)\b[^.?!]*\bbefore (we|i) "
    r"(finali[sz]e|book|proceed)\b",
    re.IGNORECASE,
)
# "Could you please confirm the following: ... Once I have this information, I will create the
# reservation": the list asks for details, it is not a proposal.
_NEEDS_INFO = re.compile(
    r"^once i (have|receive|get) (this|that|the|these|those|your|all the|all) (information|details"
    # "Once I have those details and your "yes," I'll proceed" asks for the yes too (tuning-10).
    r"|info)\b(?! and your\b)",
    re.IGNORECASE,
)
# "To confirm, you want to change ...": a recap of the request, beside the questions it leads to.
_RECAP = re.compile(
    r"^(so,? |just )?(to confirm|to recap|to summari[sz]e|to be clear)\b", re.IGNORECASE
)

# "Would you like to proceed with this option? If so, I'll need your explicit confirmation. If
# you prefer a different option, let me know which one": the yes/no question stands, the rest
# says what follows each answer (tuning-13, tuning-14).
_IF_SO = re.compile(
    r"^(if (so|yes|not)\b|if you('d| would)? (prefer|want|like|wish) (a different|another|other"
    r"|something else)\b)",
    re.IGNORECASE,
)
_OTHERWISE = re.compile(r"^(otherwise|alternatively)\b", re.IGNORECASE)
_OR = re.compile(r"^(or|otherwise|alternatively)\b", re.IGNORECASE)
# A sentence that opens a second option ("Or, if you'd like, I can show you the list",
# "Alternatively, I can escalate this") after a question or a proposal: the customer chooses.
_ALTERNATIVE = re.compile(
    r"^(or|otherwise|alternatively)\b|\b(i|we) (can|could) also\b.*\bif you('d| would)? prefer\b"
    # "If you want, I can help with changing it now. I can also continue with your booking."
    r"|^(i|we) (can|could) also\b"
    r"|^if you('d| would)? (like|prefer|want|wish),? (i|we) (can|could)\b"
    # "Could you provide the dates? If you're still unsure, we can also check your history."
    r"|^if (you'?re|you are) (still )?(not sure|unsure)\b",
    re.IGNORECASE,
)
# "Anything else? Perhaps you'd like me to search for a product?": an example of "anything else".
# "If you'd like, I can help you with other options such as:" introduces the list, not a proposal.
_EXAMPLE = re.compile(r"^(perhaps|maybe)\b|\bsuch as\s*:\s*$", re.IGNORECASE)
# "There was an error with the tool call. I will try again": the agent goes on working.
_RETRY = re.compile(r"\b(try|trying|attempt)\b.*\bagain\b", re.IGNORECASE)
# "Let's check your APN settings. Please run ...", "Once I have that, I'll check your account",
# "First, I need to pull up your account. Could you ...?": beside a request to the customer, a step
# taken with the customer or after its answer, not the agent working on its own.
_LETS = re.compile(
    r"^(\w+\W{1,3})?let'?s\b|^(once|when|after|as soon as|if)\b|^(\w+,? )?we'?ll\b"
    # "Since you've rebooted, let's check a few settings. Could you ...?" (issue 16, tuning-4)
    r"|^((however|so|but|now),? )?(since|as|now that|given that)\b[^.?!]*,\s*(let'?s|we('ll| will| need to)|i('ll| will| need to))\b"
    r"|^(first|to start|to begin|before i (can )?(proceed|continue)),? (i|we) (need|have) to\b"
    # "Please let me know which option you'd like, and I'll check the availability": a promise
    # made on the customer's answer.
    r"|^[^.?!]*\b(let me know|reply|respond|tell me)\b[^.?!]*,? and (i|we)('ll| will| can)\b",
    re.IGNORECASE,
)
# "Could you confirm the product ID? You mentioned P1, is that correct?": the tag checks the
# detail just asked for; it proposes nothing.
_TAG = re.compile(r",\s*(is that|is this|is it) (correct|right)\s*\?$", re.IGNORECASE)
# "If you still have trouble, please restart your phone", "Once you have the ID and are ready,
# please let me know", "Let me know once the bookshelf has been delivered": a request for later,
# on a condition the customer may never meet; beside a result or "anything else", nothing to
# answer now (issue 16, tuning-5 and tuning-7).
_LATER_REQUEST = re.compile(
    r"^((otherwise|and),? )?(if you (still |continue to |find|notice|see|(don'?t|do not) (see|receive|get)\b"
    r"|have any (additional|other|further"
    r"|more)|need (any|more|further)|decide|later)|if (the|it|that|this) (\w+ )?(still|persists|continues"
    r"|doesn'?t|does not|isn'?t)|(once|when) you('re| are| have| get)\b[^.?!]*,\s*(please )?(just )?let me"
    r" know)\b"
    # "If you locate the details and need more, just let me know and I'll be happy to help": a
    # standing offer of help, asking for nothing now (tuning-10).
    r"|^if you\b[^.?!]*,\s*(just |please |simply )?let me know,? and (i|we)('ll| will)( be)? (happy|glad)"
    r" to (help|assist)\b"
    r"|\b(let me know|tell me) (once|when) (the|it|your|you)\b[^.?!]*\b(delivered|arrives?|ships?"
    r"|shipped|ready|available)\b"
    # "Please follow those instructions to send the item back": a step after the conversation,
    # with nothing to report (issue 16, round 4).
    r"|\b(follow|use) (the|those|these) (instructions|steps|label)\b[^.?!]*\b(to (send|ship|return"
    r"|mail|drop)|in the email)\b"
    # "..., you might want to browse the store, or I could help you look at other products if
    # you'd like": a standing offer beside a finished answer (tuning-14).
    r"|^[^?]*\b(i|we) (can|could) (also )?help you\b[^?]*\bif you('d| would)? like\b[^?]*$",
    re.IGNORECASE,
)
_HOW_TO_PROCEED = re.compile(r"\blet me know how you('d| would) like to proceed\b", re.IGNORECASE)
_OPTIONS = re.compile(r"\b(options?|alternatives|choose|choices)\b", re.IGNORECASE)
# Readings are pure functions of the text and immutable, so the recent ones are kept: the
# scripted customer hears the same agent sentences across sessions (the gold agent's, a model's
# greetings), and matching one against every rule was over a third of a gold session (issue 11,
# item 7). Bounded so a model's turns, each new, hold a few MB at most; the topics and actions
# of a text are mostly asked of new texts (each task's script), so few of those are kept.
_TURNS = 256
# The sentences read at each end of a turn. An agent that recites every record ("Here are your
# 2,000 transactions: ...") wrote thousands of sentences a turn, and reading each cost a session
# ~90 ms and 1.3M regex searches; what the turn asks, proposes or reports opens it or closes it,
# so the middle of a turn longer than both ends is not read (no real or corpus turn comes near).
_ENDS = 30
_STANDING_BY = re.compile(
    r"^(i'?m|i am|i'?ll be|i will be) (right |still )?(here|around|available|standing by)\b",
    re.IGNORECASE,
)
_HOLD = re.compile(r"^(please )?(hold on|hold the line|stay on the line)\W*$", re.IGNORECASE)
# "Once you confirm, I'll list the details": a yes asked for later, after the choice asked now.
_ONCE = re.compile(
    r"\bonce (you (confirm|approve|agree)(?! (with )?\W?yes\b)|i have your (confirmation|approval"
    r"|go-?ahead))\b",
    re.IGNORECASE,
)
_PICK = re.compile(
    r"\bwhich\b|\bhow (would |do )?you('d| would)? (like|want) to (proceed|move forward)\b",
    re.IGNORECASE,
)
# "Could you please provide the reservation ID?": a request for a detail, whatever its topic.
_REQUEST = re.compile(
    r"\b(please|kindly|could you|can you)( please)? (provide|share|send|give|tell me|enter)\b",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Reading:
    """What a customer hears in one agent turn."""

    acts: frozenset[Act]
    topics: frozenset[Topic]
    # What the turn's proposal would do ("block", "transfer", ...; "look" is a read). Taken
    # from the clause that asks ("would you like me to block the card?"), or, when that clause
    # names nothing ("Shall I proceed?"), from the turn's statements.
    actions: frozenset[str]
    sentences: tuple[Sentence, ...]

    def has(self, *acts: Act) -> bool:
        return any(act in self.acts for act in acts)

    @property
    def proposes(self) -> bool:
        return self.has("confirm", "offer")


def _offers_a_choice(sentences: tuple[Sentence, ...]) -> bool:
    """A question or proposal, then a sentence that opens an alternative which asks or proposes
    ("Shall I order P1 only? Or would you like me to check P3 later?"): neither is a yes. But
    when a conditional alternative is followed by a yes/no proposal of its own that closes the
    turn ("Could you check the APN? If you're unsure, I can reset it. Would you like me to
    proceed?"), the turn's last request asks for that yes."""
    for at, sentence in enumerate(sentences):
        if at and _ALTERNATIVE.search(sentence.text):
            before, after = sentences[:at], sentences[at:]
            asked = any(s.question or s.acts & (_PROPOSALS | {"ask"}) for s in before)
            if asked and any(s.question or s.acts & _PROPOSALS for s in after):
                if says_yes_last(after):  # "Alternatively, if you wish to cancel, type yes."
                    return False
                return _OR.match(sentence.text) is not None or not _asks_yes(after[1:])
    return False


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
        and not _ALTERNATIVE.search(last.text)
    )


# A bare "OK?" closing a turn: a request for the go-ahead only after what the agent will do.
_BARE_OK = re.compile(
    r"^\W*(ok|okay|sounds? good|all good|fine|alright|all right|agreed)\s*\?\s*$", re.I
)
_WILL_DO = re.compile(
    r"\b(i'?ll|i will|i'?m going to|i am going to|we'?ll|we will|plan|next step)\b", re.I
)


@lru_cache(maxsize=_TURNS)
def read(text: str) -> Reading:
    """Read one agent turn."""
    pieces = split(said(text))
    if len(pieces) > 2 * _ENDS:
        pieces = pieces[:_ENDS] + pieces[-_ENDS:]
    sentences = tuple(read_sentence(s) for s in pieces)
    sentences = answered(after_a_report(consequences(sentences)))
    acts = {act for s in sentences for act in s.acts}
    if "refuse" in acts and refuses_only_the_unknown(sentences):
        acts.discard("refuse")
    proposing = [s for s in sentences if s.acts & _PROPOSALS]
    if len(proposing) > 1 and any(_OTHERWISE.match(s.text) for s in proposing):
        # "If you'd like the certificate, let me know. Otherwise, I can transfer you.": a choice.
        acts = (acts - _PROPOSALS) | {"ask"}
    if (
        acts & _PROPOSALS
        and (
            _offers_a_choice(sentences)
            or any(
                s.choice or _WHICH.search(s.text) or _LATER_YES.search(s.text)
                for s in sentences
                if not _IF_SO.match(s.text)
            )
        )
        and not says_yes_last(sentences)  # "Which variant? ... Please say "yes" to proceed."
    ):
        acts = (acts - _PROPOSALS) | {"ask"}
        if all(s.acts & _PROPOSALS for s in sentences if "handoff" in s.acts):
            acts.discard("handoff")  # "..., or transfer you to a human agent?" is one option
    if (
        acts & _PROPOSALS
        and all(_ONCE.search(s.text) or s.text.rstrip().endswith(":") for s in proposing)
        and any(
            _PICK.search(s.text)
            or (s.question and "ask" in s.acts and all(_ONCE.search(p.text) for p in proposing))
            for s in sentences
            if s.acts & {"ask", "invite"}
        )
    ):  # "Which option would you like? Once you confirm, I'll book it." / "Does it appear on all
        # your devices? Once you confirm, I'll guide you." / "If you'd like, I can:
        # - ... Please let me know how you'd like to proceed.": the customer picks first
        acts = (acts - _PROPOSALS) | {"ask"}
    if acts & _PROPOSALS and (ends_on_which(sentences) or ends_on_choice(sentences)):
        acts = (acts - _PROPOSALS) | {"ask"}
    if acts & _PROPOSALS and (options_listed(sentences) or confirm_asks_list(proposing, sentences)):
        acts = (acts - _PROPOSALS) | {"ask"}
    if acts & _PROPOSALS and verifies_first(sentences):
        # "First, I need to verify your account. Please provide ... Should I also ...?"
        acts = (acts - _PROPOSALS) | {"ask"}
        if all(s.acts & _PROPOSALS for s in sentences if "handoff" in s.acts):
            acts.discard("handoff")
    if acts & _PROPOSALS and any(_NEEDS_INFO.search(s.text) for s in sentences):
        rest = {  # "Once I have those details, I can get your confirmation" is for later too
            a
            for s in proposing
            if not s.text.rstrip().endswith(":")
            and not _RECAP.match(s.text)
            and not _NEEDS_INFO.search(s.text)
            for a in s.acts
        }
        if not rest & _PROPOSALS:
            acts = (acts - _PROPOSALS) | {"ask"}
    if (
        proposing
        and all(_TAG.search(s.text) for s in proposing)
        and any("ask" in s.acts for s in sentences[: sentences.index(proposing[0])])
    ):
        acts = (acts - _PROPOSALS) | {"ask"}
    requests = [s for s in sentences if "ask" in s.acts]
    if (
        requests
        and acts & {"done", "more", "refuse"}
        and not acts & _PROPOSALS
        and all(_LATER_REQUEST.search(s.text) for s in requests)
    ):
        acts.discard("ask")
    if "more" in acts and all(_EXAMPLE.search(s.text) for s in proposing):
        acts -= _PROPOSALS
    if {"ask", "more"} <= acts and all(
        _STANDING_BY.match(s.text) for s in sentences if "more" in s.acts
    ):
        acts.discard("more")  # "Please run the test. I'm here if you have any questions."
    if "more" in acts:  # "We will review it and contact you. Anything else?": ready, not working
        acts.discard("wait")
    if "wait" in acts and any("wait" in s.acts and _RETRY.search(s.text) for s in sentences):
        acts.discard("refuse")
    tags = [s for s in proposing if _BARE_OK.match(s.text)]
    if (
        tags
        and len(tags) == len(proposing)
        and not any("wait" in s.acts or _WILL_DO.search(s.text) for s in sentences)
    ):  # "I have sent it. OK?" checks in; "I'll send it. OK?", "Plan: block it. OK?" ask
        acts -= _PROPOSALS
    if acts & _PROPOSALS:  # a quote before "shall I?" is not a completion, nor progress
        acts -= {"done", "wait"}
    if {"ask", "wait"} <= acts and all(_LETS.match(s.text) for s in sentences if "wait" in s.acts):
        acts.discard("wait")
    if "handoff" in acts and all(_HOLD.match(s.text) for s in sentences if "wait" in s.acts):
        acts.discard("wait")  # "You are being transferred to a human agent. Please hold on."
    if "wait" in acts:  # "Your card is blocked. Now let me check the balance."
        acts.discard("done")
    inviting = [s for s in sentences if "invite" in s.acts]
    if (
        inviting
        and all(_HOW_TO_PROCEED.search(s.text) for s in inviting)
        and (
            any(_OPTIONS.search(s.text) or _OR.match(s.text) for s in sentences)
            or any(s.text.rstrip().endswith(":") for s in inviting)
        )
    ):  # "Here are your options: ... Let me know how you'd like to proceed.": pick one; "Let me
        # know how you'd like to proceed: - keep it, or - cancel it" lists them (tuning-10)
        acts = (acts - {"invite", "done"}) | {"ask"}
    if acts & (_PROPOSALS | {"ask"}) and all(
        _HOW_TO_PROCEED.search(s.text) for s in sentences if "invite" in s.acts
    ):  # "Shall I issue it? Please let me know how you'd like to proceed.": one request
        acts.discard("invite")
    if (
        acts & {"confirm", "offer", "invite", "more"}
        and not narrows_the_invitation(sentences)
        and not any(
            s.choice
            or topics_of(s.text)
            or ("more" in acts and (not s.question or _REQUEST.search(s.text)))
            for s in sentences
            if "ask" in s.acts
        )
    ):  # "Main transfer kar doon? Please confirm.": the question is the proposal itself;
        # but "Once you have the IDs, please provide them. Anything else?" still asks for them
        acts.discard("ask")
    topics: frozenset[Topic] = frozenset()
    if "ask" in acts:
        # A question's topics, and those of the list it introduces ("I need: - the amount").
        asking = " ".join(s.text for s in sentences if "ask" in s.acts or not s.acts)
        topics = topics_of(asking) or topics_of(" ".join(s.text for s in sentences))
    actions = frozenset(a for s in sentences if s.tail for a in actions_of(s.tail))
    if not actions and acts & _PROPOSALS:  # "Shall I proceed?": what the turn describes
        actions = actions_of(" ".join(s.text for s in sentences)) - {"look"}
    return Reading(frozenset(acts), topics, actions, sentences)


def asks_question(text: str) -> bool:
    """The agent turn asks the customer something (a detail or a yes)."""
    return read(text).has("ask", "confirm", "offer")


def asks_confirmation(text: str) -> bool:
    """The agent turn asks for consent, in any phrasing ("Please reply YES to confirm.")."""
    return read(text).proposes
