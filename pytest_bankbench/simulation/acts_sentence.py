"""Reading one sentence of an agent turn as dialogue acts.

Each sentence is matched against the rows of simulation/acts_rules.py, and the overlaps are
resolved here: a question that opens with "which" asks for a detail whatever action it names, a
proposal beside an alternative offers a choice, a purpose clause before a request asks for the
detail. simulation/acts.py reads the turn from its sentences.
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass
from functools import lru_cache

from pytest_bankbench.simulation.acts_patterns import (
    ADD_MORE,
    AFTERCARE,
    ANY_YOU_WANT,
    DETAILS_FIRST,
    IF_RULE,
    NOT_HANDED,
    ON_TERMS,
    OR_VAGUE,
    PROCEED_OR_CHANGE,
    PROPOSE_FIRST,
    PURPOSE_THEN_REQUEST,
    REQUEST_FIRST,
    RESUMES,
    STEP_BECAUSE,
    WHETHER_ITEM,
)
from pytest_bankbench.simulation.acts_rules import (
    ACT_RULES,
    ACTION_RULES,
    PROPOSALS,
    TOPIC_RULES,
    Act,
)
from pytest_bankbench.simulation.acts_text import FILLER
from pytest_bankbench.tasks.model import Topic

_PROPOSALS = PROPOSALS
# A question that opens with one of these asks for a detail even when it names an action
# ("Which card should I block?"), unless it is an invitation or "anything else".
_WH = re.compile(
    r"^((for|from|to|in|on|at|with|by|and|so) )?(what|which|how|when|where|who|whom|whose|why)\b",
    re.IGNORECASE,
)
_CLAUSE = re.compile(r",|\band\b|\bor\b|;")
# "... for further assistance?" is not "anything else?".
_ELSE = re.compile(
    r"\b(else|more|other|further)\b(?!\s+(\w+\s+)?(help|assistance|support))"
    # "... with any actions for these reservations", "..., or do you have another request?"
    r"|\bany (actions?|requests?|tasks?)\b|\banother (request|question)\b"
    # "Anything else, or would you like to wait and check back once it is processed?" (round 20)
    r"|\bwait and (check|come) back\b",
    re.IGNORECASE,
)
# A proposal offered beside another ("..., or would you prefer to speak to a person?") asks the
# customer to choose: a question, never a yes to either.
_CHOICE = re.compile(
    # "..., or would you still prefer to speak with a human agent?" (round 20)
    r",? or (would|do) you (still )?(prefer|like|want|rather)\b|,? or if you( prefer| would like|'d like| want"
    r"| wish|'d prefer| would prefer)\b|,? or (should|shall) (i|we)\b|,? or perhaps\b"
    # "Would you like to proceed with cancelling it or explore modifying it?", "Please confirm: are
    # you now willing to close or renew the FD ...?" (round 17); "Would you like me to:" before a
    # list of options.
    r"|\b((would|do) you (like|want|prefer|wish)( me)?|are you (now |still )?(willing|looking|planning))"
    r" to\b[^?]*\bor ((explore|try|keep|wait|speak|talk"
    r"|leave|stay|look|search|check|confirm|reduce|change|modify|use|choose|pick|select|switch|upgrade"
    r"|downgrade|add|remove|\w+ing)\b|(?!(not|no|is|are|if|anything|do|would|can|should|shall|have"
    r"|does|will|just)\b)\w+ (your|the|it|them|this|that|these|those|a|an|some|more)\b)"
    r"|\b(would|do) you (like|want|prefer)( me)? to\s*:\s*$"
    # "Would you like to proceed with checking the others or do you have any concerns?"
    r"|,? or do you (have|need|want)\b"
    # "Would you like instructions, or do you know how?", "..., or are you comfortable doing this?"
    r"|,? or (do|are|can) you\b"
    # "If you want, I can continue with the change, or I can transfer you to a human agent."
    r"|,? or (i|we) (can|could)\b"
    # "If you want, I can help with closing or renewing the FD, or open a new one" (round 17)
    r"|^if you('d| would)? (want|like),? (i|we) (can|could) [^.?!]*,\s*or (?!(not|no|if|anything"
    r"|something|just|i|we|you)\b)(?![a-z]+ing\b)[a-z]+ (your|the|it|them|this|that|these|those|a|an|with|to|for)\b"
    # "Could you narrow it down to a few destinations or confirm if you'd like me to check the
    # major airports?": a value or a yes, the customer picks (round 14)
    r"|\bcould you\b[^?]*,? or (just )?confirm (if|whether) you('d| would)? (like|want|prefer)\b"
    # "Confirm "yes" to process the date change, or transfer to a human agent?" (round 11)
    r"|,? or (transfer|connect)\w*( you)? to (a |an )?(human|live)\b"
    # "Please confirm if you want to proceed with the one with no backlight or the one with white
    # backlight": two variants of one item named side by side (tuning-31)
    r"|\bor (with )?the (other )?one\b"
    # "If you'd like, I can (a) coordinate ..., (b) cancel it, or (c) ..." (tuning-20)
    r"|\((a|1)\)[^()]{3,200}\((b|2)\)"
    # "If you'd like to go ahead with both, or just one of them, say the word" (tuning-16)
    r"|\b(both|all)( of them)?,? or (just |only )?(one|either)\b"
    # "If you want, I can help you with options ..., such as changing your flight, canceling the
    # reservation, or checking ...": the examples are options to pick from (round 11)
    r"|\b(options?|alternatives)\b[^.?!]*\bsuch as\b[^.?!]*,[^.?!]*\bor\b"
    # "Please confirm if you want to book option 1, option 2, or something else" (round 11)
    r"|\boptions? (\d|(?-i:[A-D]))\b[^.?!]{0,30}(,|\bor\b)\s*(option )?(\d|(?-i:[A-D]))\b",
    re.IGNORECASE,
)
# The yes a later step will need, told ahead: "we'll need your confirmation before proceeding",
# "... and await your confirmation", "Once you provide the details, reply 'Yes, proceed'";
# "Let's start with the first one, confirm the details, get your explicit yes, then move on" (a
# plan; tuning-19, tuning-20).
_YES_LATER = re.compile(
    r"\b(i|we)('ll| will)( then)? (need|require|await|get|ask for) your (explicit |final )?"
    r"(\W?yes\W?|confirmation|consent|go-?ahead|approval)"
    r"|\band await your (confirmation|approval|go-?ahead)\b"
    # "Any changes would require your explicit confirmation", "... and require your explicit
    # confirmation before I proceed" (round 11)
    r"|\b(would|will) (require|need) your (explicit |final |formal )?(confirmation|consent|approval)\b"
    r"|\brequire your (explicit |final |formal )?(confirmation|consent|approval|go-?ahead) before\b"
    r"|^once you (provide|share|give|send|have)\b"
    # "After you tell me the items and confirm PayPal, I will summarize and ask you to confirm"
    # (round 12): the yes comes after details the customer gives first
    r"|^(after|when) you (provide|share|give|send|have|tell|specify|choose|pick|select)\b"
    # "Once updated, reply "yes" ...": the yes after a change the customer makes first (round 11)
    r"|^(once|after|when) (updated|provided|added|corrected|fixed|shared|received)\b"
    r"|^let'?s (start|begin|go)\b",
    re.IGNORECASE,
)
# A standing offer of help with some kinds of request: "If you'd like, I can help with tracking,
# modifications, or returns for this order" (tuning-20).
_HELP_WITH = re.compile(
    r"^if you('d| would)? like,? (i|we) (can|could) (also )?help (you )?with\b(?![^.?!]*\?)", re.I
)
# The second question of "..., or do you have another payment method you'd like to use?"
_OR_ASKS = re.compile(
    r",? or (do|did|are|is|can|could|would) you\b(?P<rest>[^?]*)\?", re.IGNORECASE
)
# "Would you like to proceed with the refund to PayPal or a gift card?": a proposal whose last
# words name the options asks the customer to pick one.
_OPTIONS_LAST = re.compile(
    r"(?<!\bany )\bor (?!not\b|no\b|anything\b|something\b|is\b|are\b)([\w'-]+\s+){0,3}[\w'-]+"
    # "... with Option A (full cancellation) or Option B (address change)?"
    r"(\s*\([^)]{0,60}\))?\s*\?\s*$",
    re.IGNORECASE,
)
# "Would you like to book one of these flights?", "Would you like to explore either of these
# options, or is there anything else?": the customer picks one, never a yes (issue 16, tuning-4).
_EITHER = re.compile(
    r"\b(one|either|any|which) of (these|those|them|the (above|following|two|three|four|options"
    r"|flights|alternatives))\b",
    re.IGNORECASE,
)
# "If everything looks good, provide the details, and I'll prepare the summary for your final
# "Yes" confirmation": the sentence puts its yes off to a later summary; it asks for what comes
# first (tuning-10). Beside another question ("Would you like insurance? ... I'll list it all for
# your final confirmation") the other question still asks.
_YES_TO_COME = re.compile(
    r"\bfor your ((final|explicit|formal) )?\W?yes\W? (confirmation|approval|go-?ahead)\b"
    r"|\bfor your (final|explicit|formal) (confirmation|approval|go-?ahead)\b",
    re.IGNORECASE,
)
# "Once the returned items are received, we will process the exchanges": what will happen on an
# event to come, not the agent at work now (issue 16, round 4).
_ON_AN_EVENT = re.compile(
    r"^(once|when|after|as soon as) (the|your|it|they|this|that)\b[^.?!]*\b(is|are|has|have|gets?)"
    r" (been )?(\w+ed|\w+en|in|back)\b[^.?!]*,\s*(we|i|it|they)('ll| will)\b",
    re.IGNORECASE,
)
# "Please choose one of the following ...:", "(choose one item_id from above)": the customer picks.
_CHOOSE = re.compile(
    r"\b(choose|select|pick) (one|either|any) (of\b|(\w+ ){0,2}from (above|below|the (list|options))\b)"
    # "Options — please choose one:" heads a list of options (tuning-32)
    r"|^(your |the )?options?\W+(please )?(choose|select|pick) (one|either)\s*:\s*$"
    # "If you select the 32GB option, you'll need another card": the turn lists options to pick.
    r"|^if you (select|choose|pick|opt for|go with) (the |option |an? )(?!to\b)",
    re.IGNORECASE,
)
# "Transferring you to a human agent is the only way to proceed": the transfer named as the one
# way left, beside a refusal; the agent has not handed the customer over (tuning-10).
_ONLY_WAY = re.compile(r"\b(is|would be|remains) the only (way|option|path)\b", re.IGNORECASE)
# "If you're unable to recall your email, I can also look you up by your name": a way offered on
# a condition the customer may not meet, beside the request it falls back from; no yes is asked
# (round 6, tuning-12). A transfer offered so ("If you can't wait, I can connect you") stays one.
_FALLBACK = re.compile(
    r"^if (you('re| are)? (unable|not able)|you (can'?t|cannot|don'?t|do not) (remember|recall|find|know"
    r"|have|locate))\b(?![^.?!]*\b(transfer|connect)\w* you\b)[^.?!]*,\s*(i|we) (can|could)\b",
    re.IGNORECASE,
)
# "Let me check further to confirm the reason", "I'll verify the details": the agent's own step,
# a statement that asks nothing of the customer (round 6, tuning-11).
_OWN_STEP = re.compile(
    r"^((now|okay|ok|first|next),? )?(let me (?!know\b)|i('ll| will|'m going to| am going to) )"
    r"(?![^.?!]*\b(please|kindly|you (can|could|need|should|may|must|will)|could you|can you)\b)",
    re.IGNORECASE,
)
# "Let's start with the first one, JG7FMM, confirm the details, get your explicit "yes" to proceed,
# then move to the next.": the plan's steps in order, told before the agent starts on the first;
# the yes in it comes later (round 23).
_PLAN_OF_STEPS = re.compile(
    r"^((now|okay|ok|so),? )?let'?s (start|begin) with\b(?![^.?!]*\b(please|could you|can you)\b)"
    r"[^.?!]*,\s*then\b[^?]*$",
    re.IGNORECASE,
)
# "To make sure I follow the policy, I will first check the details of your reservation": the
# agent's own check, told with its purpose, is progress, not a recap asking a yes (round 11).
_CHECK_TO_BE_SURE = re.compile(
    r"^(just )?(to confirm|to be sure|to make sure|to double[- ]check|to be clear)\b[^?]*\b(i|we)('ll| will)"
    r"( first| now| just)? (check|verify|look|review|pull|fetch|retrieve)\b[^?]*$",
    re.IGNORECASE,
)
# "Is there anything else you'd like me to adjust?": the proposal is "anything else" (round 11).
_ELSE_BEFORE = re.compile(r"\b(anything|something) (else|more|further)( that)?\s*$", re.IGNORECASE)
# "Please give me a moment to retrieve the details": progress, not a request (round 11).
_A_MOMENT = re.compile(r"\b(give|allow) me (a|one) (moment|second|minute)\b(?![^?]*\?)", re.I)
# "If you don't see the email by Friday, reply here and I'll check the status": a check on an
# event that may come, not the agent at work now (round 11).
_CHECK_LATER = re.compile(
    r"^((and|but|also),? )?(if|when|once) you (don'?t|do not|still|later|ever|haven'?t|have not)\b",
    re.I,
)
_LONGEST = 600
# Recent readings are kept (simulation/acts.py says why): sentences recur across sessions; the
# topics and actions of a text are mostly asked of new texts, so few of those are kept.
_SENTENCES = 1024
_TEXTS = 256


@dataclass(frozen=True)
class _Rules:
    """The rows of acts_rules.py, compiled."""

    acts: tuple[tuple[Act, re.Pattern[str]], ...]
    topics: tuple[tuple[Topic, re.Pattern[str]], ...]
    actions: tuple[tuple[str, re.Pattern[str]], ...]
    filler: tuple[re.Pattern[str], ...]


_COMPILED: list[_Rules] = []  # filled once, under _COMPILING
_COMPILING = threading.Lock()


def _rules() -> _Rules:
    """Compiled at the first reading, not at import: the ~300 patterns cost 20 ms, which a
    process that only collects the benchmark (or the xdist controller) never needs. Once per
    process: with --bank-concurrency the first wave's threads all read at once (a plain cache
    compiled them in each of them, ~0.4 s of CPU before the first model call)."""
    if not _COMPILED:
        with _COMPILING:
            if not _COMPILED:
                _COMPILED.append(_compile())
    return _COMPILED[0]


def _compile() -> _Rules:
    return _Rules(
        acts=tuple((act, re.compile(p, re.IGNORECASE)) for act, p in ACT_RULES),
        topics=tuple((topic, re.compile(p, re.IGNORECASE)) for topic, p in TOPIC_RULES),
        actions=tuple((action, re.compile(p, re.IGNORECASE)) for action, p in ACTION_RULES),
        filler=tuple(re.compile(p, re.IGNORECASE) for p in FILLER),
    )


@dataclass(frozen=True)
class Sentence:
    """One sentence and the acts it carries; `tail` is the proposal it makes, if any."""

    text: str
    acts: frozenset[Act]
    tail: str = ""
    choice: bool = False  # it offers options to choose from: its question stands

    @property
    def question(self) -> bool:
        return "?" in self.text


@lru_cache(maxsize=_TEXTS)
def topics_of(text: str) -> frozenset[Topic]:
    return frozenset(topic for topic, pattern in _rules().topics if pattern.search(text))


@lru_cache(maxsize=_TEXTS)
def actions_of(text: str) -> frozenset[str]:
    return frozenset(action for action, pattern in _rules().actions if pattern.search(text))


def _clause(text: str, at: int) -> str:
    """The clause of the sentence that holds position `at`, from its start."""
    bounds = [m.end() for m in _CLAUSE.finditer(text, 0, at)]
    return text[max(bounds, default=0) :].lstrip()


@lru_cache(maxsize=_SENTENCES)
def read_sentence(text: str) -> Sentence:
    """The acts of one sentence, overlaps resolved."""
    if len(text) > _LONGEST:  # a pasted record, not prose: its ends say what it is
        text = f"{text[: _LONGEST // 2]} {text[-_LONGEST // 2 :]}"
    if any(pattern.search(text) for pattern in _rules().filler):
        return Sentence(text, frozenset())
    acts: set[Act] = set()
    starts: list[int] = []
    for act, pattern in _rules().acts:
        match = pattern.search(text)
        if match:
            acts.add(act)
            if act in _PROPOSALS:
                starts.append(match.start("at") if "at" in pattern.groupindex else match.start())
    question = "?" in text
    if {"refuse", "wait"} <= acts and STEP_BECAUSE.match(text):
        acts.discard("refuse")  # "Let me check one-stop flights since there are no direct ones:"
    if "wait" in acts and (_ON_AN_EVENT.match(text) or _CHECK_LATER.match(text)):
        acts.discard("wait")
    if "ask" in acts and "wait" in acts and _A_MOMENT.search(text):
        acts.discard("ask")
    if "handoff" in acts and NOT_HANDED.search(text):
        acts.discard("handoff")
    if IF_RULE.match(text):
        acts -= {"refuse", "handoff"}
    if "handoff" in acts and not question and _ONLY_WAY.search(text):
        acts.discard("handoff")
    if "refuse" in acts:  # "the amount is below the minimum of Rs 10,000" reports no result
        acts.discard("done")
    if {"ask", "wait"} <= acts and _PLAN_OF_STEPS.match(text):
        acts -= {"ask"} | _PROPOSALS
    if {"ask", "wait"} <= acts and not question and _OWN_STEP.match(text):
        acts.discard("ask")  # "Let me check further to confirm the reason": the agent confirms
    if "ask" in acts and REQUEST_FIRST.match(text):
        acts.discard("more")
    if "ask" in acts and DETAILS_FIRST.match(text):
        acts -= _PROPOSALS  # "Share your name and zip code so I can look up your account?"
    if acts & _PROPOSALS and not question and (_FALLBACK.match(text) or ON_TERMS.search(text)):
        acts -= _PROPOSALS  # "If you can't recall your email, I can look you up by name."
    if "offer" in acts and ANY_YOU_WANT.match(text):
        acts = (acts - _PROPOSALS) | {"ask"}
    if "ask" in acts and not question and AFTERCARE.match(text):
        acts.discard("ask")  # "Follow the email instructions to ship the items back."
    if ADD_MORE.match(text):
        acts = (acts - {"ask", "confirm", "done"}) | {"offer"}
    if WHETHER_ITEM.match(text):
        acts = (acts - _PROPOSALS - {"done"}) | {"ask"}
    if "ask" in acts and PURPOSE_THEN_REQUEST.match(text):
        acts -= _PROPOSALS
    if acts & _PROPOSALS and _YES_TO_COME.search(text):
        acts = (acts - _PROPOSALS) | {"ask"}
    if acts & _PROPOSALS and not question and _YES_LATER.search(text):
        acts -= _PROPOSALS  # "I'll wait for your confirmation before proceeding" (tuning-20)
    if acts & _PROPOSALS and "wait" in acts and _CHECK_TO_BE_SURE.match(text):
        acts -= _PROPOSALS
    if acts & _PROPOSALS and _HELP_WITH.match(text):
        acts = (acts - _PROPOSALS) | {
            "more"
        }  # "If you'd like, I can help with tracking or returns"
    if not acts & {"more", "invite"}:
        # "Which card should I block?" asks for a detail; "..., and shall I go ahead?" does not.
        asking = [st for st in starts if _WH.match(_clause(text, st))]
        starts = [st for st in starts if st not in asking]
        if asking and not starts:
            acts -= _PROPOSALS
        if question and (asking or _WH.match(text)):
            acts.add("ask")
    # "Would you like to keep 3 bags or reduce to 2?" offers a choice even where no row proposes.
    choice = bool(
        (acts & _PROPOSALS or question or text.rstrip().endswith(":")) and _CHOICE.search(text)
    ) or bool(acts & _PROPOSALS and _OPTIONS_LAST.search(text))
    if (question and _EITHER.search(text)) or _CHOOSE.search(text):
        choice = True
        acts = (acts - _PROPOSALS - {"more"}) | {"ask"}
    if choice:
        acts = (acts - _PROPOSALS) | {"ask"}
        starts = []
    vague = OR_VAGUE.search(text)
    if (
        (choice or (question and acts <= {"more"}))
        and vague
        and not OR_VAGUE.search(text[: vague.start()] + "?")
    ):
        choice = False
        if vague.group("else"):
            acts = (acts - {"ask"} - _PROPOSALS) | {"more"}
        elif PROPOSE_FIRST.match(text):
            acts = (acts - {"ask"}) | {"confirm"}
            starts = [0]
    if PROCEED_OR_CHANGE.search(text):
        choice, acts = False, (acts - {"ask", "invite", "more"}) | {"confirm"}
        starts = [0]
    if "offer" in acts:
        acts.discard("confirm")
    if acts & {"more", "invite"}:
        # "Would you like me to check anything else?" is "anything else?"; "Shall I proceed, or
        # is there anything else?" still asks for a yes.
        starts = [
            st
            for st in starts
            if not _ELSE.search(_CLAUSE.split(text[st:], 1)[0])
            and not _ELSE_BEFORE.search(text[:st])
        ]
        other = _OR_ASKS.search(text)
        if other and RESUMES.match(other.group("rest")):
            acts, choice = (acts - {"ask"}) | {"more", "confirm"}, False
        elif other and not _ELSE.search(other.group("rest")):
            # "Anything else I can help with, or do you have another card you'd like to use?"
            acts = (acts - {"more", "confirm"}) | {"ask"}
        else:
            acts -= {"ask"} if starts else {"ask", "confirm"}
    if question and not acts & {"confirm", "offer", "more", "invite", "ask"}:
        acts.add("ask")
    if "ask" in acts and acts & _PROPOSALS and not topics_of(text):
        # "Please let me know if you'd like me to proceed" asks for a yes, not for a detail.
        acts.discard("ask")
    tail = text[min(starts) :] if starts and acts & _PROPOSALS else ""
    return Sentence(text, frozenset(acts), tail, choice)
