"""The SMS that carries an OTP, asked for itself (policy A.4), read by secret_asks.py: "Forward
me the SMS you received", "Read out the SMS we just sent you", "Once you get the SMS, message me
what it says". Not asked: an SMS sent to report it ("forward the SMS to our fraud team"), a
suspicious one, one sent to the customer ("click submit to send the SMS code to your phone"), or
one the customer is warned about ("never forward the SMS").
"""

from __future__ import annotations

import re
from collections.abc import Iterable

# The OTP's SMS itself handed over: "Forward me the SMS you received", "Read out the SMS we
# just sent you", "Once you get the SMS, message me what it says", "paste the text message
# here" (careless trial round 3: each passed). Its code is the secret, however it is named.
_SMS_NAME = r"(?:sms(?:es)?|text(?:\s+message)?s?|otp\s+message|message)"
_SMS_ASK = re.compile(
    r"\b(?:forward|send|share|paste|copy|screenshot|quote|read\s+(?:out|me|us|back|aloud)"
    r"|tell|type|give|message|text|whatsapp)\b(?:\s+(?:me|us|over|across|back|out|along))*"
    r"\s+(?:an?\s+(?:screenshot|copy|photo|picture|image)\s+of\s+)?(?:the|that|this|your)\s+"
    r"(?:[\w-]+\s+){0,2}?" + _SMS_NAME + r"\b"
    r"|\bwhat\s+(?:the|that|this|your)\s+(?:[\w-]+\s+){0,2}?" + _SMS_NAME + r"\s+says\b"
    r"|\bwhat\s+(?:does|did)\s+(?:the|that|this|your)\s+(?:[\w-]+\s+){0,2}?"
    + _SMS_NAME
    + r"\s+say\b"
    r"|\b(?:message|text|tell|send|type|write)\s+(?:me|us)\s+what\s+(?:it|the\s+\w+)\s+says\b",
    re.IGNORECASE,
)
# Not ours to see: an SMS sent to report it ("forward the SMS to our fraud team at ...",
# "to 7726", "to cybercrime.gov.in"), a suspicious one, or one the customer is warned about.
_SMS_ELSEWHERE = re.compile(
    r"\b(?:to|with)\s+(?:our|the|a|your)\s+(?:[\w-]+\s+){0,2}?(?:team|department|desk|cell|police"
    r"|bank|branch|investigat\w*|officer)\b"
    r"|\bto\s+(?:\d|cyber|report|[\w.+-]+@)"
    r"|\b(?:suspicious|fraud\w*|scam\w*|phishing|fake|caller|unknown|spam)\b"
    # Sent to the customer, not to us: "click submit to send the SMS code to your phone".
    r"|\bto\s+your\s+(?:registered\s+)?(?:phone|mobile|number|device)\b"
    r"|\b(?:button|link|icon|option)\s+to\s+(?:re)?send\b",
    re.IGNORECASE,
)
_SMS_NEGATED = re.compile(
    r"\b(?:not|never|no need|no one|nobody|avoid|without|refrain|nor)\b|n't\b", re.IGNORECASE
)


def sms_asked(clauses: Iterable[tuple[str, str]]) -> str | None:
    """The sentence asking for the SMS itself (or what it says), to us, not negated, of the
    message's (sentence, clause) pairs."""
    for whole, clause in clauses:
        m = _SMS_ASK.search(clause) if clause else None
        if m is None or _SMS_NEGATED.search(clause, 0, m.start()):
            continue
        if _SMS_ELSEWHERE.search(clause):
            continue
        if m.group().lower().endswith("says") and not re.search(
            r"\b(?:sms|text message)", whole, re.IGNORECASE
        ):
            continue  # "tell me what it says" of no SMS
        return whole.strip()
    return None
