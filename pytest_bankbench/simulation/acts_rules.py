"""How the scripted customer reads an agent turn: one row per phrasing, as data.

A new phrasing the customer misreads is one added row (and one line in the corpus of agent
turns, tests/simulation/agent_turns.txt, that proves it). Patterns are case-insensitive regular
expressions matched against one sentence at a time, after markdown is stripped
(simulation/acts.py). A sentence may carry several acts; acts.py resolves the overlaps. A proposal's
clause starts where its pattern matches, or at its group `at` when the pattern first looks at
the whole sentence (`^(?!...)`).
"""

from __future__ import annotations

from typing import Literal

from pytest_bankbench.simulation.acts_topics import ACTION_RULES as ACTION_RULES
from pytest_bankbench.simulation.acts_topics import INTERNAL_ID as INTERNAL_ID
from pytest_bankbench.simulation.acts_topics import TOOL_ACTIONS as TOOL_ACTIONS
from pytest_bankbench.simulation.acts_topics import TOPIC_RULES as TOPIC_RULES

Act = Literal[
    "greet",  # hello, welcome, thanks for contacting us: says nothing by itself
    "ask",  # a question about something the customer knows (topics say which)
    "confirm",  # a request for consent to what the agent proposes, in any phrasing
    "offer",  # something extra the customer did not ask for ("would you also like ...")
    "wait",  # progress: the agent is working ("let me check", "one moment")
    "done",  # a completion or a result/answer reported, or a farewell
    "more",  # "anything else?": the agent is ready for the next request
    "invite",  # "how can I help you?": the customer (re)states the request
    "refuse",  # the agent will not or cannot do it, usually with its reason
    "handoff",  # the agent hands the customer over to a human
]
ACTS: tuple[Act, ...] = Act.__args__  # type: ignore[attr-defined]
# The acts that ask the customer for a yes.
PROPOSALS: frozenset[Act] = frozenset({"confirm", "offer"})

_READ_VERBS = r"check|look|pull|fetch|show|share|calculate|find|tell you|run|verify|quote|compare"
# A step offered as advice for later, not asked for now: "Please reboot your device if you don't
# notice an improvement", "If you notice any slowdowns, a quick reboot can help" (issue 16,
# tuning-4: grok-3 ends a finished refuel with these). A sentence that asks for a report is
# still an ask.
_LATER = (
    r"(?!(?![^.?!]*\b(let me know|tell me|update me)\b)[^.?!]*\bif you (don'?t|do not) (notice|see)\b)"
    r"(?!(?![^.?!]*\b(let me know|tell me|update me)\b)[^.?!]*\bif you (ever )?(notice|experience|face|"
    r"encounter|run into) (any|further|more|a|an)\b)"
    # "If you still have trouble after a few minutes, please restart your phone."
    r"(?!(?![^.?!]*\b(let me know|tell me|update me)\b)[^.?!]*\bif (you (still|continue to) (have|"
    r"experience|face|see|notice|get)|the (issue|problem) (persists|continues))\b)"
)
# What a customer is asked to do on their own device or app, and report on.
_STEPS = (
    r"run|rerun|re-run|turn|toggle|switch|enable|disable|restart|reboot|reset|reseat|remove|"
    r"reinsert|grant|open|tap|swipe|power(?= (off|on|down|up|cycle)\b)|unlock|disconnect|reconnect|install|follow|go to"
)
_WRITE_VERBS = (
    r"make|place|book|close|block|send|transfer|pay|submit|set|switch|turn|enable|disable|add|"
    r"open|create|stop|order|raise|foreclose|prepay|update|change|activate|deactivate|initiate|"
    r"execute|complete|finali[sz]e|apply|register|save|lower|increase|reduce|cancel|put|start|"
    r"issue|go|hotlist|freeze|request|arrange|connect|escalate|file|lodge"
)

# A verb the agent says it will do itself ("I'll confirm the details", "we can confirm the
# address", "Once I confirm the details, I will ..."): its mood is a promise or the agent's own
# step, not a request to the customer.
_AGENT_DOES = r"(?<!once i )(?<!once we )(?<!when i )(?<!after i )(?<!i'll )(?<!i will )(?<!we'll )(?<!we will )(?<!i can )(?<!we can )(?<!and then )(?<!i need to )(?<!we need to )"

# fmt: off
_RECORD = (
    r"(order|reservation|booking|account|card|deposit|fd|rd|loan|line|number|item|product|flight|"
    r"address|email|user|one|record|payee|beneficiary|cheque)"
)

ACT_RULES: tuple[tuple[Act, str], ...] = (
    # -- greet
    ("greet", r"^(hi|hello|hey|hiya|good (morning|afternoon|evening|day)|namaste|greetings)\b(?! (?-i:[A-Z])[a-z]+( (?-i:[A-Z])[a-z]+)?[,!])"),  # "Hi Raj, I found your account.", "Welcome, Mei!": the customer addressed by name (round 20)
    ("greet", r"^(dear (customer|sir|madam)|welcome)\b(?!,? (back,? )?(?-i:[A-Z])[a-z]+\b)"),
    ("greet", r"(?<!'re )(?<!are )\bwelcome to\b"),
    ("greet", r"\bthank(s| you) for (contacting|reaching out|banking|choosing|writing|getting)\b"),
    ("greet", r"\b(i'?m|i am|this is)\b.{0,40}\bassistant\b"),
    # -- ask: questions that need no question mark (a question mark alone also reads as ask)
    ("ask", r"\b(please|kindly|could you|can you|would you) (share|provide|tell|send|give|specify|mention(?! that)|enter|type|let me know|advise|clarify|indicate|identify|name|select|choose|pick|double-check|verify|check(?! (with|back|your (user )?profile|or contact)\b))\b"),
    ("ask", r"\b(please|kindly|could you|can you) (also )?confirm (the (?!following|above|below|details|summary|same)|your|which|what|how|whether the|if the|(that|this) (detail|fact|date|reason))\b"),
    # "I'll confirm the details and then proceed" is the agent's next step, not a request.
    ("ask", rf"{_AGENT_DOES}\bconfirm (the|your) (account|amount|card|deposit|loan|payee|beneficiary|details|mode|tenure|date|name|number|ifsc|nickname|period|address|reason)\b"),
    ("ask", r"(^|\b(please|kindly|also|just|pls|and) )(let me know|tell me|share|provide|mention|specify) (which|what|how|when|where|whether|the|your)\b(?! you('re| are) ready\b)"),
    ("ask", r"\bmay i (kindly )?(know|have|ask|get|request)\b"),
    # "Could you please do one of the following so I can verify your account: 1) ...", "could
    # you please confirm ONE of the following: 1. Your date of birth ..." (tuning-40)
    ("ask", r"\b(please|kindly|could you|can you|would you)( please)? (do|confirm|provide|share|give me|tell me) (one|any|any one|either|both|one or more|at least one) of the following\b"),
    # "Please confirm if you would like to use your savings account": which account, not a yes.
    ("ask", r"\bconfirm (if|whether) you('d| would)? (like|want|wish|prefer) to use\b"),
    # "Please reply with one of these payment methods", "If you know which ones, send them to me".
    ("ask", r"\b(please |kindly )?(reply|respond) with\b(?! (a |an )?\W?(yes|no|ok|okay|confirm)\b)"),
    ("ask", r"(^|, )(please )?(send|share|provide|give|tell) (them|it|those|these) (to|with) (me|us)\b"),
    ("ask", r"\b(i|we)('ll| will| would)? (need|require) (a few|some|a couple|to know|the following|more|a bit more|few|a little more)\b"),
    ("ask", r"\b(need|require) (your|the) (account|card|deposit|loan|payee|beneficiary|details|mode|tenure|date|name|number|ifsc|nickname|period|address|reason|cheque|amount)\b"),
    ("ask", r"^(need|required|missing)\b.*\b(details?|info|information|number|account|amount)\b"),
    # "I still need your user ID to proceed": a detail the agent waits for, whatever its name.
    ("ask", r"\b(i|we)( still| first| will| would|'ll|'d)? (need|require) (your|the)\b(?! (consent|confirmation|go-?ahead|approval|permission)\b)(?![^.?!]*\b(pricing|prices|fares|availability)\b)"),
    ("ask", r"^if you (can|could) (provide|share|give|tell|send)\b"),
    # "To verify you, I just need you to provide your registered mobile number"; but "If so, I'll
    # need you to provide a payment method" is for after the yes (round 19)
    ("ask", r"^(?!(if|once|when|after)\b)[^.?!]*\b(i|we)( just| only| still| first| will| would|'ll|'d)? (need|require) you to (provide|share|give|tell|send|enter|specify)\b"),
    ("ask", r"^once you have (it|them|the|your)\b[^.?!]*\b(please|kindly) (provide|share|send|give|tell)\b"),
    ("ask", r"\bonce you (provide|share|give|send|tell|confirm (one|two|a|an) (more |other |last |further )?(pieces? of (information|info)|detail))\b"),
    # "If you purchased it in a different order, let me know": a condition on what the customer
    # did asks whether it holds; "if you need anything else, let me know" offers (round 6).
    ("ask", r"^if you (\w+ed|had|bought|made|meant|got|paid|sent|saw|used)\b[^.?!]*,\s*(please |just |kindly )?(let me know|tell me)\b"),
    ("ask", r"\blet me know (if|whether|which of) (any|one) of (these|those|the) (options?|choices|alternatives)\b"),
    # "Could you confirm if this is the reservation you mean?" asks which record, not for a yes.
    ("ask", r"\bconfirm (if|whether|that) (this|that|it) (is|was) (the|your|a|an|one)\b(?! (correct|right)\b)"),
    # "I'll assume HAT001, but please confirm if this matches": which record, not a yes; "I need to
    # confirm the cabin class (e.g., economy or business)": a value to tell, its examples given
    # (round 13), where "I need to confirm the details" is the agent's own step.
    ("ask", r"\b(please|kindly|could you|can you) confirm (if|whether|that) (this|that|it) (matches|corresponds)\b"),
    ("ask", r"\b(i|we)( still| first| will| would|'ll|'d)? (need|require) to (confirm|know|get) (the|your)\b[^.?!]*\((e\.g\.|for example|such as)"),
    # "Could you confirm if this is the correct order?": which record, not a yes to an action.
    ("ask", rf"\bconfirm (if|whether) (this|that|it) (is|was) the (correct|right) {_RECORD}\b"),
    # Steps the customer carries out and reports on ("please run the speed test and let me know
    # the result", "Reboot your phone", "Once that's done, let me know"): the customer acts and
    # answers (issue 16: real telecom agents troubleshoot this way).
    ("ask", rf"\b(please|kindly) (now |also |first |then |just |go ahead and )?({_STEPS}|use|try(?! (again )?(later|after|tomorrow|in)\b))\b(?!-)(?! (not|hold)\b){_LATER}"),
    ("ask", rf"^((yes|great|ok(ay)?|now|next|first|then|so|after that|once (that'?s|it'?s|you'?ve|you have|this is) (done|complete|completed|finished|off|on|restarted|back( up)?)),? )?({_STEPS}|try(?! (again )?(later|after|tomorrow|in)\b)|check|verify)\b(?!-){_LATER}"),
    ("ask", r"\b(let me know|tell me|update me)\b[^.?!]{0,80}\b(works?|worked|goes through|went through|restored|resolved|resolves|fixes|helps|solves|fixed|improves?|improved|connects?|recogni[sz]es|detects?|comes? back|reconnects?|shows?|says|reports?|displays?|you see|results?|output|speed|signal)\b"),
    ("ask", r"\blet me know (and|so) (i|we)('ll| will| can)\b"),
    ("ask", rf"^(you can|you may) (now |go ahead and |now go ahead and )+({_STEPS}|try)\b"),
    # "I'm looking forward to hearing the results", "I'll be right here waiting for your update":
    # the customer is carrying out a step and reports next.
    ("ask", r"\b(looking forward to|look forward to) (hearing|your (update|results?|reply|response|feedback))\b"),
    ("ask", r"\b(waiting|wait) for your (update|results?|reply|response|feedback)\b"),
    ("ask", r"\b(once|when|after) (that'?s|it'?s|you'?ve|you have|this is|it'?s been) (now )?(done|complete|completed|finished|off|on|restarted|back|enabled|disabled|turned|set|changed|reset|rebooted|toggled|granted|installed|paid|made|tried|entered|accepted)\b[^.?!]{0,60}\blet me know\b"),
    # "Let me know once that's submitted and we'll continue": the customer files it with its own
    # tool and reports (round 20); "I'll let you know once it's submitted" is the agent's promise.
    ("ask", r"(^|,\s*|\b(and|then) )(please |just )?(let me know|tell me) (once|when|after) (that'?s|it'?s|you'?ve|you have|they'?re|they are|it has|it'?s been|that has|that'?s been) (been )?(now )?(done|complete|completed|finished|submitted|filed|sent|paid|made|raised|lodged)\b"),
    # -- confirm: consent to what the agent proposes
    ("confirm", r"\b(shall|should|can|may|could) (i|we) (now |then |just )?(go ahead|proceed|continue|carry on|do (it|that|this|so)|process|get (it|this|that) done|go on)\b"),
    ("confirm", rf"\b(shall|should|can|may) (i|we) (now |then |just |also |first )?(go ahead and )?({_WRITE_VERBS}|{_READ_VERBS})\b"),
    ("confirm", rf"^(?![^.]*\b(which|what|how|when|where)\b)(?![^?]*\bor (?!not\b))(?![^.?]*\bpossible\s*\?)({_WRITE_VERBS}|{_READ_VERBS}|proceed)\b[^.]*\?"),
    ("confirm", r"\b(shall|should|may) (i|we)( do (it|that|so))?\s*\?"),
    ("confirm", r"\b(shall|should) (i|we) (now |then |just |go ahead and )?confirm\b(?! (the|your) (account|amount|details|address|name|number|id)\b)"),
    ("confirm", r"\b(would|do|will) you (like|want|prefer|wish) (for )?me to\b"),
    # "Would you like instructions?", "Are you ready to follow some steps?": a yes to being guided
    # through the steps (issue 16: real telecom agents ask this after each check); "Are you ready
    # to move forward with all four of these actions?" after a plan: a yes to it (round 24).
    ("confirm", r"^(so,? |then,? )?(would|do) you (like|want|need) (some |my |more )?(step-by-step |detailed |quick |further )?(instructions|guidance|help|assistance|directions|a walkthrough)\b(?![^?]*\b(else|other|anything|or)\b)[^?]*\?"),
    ("confirm", r"^(so,? |then,? )?are you ready (to (follow|go through|start|begin|try|proceed|move forward|go ahead|go forward)|for (the|some|a few))\b[^?]*\?"),
    ("confirm", r"^(you )?want me to\b"),
    ("confirm", r"\b(would|do) you (still )?(like|want|wish) to (go ahead|proceed|continue|confirm|do (it|that|this|so)|move forward|go forward)\b"),
    ("confirm", r"^(so,? |and |then,? |also,? |now,? |ok(ay)?,? |before (\w+ing|we|i) [^,?]{1,50}, )?(would|do) you (still )?(like|want|wish|prefer) to (?!(choose|select|pick|provide|share|give|tell|send|enter)\b)(?!.*\bor\b(?!,? is there (anything|something) else\b))(?!.*\bany (changes|modifications|other)\b).*\?"),
    # "I need some information to confirm the details of your card": the agent's purpose (round 17)
    ("confirm", rf"(?<!need to )(?<!have to )(?<!information to )(?<!details to )(?<!in order to ){_AGENT_DOES}(?<!let me )(?<!let's )(?<!let’s )(?<!let us )(?<!you can )(?<!you could )\bconfirm the (following|above|below|details|summary)\b(?! (of|for) (the|your) [\w-]+( [\w-]+)? (you|to)\b)"),
    # '(YES to proceed, NO to modify later.)', 'For return of the Backpack: yes to proceed with
    # returning it': the yes the customer may reply, offered as a line of its own (round 22,
    # tuning-20)
    ("confirm", r"^([^:?!]{1,60}:\s*)?\W{0,2}yes\W{0,3} to (proceed|continue|go ahead|start)\b"),
    # 'To proceed, please confirm by replying exactly "yes"': the reply word as a gerund, the yes
    # within reach of it, not of "confirm" (round 22, tuning-24)
    ("confirm", r"(?<!you'll need to )(?<!you will need to )(?<!you would need to )(?<!you'd need to )\b(reply|replying|respond|responding|answer|say|saying|type|typing|confirm|text)\b.{0,20}\b(yes|y|ok|okay|confirm)\b(?![^.?!]*\bonce (we|i) (finali[sz]e|have|agree)\b)"),
    ("confirm", rf"(?<!i can )(?<!we can )(?<!i )(?<!we )(?<!i'll )(?<!i will )(?<!i could )\bconfirm (if|whether|that|so|and) (i|we|you(?=('d| would)? (like|want|wish|prefer|agree|approve|accept|authori[sz]e|consent)\b(?! to use\b)|'?re (happy|ok|okay|fine|good|ready)\b| are (happy|ok|okay|fine|good|ready)\b)|(this|that|it)(?=('s| is| sounds| looks| would be)( all)? (ok|okay|fine|correct|right|alright|acceptable|good|accurate|what you)\b| works for you\b)|(all )?(of )?(these|those)( details| changes)?(?= (are|look|sound)( all)? (ok|okay|fine|correct|right|good|accurate)\b)|everything|(all )?(of )?the (above|details|following|action|request|transaction|transfer|closure|booking|payment|change|changes|instruction|information))\b(?! (is|was) (the|your|a|an|one)\b(?! (correct|right)\b))(?! (is|was) the (correct|right) {_RECORD}\b)"),
    ("confirm", r"\bconfirm (to|and|so that) (proceed|continue|go ahead|i|we)\b"),
    # "Please confirm you approve these changes so I can update your reservation" (round 11)
    ("confirm", r"\b(please |kindly )confirm (that )?you (approve|agree|accept|authori[sz]e|consent)\b"),
    # "Please review and confirm." asks; "Once you share the ID, I can review it and confirm." promises.
    ("confirm", r"^(?!(\w+,? )?let('?s|’s| us)\b)(?![^.?!]*\b(i|we)( can|'ll| will| would| could)\b)[^.?!]*\b(please |kindly |can you |could you )?confirm\W*$"),
    ("confirm", r"^confirm\b.*\?"),
    # Recaps that ask for a yes: "Please confirm: ...", "To confirm, you'd like me to ...?",
    # "Just to be sure: you want me to close ...?" (issue 16: each failed every write task).
    ("confirm", r"^(please |kindly )?confirm\s*[:\-–—]"),
    ("confirm", r"^(just )?to confirm,? (that'?s|this is|it'?s|so that'?s)\b"),
    ("confirm", r"^(?!.*\b(which|what|how|when|where|who)\b)((also|and|so|ok(ay)?),? )?(just )?(to confirm|to be sure|to double[- ]check|to make sure|to be clear|to recap|to summari[sz]e|just checking|just to check)\b[^?]*\b(you('d| would)? (want|like|wish|prefer|need)|you'?re (asking|looking)|i('ll| will| should| am to))\b"),
    ("confirm", r"^(?!.*\b(which|what|how|when|where|who)\b).*(?P<at>\byou('d| would)? (want|like|wish|prefer) me to\b.*\?)"),
    ("confirm", r"\bif you\b[^.?!]{0,40}\b(like|want|wish|prefer) me to\b"),
    ("confirm", r"\bif (you(?! (still|continue|keep|ever|later)\b)|needed|necessary|required)\b[^.?!]*\b(i|we) (can|could) (transfer|connect) you\b|\b(i|we) (can|could) (transfer|connect) you\b[^.?!]*\bif you\b"),
    ("confirm", r"\bif you (decide|choose|want|wish|would like|'d like) to (proceed|go ahead|pursue)\b.*\blet me know\b"),
    ("confirm", r"^otherwise,? (i|we) (can|could)\b"),
    # "Data roaming is disabled on your line. I can enable it for you at no additional cost." (round 19)
    ("confirm", rf"^(i|we) can ({_WRITE_VERBS}) (it|this|that|them) for you( now| right away| at no (additional|extra) (cost|charge))?\W*$"),
    # "Is this the card you want to keep? If so, we can proceed with blocking the other two": the
    # yes/no question is the go-ahead for the step (round 19)
    ("confirm", r"^if (so|yes)\b,? (i|we) (can|could|will|'ll) (now )?(proceed|go ahead) (with|to)\b"),
    ("confirm", r"^(please |kindly )?confirm (below|here|this|the (action|request|change))\b"),
    ("confirm", r"\b(is|does|are) (that|this|it|everything|all (of )?(this|that)|the above|these details|the details) (all )?(ok|okay|fine|correct|right|alright|all right|acceptable|good|accurate|look (good|right|correct|ok|okay|fine))\b"),
    # "... so I could switch it on for that card instead. Would you like that?": a yes/no
    # question on the proposal just made (independent careful agent, issue 16).
    ("confirm", r"^(so,? |then,? )?(would|do|will) you (still )?(like|want) (that|this|it)( done| to happen)?( then| instead)?\s*\?\s*$"),
    ("confirm", r"^(would|does|will) (that|this|it) (work|suit you|do)( for you)?( then| instead)?\s*\?\s*$"),
    ("confirm", r"\b(everything|all|this|that|it) (look|looks|sound|sounds) (good|right|correct|ok|okay|fine)\b.*\?"),
    ("confirm", r"\b(ok|okay|good|fine|alright|all right) (for me )?to (go ahead|proceed|continue|go)\b"),
    ("confirm", r"\bgood to go\b.*\?"),
    # A terse close of a proposal: "I'll send Rs 5,000 by IMPS from ****1234. OK?" (audit2).
    ("confirm", r"^(ok|okay|sounds? good|all good|fine|alright|all right|agreed)\s*\?\s*$"),
    ("confirm", r"\bdo i have your\b"),
    # "Could you please allow me to check the next reservation?": permission asked for a step
    ("confirm", r"\b(could|can|would|will) you (please )?(allow|permit|authori[sz]e) (me|us) to\b"),
    ("confirm", r"(?!^(get|obtain) )\b(need|require|have|get|give me|want|awaiting|await|wait for) (your|an?) (explicit |final |clear |formal )?(go-?ahead|consent|confirmation|approval|permission|ok|okay|authori[sz]ation|yes|confirmation to proceed)\b"),
    ("confirm", r"\bwith your (permission|consent|approval|go-?ahead|ok|okay)\b"),
    ("confirm", r"\bare you (sure|ok|okay|happy|fine|comfortable|good|alright) (with|for me|to|that|about|if|proceeding|going)\b"),
    # "I'll be happy to proceed with your order" promises; "Happy to proceed?" asks.
    ("confirm", r"(?<!be )(?<!i'm )(?<!i am )\bhappy (for me )?to (go ahead|proceed)\b"),
    # "Shall we proceed?" asks a yes; "Let me know how you'd like to proceed?" asks how (tuning-10).
    ("confirm", r"(?<!so we can )(?<!so i can )(?<!so that we can )(?<!so that i can )(?<!order to )(?<!how you'd like to )(?<!how you would like to )(?<!how you want to )(?<!how to )\b(go ahead|proceed|continue)\s*\?"),
    ("confirm", r"\b(yes|y)\s*/\s*(no|n)\b"),
    ("confirm", r"(?<!are )(?<!'re )\bready (for me )?to (proceed|go ahead|confirm)\b"),
    ("confirm", r"\b(let me know|tell me) (if|whether) you('re| are) ready (to|for)\b"),
    ("confirm", r"\b(just )?(say|give me) (the word|a yes|yes|go|ok|okay)\b"),
    ("confirm", r"\blet me know if (i should|you('d| would)? (like|want) me to|it'?s (ok|okay|fine)|that'?s (ok|okay|fine)|you('re| are) (ok|okay|happy|fine|good)|you approve|you agree|i (can|may) (go ahead|proceed)|(to|i should|we should) (go ahead|proceed))\b"),
    ("confirm", r"\blet me know (if|whether) you('d| would)? (still )?like to (proceed|go ahead|continue)\b"),
    # "Once you confirm with "A", I will submit it": a confirmation by an option's letter picks one.
    # "Once you confirm one more piece of information (your date of birth), I'll check ...":
    # details to give, not a yes (tuning-40).
    ("confirm", r"\bonce you (confirm|say yes|approve|agree|give)\b(?! (the|your) (\w+ )?(reason|details?|id|number|name|address|option|choice|selection|order|reservation|payment method|method|preference)\b)(?! (me )?(your |one |two |a |some |any )?(more |other |additional |further |last |remaining )?(pieces? of (information|info)|information\b|info\b|date of birth|birth ?date|dob\b|phone|mobile|e-?mail|identity|zip|postcode|pin ?code))(?! with [\"“'‘(]?(?!(yes|y|ok)\b)[a-z0-9]{1,2}\b)"),
    ("confirm", r"\bconfirm (that )?you('d| would)? (like|want)\b"),
    ("confirm", r"\b(confirm|tell me|let me know)\b[^.?!]*\b(and|or) (if|whether) you('d| would) (still )?like to (proceed|go ahead|continue)\b"),
    # "Is this the reservation you'd like to cancel?", "Could you confirm if this is the card you
    # want to block?": a yes/no question naming the action asks the go-ahead for it; "Is this the
    # correct account?" only checks a detail, and "..., or is there another one?" asks which
    # (tuning-10); "Is this the order you'd like to make changes to?" names no change a yes could
    # allow, "Is that the one you'd like to change?" names one (round 6, tuning-12).
    ("confirm", rf"\b((is|was) (this|that|it)|(this|that|it) (is|was)) the (\w+ )?{_RECORD} (that |which )?you('d| would)? (like|want|wish) to (?!use\b|pay from\b|make (some |any )?(changes|modifications|edits)\b|discuss\b)\w+(?![^?]*\bor (?!not\b))[^.?!]*\?"),
    # "Please confirm if this arrangement is acceptable": a yes to what was set out; "confirm if
    # the address is correct" checks a detail (round 6, tuning-11).
    ("confirm", r"\bconfirm (if|whether|that) (this|that|the|these|those) (\w+ ){1,2}((is|are|would be) (acceptable|agreeable|ok|okay|fine|alright|all right)\b|(works?|sounds? good|looks? good) for you\b)"),
    ("confirm", r"\bif (you'?re|you are) (happy|ok|okay|fine|good) with (this|that|it)\b"),
    ("confirm", r"\bif (that|this|everything) (sounds|looks) (good|right|ok|okay|fine)\b(?![^.?!]*\bno (further |other )?action\b)(?![^.?!]*\b(i|we) can confirm\b)"),
    ("confirm", r"\b(i|we) (can|could|'?ll|will) (now )?(go ahead|proceed|continue|do (it|that|this)|get (it|that|this) done|process (it|this|that))\b.*\bif you('d| would| are|'re)? (like|want|wish|prefer|ok|okay|happy|fine|agree)\b"),
    ("confirm", r"\bdo you (approve|agree|authori[sz]e|consent|confirm)\b"),
    ("confirm", r"\b(proceed|go ahead)\b.*\b(yes or no|\(y/n\))"),
    # -- offer: something extra, marked as such
    ("offer", r"\b(would|do|will) you also (like|want|need)\b"),
    ("offer", r"\b(would|do) you (like|want) me to also\b"),
    ("offer", r"\b(shall|should|can|may) (i|we) also\b"),
    # "Also, I can see you have one more order pending": what the agent sees, no offer (round 19)
    ("offer", r"\b(i|we) (can|could) also\b(?! (see|notice|tell)\b)"),
    ("offer", r"\b(i|we) (can|could|'?ll|will) (?!(now )?(go ahead|proceed|continue|do (it|that|this)|get (it|that|this) done|process (it|this|that))\b).*\bif you('d| would)? (like|want|wish|prefer)\b"),
    ("offer", r"\bif you('d| would)? (like|want|wish|prefer),? (i|we) (can|could|'?ll|will)\b"),
    # "If you still wish to exchange the boots, please let me know, and I can transfer you" (round 15)
    ("offer", r"\bif you (still )?(wish|want) to\b[^.?!]*\blet me know,? and (i|we) (can|could)\b"),
    ("offer", r"\b(would|are) you (be |still )?interested in\b"),
    # but "Additionally, do you have any preferences regarding the cabin class?" asks (round 18)
    ("offer", r"^(?!.*\b(please|kindly|could you|can you|would you) (also )?(provide|share|tell|send|give|specify|mention|confirm)\b)(?!.*\bdo you have (any |a )?(preferences?|preferred)\b).*(?P<at>\b(as well|too|in addition|additionally|as a precaution|to be safe|for (your )?(safety|security|added security))\b.*\?)"),
    ("offer", r"\bwhile (i'?m|i am|we'?re|we are) at it\b"),
    ("offer", r"^(would|do) you (like|want) (that|the|this|a|our) (link|contact (information|details)|(phone )?number)\W*$"),
    ("offer", r"^(additionally|also|in addition|as well),? (i|we) (can|could)\b(?! (also )?(see|notice|tell)\b)"),
    ("offer", r"^(would you be )?interested\W*$"),
    # "You might want to check your email" is advice, not an offer.
    ("offer", rf"(^|, |\band )you (may|might) (also )?(want|like|wish)\b(?! to (check|contact|call|visit|reach|look|try|verify|consider|keep|note|make sure|ensure|double-check|review|{_STEPS})\b)"),
    ("offer", r"\blet me know if you('d| would) (also )?like to (purchase|buy|add|get|opt for|take)\b"),
    ("offer", r"\b(i'?d|i would|i) (recommend|suggest|advise)\b.*\?"),
    # -- wait: the agent is working on it
    ("wait", r"\blet me (just |quickly |now |first |also )?(check|look|see|pull|fetch|get|review|verify|find|take a look|look into|process|search|retrieve|calculate|recalculate|recheck|re-check|double-check|correct (that|this|it)|fix (that|this|it)|go ahead and|run|open|confirm (that|those|these|this|the(?! (details|following|changes|summary)\b[^.?!]*:\s*$))|work|start|begin|do that|look that up|handle|sort|set that|try|investigate)\b"),
    # "Let me perform this diagnostic check", "Let me run a quick test": the agent at work (round 6).
    ("wait", r"\blet me (now |first |just )?(perform|run|do|carry out) (a|an|this|the|that|some|these) (\w+ ){0,2}(checks?|tests?|diagnostics?|scans?|search(es)?|lookups?)\b(?!.*\?)"),
    # "Let's try that again", "Let's check the product": the agent's next step, not the customer's.
    # "To help you change it, I need to first check the product details": the agent's next step
    ("wait", r"\b(i|we) (will |first |also )?(need|have) to (first )?(?!verify (you\b|your (identity|account)\b))(check|look up|look at|look into|verify|pull up|fetch|retrieve|review|search)\b(?![^.?!]*\?)(?![^.?!]*\b(your|you)\b[^.?!]*\b(identity|provide|share|give)\b)"),
    # "I'll continue checking your remaining reservations", "Let me keep looking" (round 13).
    ("wait", r"\b(i'?ll|i will|let me|we'?ll|we will|i'?m going to|i am going to) (now |just )?(continue|keep) (checking|looking|searching|reviewing|going through|trying)\b(?!.*\?)"),
    ("wait", r"^(proceeding|processing|booking|updating|submitting) (with |to )?[^.?!]*\bnow\b(?![^.?!]*\?)"),
    ("wait", r"^(now,? |okay,? |ok,? |first,? )?let'?s (try|check|look|see|search|confirm|verify|retrieve|find|ensure|make sure|list|fetch|pull)\b(?!.*\?)"),
    ("wait", r"\b(i'?m|i am|we'?re|we are) (now )?(proceeding|going ahead) (with|to)\b(?!.*\?)"),
    # "I'm now creating the reservation", "I will try again": about to act, not done.
    ("wait", r"\b(i'?m|i am) now (?!(passing|transferring|connecting|handing|escalating|routing)\b)\w+ing\b(?!.*\?)"),
    # "I will now attempt the exchange once more": an adverb of time does not change the step.
    ("wait", r"\b(i|we)('ll| will|'m going to| am going to) (now |then |just |first )?(try|retry|attempt|investigate)\b(?!.*\?)"),
    ("wait", r"^(?!.*\?).*\b(i|we) (need|have) to (check|retrieve|look|verify|fetch|pull|search|review|investigate|correct|fix|redo|resubmit|rerun|adjust)\b"),
    # "It usually takes a few seconds to a minute", "Please take a moment to test": not the agent.
    ("wait", r"(?<!take )(?<!takes )(?<! to )\b(one|a|just a|give me a|bear with me a) (moment|second|sec|minute|mo)\b"),
    ("wait", r"\b(please )?(hold on|bear with me|hang on|hang tight|stay with me)\b"),
    # "I will gather the details of your order", "I'll double-check the item": the agent's own step.
    ("wait", r"\b(i'?m|i am|i'?ll|i will|we'?ll|we will|i'?m going to|i am going to|i'?m now|i am now) (now |just |quickly |first )?(proceed to |go on to )?(check|look|pull|fetch|review|verify|find|process|retrieve|search|calculate|work on|look up|check on|get started|be right back|start by|begin by|need to check|run|gather|locate|double-check|re-check|go ahead and (check|look|pull|fetch|get))\w*\b(?! forward\b)"),
    # "Looking at your statement, I don't see the debit" reports what was found (round 17)
    ("wait", r"^(?!looking forward)(?!(looking|based) (at|on) [^,.?!]{1,60},)(checking|looking|pulling|fetching|retrieving|reviewing|processing|working|searching|calculating|verifying)\b"),
    # "I'm confirming these details with our system now" (round 23)
    ("wait", r"\b(i'?m|i am|we'?re|we are) (currently |now )?confirming (these|those|the|your|this|that)\b[^.?!]{0,40}\bwith (our|the) (system|records)\b"),
    ("wait", r"\b(i'?m|i am|we'?re|we are) (currently |now )?(checking|looking into|looking up|pulling up|fetching|retrieving|reviewing|processing|working on|verifying|calculating|searching)\b"),
    ("wait", r"\b(i'?ll|i will|we'?ll|we will) (get back|update you|be back|come back|revert|confirm shortly)\b"),
    # "I will now provide you with the payment method options": the agent's next message, on its
    # way; not "I will provide the details once you confirm" (tuning-31)
    ("wait", r"^(?![^.?!]*\b(if|once|after|when|as soon as)\b)[^.?!]*\b(i'?ll|i will|i'?m going to|i am going to) now (provide|present|show|share|list|give) (you )?(with )?(the|your|all|some)\b[^?]*$"),
    ("wait", r"\b(give|allow) me (a|one) (moment|second|minute)\b"),
    ("wait", r"\b(please|kindly) wait\b|\bwait (a|one) (moment|second|minute|sec)\b"),
    ("wait", r"\b(have|has) (noted|received|logged) (your|the) (request|details|query)\b"),
    ("wait", r"\bwhile i (check|look|pull|fetch|verify|process)\b"),
    # "I will now proceed with the update": about to act, not done; a condition before it
    # ("once you confirm, I'll proceed") makes it part of a consent request instead.
    ("wait", rf"^(?!.*\b(if|once|as soon as|after you|when you|unless)\b)(?!.*\?)(?!.*\b(please|kindly|let me know)\b)(?!.*\b(transfer|connect)\w* you\b).*\b(i'?ll|i will|i'?m going to|i am going to|we'?ll|we will|let me|let'?s) (now |just |then |go ahead and )?(proceed|go ahead|make the (necessary )?changes?|take care of (it|this|that)|get (it|this|that) done|{_WRITE_VERBS}|modify|downgrade|upgrade|remove|process|check|look)\b"),
    # -- more: ready for the next request
    ("more", r"\banything else\b"),
    ("more", r"\bif you('d| would)? like me to\b[^.?!]*\b(any other|other orders?|additional changes|anything else)\b[^.?!]*\blet me know\b"),
    # "Would you like to proceed with any other actions?", "Let me know if you'd like to proceed
    # with any actions for these reservations": ready for the next request (tuning-15)
    ("more", r"\b(proceed|go ahead|continue) with any (other |more |further |additional )?(actions?|requests?|tasks?)\b(?![^?]*\bor\b)"),
    ("more", r"\b(any|something) (other|else|more|further)( \w+)? (i|we) (can|could|may)\b"),
    ("more", r"\bany (other|more|further) (questions?|quer(y|ies)|requests?|help|assistance|concerns?|things?)\b"),
    ("more", r"\b(what|how) else (can|could|may) (i|we)\b"),
    # "If you need further assistance, I can transfer you" offers a transfer, not "anything else?".
    ("more", r"\b(need|want|require|like|have) (any(thing)? )?(further|more|other|additional) (help|assistance|support)\b[^.?!]*(\?|\b(feel free|let (me|us) know|please|don'?t hesitate|reach out|ask)\b)"),
    ("more", r"\b(feel free|don'?t hesitate|do not hesitate) to (ask|reach out|contact|let (me|us) know|get in touch|come back|call back|message)\b"),
    # "I should check if you have any business class reservations" asks nothing; "If you need any
    # changes, let me know before we act" belongs to the proposal.
    ("more", rf"(?<!check )(?<!see )(?<!verify )(?<!know )(?<!determine )(?<!find out )\bif (you|there'?s) (need|have|is|are) (anything|any|something)\b(?! (of (these|those|the) )?((other|additional|further|more) )?(preferences?|details?|information|info|documents?|emails?)\b)(?! (other|additional|more) (\w+ )?{_RECORD}s?\b)(?![^.?!]*\bbefore (confirming|we act|i act|we proceed|i proceed|proceeding)\b)"),
    ("more", r"\b(need|want) (help|assistance) with (something|anything) else\b"),
    ("more", r"\b(can|may) i (help|assist) (you )?with anything\b"),
    ("more", r"\bis there (something|anything) (more|further)\b"),
    # "Would you like to handle another order?", "Shall I send a receipt, or help with any changes?":
    # a new request, whichever it is, after the last one was finished (issue 16, round 4).
    ("more", r"\b(would|do) you (like|want|need) (to|me to|help( with)?) (handle|make|do|start|place|raise|check|review|look at|help with) (another|any other|a different|something else)\b"),
    ("more", r"\bor (help|assist)( you)? with (anything|any|something|other)\b"),
    ("more", r"\banything (more|further)\b|\bis that all\b"),
    # "Need any modifications, like adding a nominee? Let me know!" after a report (round 19)
    ("more", r"^(need|want) any (other |more |further )?(modifications?|changes?|help|assistance)\b[^.?!]*\?"),
    ("more", r"\b(does|did|has) (that|this) (help|answer|clear)\b"),
    # "If you need help with a different reservation, I can assist."
    ("more", r"\bif you (still )?(need|want) (me to \w+|help|assistance)( \w+)? (with )?(a different|another|any other|other|anything else)\b"),
    # -- invite: the agent asks what the customer wants
    ("invite", r"\bhow (can|may|could|might|shall) (i|we) (help|assist|be of)\b"),
    ("invite", r"\bwhat (can|may|could) (i|we) (do|help) (for|with) you\b"),
    ("invite", r"\bwhat (brings you|do you need help with|would you like (help|assistance) with)\b"),
    ("invite", r"\bwhat can (i|we) (help|assist)( you)? with\b"),
    ("invite", r"\bhow can i be of\b"),
    ("invite", r"\b(let me know|tell me) (what|how) (specific )?(assistance|help|you need|i (can|may) (help|assist))\b"),
    ("invite", r"\blet me know how you('d| would) like to proceed\b"),
    ("invite", r"\b(would|do) you (like|want|need) to make (any|some) (changes|modifications)\b"),
    # -- done: a completion, a result told, a farewell
    ("done", r"^(done|completed?|all done|finished|success|sorted)\b"),
    ("done", r"(?<!once )(?<!when )(?<!after )(?<!if )(?<!until )\b(that'?s|it'?s|this is|all|everything('s| is)?|you'?re|you are) (now )?(done|sorted|set|complete|completed|taken care of|all set|finished)\b"),
    ("done", r"\ball set\b"),
    ("done", r"^(you'?re|you are) (very |most |always )?welcome\b"),
    ("done", r"\b(transfer|payment|request|booking|closure|transaction|update|change|modification|cancellation|exchange|renewal)s? (is |was |has been )?(now )?(complete|completed|done|successful|submitted|placed|processed)\b"),
    ("done", r"\bsuccessful(ly)?\b"),
    ("done", r"\b(has|have) (now |also |already |just )?been (\w+ed|sent|paid|set|made|put|done|taken|shut|withdrawn|frozen|given|hotlisted|switched \w+|turned \w+)\b"),
    ("done", r"\b(i'?ve|i have|we'?ve|we have) (now |also |successfully )?(blocked|closed|booked|opened|added|updated|raised|placed|submitted|stopped|requested|switched|turned|enabled|disabled|transferred|sent|paid|made|set|initiated|completed|processed|arranged|ordered|scheduled|created|registered|changed|increased|reduced|lowered|foreclosed|prepaid|activated|deactivated|done|credited|debited|put|cancelled|canceled)\b"),
    ("done", r"\b(is|are) now (\w+ed|set|on|off|active|inactive|closed|open|blocked|enabled|disabled|live|in place|effective|registered)\b"),
    ("done", r"\b(went|gone|has gone|have gone) through\b"),
    # "Everything is updated as requested": a result; "It will be updated as requested" is not.
    ("done", r"\b(is|are|was|were|has been|have been) (all )?(updated|changed|modified|processed|done) as (you )?(requested|asked)\b"),
    ("done", r"\b(is|are|was|were) (successfully |now )?(complete|completed|confirmed|processed|done|approved|executed|placed|booked|credited|debited|sent|blocked|closed)\b"),
    ("done", r"^here (is|are|'s)\b"),
    ("done", r"\bhere (is|are|'s) (the|your|a) (summary|details|result|breakdown|figures?|information|status|answer|quote|statement|numbers|balance|list)\b"),
    ("done", r"(\brs\.?|₹|\binr|\brupees|\$)\s?\d"),
    ("done", r"^yes,? (you|it|your) (have|has|can|are|is)\b"),
    ("done", r"^yes,? (the|that|this|your) \w+\b(?!.*\?)"),
    ("done", r"\b\d[\d,]*(\.\d+)?\s?(%|per ?cent|percent)\b"),
    ("done", r"\b(is|was|are|were|be|on|by|till|until|from|:)\s+\d{1,2}(st|nd|rd|th)?[ -](jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*[ -]\d{4}\b"),
    ("done", r"\b\d{1,2}/\d{1,2}/\d{4}\b|\b\d{4}-\d{2}-\d{2}\b"),
    ("done", r"\b\d+\s(months?|emis?|instalments?|installments?|days|years|leaves)\b"),
    ("done", r"^[a-z][\w' ()/-]{1,40}:\s*(rs\.?|₹|inr|\d|active|inactive|blocked|pending|verified|enabled|disabled|on|off|yes|no|cleared|not cleared|closed|open)\b"),
    ("done", r"\b(is|are) (currently |still |now )?(active|inactive|blocked|hotlisted|dormant|frozen|closed|pending|verified|resolved|open|in progress|under (review|process|processing|lien)|on hold|enabled|disabled|switched (on|off)|turned (on|off)|not (yet )?cleared|cleared|lien[- ]marked|locked|live|valid|expired)\b"),
    ("done", r"\bstatus (is|:|shows)\b"),
    ("done", r"\b(have a (great|good|nice|wonderful|lovely|safe|pleasant|fantastic|fabulous|splendid) (day|evening|one|trip|weekend|time|journey))\b"),
    ("done", r"\b(goodbye|bye)\b|\btake care\W*$|\bsafe travels\b"),
    ("done", r"\b(glad|happy) (i could|to have|i was able to) (help|assist)\b"),
    ("done", r"\byou('ll| will) (receive|get) (an? )?(sms|email|confirmation|notification|message|alert)\b"),
    ("done", r"^(?!.*\?).*\byou (are|'re) (entitled|eligible) to\b"),
    # An allowance told as a figure ("each passenger is allowed 2 free bags", "you are allowed up
    # to 5 free withdrawals") and a search's result ("I found the following flights:") are
    # reports, as a balance is (tuning-10).
    ("done", r"^(?!.*\?).*\b(is|are|'re) allowed (up to |a total of |a maximum of )?\d"),
    ("done", r"^(i|we)('ve| have)? (found|located) the following\b(?!.*\?)"),
    # -- refuse: the agent cannot or will not do it
    # "Since you're choosing to apply instead of closing it, I won't be closing it": the customer's choice (round 20)
    ("refuse", r"^(?!(since|as|because) you\b[^.?!]*\b(instead of|rather than)\b[^.?!]*\b(i|we) (won'?t|will not) be \w+ing\b).*?\b(i|we) ((typically|usually|generally|normally) )?(can'?t|cannot|can not|won'?t|will not|must decline|have to decline)\b"),
    # "Please contact our customer service team directly to modify your order" (round 15)
    ("refuse", r"\bplease contact (our|the) customer (service|support|care)( team)? directly\b"),
    ("refuse", r"\b(i|we)('m|'re| am| are)? (not able|unable|not allowed|not permitted|not authori[sz]ed) to\b"),
    ("refuse", r"\b(unfortunately|regrettably|i regret|we regret|i'?m afraid|i am afraid)\b"),
    ("refuse", r"\b(not|isn'?t|aren'?t|is not|are not) (allowed|permitted|possible|supported|eligible|available)\b"),
    ("refuse", r"(?<![a-z] that )\b(cannot|can'?t|can not|won'?t|will not|could not|couldn'?t) be (\w+ed|done|sent|set|made|paid|withdrawn|frozen|given|undone|broken)\b"),
    # "No changes possible.", "No further action is possible here.": nothing can be done, said
    # in a clipped line of its own (round 22, tuning-19)
    ("refuse", r"^no (\w+ ){1,2}(is |are )?(possible|permitted|allowed)\b(?! (if|unless|once|when|until)\b)"),
    ("refuse", r"\b(is|are) non-?(refundable|transferable|modifiable|cancellable|changeable|reversible)\b"),
    ("refuse", r"\bnot something (i|we)('m| am|'re| are)? (can|able)\b"),
    ("refuse", r"\b(does not|doesn'?t|do not|don'?t) (support|allow|permit|meet|qualify|satisfy)\b"),
    ("refuse", r"\bno exceptions?\b"),
    # "Since your order is still pending, you cannot exchange it yet."
    ("refuse", r"\byou (cannot|can'?t|can not) (\w+ )?(exchange|return|cancel|modify|change|close|transfer|book|upgrade|remove|add)\b[^.?!]*\b(yet|until|unless)\b"),
    # "There was an error processing your request": the attempt failed, nothing was done.
    ("refuse", r"\bthere (was|has been|is|'s) (an?|some) (\w+ )?(error|problem) (processing|with|when|while|creating|submitting)\b"),
    ("refuse", r"\b(i|we) (encountered|ran into|hit|ran across) (an?|some) (\w+ )?(error|problem)\b"),
    ("refuse", r"\b(exceptions?|refunds?) (are|is) not (typically |usually |generally )?(made|allowed|granted|possible|given|available)\b"),
    ("refuse", r"\bthere (are|is) no\b[^.?!]{0,60}\bavailable\b"),
    # "The 4-foot version in glass and white is currently unavailable." (round 23)
    ("refuse", r"^(?![^.?!]*\bif\b)[^.?!]*\b(is|are) currently (unavailable|out of stock)\b"),
    ("refuse", r"\b(i|we) (don'?t|do not) have (access to|an? (live |real-time )?(status )?lookup)\b"),
    ("refuse", r"\bwe (don'?t|do not) (have|offer) (a|an|any) (\w+ ){0,3}option\b"),  # round 18
    ("refuse", r"\b(i|we) (don'?t|do not) have the (ability|authority|permission|means) to\b"),
    ("refuse", r"\b(i|we) (don'?t|do not) have (a|any) way (from here |here )?to\b"),
    ("refuse", r"\b(can'?t|cannot|unable to) (do|process|proceed with|complete|action|help with) (that|this|it|the)\b"),
    # "FD 4411: Unable to close (under lien)", an item of a recap, refuses too (round 17)
    ("refuse", r"^(\w[\w -]{0,30}:\s*)?(can'?t|cannot|unable to|not possible|not allowed|not permitted)\b"),
    ("refuse", r"\b(exceeds?|is above|is over|is below|falls below|is under|is more than|is less than) (the |your |its )?(\w+ ){0,3}(maximum|minimum|limit|cap|allowed|permitted)\b"),
    ("refuse", r"\b(policy|rules?|regulations?) (does not|doesn'?t|do not|don'?t|won'?t) (allow|permit)\b"),
    ("refuse", r"\b(is|are) (blocked|restricted|prohibited|barred) (from|by)\b"),
    ("refuse", r"\b(can|may) (only )?(\w+ ){0,3}(at most|no more than|not more than|up to a maximum of)\b"),
    # "I can only assist with one user per conversation": a limit the request runs into.
    ("refuse", r"\b(i|we) (can|am able to|are able to) only (assist|help|handle|serve|work) (with )?(one|a single)\b"),
    # "Exchanges can only be processed for delivered orders", "it can only be cancelled if ...": a
    # rule the request does not meet; "can only be done once per order" is a note (round 6).
    ("refuse", r"\b(can|may) only be (\w+ed|done|made) (if|when|within|at the time|for (\w+ed|pending|active|eligible) )"),
    ("refuse", r"\bonly (\w+ ){1,2}(with|in) (an? |the )?[\"“']?\w+[\"”']? (status|state) can be \w+ed\b"),  # round 19
    # -- handoff: a human takes over
    ("handoff", r"(?<!offer to )\b(transfer|connect|escalate|hand|put|pass|route)\w* (you|your (call|chat|case|request|query|complaint|dispute)|this (case|chat|request|query|complaint|conversation)) (over |through )?(to|with)\b"),
    # "I am escalating this to our Disputes team now": a team, not an account, takes it; "I will
    # need to escalate this to our technical team" is not done yet (audit2).
    ("handoff", r"\b(escalat|hand|pass|rout|connect|transferr)(ing|ed) (this|it|the (matter|issue|case|dispute|complaint))( over| on)? to (our |the |a )?[\w -]{0,30}\b(team|department|cell|desk|specialists?|officer)\b(?![^.?!]*\?)"),
    # A human named is not a hand-off ("even a human agent cannot", "you may contact a human
    # agent"): the agent must hand over, or say one will take over.
    ("handoff", r"\b(transfer(ring|red|s)?|connect(ing|ed|s)?|(hand|pass|rout)(e|ing|s)? (you|it|this|your)|escalat(e|ing|ed))\b[^.?!]{0,40}\b(human|live) (agent|representative|colleague|executive|banker)\b"),
    # "I need to escalate this matter to technical support": a team takes over.
    ("handoff", r"\bescalat(e|ing)\b (this|it|the (matter|issue|case))( matter| issue)? to (our |the |a )?[\w -]{0,30}\b(team|department|specialists?|support|supervisor|manager)\b[^.?!]*\bfor (further |additional |more )?(assistance|help|support)\b"),
    ("handoff", r"\b(human|live) (agent|representative|colleague|executive|banker) (has been (notified|informed|assigned|alerted),? (and )?)?(will|is going to|shall) (be with you|contact you|join|take over|assist you|call|reach)\b"),
    ("handoff", r"\b(connect|transfer)\w* you\s*(\?|$|now\b)"),
    # "Otherwise, you'll be connected shortly." (round 23)
    ("handoff", r"\byou('ll| will) (now )?be connected (shortly|momentarily|in a moment)\b"),
    # "Let me check the lien and transfer you for the locker request" (round 17)
    ("handoff", r"\b(connect|transfer)\w* you for (the|this|that|your|[a-z]*\d)"),
    ("handoff", r"\bassist (you )?(with|in) (the )?transfer(ring)?\b"),
    ("handoff", r"\b(specialist|colleague|team member|representative|disputes team|fraud team|officer|executive) will (be with you|contact you|assist|take|help|reach|call|join)\b"),
)
# fmt: on


# What questions and proposals are about is in acts_topics.py; re-exported for its readers here.
