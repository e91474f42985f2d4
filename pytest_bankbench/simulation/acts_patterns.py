"""The patterns that read an agent turn as a whole (simulation/acts.py), beside those that read
one sentence (acts_rules.py): whether a proposal is one option of a choice, a yes asked for
later, a request on a condition the customer may never meet, progress beside a question; and
those that mark one sentence as asking for a detail, not a yes (simulation/acts_sentence.py)."""

from __future__ import annotations

import re

# "Please let me know which you'd prefer", "Which flight would you prefer?", "Let me know which
# order you want to proceed with": the customer picks among options, never a yes.
WHICH = re.compile(
    r"\bwhich (one |option |of (these|those|the (two|three|four|options)) |(?!one\b|option\b)\w+ )?"
    r"(you('d| would) "
    r"(prefer|like)|would you (prefer|like)|do you (prefer|want)|you (prefer|want)(?! me to))\b"
    # "Please let me know your preference (e.g., "Cancel and refund" or "Search")" (tuning-17),
    # "Please identify the FD you want to close. It seems it is FD 4411. Correct?" (round 18)
    r"|\blet me know your (preference|choice|preferred option)\b"
    r"|^please (identify|specify|select|choose|pick) the \w+ (\w+ )?(containing|that|which|you)\b",
    re.IGNORECASE,
)
# 'Please reply with one of the following reasons:', 'Would you like to upgrade all items, or
# only specific orders? Please confirm', 'please confirm: ... Once you confirm the reason, I'll
# proceed', 'please confirm if you would like to cancel it due to "no longer needed" or if it was
# "ordered by mistake"': the confirm picks among named options, a value, not a yes (round 15).
NAMED_OPTIONS = re.compile(
    r"\b(reply|respond|choose|pick|select) (with )?one of the following\b"
    r"|\ball\b[^.?!]*, or only\b|\bonce you confirm the reason\b"
    r"|[\"“][^\"”\n]{1,40}[\"”]\W{0,2} or if (it|they) (was|were) [\"“]",
    re.IGNORECASE,
)
# "Once you confirm, I'll summarize the changes and ask for your final yes": the customer
# answers; its yes is asked for later.
LATER_YES = re.compile(
    r"\b(ask for|request) (your|a) (final|explicit|formal) (\W?yes\W?|confirmation|consent|go-?ahead)"
    # "After you provide the details, I will list the changes and ask for your yes confirmation"
    r"|\b(will|'ll|then)\b[^.?!]*\b(ask for|request|get|obtain|seek) (your|a) ((final|explicit|formal|clear) )?"
    r"(\W?yes\W?|confirmation|consent|approval|go-?ahead)"
    # "I'll list the items and the refund for your confirmation", "after I present the masked
    # details, reply yes": a yes to what has not been put yet (issue 16, round 4).
    # "I can calculate the total and list the full details for your explicit approval" (round 14)
    r"|\b(i'll|i will|i can) (then )?([^.?!]*\band )?(list|summari[sz]e|present|show|send|share|lay out"
    r"|prepare)\b[^.?!]*\bfor your (explicit )?(\W?yes\W? )?"
    r"(confirmation|approval|review|go-?ahead)\b"
    r"|\bafter i (present|share|show|list|send|give)\b[^.?!]*\b(reply|respond|say|type)\b[^.?!]{0,20}\byes\b"
    # "... I'll list the exact actions and you can reply with "yes" to proceed" (round 11)
    r"|\b(i'll|i will) (then )?(list|summari[sz]e|present|show|lay out)\b[^.?!]*\band you can (then )?"
    r"(reply|respond|say|type|confirm)\b"
    # "I will list the return details and ask you to explicitly confirm (yes)" (round 12)
    r"|\b(will|'ll|then)\b[^.?!]*\bask you to (\w+ )?(confirm|reply|respond|say|approve)\b"
    # "... and present the pricing before we finalize the reservation" (issue 16, tuning-4)
    r"|\b(present|show|give) (you )?(the )?(pricing|price|total|summary)\b[^.?!]*\bbefore (we|i) "
    r"(finali[sz]e|book|proceed)\b",
    re.IGNORECASE,
)
# "After you confirm, I'll summarize the price difference and ask you to confirm one final time",
# "... and ask you to confirm again before I submit it": the yes put off is a second one; the
# turn asks its first yes now (tuning-32).
YES_AGAIN = re.compile(
    r"\b(confirm|confirmation|yes|approval|go-?ahead)\b[^.?!]*\b(again|once more|one (more|final|last)"
    r" time|a second time)\b",
    re.IGNORECASE,
)
# A yes or no asked for in so many words: "(yes/no)", 'reply "yes"', 'Please confirm "yes" to proceed'.
LITERAL_YES = re.compile(
    r"\byes\s*/\s*no\b|\b(reply|respond|say|type|answer|confirm)\b[^.?!]{0,20}\W?yes\b",
    re.IGNORECASE,
)
# "Could you please confirm the following: ... Once I have this information, I will create the
# reservation": the list asks for details, it is not a proposal.
NEEDS_INFO = re.compile(
    r"^once i (have|receive|get) ((this|that|the|these|those|your|all the|all) (information|details"
    # "Once I have those details and your "yes," I'll proceed" asks for the yes too (tuning-10).
    r"|info)|(those|these|that|it|them),)(?! and your\b)",
    re.IGNORECASE,
)
# "To confirm, you want to change ...": a recap of the request, beside the questions it leads to.
RECAP = re.compile(
    r"^(so,? |just )?(to confirm|to recap|to summari[sz]e|to be clear)\b", re.IGNORECASE
)

# "Would you like to proceed with this option? If so, I'll need your explicit confirmation. If
# you prefer a different option, let me know which one": the yes/no question stands, the rest
# says what follows each answer (tuning-13, tuning-14).
IF_SO = re.compile(
    r"^(if (so|yes|not)\b|if you('d| would)? (prefer|want|like|wish) (a different|another|other"
    r"|something else)\b)",
    re.IGNORECASE,
)
OTHERWISE = re.compile(r"^(otherwise|alternatively)\b", re.IGNORECASE)
OR = re.compile(r"^(or|otherwise|alternatively)\b", re.IGNORECASE)
# A sentence that opens a second option ("Or, if you'd like, I can show you the list",
# "Alternatively, I can escalate this") after a question or a proposal: the customer chooses.
ALTERNATIVE = re.compile(
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
EXAMPLE = re.compile(r"^(perhaps|maybe)\b|\bsuch as\s*:\s*$", re.IGNORECASE)
# "There was an error with the tool call. I will try again": the agent goes on working.
# "Let me try again", "Let's try using your gift card instead:" (round 13): the agent retries
# after its own call failed; the failure it reports refuses nothing the customer asked.
RETRY = re.compile(r"\b(try|trying|attempt)\b.*\b(again|instead)\b", re.IGNORECASE)
# "There are no 5-year deposits available." before "Let me check other tenures.": a search's
# result, then the next search; no refusal (round 17).
NONE_FOUND = re.compile(
    r"^(?![^.?!]*\b(cannot|can'?t|unable|not able|won'?t|unfortunately|sorry|afraid|apologi[sz]e)\b)"
    r"[^.?!]*\bthere (are|is) no\b[^.?!]{0,60}\bavailable\b",
    re.IGNORECASE,
)
# "According to the policy, cabin cannot be changed if any flight has already been flown." before
# "Let me check the flight statuses.": the rule told with the condition the next check decides;
# no refusal yet (round 23).
RULE_TO_CHECK = re.compile(
    r"\b(cannot|can'?t|can not) be \w+ed\b[^.?!]*\bif\b(?![^.?!]*\?)", re.IGNORECASE
)
# "What specifically would you like to discuss or do about this reservation?": the request asked
# about the record just found, to be answered, not the invitation beside it (round 23).
ABOUT_THIS = re.compile(
    r"\bwhat (specifically |exactly )?would you like (me )?to (do|discuss|change)( or \w+){0,2}"
    r" (about|with|regarding|for) (this|that) \w+",
    re.IGNORECASE,
)
# "Could it have been earlier in the month?" before "Let me check 10 March.": the agent wondering
# aloud, its next step the answer; the customer is asked nothing (round 17).
MUSING = re.compile(r"^(could|might|would|may) (it|that|this|they) (have been|be)\b[^?]*\?$", re.I)
# "Let's check your APN settings. Please run ...", "Once I have that, I'll check your account",
# "First, I need to pull up your account. Could you ...?": beside a request to the customer, a step
# taken with the customer or after its answer, not the agent working on its own.
LETS = re.compile(
    r"^(\w+\W{1,3})?let'?s\b|^(once|when|after|as soon as|if)\b|^(\w+,? )?we'?ll\b"
    # "Since you've rebooted, let's check a few settings. Could you ...?" (issue 16, tuning-4)
    r"|^((however|so|but|now),? )?(since|as|now that|given that)\b[^.?!]*,\s*(let'?s|we('ll| will| need to)|i('ll| will| need to))\b"
    r"|^(first|to start|to begin|to [a-z][^,.?!]{1,60}|before (i|we) (can )?[a-z][^,.?!]{1,60}),? (i|we)"
    # "To get started, I need to verify your identity.", "Let me try another way to verify you." (round
    # 19), "First, let me verify your identity." (round 20), then "Could you ...?": the way to it
    r" (need|have) to\b|^(first|now),? let me (verify|authenticate|confirm) your (identity|account)\b"
    r"|^let me try (another|a different|a new|an alternative) (way|approach|method)\b"
    # "Please let me know which option you'd like, and I'll check the availability": on its answer
    r"|^[^.?!]*\b(let me know|reply|respond|tell me)\b[^.?!]*,? and (i|we)('ll| will| can)\b",
    re.IGNORECASE,
)
# "Could you confirm the product ID? You mentioned P1, is that correct?": the tag checks the
# detail just asked for; it proposes nothing.
TAG = re.compile(r",\s*(is that|is this|is it) (correct|right)\s*\?$", re.IGNORECASE)
# "If you still have trouble, please restart your phone", "Once you have the ID and are ready,
# please let me know", "Let me know once the bookshelf has been delivered": a request for later,
# on a condition the customer may never meet; beside a result or "anything else", nothing to
# answer now (issue 16, tuning-5 and tuning-7).
LATER_REQUEST = re.compile(
    r"^((otherwise|and),? )?(if you (still |continue to |find|notice|see|(don'?t|do not) (see|receive|get)\b"
    r"|have any (additional|other|further"
    r"|more)|need (any|more|further|to (add|change|make|update))|decide|later)|if (the|it|that|this) (\w+ )?(still|persists|continues"
    r"|doesn'?t|does not|isn'?t(?! (the|your|a|an|what|correct|right)\b))|(once|when) you('re| are| have| get)\b[^.?!]*,\s*(please )?(just )?let me"
    r" know)\b"
    # "If you locate the details and need more, just let me know and I'll be happy to help": a
    # standing offer of help, asking for nothing now (tuning-10); so is "If you'd like to revisit
    # this later, just let me know and I can help" (round 20).
    r"|^if you\b[^.?!]*,\s*(just |please |simply )?let me know,? and (i|we)('ll| will)( be)? (happy|glad)"
    r" to (help|assist)\b|^if you('d| would) like to \w+ (this|it|that|them) later,\s*(just )?let me know\b"
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
HOW_TO_PROCEED = re.compile(r"\blet me know how you('d| would) like to proceed\b", re.IGNORECASE)
OPTIONS = re.compile(r"\b(options?|alternatives|choose|choices)\b", re.IGNORECASE)
STANDING_BY = re.compile(
    r"^(i'?m|i am|i'?ll be|i will be) (right |still )?(here|around|available|standing by)\b",
    re.IGNORECASE,
)
TRANSFERRING = re.compile(
    r"\b(one moment|a moment while|while i (do that|transfer|connect))\b", re.IGNORECASE
)
HOLD = re.compile(r"^(please )?(hold on|hold the line|stay on the line)\W*$", re.IGNORECASE)
# "Once you confirm, I'll list the details": a yes asked for later, after the choice asked now.
ONCE = re.compile(
    r"\bonce (you (confirm|approve|agree)(?! (with )?\W?yes\b)|i have your (confirmation|approval"
    r"|go-?ahead))\b",
    re.IGNORECASE,
)
# "If you'd like, I can: - ... Tell me what you'd like to do next": pick one (round 12).
PICK = re.compile(
    r"\bwhich\b|\bhow (would |do )?you('d| would)? (like|want) to (proceed|move forward)\b"
    r"|\b(tell me|let me know) what you('d| would) like (me )?to do\b",
    re.IGNORECASE,
)
# "Could you please provide the reservation ID?": a request for a detail, whatever its topic.
REQUEST = re.compile(
    r"\b(please|kindly|could you|can you)( please)? (provide|share|send|give|tell me|enter)\b",
    re.IGNORECASE,
)


# A bare "OK?" closing a turn: a request for the go-ahead only after what the agent will do.
BARE_OK = re.compile(
    r"^\W*(ok|okay|sounds? good|all good|fine|alright|all right|agreed)\s*\?\s*$", re.I
)
WILL_DO = re.compile(
    r"\b(i'?ll|i will|i'?m going to|i am going to|we'?ll|we will|plan|next step)\b", re.I
)
# "I will proceed with issuing the certificate", "For now, I will proceed with the monitoring
# plan": the agent about to act now, not a process that will run later (round 11).
PROCEEDING = re.compile(
    r"\b(i'?ll|i will|i am going to|i'?m going to) (now )?proceed with\b(?![^.?!]*\b(if|once|after)\b)",
    re.IGNORECASE,
)
# "I'll let you know as soon as I have your user ID", "I'll keep you updated" (round 18)
PROMISE = re.compile(
    r"^(?![^?]*\?)[^.?!]*?\bi('ll| will) ((\w+ ){0,4}and )?(keep you (updated|informed|posted)\b"
    r"|(let you know|notify you|update you|provide you with an update|get back to you|confirm"
    r"|send you)\b(?=[^.?!]*\b(as soon as|once|when|shortly)\b(?! you\b)))",
    re.I,
)
# Two steps the agent offers side by side: "I can look up the details or assist with a change".
TWO_STEPS = re.compile(r"\b(i|we) can \w+\b[^.?!]*\bor (\w+ )?(assist|help|\w+ you)\b", re.I)


# A sentence that asks for a detail, whatever else it names (simulation/acts_sentence.py).
# A sentence that opens by asking for a detail asks for it, whatever else it mentions ("Please
# provide your ID, and I'll see if there's anything else I can do").
REQUEST_FIRST = re.compile(
    r"^((also|and|so|then),? )?"
    # "If you are comfortable, please provide the full address, or let me know if there is anything
    # else": the request comes first after a courtesy condition (tuning-31)
    r"(if you('re| are) (comfortable|able|willing|ok|okay)( with (that|this|it|sharing( it)?))?,? )?"
    r"(please|kindly|could you|can you)( please)? (provide|share|send|give|tell|enter)\b",
    re.IGNORECASE,
)
# "To confirm the details, could you please provide the date?": the opening says what the agent
# will do with the answer; the sentence asks for a detail, not a yes (tuning-10).
PURPOSE_THEN_REQUEST = re.compile(
    r"^(in order )?to (?!confirm,)[^,.?!]{3,120},\s*(please |kindly )?((could|can|would) you )?(please )?"
    r"(provide|share|send|give|tell|enter)\b",
    re.IGNORECASE,
)
# "Share your first name and zip code so I can look up your account?", "Please provide the ID so
# I can proceed?": a sentence that opens by asking for details asks for them, whatever it would
# do with them; "Please give me your go-ahead" asks a yes (round 6, tuning-12).
DETAILS_FIRST = re.compile(
    r"^((also|and|so|then),? )?((please|kindly|could you|can you|would you)( please)? )?(provide|share|send|give|tell|enter)\b"
    r"(?! (me |us )?(your |the |a )?(go-?ahead|consent|confirmation|approval|permission|ok|okay|yes)\b)",
    re.IGNORECASE,
)
# "Whether you want to add travel insurance (yes/no)", an item of a list of details: the detail
# asked for, not a yes to the agent nor a report; "Whether you renew it or not, ..." opens a
# clause of a statement (round 13).
WHETHER_ITEM = re.compile(
    r"^whether (you|they|the|your|it|this)\b(?![^?]*\?)(\([^()]*\)|[^,(])*$", re.I
)
# "Additionally, are there any alternative solutions you'd like to explore, such as cancelling?":
# an open question about what the customer wants, not an extra offered (round 13).
ANY_YOU_WANT = re.compile(
    r"^((additionally|also|and|so|now),? )?(are|is) there any (?!(thing|one|body)\b)(\w+ ){0,2}\w+s"
    r" (that )?you('d| would)? (like|want|wish|prefer|consider)\b[^?]*\?",
    re.IGNORECASE,
)
# "Let me check for connecting flights since there are no direct flights available:": the agent's
# next step, with the reason it takes it; the reason refuses nothing (round 13).
# "I need to check whether the FD is under lien, as an FD cannot be closed early if it is": the
# rule it checks against, on its condition (round 17).
STEP_BECAUSE = re.compile(
    r"^((now|okay|ok|first|next|so),? )?(let me|let'?s|i'?ll|i will)\b[^.?!]*\b(since|as|because|given that)"
    r" (there (is|are) no|no|none)\b[^.?!]*$"
    r"|^(\w[\w -]{0,30}:\s*)?((now|first|next|so),? )?(let me|i'?ll|i will|(i|we) (need|have) to) (check"
    r"|verify|see) (if|whether)\b[^.?!]*\b(since|as|because)\b[^.?!]*\bif\b",
    re.IGNORECASE,
)
# "Now, let me combine all the flights and sort them by economy price:" closing a turn: the tool
# call it announces follows; the agent is at work (round 13). Not "Let me know ...:", nor a
# summary or a list it announces.
NARRATED_LAST = re.compile(
    r"^((now|okay|ok|first|next|then|so),? )?(let me|let'?s|i'?ll|i will|i'?m going to) (?!know\b|summari"
    r"|recap|confirm\b|explain|outline|list\b|break|lay|go over|walk|show|share)[^?]*:\s*$",
    re.IGNORECASE,
)
# "Would you like to proceed with this option (ATL-ORD-PHL in economy)?": the go-ahead for the
# whole change, asked beside "Which payment method would you like to use?" (round 13).
GO_AHEAD = re.compile(
    r"^((so|then|now|and|also),? )?(\d+[.)]\s*)?(would|do) you (still )?(like|want|wish) (me )?to (proceed|go ahead)"
    r" with (\w+ing )?(this|these|that|the) (\w+ )?(option|change|changes|flight|booking|update|modification|plan)\b[^?]*\?\s*$"
    # "Which FD would you like to close? ... Would you like to use that for the payout?" (round 19)
    r"|^(would|do) you (like|want) to use (that|this|it)( one| account| card)? for (the|any) (price "
    r"difference|payment|refund|payout)\b[^?]*\?\s*$",
    re.IGNORECASE,
)
# "If you'd like to add more checked bags ($50 each), please let me know the number": something
# extra offered beside the answer, not a detail the request needs (round 13).
ADD_MORE = re.compile(
    r"^((and|also|but),? )?if you('d| would)? (like|want|wish) to (add|get|buy|purchase|include|order) (more|extra"
    r"|additional|another)\b(?![^?]*\?)(?![^.?!]*\b(change|modify|adjust|edit)\b)",
    re.IGNORECASE,
)
# "Follow the email instructions to ship the items back", "Check your email for the updated
# itinerary": what the customer does after the request, nothing to answer now (round 13); "Please
# check your email for the reservation ID" still asks for it.
AFTERCARE = re.compile(
    r"^(please |just )?(follow the (\w+ )?instructions\b|check your (email|inbox|e-?mail)\b(\s*\([^()]*\))?[^.?!]*\bfor (the |your )?"
    r"(updated |new |revised )?(itinerary|itineraries|confirmation|receipt)\b)"
    r"(?![^.?!]*\blet me know (when|once)\b)",
    re.IGNORECASE,
)
# "Confirm "yes" + payment ID to proceed? Or prefer partial upgrade/other changes?": the way to
# amend the proposal, not a second option; the yes is still asked (round 13, as "..., or do you
# need any changes?").
AMEND = re.compile(
    r"^or,? ([\w'-]+[ /]){0,4}(other |any |some )?(changes?|tweaks?|adjustments?|modifications?|edits?|corrections?)\b",
    re.IGNORECASE,
)
# "If you'd like, I can help with modifying the reservation instead (...)", "If you'd like to
# cancel the entire reservation instead, ..., let me know": after a refusal, the one thing the agent
# can do in its place, offered (round 14); not "If there's another way I can assist, let me know".
INSTEAD = re.compile(
    r"^(alternatively,? )?if you('d| would) like(,? (i|we) can (help|assist)( you)?( with)?| to| assistance"
    r" with)\b[^.?!]*\binstead\b",
    re.IGNORECASE,
)
# "Would you like to proceed with these details, or do you need to make any changes?", "...,
# or do you have any additional requests?": the yes asked for, with a way to amend it beside it
# (tuning-13); the customer says yes or names what it wants instead. A second proposal ("...,
# or would you prefer to explore another plan?") still offers a choice.
PROCEED_OR_CHANGE = re.compile(
    r"^(?![^?]*\b(which|what)\b)((so|then|now|and),? )?(would|do) you (still )?(like|want|wish) to "
    r"(go ahead|proceed|continue)\b(?![^?,]*\b(any|one of|other|either)\b)[^?]*?,? or (do you (need|want"
    r"|wish|have)|are there|did you|would you (like|want) to make)\b[^?]*\b(changes?|modif\w*|adjust\w*|additional|corrections?)\b"
    r"[^?]*\?",
    re.IGNORECASE,
)
# A second option that names nothing: "..., or would you like help with something else?" (then
# the turn asks for the next request), "..., or would you prefer another solution?", "..., or do
# you have any other instructions?" (then the first option is the proposal; tuning-15, round 12).
OR_VAGUE = re.compile(
    r",? or (would you (like|prefer|want)|do you (have|want|need)|is there) (help with |to (do|try|consider) )?"
    r"((?P<else>something else|anything else|another request|other requests)|(another|a different|some "
    r"other|any other) (solution|option|way|approach|idea|instructions?))"
    # "..., or is there another way you'd like to adjust this (or any other requests)?" (round 14)
    r"( you('d| would) like to \w+( (this|it|that|your \w+( \w+)?))?| (i|we) can (assist|help)( you)?)?"
    r"( \([^()]*\))?\W*\?\s*$",
    re.IGNORECASE,
)
# "Would that alternative work for you, or is there another way ...?" (round 14)
PROPOSE_FIRST = re.compile(
    r"^((so|then|now|and),? )?((would|do) you (still )?(like|want|wish) (me )?to\b|would (that|this)"
    r"( (alternative|option|plan))? work for you\b)",
    re.I,
)
# "If there's another way I can assist you (such as modifying the reservation), please let me
# know": anything else, its examples named; it asks for nothing (round 14).
ANOTHER_WAY = re.compile(
    r"^if (there's|there is) (another|any other|some other) way (i|we) can (assist|help)\b[^.?!]*"
    r",? (please )?let me know\W*$",
    re.IGNORECASE,
)
# "Otherwise, I can transfer you to a human agent. ... If not, please confirm you'd like to proceed
# with the transfer.": each proposal is the same transfer (round 14).
TRANSFER = re.compile(r"\btransfer", re.IGNORECASE)
# "As per the bank's policy, I can only waive the penalty if you want to reinvest the amount",
# "According to our policy, I can offer a fee reversal ... if you want to close the card", "I can
# offer a top-up loan, but only if your EMIs are regular": what the agent may do on a condition,
# told as its rule; no yes is asked (round 17). "I can reinvest it if you want" still offers.
ON_TERMS = re.compile(
    r"\b(i|we) (can|could|may) only\b[^.?!]*\bif\b|\bbut only (if|when)\b"
    r"|^(according to|as per|per|under) (the|our|my|the bank'?s) (\w+ )?polic(y|ies)\b"
    r"(?![^.?!]*\b(transfer|connect)\w* you\b)[^.?!]*\bif you\b",
    re.IGNORECASE,
)
# "... and you prefer not to be transferred to a human agent": no hand-off (round 11).
NOT_HANDED = re.compile(
    r"\b(not|never|n't)( want| wish| like)?( to)?( be)? (transferr|connect|escalat|hand)\w*"
    # "(this applies even if escalated to a human agent)", "I may need to transfer you to a human
    # agent after completing the booking": no transfer made (round 14)
    r"|\beven (if|when) (escalated|transferred)\b|\bi may (need to|have to) (transfer|connect|escalat)"
    # "I'm not able to escalate this without transferring you to a human agent": the transfer is
    # what the refusal would take, not one made (round 23)
    r"|\bwithout (transferr|connect|escalat|hand)\w*",
    re.IGNORECASE,
)
# "Is there anything else I can help with, or would you like to continue with opening your new
# FD?": the customer's own request resumed, a yes beside "anything else" (round 17); the words
# after "or would you".
RESUMES = re.compile(
    r"^ (still )?(like|want|wish) to (continue|proceed|go ahead|carry on) with\b", re.I
)
# "As per the bank's policy, if the FD is under lien, I cannot close it and would need to
# transfer you to a branch officer": the rule, on a condition the agent has still to check; it
# neither refuses nor hands over (round 17).
IF_RULE = re.compile(
    r"^((according to|as per|per|under) [^,]{0,40},\s*)?if (?!(you|not|so|yes)\b)[^.?!]*\b(i|we)"
    r" (cannot|can'?t|can not|won'?t|will not)\b",
    re.IGNORECASE,
)
# A report of what the agent finished ("Done", "your request has been submitted", "I've cancelled
# it"), not a figure, a status or a reason told ("the cheque has already been paid").
COMPLETED = re.compile(
    r"^(done|completed?|all set)\b|\ball set\b|\bsuccessful(ly)?\b"
    r"|\b(i'?ve|i have|we'?ve|we have) (now |also |just |successfully )?(submitted|placed|cancell?ed"
    r"|closed|booked|opened|added|updated|raised|requested|transferred|sent|made|set up|initiated"
    r"|completed|processed|arranged|ordered|scheduled|created|registered|changed|applied|modified"
    r"|issued|enabled|disabled|activated|credited)\b"
    r"|\b(request|return|exchange|cancellation|modification|change|transfer|payment|order|booking)s?"
    r"\b[^.?!]{0,80}\b(has|have|is|are|was|were) (now |just )?(been )?(successfully )?(submitted|placed"
    r"|processed|completed|complete|applied|done|initiated)\b",
    re.IGNORECASE,
)
