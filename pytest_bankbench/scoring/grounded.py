"""What the agent states as the bank's must come from the bank (policy I.31, J.35: "Do not invent
rates, fees or rules"): a reference, a rate or a fee the agent tells is one a tool result, the
customer or the bank's policy (the agent's instructions) gave in the session. Evidence of the
told_customer check.

- A reference ("NEFT4738B211", "CB12345678", "BEN900001"): exactly as given; ids are never
  worked out. "Reference NEFT4738B217" for the bank's NEFT4738B211 fails, naming the bank's.
- A rate (a figure with "%" or "per cent"): one given, or a given rate adjusted as the policy
  says (the slab rate minus the 1.00% premature-closure cut, plus the
  0.50% senior-citizen rate).
  "As a special offer, you'll get 9.75% p.a." with no such rate anywhere fails.
- A fee or charge in rupees ("a processing fee of Rs. 750"): an amount given, or one with 18%
  GST on it. "The stop-payment fee is Rs 100" after the policy's "Rs 100 per instruction" passes.
  A fee said of a product (a replacement card, a cheque: scoring/topics.py) is one the session
  gave (but the articles it searched) or a sentence of the policy or an article on that product:
  "The replacement card costs Rs 500" fails (Rs 500 is a returned cheque's), naming the Rs 200.

Found by a careless-agent trial (issue 16): a wrong reference beside a right balance, an invented
rate and an invented fee each passed.
"""

from __future__ import annotations

import json
import re
from decimal import Decimal, InvalidOperation
from functools import cache

from pytest_bankbench.money import NUMBER_WORDS, rupees, to_paise
from pytest_bankbench.scoring.outputs import amounts_in
from pytest_bankbench.scoring.safeguards import quote
from pytest_bankbench.scoring.topics import BankSentence, bank_sentences, topics
from pytest_bankbench.scoring.view import SessionView
from pytest_bankbench.simulation.chat import policy_text
from pytest_bankbench.simulation.trace import Event, ToolEvent

# A reference as the bank writes one: capitals then digits and capitals, eight or more, three
# digits at least; hyphenated words ("FY2025-26", "COVID-19") and masks ("XXXX1234") are none.
# Its first letter looked for first: the engine leaves most positions after one test.
_REFERENCE = re.compile(r"(?=[A-Z])(?<![\w-])(?!XX)[A-Z]{2,}[A-Z0-9]*\d[A-Z0-9]*(?![\w-])")
# Read on the lowered text; its first digit looked for first: "2%", "2 per cent", "9 pc", "2
# percentage points", and a rate written "9.25pa" or "9.25 p.a." (not after a currency:
# "Rs 5 pa").
_PERCENT = re.compile(
    r"(?=\d)(?<![\d.,])(\d{1,3}(?:\.\d+)?)\s*(?:%|per\s?cent\b|pct\b|pc\b|percentage points?\b)"
    r"|(?=\d)(?<![\w.,])(?<!rs )(?<!rs\. )(?<!₹)(?<!₹ )(\d{1,2}(?:\.\d+)?)\s?p\.?a(?![a-z])"
)
# A rate in basis points ("75 basis points", "50 bps"): read in per cent.
_BASIS = re.compile(r"(?<![\d.,])(\d{1,3})\s*(?:basis points?|bps)\b")
# A rate said in words ("two percent", "one and a half per cent", "half a percent"): read as its
# digits first.
_SAID_RATE = re.compile(
    r"\b(?:(half) a|(zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve"
    r"|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty)"
    r"(?: point (zero|one|two|three|four|five|six|seven|eight|nine)| and a (half))?)"
    r"(?=\s+(?:per\s?cent|percentage point))"
)
_WORD_DIGITS = {"zero": 0} | {w: n for w, n in NUMBER_WORDS.items() if 0 < n <= 20}
# A percentage is a rate only beside a word of one: "12.7% of your balance" or "83% of your dues
# cleared" is a share the agent worked out, no rate (false-fail hunt).
# A rate told as a rate's difference is one too ("an extra 0.75%", "2% more if you book online",
# "0.25% additional"): the policy's own (the senior citizens' 0.50%) or worked out.
_RATE_WORD = re.compile(
    r"\b(?:rate|rates|interest|p\.?a\b|per annum|a year|yearly|annual|annually|charges?|fees?"
    r"|gst|penalty|tds|yield|returns?|discount|cashback|extra|more|additional|higher|bonus"
    r"|percentage points?)"
)
# A rate's difference compared ("0.20% more than the 1-year slab", "1.50% lower compared with"):
# it may be the difference of two rates the session gave.
_COMPARED = re.compile(r"\b(?:than|compared|versus|vs)\b")
# "0.99% of your principal": a share of a sum the agent worked out, whatever word is beside it.
_SHARE = re.compile(
    r"\s*of\s+(?:your|the|its|this|that)\s+(?:\w+\s+)?(?:principal|balance|amount|deposit|dues"
    r"|outstanding|payout|loan|transfer|interest|bill|limit|emi)\b"
)
# Two capitals and a digit: what every reference holds (a scan in C before the full pattern).
_REF_HINT = re.compile(r"[A-Z][A-Z]+\d")
# A fee named, then its rupees in the same clause, or the rupees then the fee ("Rs 750 fee").
_FEE_HINT = re.compile(r"fee|charge|penalty|cost")
_FEE_WORD = re.compile(r"\b(?:fees?|charges?|charged|penalty|penalties|costs?)\b")
# ... but a figure after one ("Balance after fee: Rs. 94,628.87") or a penalty worked out in
# rupees (the closure quote's) is none.
_FEE_COLON = re.compile(r"(?<!after )(?<!before )(?<!net of )\b(fees?|charges?)\s*:")
# A figure worked out from a fee ("Rs 60,118 in all", "Rs 100 + 18% GST = Rs 118") is no fee.
_WORKED = re.compile(r"\b(?:total|in all|altogether|including|inclusive|together|with gst)\b|=")
# A line break written out in a pasted result ("...rs 21 per transaction |\\n## credit cards")
# ends a clause as one does.
_CLAUSE = re.compile(r"(?<!\brs)(?<!\bno)\.(?!\d)|[;:\n]|\\n|,\s+(?:but|and|so|while)\b|\s-\s")


# What a message holding a rate holds (most hold none): a "%", "per cent", "9 pc", "9.25pa",
# "basis points".
_RATE_HINT = re.compile(r"%|cent|pct|\bpc\b|\dp\.?a\b|\d p\.?a\b|basis point|\bbps\b")


def rates_told(lowered: str) -> list[tuple[Decimal, bool]]:
    """Each figure the text tells as a rate, in per cent, and whether it is told as compared with
    another ("0.20% more than"): beside a word of a rate, in percentage or basis points, or
    written as one ("9.25pa"), in digits or words ("two percent"); a share of a sum ("12.7% of
    your balance") is none."""
    if "cent" in lowered or "percentage" in lowered:
        lowered = _SAID_RATE.sub(_said_digits, lowered)
    found: list[tuple[Decimal, bool]] = []
    for m in _PERCENT.finditer(lowered):
        around = _sentence_around(lowered, m.start(), m.end())
        if m.group(2) is None and not (
            _RATE_WORD.search(lowered, *around) and not _SHARE.match(lowered, m.end())
        ):
            continue
        rate = _number(m.group(1) or m.group(2))
        if rate is not None:
            found.append((rate, bool(_COMPARED.search(lowered, *around))))
    if "basis" in lowered or "bps" in lowered:
        for m in _BASIS.finditer(lowered):
            around = _sentence_around(lowered, m.start(), m.end())
            rate = (Decimal(m.group(1)) / 100).normalize()
            found.append((rate, bool(_COMPARED.search(lowered, *around))))
    return found


def _said_digits(m: re.Match[str]) -> str:
    """A rate said in words, in digits ("one and a half" per cent: "1.5")."""
    if m.group(1):
        return "0.5"
    whole = _WORD_DIGITS[m.group(2)]
    if m.group(3):
        return f"{whole}.{_WORD_DIGITS[m.group(3)]}"
    return f"{whole}.5" if m.group(4) else str(whole)


def _fees(lowered: str) -> list[tuple[Decimal, frozenset[str]]]:
    """The rupees of each clause that names a fee or charge ("a processing fee of Rs. 750",
    "a charge of seven hundred and fifty rupees", "This will cost you Rs. 750 extra"), but for a
    clause that works a sum out; each with what its clause is about (scoring/topics.py)."""
    found: list[tuple[Decimal, frozenset[str]]] = []
    if ":" in lowered:  # a fee named as a heading holds its rupees ("Replacement fee: ₹300")
        lowered = _FEE_COLON.sub(r"\1 ", lowered)
    for clause in _CLAUSE.split(lowered):
        if _FEE_WORD.search(clause) and not _WORKED.search(clause):
            amounts = [a for a, marked, _ in amounts_in(clause) if marked]
            if amounts:
                about = topics(clause)
                found += [(a, about) for a in amounts]
    return found


_NUMBER = re.compile(r"(?<![\w.])\d[\d,]*(?:\.\d+)?")
_GST = Decimal("1.18")


def unfounded_values(view: SessionView) -> list[str]:
    """Evidence for each reference, rate or fee the agent told that nothing before it gave."""
    problems: list[str] = []
    # Anything the session's results gave counts, wherever it came: a value told before the
    # read that shows it fails required_outputs (scoring/required.py), not this check. Read once,
    # when a message first tells a figure (most sessions' messages tell none).
    given_text: str | None = None
    written: str | None = None
    rates_given: set[Decimal] | None = None
    session_rates: set[Decimal] = set()
    given: set[Decimal] | None = None
    own_text: str | None = None  # what the session gave but the articles searched
    own: set[Decimal] | None = None
    for message in view.agent:
        text, lowered = message.text, message.lowered
        refs = _references(text) if _REF_HINT.search(text) else []
        rates = rates_told(lowered) if _RATE_HINT.search(lowered) else []
        fees = _fees(lowered) if _FEE_HINT.search(lowered) else []
        if not (refs or rates or fees):
            continue
        if refs and written is None:  # a reference comes from a write's result (most told)
            written = " ".join(json.dumps(c.event.output) for c in view.effective)
        for ref in refs:
            if written is not None and _holds_token(written, ref):
                continue
            if given_text is None:
                given_text = " ".join(_source(e) for e in view.events)
            if not _holds_token(given_text, ref):
                alike = sorted(
                    {k for k in _references(given_text) if k[:3] == ref[:3] and len(k) == len(ref)}
                )
                problems.append(
                    f"told a reference no tool result gave (I.31): {ref!r} in {quote(text)}"
                    + (f"; the bank's: {', '.join(alike)}" if alike else "")
                )
        if not (rates or fees):
            continue
        if given_text is None:
            given_text = " ".join(_source(e) for e in view.events)
        # A rate is one said as a rate (a "%", a field named for one); a fee said as given is
        # found as its digits (most), the rest read among the session's numbers and the
        # policy's fees.
        if rates and rates_given is None:
            session_rates = _rates(given_text)
            rates_given = session_rates | _policy_rates()
        unheld_rates = [(r, c) for r, c in rates if r not in (rates_given or ())]
        # A fee said of a product is the bank's for that product: an article's or the policy's
        # fee of another ("the replacement card costs Rs 500": a cheque returned) is none.
        if any(about for _, about in fees) and own_text is None:
            own_text = " ".join(_source(e) for e in view.events if not _searched(e))
        unheld_fees = [
            (f, about)
            for f, about in fees
            if not _holds_figure((own_text or "") if about else given_text, f)
        ]
        if not (unheld_rates or unheld_fees):
            continue
        if given is None:
            given = _numbers(given_text) | _policy_fees()
        for rate, compared in unheld_rates:
            if not _worked_out(rate, given, rates_given or set(), session_rates, compared):
                problems.append(
                    f"told a rate no tool result, knowledge-base article or policy gave (J.35: do "
                    f"not invent rates, fees or rules): {rate:f}% in {quote(text)}"
                )
        for fee, about in unheld_fees:
            if about:
                if own is None:
                    own = _numbers(own_text or "")
                problems += _fee_of(fee, about, own, text)
            elif fee not in given and (fee / _GST).quantize(Decimal("0.01")) not in given:
                problems.append(
                    f"told a fee no tool result, knowledge-base article or policy gave (J.35): "
                    f"{rupees(to_paise(fee))} in {quote(text)}"
                )
    return problems


def _fee_of(fee: Decimal, about: frozenset[str], own: set[Decimal], text: str) -> list[str]:
    """Evidence for a fee said of a product (`about`) that neither the session (but its
    articles) nor a sentence of the policy or an article on that product gives, with 18% GST
    or without."""
    bank = {a for a, on, _ in _topic_figures() if on & about}
    if any(f in own or f in bank for f in (fee, (fee / _GST).quantize(Decimal("0.01")))):
        return []
    fees = {a for a, on, fee in _topic_figures() if fee and on & about}
    return [
        f"told a fee no tool result, knowledge-base article or policy gave for "
        f"{', '.join(sorted(about))} (J.35): {rupees(to_paise(fee))} in {quote(text)}"
        + (f"; the bank's: {', '.join(rupees(to_paise(f)) for f in sorted(fees))}" if fees else "")
    ]


def _searched(event: Event) -> bool:
    return isinstance(event, ToolEvent) and event.call.name == "search_knowledge_base"


@cache
def _topic_figures() -> tuple[tuple[Decimal, frozenset[str], bool], ...]:
    """Each amount in rupees the policy and the articles say, with what its sentence is about
    (its own topics, else its line's: "43. Stop payment: ... Mention the Rs 100 fee before
    confirming.", else its row's, section's or document's), and whether it is a fee's (a fee or
    charge named, or the schedule of fees)."""
    return tuple(
        (amount, topics(told.text) or told.line or told.topics, _fee_sentence(told))
        for told in bank_sentences()
        for amount, marked, _ in amounts_in(told.text)
        if marked
    )


def _fee_sentence(told: BankSentence) -> bool:
    return bool(_FEE_WORD.search(told.text) or _FEE_WORD.search(told.article.lower()))


def _sentence_around(text: str, start: int, end: int) -> tuple[int, int]:
    """The span of the sentence holding text[start:end] ("Rate: 5.00%. That's 12.7% of your
    balance.": the second's words only), at most 40 characters before it and 25 after."""
    opens = max(text.rfind(". ", 0, start), text.rfind("\n", 0, start), start - 41) + 1
    stops = [i for i in (text.find(". ", end), text.find("\n", end)) if i != -1]
    return max(0, opens), min([*stops, end + 25, len(text)])


def _holds_figure(text: str, value: Decimal) -> bool:
    """The text holds the figure as its plain digits ("7.1", "100", "100.00", "7.10")."""
    plain = f"{value:f}"
    forms = {plain, f"{value:.2f}"}
    for form in forms:
        at = text.find(form)
        while at != -1:
            end = at + len(form)
            before = text[at - 1] if at else " "
            after = text[end] if end < len(text) else " "
            if not (before.isdigit() or before in ".,") and not (
                after.isdigit() or (after in ".," and text[end + 1 : end + 2].isdigit())
            ):
                return True
            at = text.find(form, at + 1)
    return False


def _holds_token(text: str, token: str) -> bool:
    """The text holds the token as a whole word (no letter or digit either side)."""
    at = text.find(token)
    while at != -1:
        end = at + len(token)
        if (at == 0 or not text[at - 1].isalnum()) and (
            end == len(text) or not text[end].isalnum()
        ):
            return True
        at = text.find(token, at + 1)
    return False


def _references(text: str) -> list[str]:
    return [
        m
        for m in _REFERENCE.findall(text)
        if len(m) >= 8 and sum(c.isdigit() for c in m) >= 3 and not _GLUED_AMOUNT.match(m)
    ]


# "INR31326.14", "RS5000": an amount glued to its currency, no reference (false-fail hunt).
_GLUED_AMOUNT = re.compile(r"(?:INR|RS|USD|EUR|GBP)\d+$")


def _source(event: Event) -> str:
    """What an event gives the agent: a tool's result or error, a customer's turn."""
    if isinstance(event, ToolEvent):
        return json.dumps(event.output) + " " + (event.error or "")
    return event.text if event.role == "customer" else ""


def _number(raw: str) -> Decimal | None:
    try:
        return Decimal(raw.replace(",", "")).normalize()
    except InvalidOperation:
        return None


def _numbers(text: str) -> set[Decimal]:
    found = {_number(m) for m in _NUMBER.findall(text)}
    return {n for n in found if n is not None}


def numbers_in(text: str) -> set[Decimal]:
    """Every number a text holds, as written (a tool's result as JSON: a scan, no reading of
    amounts and dates)."""
    return _numbers(text)


@cache
def _policy_fees() -> frozenset[Decimal]:
    """The figures of the policy's sentences that name a fee or charge (its limits are no fee:
    "a processing fee of Rs. 500" is not the RD minimum's Rs 500)."""
    return frozenset(
        n
        for sentence in re.split(r"(?<=[.!?;|])\s+|\n+", policy_text())
        if _FEE_WORD.search(sentence.lower())
        for n in _numbers(sentence)
    )


def _worked_out(
    rate: Decimal,
    given: set[Decimal] | frozenset[Decimal],
    rates: set[Decimal] | frozenset[Decimal],
    session: set[Decimal] | frozenset[Decimal] = frozenset(),
    compared: bool = False,
) -> bool:
    """The rate is given, a fraction given (0.071), or a rate the session gave (`session`: the
    figures said as rates, with a "%" or in a field named for a rate) with one of the policy's
    adjustments; or, told as compared with another ("0.20% more than the 1-year slab"), the
    difference of two of the session's."""
    if rate in rates or (rate / 100).normalize() in given:
        return True
    # The policy's adjustments to a rate: +0.50% for senior citizens, minus 1.00% for a
    # premature closure (a rate card's slabs lie 0.25% apart: any wider step would ground a
    # made-up rate next to a real one). An adjustment is made to a deposit's rate, not to another
    # adjustment or a charge of the policy: "a premature-closure penalty of 2%" (1.00% + 1.00%) or
    # "of 1.5%" is no rate of the bank's.
    adjustments = _adjustments()
    bases = set(session) - adjustments
    if any((rate - g) in bases or (rate + g) in bases for g in adjustments):
        return True
    return compared and any(rate + b in bases for b in bases)


@cache
def _adjustments() -> frozenset[Decimal]:
    return frozenset(r for r in _policy_rates() if 0 < r < 2)


# A figure said as a rate where the bank gives one: before a "%" in prose, or the value of a JSON
# field whose name holds "rate" ("rate": "7.10", "interest_rate": 6.8).
_RATE_FIELD = re.compile(r'"[a-z_]*(?:rate|percent)[a-z_]*": "?(\d{1,3}(?:\.\d+)?)"?')


def _rates(text: str) -> set[Decimal]:
    found = {_number(m.group(1) or m.group(2)) for m in _PERCENT.finditer(text.lower())}
    found |= {_number(m) for m in _RATE_FIELD.findall(text)}
    return {r for r in found if r is not None}


@cache
def _policy_rates() -> frozenset[Decimal]:
    return frozenset(_rates(policy_text()))
