"""A sentence read in its turn: where the sentences around it change what it asks.

simulation/acts_sentence.py reads each sentence alone, simulation/acts.py the turn as a whole. Some sentences mean
something else by where they stand (issue 16, round 4, on NVIDIA's ToolOrchestra retail turns):
a note of what a change rules out is not a refusal; an offer after a finished report ("If you'd
like, I can check back later. Anything else?") asks nothing now; the customer's own questions quoted under "Your questions:" are answered, not asked;
a proposal in a turn that must first verify who the customer is waits for that; a turn whose last
request asks to pick is a choice; a detail the agent cannot give once the request is done is an
answer, not a refusal. Where the last request falls decides too (round 6): a turn that ends on
"which one?" or on a question narrowing its invitation is answered, one that closes an alternative
on a literal "say yes" asks that yes. Each rule here looks at the turn's sentences, never at one
phrasing.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterable
from dataclasses import replace
from typing import TYPE_CHECKING

from pytest_bankbench.simulation.acts_patterns import COMPLETED, LATER_YES
from pytest_bankbench.simulation.acts_rules import PROPOSALS as _PROPOSALS
from pytest_bankbench.simulation.acts_rules import Act

if TYPE_CHECKING:
    from pytest_bankbench.simulation.acts_sentence import Sentence

# "First, I need to verify your account": nothing can be done before the customer says who they
# are, so a proposal beside it is for later (issue 16, round 4).
_VERIFY_FIRST = re.compile(
    r"\b(need|have) to (first )?(verify|authenticate) (you\b|your (identity|account)\b(?! status))",
    re.IGNORECASE,
)
# "If you'd like, I can check back later", "If you need a copy, let me know and I can transfer
# you": an offer on the customer's wish or need.
_IF_YOU = re.compile(
    r"^((and|also|otherwise|or|but),? )?if you('d| would)? (like|prefer|want|wish|need|do not have"
    r"|don'?t have|have any)\b",
    re.IGNORECASE,
)
_IF_YOU_NEED = re.compile(
    r"^((and|also|otherwise|or|but),? )?if you (need|do not have|don'?t have|have any)\b",
    re.IGNORECASE,
)
_LIST_OPENS = re.compile(r":\s*$")
# "If you'd like, I can: - Confirm anything else on your account, - Count ..., or - Transfer you
# to a human agent": an item that ends on a comma or "or" is not the last; "anything else" in it
# is one more option of the menu, not its close (tuning-32).
_ITEM_GOES_ON = re.compile(r"(,|;|\bor)\s*$", re.IGNORECASE)
# "After this change, the order can't be modified further", "Note: since an exchange has now
# been initiated, we won't be able to process a separate one": what a change (made or proposed)
# rules out from then on, beside the change it follows or proposes: not a refusal of the request.
_CONSEQUENCE = re.compile(
    r"\b(modif(y|ied)|cancel(l?ed)?|chang(e|ed)|exchang(e|ed)|edit(ed)?|amend(ed)?|updat(e|ed)|revers(e|ed)"
    r"|reopen(ed)?)( or \w+)?( (it|them|the order|this order|that order|the deposit|the account|for \w+))?"
    r" (any )?(further|any ?more|again|later)\b"  # "... cannot be modified or cancelled later" (round 19)
    r"|\bfurther (changes|cancellations?|modifications?|edits|exchanges)\b"
    # "Nominee: none (cannot be added after opening)": a recap item's note in brackets (round 19)
    r"|^[\w' -]{1,30}:[^()]*\((cannot|can'?t|can not) be [^()]*\)\W*$"
    r"|^(note:?\s*)?(since|now that)\b[^.?!]*\b(has|have) (now|just) been\b"
    r"|^(note:?\s*)?(after|once) (this|that|the|these|those|we|items?) (\w+ ){0,3}(change|changes|modification"
    r"|modifications|exchange|update|modify|modified|changed|(is|are) (made|done|complete|closed))\b,"
    # "I can't move the refund after this return is submitted" (tuning-32)
    # (not "insurance cannot be added after the initial booking is made": the request's own rule)
    r"|\b(after|once) (this|that) (\w+ ){0,2}(is|are|has been|have been) (submitted|placed|processed)\b"
    # "Please note a block cannot be reversed", "a closed FD cannot be reopened": what the change
    # rules out, which D.15 asks to state (independent careful agent, issue 16)
    r"|\b(cannot|can'?t|can not) be (reversed|undone|unblocked|reopened|revoked|reactivated)\b"
    r"|\b(is|are) (permanent|irreversible|final and cannot)\b",
    re.IGNORECASE,
)
# "Your questions:" before the customer's own questions, each answered below it.
_SELF_ANSWER = re.compile(r"^(no|yes)\s*[,.!:;]", re.IGNORECASE)
_THEIR_QUESTIONS = re.compile(
    r"^((regarding|about|re|on|to|answers? to|answering) )?your (other |remaining )?(questions?|queries)"
    r"\s*:\s*$",
    re.IGNORECASE,
)
# "I cannot provide an exact new ETA from the tools available": a detail the agent does not have,
# told in answer to a question once the request is done; not a refusal of it.
_NOT_KNOWN = re.compile(
    r"\b(can'?t|cannot|unable to|not able to) (provide|confirm|give|share|display|show) (you )?(an? |the )?"
    r"(exact|specific|precise|definitive|firm)\b",
    re.IGNORECASE,
)
# "Reply with your choice", 'Reply with "Transfer me" ... or "I'll buy separately"': pick one.
_CHOOSE_LAST = re.compile(
    r"\b(reply|respond) with your (choice|selection|preference|option)\b"
    r"|\b(reply|respond|answer) with \"[^\"]+\"[^\"]*\bor (with )?\"",
    re.IGNORECASE,
)


def consequences(sentences: tuple[Sentence, ...]) -> tuple[Sentence, ...]:
    """In a turn that reports a result, proposes or announces a change ("I'll block your card")
    or asks for its details, a note of what the change rules out ("After this change, the order can't be modified further") refuses
    nothing; alone, "the limit can't be changed again today" still does."""
    if not any(s.acts & (_PROPOSALS | {"done", "ask", "wait"}) for s in sentences):
        return sentences
    return tuple(
        replace(s, acts=s.acts - {"refuse"})
        if "refuse" in s.acts and _CONSEQUENCE.search(s.text)
        else s
        for s in sentences
    )


def recast(
    sentences: tuple[Sentence, ...],
    test: Callable[[Sentence], bool],
    drop: Collection[Act],
    add: Act,
) -> tuple[Sentence, ...]:
    """Each sentence `test` holds for read with `add` in place of its `drop` acts."""
    return tuple(replace(s, acts=(s.acts - set(drop)) | {add}) if test(s) else s for s in sentences)


def opening(pattern: re.Pattern[str]) -> Callable[[Sentence], bool]:
    """The test that a sentence opens with `pattern`."""
    return lambda s: pattern.match(s.text) is not None


# "I understand you'd like to make two changes:", "You mentioned you want to:": the customer's own
# requests restated, one an item below; an item ("Remove the checked bag") asks nothing (round 13).
_THEIR_REQUESTS = re.compile(
    r"^((i understand|i see|so|ok|okay|alright|got it|to recap|to summari[sz]e|you mentioned),? )?(that )?"
    r"you('d| would)? (like|want|wish|need) to\b[^.?!:]*:\s*$",
    re.IGNORECASE,
)
_ASKS_OPENLY = re.compile(r"^(please|kindly|could you|can you|would you)\b", re.IGNORECASE)


def their_requests(sentences: tuple[Sentence, ...]) -> tuple[Sentence, ...]:
    """Under a heading that restates what the customer asked for ("I understand you'd like to
    make two changes: 1. Switch to a nonstop flight 2. Remove the checked bag"), the items are
    the customer's requests quoted, not requests of the agent's."""
    out = list(sentences)
    for at, sentence in enumerate(sentences):
        if not _THEIR_REQUESTS.match(sentence.text):
            continue
        for item in range(at + 1, len(sentences)):
            quoted = sentences[item]
            if quoted.question or not quoted.acts <= {"ask"} or _ASKS_OPENLY.match(quoted.text):
                break
            out[item] = replace(quoted, acts=frozenset())
    return tuple(out)


_RECAP_HEADING = re.compile(r"^(just )?to (confirm|recap|summari[sz]e)\s*:\s*$", re.IGNORECASE)


def recaps_what_is_done(sentences: tuple[Sentence, ...]) -> tuple[Sentence, ...]:
    """ "The downgrade has been successfully processed. To confirm: - Cabin: now basic economy":
    a heading after a finished change, in a turn that asks nothing, recaps what was done; "Just
    to confirm: - Guest: ... - Total: ..." before anything is done still asks the yes (round 13)."""
    if any(s.question for s in sentences):
        return sentences
    out = list(sentences)
    for at, sentence in enumerate(sentences):
        if (
            "confirm" in sentence.acts
            and _RECAP_HEADING.match(sentence.text)
            and completes(sentences[:at])
            and not any(s.acts & _PROPOSALS for s in sentences if s is not sentence)
        ):
            out[at] = replace(sentence, acts=(sentence.acts - _PROPOSALS) | {"done"})
    return tuple(out)


def after_a_report(sentences: tuple[Sentence, ...]) -> tuple[Sentence, ...]:
    """After a completed report, an offer on the customer's wish ("If you'd like, I can check
    back later") that the turn follows with "anything else?", and one on a need that may never
    arise ("If you need a copy, let me know and I can transfer you"), ask nothing now: the
    customer goes on to its next request (issue 16, round 4). The options listed under such an
    offer ("If you'd like, I can also: - Share the tracking details") are part of it."""
    soft: list[int] = []
    listing = False
    for at, sentence in enumerate(sentences):
        if (
            listing
            and not sentence.question
            and ("more" not in sentence.acts or _ITEM_GOES_ON.search(sentence.text))
        ):
            soft.append(at)
            continue
        listing = False
        if _IF_YOU.match(sentence.text) and sentence.acts & (
            _PROPOSALS | {"ask", "handoff", "wait"}
        ):
            soft.append(at)
            listing = bool(_LIST_OPENS.search(sentence.text))
    if not soft:
        return sentences
    rest = [s for at, s in enumerate(sentences) if at not in soft]
    if not any("done" in s.acts for s in rest) or any(s.acts & _PROPOSALS for s in rest):
        return sentences
    if any("refuse" in s.acts for s in rest) and not completes(rest):
        return sentences  # "I can't cancel it. If you need more help, I can transfer you." offers
    wished = [at for at in soft if not _IF_YOU_NEED.match(sentences[at].text)]
    if wished and not any("more" in s.acts for s in sentences[wished[-1] :]):
        return sentences  # "Done. If you'd like the receipt by SMS, please give your number."
    return tuple(
        replace(s, acts=s.acts & {"more"}) if at in soft else s for at, s in enumerate(sentences)
    )


def answered(sentences: tuple[Sentence, ...]) -> tuple[Sentence, ...]:
    """Under "Your questions:", the customer's questions quoted, each before its answer, ask
    nothing of the customer; nor does a question the next sentence answers ("Can I cancel
    59XX6W anyway? No, this reservation cannot be canceled.", tuning-15)."""
    out = list(sentences)
    quoting = False
    for at, sentence in enumerate(sentences):
        if _THEIR_QUESTIONS.match(sentence.text):
            quoting = True
        elif _LIST_OPENS.search(sentence.text):
            quoting = False
        elif (
            quoting
            and sentence.question
            and at + 1 < len(sentences)
            and not sentences[at + 1].question
        ):
            out[at] = replace(sentence, acts=sentence.acts - {"ask"})
        elif (
            sentence.question
            and at + 1 < len(sentences)
            and _SELF_ANSWER.match(sentences[at + 1].text)
        ):
            out[at] = replace(sentence, acts=sentence.acts - {"ask"} - _PROPOSALS)
    # A question that opens as one the turn answers itself does ("Can I upgrade it? No, ... Can
    # I cancel the others? I need the reason first."): the customer's questions, each quoted as
    # a heading before its answer (round 11).
    quoted = {
        _opening(s.text)
        for s, told in zip(sentences, out, strict=True)
        if s.question and s.acts != told.acts and not _THEIR_QUESTIONS.match(s.text)
    }
    for at, sentence in enumerate(sentences[:-1]):
        if (
            sentence.question
            and _opening(sentence.text) in quoted
            and not sentences[at + 1].question
        ):
            out[at] = replace(out[at], acts=out[at].acts - {"ask"} - _PROPOSALS)
    return tuple(out)


def _opening(text: str) -> str:
    """The first two words of a question, lower-cased: "can i", "is it"."""
    return " ".join(re.findall(r"[a-z']+", text.lower())[:2])


def ends_on_choice(sentences: tuple[Sentence, ...]) -> bool:
    """The turn's last request asks the customer to pick ("Please reply with your choice",
    'Reply with "Transfer me" ... or "I'll buy separately"'), whatever it proposed before."""
    asking = [s for s in sentences if s.question or s.acts & (_PROPOSALS | {"ask"})]
    if not asking:
        return False
    last = asking[-1]
    return (
        "ask" in last.acts and not last.acts & _PROPOSALS and bool(_CHOOSE_LAST.search(last.text))
    )


def verifies_first(sentences: tuple[Sentence, ...]) -> bool:
    """The turn asks the customer who they are before anything ("First, I need to verify your
    account. Please provide ..."): what it proposes is for later."""
    return any(_VERIFY_FIRST.search(s.text) for s in sentences) and any(
        "ask" in s.acts for s in sentences
    )


def refuses_only_the_unknown(sentences: tuple[Sentence, ...]) -> bool:
    """Each refusal of a finished turn is a detail the agent cannot give ("I cannot provide an
    exact new ETA"), told in answer once the request is done."""
    return all(_NOT_KNOWN.search(s.text) for s in sentences if "refuse" in s.acts) and completes(
        sentences
    )


def completes(sentences: Iterable[Sentence]) -> bool:
    """One of `sentences` reports what the agent finished ("Done", "I've cancelled it")."""
    return any("done" in s.acts and COMPLETED.search(s.text) for s in sentences)


_WHICH_FIRST = re.compile(r"^((and|also|so),? )?which\b", re.IGNORECASE)
# "Please let me know which payment method you would like to use": a pick asked as a request.
_WHICH_REQUEST = re.compile(r"^(please |kindly )?(let me know|tell me) which\b", re.IGNORECASE)
# "What would you like to do next?" closing a turn: the customer says what it wants (round 11).
_WHAT_NEXT = re.compile(
    r"^((and|also|so|then),? )?what (specifically )?would you like (me )?to do\b", re.IGNORECASE
)


def which_first(text: str) -> bool:
    """The sentence opens by asking which one ("Which reservation would you like to manage?")."""
    return _WHICH_FIRST.match(text) is not None


# "If you'd like to proceed with PayPal, please confirm by saying "yes"": a literal yes asked for.
_SAY_YES = re.compile(
    r"\b((say|saying|reply|replying|respond|responding|type|typing)\b|confirm(ing)? (with|by)\b)"
    r"[^.?!]{0,20}\W?yes\b",
    re.I,
)


# "Reply "yes" to confirm the option you choose", "If Option B, ... reply "yes"": the yes comes
# with a pick among options, not alone (tuning-4, tuning-9).
_OPTION_NAMED = re.compile(r"\b(options?|alternatives?|choose|choices?)\b", re.I)


def says_yes_last(sentences: tuple[Sentence, ...]) -> bool:
    """The last request among these sentences asks for a literal yes ("Or, if you have a gift
    card, let me know. If you'd like to proceed with PayPal, please confirm by saying yes."): after
    the alternative, the turn closes on the one proposal it asks a yes for (round 6, tuning-12)."""
    asking = [s for s in sentences if s.question or s.acts & (_PROPOSALS | {"ask", "more"})]
    return bool(
        asking
        and asking[-1].acts & _PROPOSALS
        and not asking[-1].choice
        and _SAY_YES.search(asking[-1].text)
        and not _OPTION_NAMED.search(asking[-1].text)
        and not LATER_YES.search(asking[-1].text)  # "I'll list them and you can reply yes"
    )


def ends_on_which(sentences: tuple[Sentence, ...]) -> bool:
    """The turn's last question asks which one, after its proposals ("Would you like to add
    insurance? ... Which payment method would you like to use?"): the customer picks first, and
    its yes is asked for after (issue 16, tuning-4)."""
    asked = [at for at, s in enumerate(sentences) if s.question or s.acts & _PROPOSALS]
    if not asked:
        return False
    last = sentences[asked[-1]]
    return bool(
        last.question
        and "ask" in last.acts
        and not last.acts & _PROPOSALS
        and (_WHICH_FIRST.match(last.text) or _WHAT_NEXT.match(last.text))
    ) or bool(
        # "To confirm, you'd like to book ... Please let me know which card you'd like to use."
        (requests := [s for s in sentences if s.question or s.acts & (_PROPOSALS | {"ask"})])
        and requests[-1].acts == frozenset({"ask"}) | (requests[-1].acts & {"done"})
        and _WHICH_REQUEST.match(requests[-1].text)
    )


# "How can I assist you with your orders? Please provide the order IDs you'd like to cancel."
_DIRECT_REQUEST = re.compile(
    r"^(please|kindly|could you|can you)\b[^.?!]*\b(provide|share|send|give|tell me|let me know "
    r"(what|which))\b",
    re.IGNORECASE,
)


def narrows_the_invitation(sentences: tuple[Sentence, ...]) -> bool:
    """An invitation, then a question that closes the turn and asks what the customer wants
    ("How can I help with the lamp? Are you looking to return or exchange it?"): the last
    request is that question, to be answered (round 6, tuning-11)."""
    said = [s for s in sentences if s.acts]
    return bool(
        len(said) > 1
        and (said[-1].question or _DIRECT_REQUEST.match(said[-1].text))
        and said[-1].acts == frozenset({"ask"})
        and "invite" in said[-2].acts
        and not any(s.acts & (_PROPOSALS | {"more"}) for s in said)
    )


# "I need the item IDs for the new options. I will now look them up.", "To calculate it, I need to
# know the prices. I'll retrieve your orders.": a need told and met by the agent's own next step
# is no question (round 12); "I need your order ID. Once you share it, I'll look it up." still asks.
_OWN_NEED = re.compile(
    r"^(?![^.?!]*\b(please|kindly|could you|can you|would you|let me know|provide|share|tell me)\b)"
    r"[^?]*\b(i|we)( will|'ll)? (need|require) (to know )?(the|your)\b[^?]*$",
    re.IGNORECASE,
)
_IF = re.compile(r"^if\b", re.IGNORECASE)
_OWN_STEP = re.compile(
    r"^(i'?ll|i will|let me|let'?s)\b(?![^.?!]*\b(if|once|when|after|as soon as) you\b)", re.I
)


def meets_its_own_need(sentences: tuple[Sentence, ...]) -> bool:
    """Each request of the turn is a need the agent says it will meet itself later in the turn,
    by a step of its own ("I will need the IDs. Since you don't have them, ... I will proceed to
    get your reservations.", round 19); not past "If you don't have it, I can look it up", which
    leaves the request open."""
    asking = [i for i, s in enumerate(sentences) if "ask" in s.acts]
    return bool(asking) and all(
        _OWN_NEED.search(sentences[i].text) and _met_later(sentences[i + 1 :]) for i in asking
    )


def _met_later(rest: tuple[Sentence, ...]) -> bool:
    for s in rest:
        if "wait" in s.acts and _OWN_STEP.match(s.text):
            return True
        if s.acts or _IF.match(s.text):
            return False
    return False
