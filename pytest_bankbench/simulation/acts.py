"""Reading an agent turn as dialogue acts: what a customer hears in it.

The turn is cleaned of markdown, cut into sentences, and each sentence is read alone
(simulation/acts_sentence.py), then in its place among the others (acts_context.py), then the
turn as a whole, here (with acts_lists.py for lists and acts_choices.py for a yes beside a choice
or put off). A turn can carry several acts ("Hello! Which account should I use?" is a
greeting and a question); the customer decides what to answer from the whole set. Questions also
say what they are about (topics), and proposals what they would do (actions).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import lru_cache

from pytest_bankbench.simulation.acts_choices import (
    YES_AND_VALUE,
    asked_apart,
    asks_the_next_request,
    checks_in_brackets,
    go_ahead_beside_which,
    invites_the_request,
    names_a_candidate,
    offers_a_choice,
    puts_yes_off,
    searches_again,
)
from pytest_bankbench.simulation.acts_context import (
    after_a_report,
    answered,
    consequences,
    ends_on_choice,
    ends_on_which,
    meets_its_own_need,
    narrows_the_invitation,
    opening,
    recaps_what_is_done,
    recast,
    refuses_only_the_unknown,
    says_yes_last,
    their_requests,
    verifies_first,
    which_first,
)
from pytest_bankbench.simulation.acts_lists import (
    asks_a_form,
    checks_it_runs,
    confirm_asks_list,
    examples_follow,
    handoff_only_offered,
    menu_follows,
    options_listed,
    summed_up,
)
from pytest_bankbench.simulation.acts_patterns import (
    ABOUT_THIS,
    ANOTHER_WAY,
    BARE_OK,
    EXAMPLE,
    HOLD,
    HOW_TO_PROCEED,
    IF_SO,
    INSTEAD,
    LATER_REQUEST,
    LETS,
    MUSING,
    NAMED_OPTIONS,
    NARRATED_LAST,
    NEEDS_INFO,
    NONE_FOUND,
    ONCE,
    OPTIONS,
    OR,
    OTHERWISE,
    PICK,
    PROCEEDING,
    PROMISE,
    RECAP,
    REQUEST,
    RETRY,
    RULE_TO_CHECK,
    STANDING_BY,
    TAG,
    TRANSFER,
    TRANSFERRING,
    TWO_STEPS,
    WHICH,
    WILL_DO,
)
from pytest_bankbench.simulation.acts_rules import PROPOSALS as _PROPOSALS
from pytest_bankbench.simulation.acts_rules import Act
from pytest_bankbench.simulation.acts_sentence import (
    Sentence,
    actions_of,
    read_sentence,
    topics_of,
)
from pytest_bankbench.simulation.acts_text import beside_a_call, said, split
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
# A courtesy ("You're welcome!", "Thank you.") is no report: a promise after it is progress.
_WELCOME = re.compile(r"^((you'?re|you are) (very |most )?welcome|thank)", re.IGNORECASE)


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


@lru_cache(maxsize=_TURNS)
def read(text: str) -> Reading:
    """Read one agent turn."""
    pieces = split(said(text))
    if len(pieces) > 2 * _ENDS:
        pieces = pieces[:_ENDS] + pieces[-_ENDS:]
    sentences = tuple(read_sentence(s) for s in pieces)
    sentences = answered(after_a_report(recaps_what_is_done(consequences(sentences))))
    sentences = summed_up(their_requests(sentences))
    sentences = (
        tuple(  # "Could it have been earlier? Let me check 10 March.": wondering aloud
            replace(s, acts=(s.acts - {"ask"}) | {"wait"})
            if MUSING.match(s.text) and "wait" in sentences[at + 1].acts
            else s
            for at, s in enumerate(sentences[:-1])
        )
        + sentences[-1:]
    )
    if any(s.question and "ask" in s.acts for s in sentences):
        # "Kevin Smith: DOB? (I have 1957-10-05 from your profile, but please confirm.)": the
        # value in brackets is checked beside the others asked for, not a yes (round 14); but
        # '(Say "yes" for all, or specify adjustments.)' asks the yes
        sentences = recast(sentences, checks_in_brackets, _PROPOSALS, "ask")
    if any("refuse" in s.acts for s in sentences):
        sentences = recast(sentences, opening(INSTEAD), {"invite", "done", "ask"}, "offer")
    sentences = recast(sentences, opening(ANOTHER_WAY), {"ask"}, "more")
    sentences = tuple(  # "I'll let you know as soon as I have your user ID": progress; but after a
        # report ("Your transfer is sent. I'll let you know once it is credited.") it is the report
        replace(s, acts=(s.acts - {"done"}) | {"wait"})
        if PROMISE.match(s.text)
        and not s.acts & (_PROPOSALS | {"ask"})
        and not any("done" in r.acts and not _WELCOME.match(r.text) for r in sentences[:at])
        else s
        for at, s in enumerate(sentences)
    )
    acts = {act for s in sentences for act in s.acts}
    if sentences and NARRATED_LAST.match(sentences[-1].text):
        acts.add("wait")  # "Now, let me combine the flights and sort them by price:"
    if "refuse" in acts and refuses_only_the_unknown(sentences):
        acts.discard("refuse")
    proposing = [s for s in sentences if s.acts & _PROPOSALS]
    if (
        len(proposing) > 1
        and any(OTHERWISE.match(s.text) and not says_yes_last((s,)) for s in proposing)
        and not all(TRANSFER.search(s.text) for s in proposing)  # one transfer, asked twice
    ):  # but "Does this sound correct? ... Otherwise, confirm with "yes" to book!" asks one yes
        # "If you'd like the certificate, let me know. Otherwise, I can transfer you.": a choice.
        acts = (acts - _PROPOSALS) | {"ask"}
    if (
        acts & _PROPOSALS
        and (
            offers_a_choice(sentences)
            or any(
                s.choice
                or WHICH.search(s.text)
                or puts_yes_off(sentences, at)
                or NAMED_OPTIONS.search(s.text)
                or names_a_candidate(sentences, at)
                for at, s in enumerate(sentences)
                if not IF_SO.match(s.text)
            )
        )
        and not says_yes_last(sentences)  # "Which variant? ... Please say "yes" to proceed."
    ):
        acts = (acts - _PROPOSALS) | {"ask"}
        if go_ahead_beside_which(proposing, sentences):
            acts.add("confirm")
        apart = asked_apart(sentences)
        if not apart and all(s.acts & _PROPOSALS for s in sentences if "handoff" in s.acts):
            acts.discard("handoff")  # "..., or transfer you to a human agent?" is one option
        acts |= apart
    if (
        acts & _PROPOSALS
        and all(ONCE.search(s.text) or s.text.rstrip().endswith(":") for s in proposing)
        and any(
            PICK.search(s.text)
            or (s.question and "ask" in s.acts and all(ONCE.search(p.text) for p in proposing))
            for s in sentences
            if s.acts & {"ask", "invite"}
        )
    ):  # "Which option would you like? Once you confirm, I'll book it." / "Does it appear on all
        # your devices? Once you confirm, I'll guide you." / "If you'd like, I can:
        # - ... Please let me know how you'd like to proceed.": the customer picks first
        acts = (acts - _PROPOSALS) | {"ask"}
    if acts & _PROPOSALS and (ends_on_which(sentences) or ends_on_choice(sentences)):
        acts = (acts - _PROPOSALS) | {"ask"}
        if go_ahead_beside_which(proposing, sentences):
            acts.add("confirm")
    if acts & _PROPOSALS and (options_listed(sentences) or confirm_asks_list(proposing, sentences)):
        acts = (acts - _PROPOSALS) | {"ask"}
    if acts & _PROPOSALS and asks_a_form(sentences):
        acts = (acts - _PROPOSALS) | {"ask"}  # "Which cabin? ... Would you like to add bags?"
    if acts & _PROPOSALS and examples_follow(sentences):
        acts = (acts - _PROPOSALS) | {"ask"}  # "What would you like? For example: - Add bags?"
    if (
        "handoff" in acts
        and not acts & _PROPOSALS
        and not any(s.question for s in sentences)
        and any(TRANSFERRING.search(s.text) for s in sentences if "wait" in s.acts)
    ):
        acts.discard("ask")  # "To cancel, I need the reason. ... I'll transfer you. One moment."
    if acts & _PROPOSALS and verifies_first(sentences):
        # "First, I need to verify your account. Please provide ... Should I also ...?"
        acts = (acts - _PROPOSALS) | {"ask"}
        if all(s.acts & _PROPOSALS for s in sentences if "handoff" in s.acts):
            acts.discard("handoff")
    if acts & _PROPOSALS and any(NEEDS_INFO.search(s.text) for s in sentences):
        rest = {  # "Once I have those details, I can get your confirmation" is for later too
            a
            for s in proposing
            if not s.text.rstrip().endswith(":")
            and not RECAP.match(s.text)
            and not NEEDS_INFO.search(s.text)
            for a in s.acts
        }
        if not rest & _PROPOSALS:
            acts = (acts - _PROPOSALS) | {"ask"}
    if (
        proposing
        and all(TAG.search(s.text) for s in proposing)
        and any("ask" in s.acts for s in sentences[: sentences.index(proposing[0])])
    ):
        acts = (acts - _PROPOSALS) | {"ask"}
    if "ask" in acts and not acts & _PROPOSALS and meets_its_own_need(sentences):
        acts.discard("ask")  # "I need the item IDs. I will now look them up."
    requests = [s for s in sentences if "ask" in s.acts]
    if (
        requests
        and acts & {"done", "more", "refuse"}
        and not acts & _PROPOSALS
        and all(LATER_REQUEST.search(s.text) for s in requests)
    ):
        acts.discard("ask")
    if "handoff" in acts and not acts & _PROPOSALS and handoff_only_offered(sentences):
        acts.discard("handoff")  # "If you want exchanges, I can: - ..., or - Transfer you to ..."
    if "more" in acts and not acts & _PROPOSALS and menu_follows(sentences):
        acts -= {"ask", "handoff"}  # "Anything else? For example: - Transfer you to an agent"
    if "more" in acts and all(EXAMPLE.search(s.text) for s in proposing):
        acts -= _PROPOSALS
    if {"ask", "more"} <= acts and all(
        STANDING_BY.match(s.text) for s in sentences if "more" in s.acts
    ):
        acts.discard("more")  # "Please run the test. I'm here if you have any questions."
    if "more" in acts and not any(
        "wait" in s.acts and (PROCEEDING.search(s.text) or PROMISE.match(s.text)) for s in sentences
    ):  # "We will review it and contact you. Anything else?": ready, not working; but "I will
        # proceed with issuing the certificate. Anything else?" is about to act (round 11)
        acts.discard("wait")
    if "wait" in acts and (
        any("wait" in s.acts and RETRY.search(s.text) for s in sentences)
        or all(
            (NONE_FOUND.search(s.text) or RULE_TO_CHECK.search(s.text))
            and any("wait" in n.acts for n in sentences[at + 1 :])
            for at, s in enumerate(sentences)
            if "refuse" in s.acts
        )
    ):  # "Let me try again", "There are no 5-year FDs. Let me check other tenures.", "A card
        # cannot be reissued if it is blocked. Let me check its status." (round 23)
        acts.discard("refuse")
    if "refuse" in acts and acts & _PROPOSALS and searches_again(sentences):
        acts.discard("refuse")  # "There are no direct flights. Shall I search one-stop instead?"
    tags = [s for s in proposing if BARE_OK.match(s.text)]
    if (
        tags
        and len(tags) == len(proposing)
        and not any("wait" in s.acts or WILL_DO.search(s.text) for s in sentences)
    ):  # "I have sent it. OK?" checks in; "I'll send it. OK?", "Plan: block it. OK?" ask
        acts -= _PROPOSALS
    if acts & _PROPOSALS:  # a quote before "shall I?" is not a completion, nor progress
        acts -= {"done", "wait"}
    if {"ask", "wait"} <= acts and all(LETS.match(s.text) for s in sentences if "wait" in s.acts):
        acts.discard("wait")
    if {"ask", "wait"} <= acts and checks_it_runs(sentences):
        acts.discard("ask")
    if "handoff" in acts and all(HOLD.match(s.text) for s in sentences if "wait" in s.acts):
        acts.discard("wait")  # "You are being transferred to a human agent. Please hold on."
    if acts <= {"done", "wait"} and beside_a_call(text):
        acts = {"wait"}  # "Let's fetch your FD details. {"name": "get_fd_details", ...}": under way
    if "wait" in acts:  # "Your card is blocked. Now let me check the balance."
        acts.discard("done")
    inviting = [s for s in sentences if "invite" in s.acts]
    if (
        inviting
        and all(HOW_TO_PROCEED.search(s.text) for s in inviting)
        and (
            any(OPTIONS.search(s.text) or OR.match(s.text) for s in sentences)
            or any(s.text.rstrip().endswith(":") for s in inviting)
        )
    ):  # "Here are your options: ... Let me know how you'd like to proceed.": pick one; "Let me
        # know how you'd like to proceed: - keep it, or - cancel it" lists them (tuning-10)
        acts = (acts - {"invite", "done"}) | {"ask"}
    if (
        acts & _PROPOSALS
        and inviting
        and all(HOW_TO_PROCEED.search(s.text) for s in inviting)
        and all(TWO_STEPS.search(s.text) for s in proposing)
    ):  # "If you'd like, I can look up the details or help with your orders. Let me know how
        # you'd like to proceed.": two steps offered, the customer picks one (round 12)
        acts = (acts - _PROPOSALS) | {"ask"}
    if acts & (_PROPOSALS | {"ask"}) and all(
        HOW_TO_PROCEED.search(s.text) for s in sentences if "invite" in s.acts
    ):  # "Shall I issue it? Please let me know how you'd like to proceed.": one request
        acts.discard("invite")
    if (
        acts & {"confirm", "offer", "invite", "more"}
        and not narrows_the_invitation(sentences)
        and not any(
            s.choice
            or topics_of(s.text)
            or ("more" in acts and (not s.question or REQUEST.search(s.text)))
            or (s.question and (OR.match(s.text) or which_first(s.text)))
            or WHICH.search(s.text)
            or ABOUT_THIS.search(s.text)
            for s in sentences
            if "ask" in s.acts
        )
    ):  # "Main transfer kar doon? Please confirm.": the question is the proposal itself;
        # but "Once you have the IDs, please provide them. Anything else?" still asks for them,
        # as "Which account? Let me know how I can help!" and "Shall I ...? Or prefer a human
        # agent? Anything else?" ask to pick (round 11)
        acts.discard("ask")
    if (
        "ask" in acts
        and not acts & _PROPOSALS
        and any(YES_AND_VALUE.match(s.text) for s in sentences)
    ):
        # "Once you confirm these changes and select a payment method, ...": nor progress
        acts.add("confirm")
        acts -= {"done", "wait"}
    if invites_the_request(sentences):  # "Thanks, you're verified. What would you like to do next?"
        acts = (acts - {"ask"}) | {"done", "invite"}
    elif asks_the_next_request(sentences):  # "Your FD is closed. What would you like to do next?"
        acts = (acts - {"ask"}) | {"more"}
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
