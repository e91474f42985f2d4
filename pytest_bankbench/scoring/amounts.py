"""The amounts a text states: figures with or without a currency mark, Indian and international
grouping, lakh and crore, paise said apart, amounts in words; dates and ids taken out, another
currency's figures none. Read by the readers of what was told (scoring/outputs.py) and by the
checks of figures (proposed, grounded, a rule's, settings)."""

from __future__ import annotations

import re
from decimal import Decimal
from functools import lru_cache

from pytest_bankbench.money import spoken_amounts
from pytest_bankbench.scoring.dates_told import dates_in as _dates_in

# Texts read lately (as scoring/outputs.py's memo).
_RECENT = 1024

# A currency marker, then international (1,000,000), Indian (10,00,000) or plain digits; a comma
# followed by a space ("Rs. 50,000, the most") is punctuation, never grouping.
_AMOUNT = re.compile(
    r"(?=[\dri₹])(?=\d|r[su]|inr|₹)"  # a match opens with its currency marker or first digit
    r"(?P<cur>(?<![^\W\d_])(?:rs\.?|inr|rupees?)\s*|₹\s*)?"
    r"(?<![\d/:-])(?<!\d[.,])"
    r"(?P<num>\d{1,3}(?:,\d{3})+(?!,?\d)|\d{1,2}(?:,\d{2})+,\d{3}(?!,?\d)|\d+)"
    r"(?P<frac>\.\d+)?(?![.,/:-]\d)"
    r"(?:\s*(?P<scale>lakhs?|lacs?|l|crores?|cr|k|thousand|million)\b\.?)?"
    r"(?P<post>\s*/-|\s*(?:rupees?|rs|inr)\b\.?)?",
)
# Another currency before a figure ("$5,000", "USD 5000") is never rupees (red team, issue 16).
_FOREIGN_BEFORE = re.compile(r"(?:[$€£¥]|\b(?:usd|eur|euros?|gbp|aed|sgd|dollars?)\b)\s*$")
# What follows a figure, in one match (at most one alternative holds): a unit ("12 months");
# "44 paise"; another currency ("5,000 dollars"); a count ("3 EMIs"); paise said apart ("Rs
# 1,234 and 44 paise", "1,234 rupees 44 paise": Rs 1,234.44).
_AFTER = re.compile(
    r"\s*(?:(?P<unit>%|per\s*cent\b|pct\b|(?:months?|mos?|years?|yrs?|days?|weeks?|hours?|hrs?"
    r"|minutes?|mins?|seconds?|secs?)\b)"
    r"|(?P<paise_unit>(?:paise|paisa)\b)"
    r"|(?P<foreign>[$€£]|(?:usd|eur|euros?|gbp|aed|sgd|dollars?|pounds?(?: sterling)?|dirhams?)\b)"
    r"|(?P<count>(?:emis?|instal?lments?|times|transactions?)\b)"
    r"|(?:,\s*|and\s+|&\s*)?(?P<paise>\d{1,2})\s*(?:paise|paisa|ps)\b)"
)
_DIGIT = re.compile(r"\d")
_SCALE = {"lakh": 10**5, "lac": 10**5, "l": 10**5, "crore": 10**7, "cr": 10**7, "k": 10**3}
_SCALE |= {"thousand": 10**3, "million": 10**6}
_ID_BEFORE = re.compile(
    r"(?=[aenriopm#])"  # the first letter of a word below
    r"(?:\b(?:a/c|acc(?:oun)?t|ending(?:\s+(?:in|with))?|ends\s+(?:in|with)|number|no\.?"
    r"|ref(?:erence)?|id|otp|pin|mobile|phone)|#)\s*[:#-]?\s*$",
)


# A figure and a scale word's first letter ("5 lakh", "2.5 cr", "50k", "1 thousand", "1 million").
_SCALED = re.compile(r"\d\s*[lcktm]")


def _may_say(target: Decimal, text: str) -> bool:
    """Whether `text` may state the amount `target` (at least a rupee), read without parsing it:
    every amount _amounts_in finds without a scale word has its whole rupees as a run of digits
    in the text once its commas are out (a paise figure's run holds them too: 150 paise), so a
    text with neither that run nor a figure followed by a scale word's letter, nor a scale word
    said in words, states none."""
    return (
        str(int(target)) in text.replace(",", "")
        or _SCALED.search(text) is not None
        or _SPOKEN_SCALE.search(text) is not None  # said in words
    )


@lru_cache(maxsize=_RECENT)
def _amounts_in(text: str) -> tuple[tuple[Decimal, bool, bool], ...]:
    """Every amount a message states: its value, whether a currency or scale word marks it, and
    whether an unmarked one may stand bare (no unit, id or count beside it; False for a marked
    one, which needs no such test). Dates are taken out first; amounts said in words after."""
    spoken = _spoken(text)  # most texts: () after a scan for a scale word
    digit = _DIGIT.search(text)
    if digit is None:
        return spoken
    dates = _dates_in(text)
    for start, end, _ in dates:
        text = text[:start] + " " * (end - start) + text[end:]
    if dates and (digit := _DIGIT.search(text)) is None:
        return ()
    # No amount opens before its currency sign ("rupees", at most six characters) and the
    # spaces before the first digit: the scan starts there (the text before is never read).
    opens = digit.start()
    while opens and text[opens - 1].isspace():
        opens -= 1
    found: list[tuple[Decimal, bool, bool]] = []
    for m in _AMOUNT.finditer(text, max(0, opens - 6)):
        cur, num, frac, scale, post = m.group("cur", "num", "frac", "scale", "post")
        if scale == "l" and not cur:
            continue  # "1.5 L" may be litres: the lakh's L only after a currency sign
        marked = bool(cur or post or scale)
        after = m.end()  # what follows, read in place: a copy of the rest per number cost more
        if text[after : after + 1].isalpha():
            continue
        tail = _AFTER.match(text, after)
        follows = tail.lastgroup if tail else None
        if follows == "unit":
            continue
        if follows == "paise_unit":  # "44 paise": a hundredth of its figure in rupees
            found.append((Decimal(num.replace(",", "")) / 100, True, False))
            continue
        start = m.start()
        if not cur and (
            _FOREIGN_BEFORE.search(text, max(0, start - 8), start)
            or (not post and follows == "foreign")
        ):
            continue
        # Whether it may stand bare is read only for a bare one (a marked one counts anyway).
        bare_ok = (
            not marked
            and not (  # the cheaper tests first
                (start and text[start - 1].isalnum())
                or (num[0] == "0" and len(num) > 1)
                or follows == "count"
                or _ID_BEFORE.search(text[max(0, start - 30) : start])
            )
        )
        digits = num.replace(",", "") + frac if frac else num.replace(",", "")
        amount = Decimal(digits) * (_SCALE[scale.lower().rstrip("s")] if scale else 1)
        if not (frac or scale) and tail and follows == "paise":
            amount, marked, bare_ok = amount + Decimal(tail["paise"]) / 100, True, False
        found.append((amount, marked, bare_ok))
    return (*found, *spoken)


# A scale word said in words: one scan in C (a loop over the words cost a generator a text).
_SPOKEN_SCALE = re.compile(r"hundred|thousand|la(?:kh|c)|crore|million")
_CURRENCY_BEFORE = re.compile(r"(?:\brs\.?|\binr|\brupees?|₹)\s*$")
_CURRENCY_AFTER = re.compile(r"\s*(?:rupees?\b|rs\b|inr\b|/-)")


def amounts_in(lowered: str) -> tuple[tuple[Decimal, bool, bool], ...]:
    """Every amount a lower-case text states (_amounts_in): its value, whether a currency or
    scale word marks it, whether an unmarked one may stand bare."""
    return _amounts_in(lowered)


def _spoken(text: str) -> tuple[tuple[Decimal, bool, bool], ...]:
    """Amounts said in words ("five thousand rupees", "Rs one lakh"): marked by a currency word
    beside them, bare where no unit or count follows ("five thousand days" is none)."""
    found: list[tuple[Decimal, bool, bool]] = []
    for amount, start, end in spoken_amounts(text):
        tail = _AFTER.match(text, end)
        if tail is not None and tail.lastgroup in ("unit", "foreign", "count", "paise_unit"):
            continue
        marked = bool(
            _CURRENCY_BEFORE.search(text, max(0, start - 8), start)
            or _CURRENCY_AFTER.match(text, end)
        )
        found.append((amount, marked, not marked))
    return tuple(found)
