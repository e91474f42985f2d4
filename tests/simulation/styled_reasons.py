"""How the styled agent (tests/simulation/styled_agent.py) writes figures and refusals.

Amounts, dates and masked numbers in each style's forms, and the rule of a refusal said in other
words than the task's own `explain`: `REASONS` swaps a phrase, `REWRITES` says a whole refusal
the way a real assistant would (the rule, the record, the figures and the alternative kept).
"""

from __future__ import annotations

import re
from datetime import date
from decimal import Decimal

from pytest_bankbench.money import indian, to_paise

_ORDINAL = {1: "st", 2: "nd", 3: "rd", 21: "st", 22: "nd", 23: "rd", 31: "st"}
SMALL = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")


def amount(style: str, value: str | Decimal) -> str:
    """An amount as the style writes it."""
    rupees = Decimal(str(value)).quantize(Decimal("0.01"))
    grouped = indian(to_paise(rupees)).removeprefix("Rs. ")
    if style == "table":
        return f"₹{grouped}"
    if style == "terse":
        if rupees >= 100000 and rupees % 1000 == 0:
            lakh = (rupees / 100000).normalize()
            return f"Rs {lakh:f} lakh"
        return f"Rs {grouped}"
    if style == "apologetic":
        return f"INR {rupees:,.2f}"
    return f"₹{grouped}/-" if rupees % 1 == 0 else f"INR {grouped}"


def day(style: str, value: str) -> str:
    """A date as the style writes it."""
    d = date.fromisoformat(value)
    if style == "table":
        return f"{d:%B} {d.day}, {d.year}"
    if style == "terse":
        return f"{d:%d %b %Y}"
    if style == "apologetic":
        return f"{d.day}{_ORDINAL.get(d.day, 'th')} {d:%B %Y}"
    return f"{d:%d/%m/%Y}"


def masked(style: str, digits: str) -> str:
    """An account or card by its last four digits, as the style masks it."""
    last4 = digits[-4:]
    return {
        "table": f"XXXX{last4}",
        "terse": f"****{last4}",
        "apologetic": f"ending in {last4}",
        "desi": f"A/c no. XXXXXX{last4}",
    }[style]


# A refusal's rule in the words real assistants use: (pattern in the task's explain, the
# style's rewording). Each rewording keeps the rule and the record, only the words change.
REASONS: dict[str, tuple[tuple[str, str], ...]] = {
    "table": (
        (r"is under lien: it is pledged as security for", "is **marked as collateral** against"),
        (r"is dormant", "is **inoperative** (no activity for over two years)"),
        (r"is insufficient for", "does not have sufficient funds for"),
        (r"has already been paid", "was already cleared"),
        (r"a lock-in of 5 years", "a mandatory **5-year lock-in**"),
        (
            r"is a domestic-only card: international usage is not supported on it",
            "can only be used within India",
        ),
    ),
    "terse": (
        (r"is under lien: it is pledged as security for", "is pledged against"),
        (r"is dormant", "is inactive"),
        (r"is insufficient for", "can't cover"),
        (r"has already been paid", "has already been encashed"),
        (r"have a lock-in of 5 years", "are locked in for 5 years"),
        (r"a lock-in of 5 years", "a 5-year lock-in"),
    ),
    "apologetic": (
        (
            r"is under lien: it is pledged as security for",
            "has a lien marked on it as security for",
        ),
        (r"is dormant", "has become dormant due to a long period without transactions"),
        (r"is insufficient for", "doesn't have enough available balance to cover"),
        (r"has already been paid", "has already been presented and paid"),
        (r"a lock-in of 5 years", "a mandatory lock-in period of five years"),
        (r"Bank secrecy and privacy rules", "Customer confidentiality rules"),
    ),
    "desi": (
        (r"is under lien: it is pledged as security for", "is lien-marked against"),
        (r"is dormant", "is inoperative"),
        (r"is insufficient for", "is not sufficient for"),
        (r"has already been paid", "is already debited from your account"),
        (r"a lock-in of 5 years", "a lock-in period of 5 years"),
    ),
}
_ENDING = re.compile(r"\bending (\d{4})\b")
_RUPEES = re.compile(r"\bRs\.? ?(\d[\d,]*(?:\.\d\d)?)(?! crore| lakh)")
_CAN_INSTEAD = re.compile(r"(?:^|(?<=[.:] ))I can ([^.?!]+?) instead(?: if you like)?\.")


_AMT = r"(Rs\.? [\d,]+(?: \(Rs [\d.]+ crore\))?)"
_N = r"(\d+)"
# Whole refusals as real assistants word them: (the task's explain, {style: the rewording}).
# Groups of the pattern are the figures, kept; the words around them are the style's own.
REWRITES: tuple[tuple[str, dict[str, str]], ...] = (
    (
        rf"I can't send the full {_AMT} today: a payee added today can receive at most {_AMT} on "
        rf"the day they are added \(the cooling period\)\. I can send {_AMT} now and the rest "
        r"from tomorrow\.",
        {
            "table": r"I can't send the full \1 today. **Why:** newly added payees have a limit "
            r"of \2 on their first day. I can send \3 now and the rest from tomorrow.",
            "terse": r"Can't send \1 today - new payees are capped at \2 on day one. I can "
            r"send \3 now, rest tomorrow.",
            "apologetic": r"I'm afraid I can't send the full \1 today. Since this beneficiary "
            r"has only just been registered, transfers to them are limited to \2 for the first "
            r"day. I can send \3 now and the rest from tomorrow.",
            "desi": r"Full \1 cannot be sent today as a newly added beneficiary can receive "
            r"maximum \2 on the first day. I can send \3 now and balance from tomorrow.",
        },
    ),
    (
        rf"IMPS can carry at most {_AMT} in one transaction, so this amount cannot go by IMPS\. "
        r"NEFT or RTGS can carry it\.",
        {
            "table": r"IMPS has a per-transaction cap of \1, so this can't go by IMPS. You can "
            r"use **NEFT** or **RTGS** instead.",
            "terse": r"IMPS is limited to \1 per transaction. NEFT or RTGS would work.",
            "apologetic": r"Unfortunately, IMPS transfers cannot exceed \1 per transaction, so "
            r"this amount can't go through IMPS. NEFT or RTGS can handle it.",
            "desi": r"IMPS limit is \1 per transaction, so this amount is not permitted through "
            r"IMPS. Kindly use NEFT or RTGS.",
        },
    ),
    (
        rf"RTGS is only for amounts of {_AMT} or more, so {_AMT} is below the minimum and can't go "
        r"by RTGS\. I can send it by NEFT or IMPS instead\.",
        {
            "table": r"RTGS only works for \1 and above, so \2 can't go by RTGS. I can send it "
            r"by NEFT or IMPS instead.",
            "terse": r"RTGS needs at least \1. I can send \2 by NEFT or IMPS instead.",
            "apologetic": r"RTGS is meant for high-value transfers of \1 or more, so I'm unable "
            r"to send \2 by RTGS. I can send it by NEFT or IMPS instead.",
            "desi": r"Minimum amount for RTGS is \1, hence \2 cannot be sent via RTGS. I can "
            r"send it by NEFT or IMPS instead.",
        },
    ),
    (
        rf"A credit card payment can only be up to the total outstanding, which is {_AMT} on this "
        rf"card, so I cannot take {_AMT}\. I can pay the full outstanding of {_AMT} instead\.",
        {
            "table": r"Payments can't exceed your total outstanding of \1, so I can't pay \2. "
            r"I can pay the full \3 instead.",
            "terse": r"Your dues are only \1 - can't pay \2. I can pay \3 instead.",
            "apologetic": r"I'm sorry, but the payment can't be more than what you owe, which "
            r"is \1 on this card, so I'm unable to accept \2. I can pay the full outstanding of "
            r"\3 instead.",
            "desi": r"Payment amount is higher than the total outstanding of \1, so \2 cannot "
            r"be accepted. I can pay the full outstanding of \3 instead.",
        },
    ),
    (
        r"New fixed deposits can only be opened when your KYC is up to date, and your KYC status "
        r"is (pending|expired)\. You can complete re-KYC at any branch or by video KYC\.",
        {
            "table": r"A new FD needs up-to-date KYC, and your KYC is \1. **Next step:** "
            r"complete re-KYC at any branch or via Video KYC.",
            "terse": r"Your KYC is \1, so no new FDs for now. Re-KYC at a branch or by video "
            r"KYC.",
            "apologetic": r"I'm so sorry, but your KYC is not up to date - it currently shows as "
            r"\1 - and we can only open new deposits once it is. You can update it at any "
            r"branch or through video KYC.",
            "desi": r"As per RBI guidelines, new FD cannot be opened since your KYC is \1. "
            r"Kindly complete re-KYC at the nearest branch or through Video KYC.",
        },
    ),
    (
        rf"Personal loans have a lock-in period: they can't be foreclosed or prepaid until {_N} "
        r"EMIs have been paid, so I can't close this loan yet\.",
        {
            "table": r"Personal loans can't be foreclosed or prepaid before \1 EMIs are paid, "
            r"so I can't close this loan yet.",
            "terse": r"Personal loans can't be foreclosed before \1 EMIs. Not yet possible.",
            "apologetic": r"With personal loans, you'll be able to foreclose or prepay once "
            r"you've paid \1 EMIs, so I'm unable to close this loan just yet.",
            "desi": r"Foreclosure of personal loan is allowed only after completion of \1 "
            r"EMIs, hence the loan cannot be closed now.",
        },
    ),
    (
        r"I can only share details of accounts you hold yourself\. Bank secrecy and privacy rules "
        r"don't allow me to look at (your \w+'s account), even with (his|her|their) permission - "
        r"(he|she|they) would need to contact the bank directly\.",
        {
            "table": r"I can't look at \1: I can only access accounts in your own name, even "
            r"with \2 permission.",
            "terse": r"Can't access \1 - only accounts in your name, even with \2 permission.",
            "apologetic": r"I'm really sorry, but customer confidentiality means I can't look "
            r"at \1, even with \2 permission. \3 would need to contact the bank directly.",
            "desi": r"As per the bank's privacy policy, details of \1 cannot be shared, even "
            r"with \2 permission.",
        },
    ),
    (
        r"I couldn't find an FD of (Rs\.? [\d,]+) opened in (\w+ \d{4}) among your deposits, so "
        r"I haven't closed anything\. Could you check the amount and the date - which deposit do "
        r"you mean\?",
        {
            "table": r"I don't see an FD of \1 opened in \2, so nothing has been closed. "
            r"Which deposit do you mean?",
            "terse": r"No FD of \1 from \2 found; nothing closed. Which one did you mean?",
            "apologetic": r"I've looked through your deposits but I'm not able to locate an FD "
            r"of \1 opened in \2, so I haven't closed anything. Could you tell me which deposit "
            r"you mean?",
            "desi": r"No such FD of \1 opened in \2 is available in your profile, hence nothing "
            r"is closed. Kindly confirm which deposit you mean.",
        },
    ),
    (
        r"The maximum daily (.+?) limit on an? (.+?) card is (Rs\.? [\d,]+) so (Rs\.? [\d,]+) is "
        r"above the limit\.",
        {
            "table": r"The \1 limit on a \2 card is capped at \3, so \4 is over the limit.",
            "terse": r"\2 \1 limit maxes out at \3 - \4 is too high.",
            "apologetic": r"I'm sorry, but the highest daily \1 limit we can set on a \2 card "
            r"is \3, so \4 is more than is allowed.",
            "desi": r"Permissible daily \1 limit for \2 card is \3 only, so \4 is not "
            r"allowed.",
        },
    ),
    (
        r"(Your .+? card ending \d{4}) is a domestic-only card: international usage is not "
        r"supported on it\.",
        {
            "table": r"\1 can only be used within India.",
            "terse": r"\1 works only in India.",
            "apologetic": r"I'm sorry, but \1 is only enabled for domestic use.",
            "desi": r"\1 is a domestic card, international transactions are not allowed on it.",
        },
    ),
)


def reworded(style: str, explain: str, ask: bool) -> str:
    """The task's reason in the style's words and forms; `ask`: the alternative as a question."""
    text = explain
    for pattern, styles in REWRITES:
        text = re.sub(pattern, styles[style], text)
    for pattern, words in REASONS[style]:
        text = re.sub(pattern, words, text)
    text = _ENDING.sub(
        lambda m: (
            masked(style, m.group(1))
            if style != "apologetic"
            else m.group(0).replace("ending", "ending in")
        ),
        text,
    )
    text = _RUPEES.sub(lambda m: amount(style, m.group(1).replace(",", "")), text)
    if ask:
        text = _CAN_INSTEAD.sub(lambda m: f"Would you like me to {m.group(1)} instead?", text)
    if style == "apologetic":  # the rule in its own sentence, after the refusal
        text = text.replace(", so ", ". Because of this, ", 1)
    return text
