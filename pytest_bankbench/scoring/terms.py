"""What the agent says of a write's terms agrees with the policy and the call (I.31: nothing
false; F.24, F.25, K.39): a careless agent tells the customer the very opposite of a term and
still passes every check that looks for the term being told. Evidence of the told_customer
check.

- A block is permanent (F.25): in a session with a block_card call, a sentence that says the
  card can be unblocked, reactivated or the block lifted, un-negated, is false. Accepted: "A
  blocked card can't be unblocked; a replacement will be sent.", "Unblocking is not possible."
  Refused: "Don't worry: if you find the card, I can unblock it for you any time.", "You can
  ask us to unblock the card later."
- A replacement card (F.24) reaches the registered address in 7 working days and costs Rs 200,
  waived for a stolen card with a police report: a replacement said to take another number of
  days, or to be free with no police report named, is false. Refused: "Your replacement card
  will reach you in 30 working days and costs nothing."
- A deposit's maturity instruction (K.39) is the one the booking was made with: "renewed
  automatically" for a booking that credits the account at maturity, or "paid out to your
  account, not renewed" for one that renews, is false.

Found by a careless-agent trial (issue 16): each passed 20 of 20 tasks where it applied.

A question the agent asks and answers at once in the negative asserts nothing of the question
("Will it renew automatically? No - the maturity amount is credited to your account.", "Can it
be unblocked later? Unfortunately not.", "Is the replacement free? Only with a police report;
otherwise it's Rs 200."), and a term marked with a cross states its negation ("Auto-renew: ❌",
"❌ Reactivation"): careful-wording hunt (issue 16), 8 to 10 of 10 each failed. A question
answered yes, or not answered, is read as said ("Will it renew? Yes.", "Auto-renew: ✅" fail).
The task's own rebooking, told as done ("Amount rebooked as a new 365-day FD", "now rebooked in
a new FD", "Closed and rebooked ✅"), is no instruction for the new deposit's maturity.
"""

from __future__ import annotations

import re

from pytest_bankbench.scoring.safeguards import quote
from pytest_bankbench.scoring.view import SessionView

_SPLIT = re.compile(r"(?<!rs\.)(?<=[.!?;])\s+|\n+")
_UNBLOCK = re.compile(
    r"\b(?:un-?block\w*|re-?activat\w*|(?:lift|remove|undo|reverse)\w* (?:the |its |this )?block"
    r"|reversible|restore the card|(?:make|get) (?:it|the card) (?:active|working)|used again"
    # the block undone in other words: "switch it back on", "the block can be removed"
    r"|(?:switch|turn)\w* (?:it|the card|your card|the old card) back on|un-?freez\w*|reinstat\w*"
    r"|enabled? (?:it|the card|your card) again|(?:start|work)\w* again"
    r"|block (?:can|could|will|may) be (?:removed|lifted|reversed|undone|cancel\w*|taken off))"
)
# "Not permanent", a temporary block; not a temporary freeze set against the block ("Unlike a
# temporary freeze, a permanent block cannot be undone": careful-wording hunt round 4).
_NOT_PERMANENT = re.compile(
    r"\s(?:is not|isn't|not|never) (?:a )?permanent\w*|\stemporar\w* block"
    r"|\bblock\w* (?:is |will be )?(?:only )?temporar\w*"
)
# A warning about fraudsters' words: "if a message asks you to 'unblock' your card, it's a scam".
_SCAM = re.compile(r"\b(?:scam\w*|phishing|fraudster\w*|fake|link)\b")
_NEGATOR = re.compile(
    r"\b(?:not|never|no|none|nothing|off|disabled|without|cannot|can't|won't|isn't|aren't|impossible"
    r"|unable)\b|n't\b|\bpermanent(?!ly? (?:not|no)\b)\w*"
)
# The replacement by name, or "the new card" in a session that blocked one.
_NEW_CARD = re.compile(r"\bnew (?:debit |credit |atm )?card\b")
_REPLACEMENT = re.compile(r"\breplacement\b|" + _NEW_CARD.pattern)
_DAYS = re.compile(r"\b(\d{1,3})\s*(?:working |business )?days?\b")
_WEEKS = re.compile(
    r"\b(?:two|three|four|five|six|[2-9]|\d\d)\s+weeks?\b|\ba month\b"
    # sooner than the policy's: hours, a day or two, tomorrow, the same day
    r"|\b\d+\s*(?:hours?|hrs?)\b|\b(?:tomorrow|overnight)\b"
    r"|\b(?:a )?(?:couple|few) (?:of )?(?:working |business )?days\b|\ba day or two\b"
)
_FREE = re.compile(
    r"\b(?:free|costs? nothing|no (?:replacement |card )?(?:charge|fee|cost)|at no (?:cost|charge)"
    r"|complimentary|on us|no need to pay|(?:waive|waived|waiving) (?:the |your )?(?:replacement )?fee"
    # the fee said waived after its name: "The replacement fee is waived for all customers"
    r"|(?:fee|charge)s? (?:is |are |will be |has been |stands |gets )?(?:waived|nil|zero)"
    # no cost said with its own negation: "we won't charge you anything", "on the house"
    r"|on the house|(?:won't|will not|wouldn't|don't|do not|doesn't|does not) (?:be )?"
    r"(?:charge|cost|need to pay|have to pay|pay)\w*(?! (?:only|just|unless|except))"
    r"|(?:not|never) be charged|without (?:any )?(?:charge|fee|cost)|nothing to pay)\b"
)
_POLICE = re.compile(r"\b(?:police|fir)\b")
_CLAUSE = re.compile(r";|\bbut\b|\bwhile\b|\bwhereas\b|\band\b")
_RENEWS = re.compile(
    r"\b(?:renew\w*|roll\w* (?:it |them )?(?:over|into)|reinvest\w*|re-?book\w*"
    r"|book (?:it|the \w+) again|continue for another (?:term|tenure)|re-?deposit\w*)"
)
# At maturity into another deposit ("kept in a new deposit for the same period"): read only in a
# sentence about maturity (booking a new FD is the task's own write).
_INTO_NEW = re.compile(r"\b(?:new|fresh|another) (?:fd|deposit|fixed deposit)\b")
# At maturity, not before it ("closed before maturity" is the task's own premature closure).
_AT_MATURITY = re.compile(
    r"\b(?:at|on|upon|after|by) (?:its |the |their )?maturity\b|\bmatur(?:es|ing)\b"
)
_DONE_NOW = re.compile(r"\b(?:has|have|had) been\b|\b(?:was|were|i've|i have|has gone)\b")
# A rebooking told as done with no auxiliary ("Amount rebooked as a new FD", "is now rebooked"),
# unless a future or a habit is said before it ("will be rebooked", "is automatically renewed").
_FUTURE = re.compile(
    r"\b(?:will|would|shall|gets?|going to|to be|can be|may be|each|every)\b|'ll\b"
    r"|\b(?:is|are)\s+(?:\w+ly\s+)?$"
)
_BOOK_HINT = re.compile(r"renew|roll|paid|book|continue|invest|deposit|matur")
_CHOICE = re.compile(r"\b(?:if|unless|instead|rather|prefer|choose|option|want|would you)\b")
# A question answered at once in the negative ("? No", "? Unfortunately not", "? Not possible",
# "? Only with a police report; otherwise ..."): the question is dropped, its "?" kept (the
# sentences still split where they did). "? No problem", "? No worries" answer yes.
_ANSWERED_NO = re.compile(
    r"(?:^|(?<=[.!?\n]))([ \t]*)[^.!?\n]*\?(?=[*_\"')\s]*(?:[-*>]\s*)?"
    r"(?:(?:unfortunately|sadly|regrettably|i'm afraid|i am afraid|i'm sorry|sorry|afraid)[,\s]+)?"
    r"(?:no\b(?![ -](?:problem|worries|issue|trouble))|nope\b|not\b|never\b|neither\b"
    r"|only (?:if|with|when|after|once|by|on)\b|[❌✗✖🚫⛔]))"
)
# A term marked with a cross beside it: "Auto-renew: ❌", "❌ Reactivation", "Unblocking later ✗",
# "| Auto-renewal | ❌ |".
_CROSS = "❌✗✖🚫⛔"
_CROSSED_AFTER = re.compile(r"[\w-]*[\s:*_?|]*(?:[\w-]+[\s:*_?|]*){0,2}(?:no\b[\s*_|]*)?[❌✗✖🚫⛔]")
_CROSSED_BEFORE = re.compile(r"[❌✗✖🚫⛔][\s*_:]*(?:[\w-]+\s+){0,3}$")


def unasked(lowered: str) -> str:
    """The text with each question answered at once in the negative taken out (its "?" kept):
    "can it be unblocked later? no - the block is permanent." asserts nothing of unblocking."""
    if "?" not in lowered:  # most messages
        return lowered
    return _ANSWERED_NO.sub(r"\1?", lowered)


_PAID_OUT = re.compile(r"\b(?:paid out|credited to your|credit(?:ed)? (?:it |the \w+ )?to your)")


def contradicted_terms(view: SessionView) -> list[str]:
    """Evidence for each sentence that says the opposite of a write's term."""
    names = {c.event.call.name for c in view.calls}
    instruction = next(
        (
            str(c.event.call.arguments.get("maturity_instruction", ""))
            for c in view.calls
            if c.event.call.name == "create_fd" and c.event.call.arguments
        ),
        "",
    )
    problems: list[str] = []
    for message in view.agent:
        lowered = unasked(message.lowered)
        hints = (
            # any sentence of a session that blocks a card ("we can switch it back on")
            "block_card" in names
            and (
                "permanent" in lowered
                or "temporar" in lowered
                or _UNBLOCK.search(lowered) is not None
            ),
            "replacement" in lowered
            or ("block_card" in names and _NEW_CARD.search(lowered) is not None),
            bool(instruction) and _BOOK_HINT.search(lowered) is not None,
        )
        if not any(hints):  # most messages
            continue
        for sentence in _SPLIT.split(lowered):
            wrong = _wrong_term(sentence, hints, instruction)
            if wrong:
                problems.append(f"{wrong} in {quote(message.text)}")
    return problems


def _wrong_term(sentence: str, hints: tuple[bool, bool, bool], instruction: str) -> str | None:
    blocks, replaces, books = hints
    if blocks:  # "not permanent", "only a temporary block": a block said to be undone
        sentence = _NOT_PERMANENT.sub(" reversible", sentence)
    if blocks and _SCAM.search(sentence):
        blocks = False
    if blocks and "card" not in sentence and ("account" in sentence or "dormant" in sentence):
        blocks = False  # "until it is reactivated at a branch": a dormant account, not the card
    if blocks and (m := _UNBLOCK.search(sentence)) and not _negated(sentence, m.start(), m.end()):
        return "said a blocked card can be unblocked (F.25: a block is permanent)"
    if replaces and (r := _REPLACEMENT.search(sentence)):
        # the replacement's own clause: "..., and since you reported this within 3 days, ..."
        clause = re.split(r",\s+(?:and|since|as|because)\b|;", sentence[r.start() :])[0]
        days = [int(d) for d in _DAYS.findall(clause)]
        told = 7 in days or "seven" in clause  # "dispatched tomorrow, with you in 7 working days"
        if any(d != 7 for d in days) or (_WEEKS.search(clause) and not told):
            return "said a replacement card takes another time than 7 working days (F.24)"
        # Free said in the replacement's clause, before or after its name ("Blocking is free;
        # the replacement costs Rs 200" says no such thing), the fee not named in it.
        said = next(
            (c for c in _CLAUSE.split(sentence) if _REPLACEMENT.search(c)), sentence[r.start() :]
        )
        if (
            (m := _FREE.search(said))
            and "200" not in said
            and not _POLICE.search(sentence)
            and not _negated(said, m.start(), m.end(), after=False)  # "on us - no need to pay"
        ):
            return "said a replacement card is free, no police report named (F.24: Rs 200)"
    if books:
        at = _AT_MATURITY.search(sentence)
        m = _RENEWS.search(sentence)
        if m is not None and at is None and _DONE_NOW.search(sentence, 0, m.start()):
            m = None  # "your old FD has been rolled into a new FD": the rebooking just made
        if (
            m is not None
            and at is None
            and m.group().split()[0].endswith("ed")
            and not _FUTURE.search(sentence, 0, m.start())
            and "auto" not in sentence
        ):
            m = None  # "Amount rebooked as a new 365-day FD", "Closed and rebooked ✅"
        if m is None and at is not None:  # a new deposit named after the maturity
            m = _INTO_NEW.search(sentence, at.start())
        renews = (
            m is not None
            and not _negated(sentence, m.start(), m.end())
            and not _CHOICE.search(sentence)  # "if you'd rather renew it, tell me": no statement
        )
        if instruction == "credit_to_account" and renews:
            return "said the deposit renews at maturity; it was booked to credit the account (K.39)"
        if instruction.startswith("renew") and _PAID_OUT.search(sentence) and not renews:
            return "said the deposit is paid out at maturity; it was booked to renew (K.39)"
    return None


def _negated(sentence: str, start: int, end: int, after: bool = True) -> bool:
    """A negator among the six words before the term in its clause, or after it in its clause
    ("can't be unblocked", "reactivating the old card later isn't possible", "Auto-renewal: No.",
    "without auto-renewal")."""
    clause = re.split(r"[,;(]|\bbut\b|\bso\b", sentence[:start])[-1]
    before = clause.split()[-6:]
    rest = re.split(r"[,;.)]|\bbut\b|\band\b", sentence[end:])[0].split()[:12] if after else []
    if _NEGATOR.search(" ".join(before)) or _NEGATOR.search(" ".join(rest)):
        return True
    return any(c in sentence for c in _CROSS) and bool(  # "Auto-renew: ❌", "❌ Reactivation"
        _CROSSED_BEFORE.search(clause) or (after and _CROSSED_AFTER.match(sentence, end))
    )
