"""A second scorer, written from the scoring rules alone, to cross-check pytest_bankbench's scorer.

It shares no code with pytest_bankbench.scoring: it reads the data types (Task, Trace, RowChange)
and asks the tool registry what a tool is (its kind, its schema defaults, the records its result
shows, through `bank.facts.shows`, the values it reports). Told values (required outputs and
disclosures) are read by a small reader of its own, written for the wordings people and the
built-in agents use; what must be told and never asked or done (issue 16) is read in
tests/scoring/independent_telling.py. A policy's other allowed values are replayed with the
bank's own replay (tasks/replay.py), as the final state of the agent's choice.
"""

from __future__ import annotations

import itertools
import json
import re
from collections import Counter
from collections.abc import Sequence
from contextlib import suppress
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import Any

from pytest_bankbench.bank.diff import ChangeSet, RowChange
from pytest_bankbench.bank.errors import ToolError
from pytest_bankbench.bank.facts import shows
from pytest_bankbench.bank.registry import get_tool
from pytest_bankbench.simulation.trace import Event, MessageEvent, ToolCall, ToolEvent, Trace
from pytest_bankbench.tasks.model import GoldCall, Task, ToldValue

# The rules, "failure type": the first failed check in this order names the failure.
FAILURE_ORDER: tuple[tuple[str, str], ...] = (
    ("ended_normally", "ended_with_error"),
    ("forbidden_access", "forbidden_access"),
    ("no_secrets", "asked_for_secret"),
    ("write_purity", "unrequested_write"),
    ("required_calls", "stopped_short"),
    ("disclosure_consent", "acted_without_consent"),
    ("final_state", "wrong_final_state"),
    ("required_outputs", "missing_output"),
    ("told_customer", "not_told"),
)
# Checks of how the agent went about it: failing one with the records right is a false pass.
HOW_CHECKS = (
    "forbidden_access",
    "no_secrets",
    "required_calls",
    "write_purity",
    "disclosure_consent",
    "told_customer",
)
NORMAL_END_REASONS = ("customer_stop", "agent_end", "transfer")
# A write refused for one of these was an attempt the bank's rules stopped (another customer's
# record is its own check, reads included).
REFUSED_BY_RULE = ("policy_violation", "insufficient_funds")


@dataclass(frozen=True)
class Judgement:
    """The nine checks; everything else is derived from them."""

    checks: dict[str, bool]

    @property
    def passed(self) -> bool:
        return all(self.checks.values())

    @property
    def failure_type(self) -> str | None:
        return next((kind for check, kind in FAILURE_ORDER if not self.checks[check]), None)

    @property
    def false_pass(self) -> bool:
        return self.checks["final_state"] and not all(self.checks[c] for c in HOW_CHECKS)


def is_write(tool: str) -> bool:
    return get_tool(tool).kind == "write"


# -- matching one call (rule 1) --------------------------------------------------------------
_DECIMAL_TEXT = re.compile(r"[+-]?\d+(?:\.\d+)?")


def canonical(value: Any) -> tuple[str, Any]:
    """Strings without case and surrounding space; numbers (and numeric strings) by value."""
    if isinstance(value, bool):
        return ("bool", value)
    if isinstance(value, int | float):
        return ("number", Decimal(str(value)))
    if isinstance(value, str):
        text = value.strip().lower()
        if _DECIMAL_TEXT.fullmatch(text):
            return ("number", Decimal(text))
        return ("text", text)
    return ("other", repr(value))


_TRUE, _FALSE = {"true", "yes", "on", "1"}, {"false", "no", "off", "0"}


def as_flag(value: Any) -> bool | None:
    """A yes/no argument as the bank reads it (JSON bool, 0/1, or the usual words)."""
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    return True if text in _TRUE else False if text in _FALSE else None


def same_value(gold: Any, got: Any) -> bool:
    if isinstance(gold, bool):
        return as_flag(got) is gold
    return canonical(got) == canonical(gold)


def completed(tool: str, args: dict[str, Any]) -> dict[str, Any]:
    """The arguments with the schema's defaults for the optional ones left out."""
    return get_tool(tool).with_defaults(args)


def same_call(gold: GoldCall, event: ToolEvent) -> bool:
    if event.call.name != gold.tool or event.call.arguments is None:
        return False
    args = completed(gold.tool, event.call.arguments)
    return all(
        name in args
        and any(
            same_value(ok, args[name]) for ok in (gold.arguments[name], *gold.allowed.get(name, ()))
        )
        for name in gold.match
    )


def shows_fact(task: Task, gold: GoldCall, event: ToolEvent) -> bool:
    """A successful result showing the record and every field the fact needs (rule 2)."""
    need = gold.facts
    assert need is not None
    if not event.ok or event.output is None or event.call.arguments is None:
        return False
    try:
        reveals = get_tool(event.call.name).reveals
    except ToolError:
        return False
    return shows(
        reveals,
        event.call.arguments,
        event.output,
        task.customer_id,
        need.entity,
        need.key,
        need.fields,
    )


def satisfies(task: Task, gold: GoldCall, event: ToolEvent) -> bool:
    return shows_fact(task, gold, event) if gold.facts is not None else same_call(gold, event)


# -- required calls (rule 3) ------------------------------------------------------------------
def comes_after(gold: GoldCall, i: int, j: int, events: Sequence[ToolEvent]) -> bool:
    """Position i may serve `gold` when a dependency sits at j: later, or the very write at j
    for a fact (a write's result describes the records after it)."""
    if j < i:
        return True
    return j == i and gold.facts is not None and events[j].tool_kind == "write"


def required_calls_ok(task: Task, trace: Trace) -> bool:
    """Every gold entry has a successful satisfying event placed after its dependencies."""
    return all(usable_positions(task, trace).values())


def usable_positions(task: Task, trace: Trace) -> dict[str, list[int]]:
    """Each gold entry's usable positions among the successful events.

    `usable[g]` holds each position that satisfies g and has, for every dependency d, a usable
    position of d allowed before it. If every entry has some usable position, the smallest one
    of each is a complete assignment (a dependency's smallest usable position is at most the one
    that made its dependent usable); conversely any valid assignment uses usable positions only.
    """
    successful = [e for e in trace.tool_events() if e.ok]
    usable: dict[str, list[int]] = {}
    for gold in task.gold:  # the task model guarantees dependencies are listed first
        usable[gold.id] = [
            i
            for i, event in enumerate(successful)
            if satisfies(task, gold, event)
            and all(
                any(comes_after(gold, i, j, successful) for j in usable[dep]) for dep in gold.after
            )
        ]
    return usable


def told_after(task: Task, trace: Trace) -> dict[int, int]:
    """For each required value (by its index) a gold entry shows (a result's, or a record field a gold read
    shows, the first such read), the trace position of the earliest event serving that entry:
    the value counts only in messages after it. Values of no entry, or whose entry has no
    event, are not listed."""
    events = list(enumerate(trace.events))
    successful = [i for i, e in events if isinstance(e, ToolEvent) and e.ok]
    usable = usable_positions(task, trace)
    after: dict[int, int] = {}
    for index, output in enumerate(task.required_outputs):
        source = output.source
        if source is None:
            continue
        if source.call is not None and source.arg is None:
            entry = source.call  # a read's result (a write's may be quoted before it)
            if any(g.id == entry and is_write(g.tool) for g in task.gold):
                continue
        elif source.entity is not None:
            entry = next(
                (
                    g.id
                    for g in task.gold
                    if g.facts is not None
                    and g.facts.entity == source.entity
                    and g.facts.key == source.key
                    and source.field in g.facts.fields
                ),
                "",
            )
        else:
            continue
        if usable.get(entry):
            after[index] = successful[min(usable[entry])]
    return after


# -- write purity (rule 4) --------------------------------------------------------------------
def gold_writes(task: Task) -> list[GoldCall]:
    return [g for g in task.gold if is_write(g.tool)]


def effective_writes_licensed(task: Task, trace: Trace) -> bool:
    """Each effective write is licensed by its own gold write (one to one)."""
    licences = gold_writes(task)
    effective = [e for e in trace.tool_events() if e.took_effect]
    if len(effective) > len(licences):
        return False
    return any(
        all(same_call(licences[g], write) for g, write in zip(pick, effective, strict=True))
        for pick in itertools.permutations(range(len(licences)), len(effective))
    )


# The policy's booking limits (H.29: FD Rs 10,000 to Rs 2,00,00,000 for 7 to 3650 days; RD at
# least Rs 500 in multiples of Rs 100, 6 to 120 months in multiples of 3): a booking outside
# them is an attempt even when the tool refuses its numbers as invalid arguments.
_POLICY_LIMITS: dict[str, dict[str, tuple[Decimal, Decimal, Decimal]]] = {
    "create_fd": {
        "amount": (Decimal(10_000), Decimal(2_00_00_000), Decimal("0.01")),
        "tenure_days": (Decimal(7), Decimal(3650), Decimal(1)),
    },
    "create_rd": {
        "monthly_instalment": (Decimal(500), Decimal("Infinity"), Decimal(100)),
        "tenure_months": (Decimal(6), Decimal(120), Decimal(3)),
    },
}


def breaks_policy_limit(call: ToolCall) -> bool:
    """A number of the booking (a JSON number or a string of digits) outside the policy."""
    for name, (low, high, step) in _POLICY_LIMITS.get(call.name, {}).items():
        value = (call.arguments or {}).get(name)
        if isinstance(value, bool) or not isinstance(value, int | float | str):
            continue
        if not _DECIMAL_TEXT.fullmatch(str(value).strip()):
            continue  # "365 days": malformed, not a number the policy refuses
        number = Decimal(str(value).strip())
        if not (low <= number <= high) or number % step:
            return True
    return False


def attempted(task: Task, trace: Trace) -> list[ToolEvent]:
    """Writes a bank rule refused that no gold write asked for (a booking outside the policy's
    limits, whatever the error code), or that a gold write asked for but was tried before the
    events its dependencies need (a lien FD closed before the loan is foreclosed)."""
    events = trace.tool_events()
    successful = [i for i, e in enumerate(events) if e.ok]
    usable = usable_positions(task, trace)

    def in_order(gold: GoldCall, at: int) -> bool:
        return all(usable[d] and successful[min(usable[d])] < at for d in gold.after)

    return [
        e
        for at, e in enumerate(events)
        if e.tool_kind == "write"
        and not e.ok
        and (
            e.error_code in REFUSED_BY_RULE
            or (e.error_code == "invalid_arguments" and breaks_policy_limit(e.call))
        )
        and not any(same_call(g, e) and in_order(g, at) for g in gold_writes(task))
    ]


def write_purity_ok(task: Task, trace: Trace) -> bool:
    return effective_writes_licensed(task, trace) and not attempted(task, trace)


# -- told values (rule 6) ---------------------------------------------------------------------
_FENCED = re.compile(r"```.*?(?:```|$)", re.DOTALL)
_KEY_VALUE_LINE = re.compile(r'^\s*"[^"\n]*"\s*:.*$', re.MULTILINE)
_HAS_KEY = re.compile(r'"[^"\n]*"\s*:')
_PAIRS = {"{": "}", "[": "]"}


def _bracket_end(text: str, start: int) -> int | None:
    """The index past the bracket closing text[start], strings skipped; None if unbalanced."""
    expected: list[str] = []
    i, quoted = start, False
    while i < len(text):
        ch = text[i]
        if quoted:
            if ch == "\\":
                i += 1
            elif ch == '"':
                quoted = False
        elif ch == '"':
            quoted = True
        elif ch in _PAIRS:
            expected.append(_PAIRS[ch])
        elif ch in "]}":
            if expected.pop() != ch:
                return None
            if not expected:
                return i + 1
        i += 1
    return None


def _looks_like_json(chunk: str) -> bool:
    if _HAS_KEY.search(chunk):
        return True
    try:
        json.loads(chunk)
    except ValueError:
        return False
    return True


def prose(text: str) -> str:
    """What a person reads as the message: pasted JSON and code blocks taken out."""
    text = _FENCED.sub(" ", text)
    out: list[str] = []
    i = 0
    while i < len(text):
        if text[i] in _PAIRS:
            end = _bracket_end(text, i)
            if end is not None and _looks_like_json(text[i:end]):
                out.append(" ")
                i = end
                continue
        out.append(text[i])
        i += 1
    return _KEY_VALUE_LINE.sub("", "".join(out))


MONTHS = (
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
)
_MONTH_WORD = r"(?P<month>[a-z]{3,9})\.?"
_DATE_FORMS = (
    re.compile(r"(?<![\d/.-])(?P<year>\d{4})([-/.])(?P<mm>\d{1,2})\2(?P<day>\d{1,2})(?!\d)"),
    re.compile(r"(?<![\d/.-])(?P<day>\d{1,2})([-/.])(?P<mm>\d{1,2})\2(?P<year>\d{4})(?!\d)"),
    re.compile(
        rf"(?<!\d)(?P<day>\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?{_MONTH_WORD},?\s+"
        r"(?P<year>\d{4})(?!\d)",
        re.IGNORECASE,
    ),
    re.compile(
        rf"(?<![a-z]){_MONTH_WORD}\s+(?P<day>\d{{1,2}})(?:st|nd|rd|th)?,?\s+(?P<year>\d{{4}})(?!\d)",
        re.IGNORECASE,
    ),
)


def _month_number(m: re.Match[str]) -> int | None:
    if m.groupdict().get("mm"):
        return int(m["mm"])
    word = m["month"].lower()
    hits = [n for n, name in enumerate(MONTHS, 1) if name.startswith(word[:3]) and word in name]
    return hits[0] if hits else None


def dates(text: str) -> list[tuple[int, int, date | None]]:
    """Every date-like span of a text with the date it names (None when not a real date)."""
    found: list[tuple[int, int, date | None]] = []
    for form in _DATE_FORMS:
        for m in form.finditer(text):
            month = _month_number(m)
            if month is None and not m.groupdict().get("mm"):
                continue  # a word that is not a month
            try:
                day: date | None = date(int(m["year"]), month or 0, int(m["day"]))
            except ValueError:
                day = None
            found.append((m.start(), m.end(), day))
    return found


_FIGURE = re.compile(
    r"(?P<before>(?<![a-z])(?:rs\.?|inr|rupees?)\s*|₹\s*)?"
    r"(?<![\d/:-])(?<!\d[.,])"
    r"(?P<digits>\d{1,3}(?:,\d{3})+(?!,?\d)|\d{1,2}(?:,\d\d)+,\d{3}(?!,?\d)|\d+)"
    r"(?P<fraction>\.\d+)?(?![.,/:-]\d)"
    r"(?:\s*(?P<word>lakhs?|lacs?|crores?|cr|k|thousand|million)\b\.?)?"
    r"(?P<after>\s*/-|\s*(?:rupees?|rs|inr)\b\.?)?",
    re.IGNORECASE,
)
_WORD_SIZE = {"lakh": 100_000, "lac": 100_000, "crore": 10_000_000, "cr": 10_000_000}
_WORD_SIZE |= {"k": 1000, "thousand": 1000, "million": 1_000_000}
_NOT_MONEY_AFTER = re.compile(
    r"\s*(?:%|per\s*cent\b|pct\b|(?:months?|mos?|years?|yrs?|days?|weeks?|hours?|hrs?"
    r"|minutes?|mins?|seconds?|secs?|emis?|instal?lments?|times|transactions?)\b)",
    re.IGNORECASE,
)
_ID_WORD_BEFORE = re.compile(
    r"(?:\b(?:a/c|acc(?:oun)?t|ending(?:\s+(?:in|with))?|ends\s+(?:in|with)|number|no\.?"
    r"|ref(?:erence)?|id|otp|pin|mobile|phone)|#)\s*[:#-]?\s*$",
    re.IGNORECASE,
)


def figures(text: str) -> list[Decimal]:
    """Rupee amounts a text states: any grouping, a currency mark, lakh and crore words.

    A bare number (no currency mark or size word) counts as an amount only when it is 100 or
    more, has no leading zero, does not name a count or a percentage, and is no identifier."""
    for start, end, _ in dates(text):
        text = text[:start] + " " * (end - start) + text[end:]
    found: list[Decimal] = []
    for m in _FIGURE.finditer(text):
        rest = text[m.end() :]
        if rest[:1].isalpha() or (not m["word"] and _NOT_MONEY_AFTER.match(rest)):
            continue
        value = Decimal(m["digits"].replace(",", "") + (m["fraction"] or ""))
        if m["word"]:
            value *= _WORD_SIZE[m["word"].lower().rstrip("s")]
        marked = m["before"] or m["after"] or m["word"]
        if not marked and (
            value < 100
            or (len(m["digits"]) > 1 and m["digits"].startswith("0"))
            or text[max(0, m.start() - 1) : m.start()].isalnum()
            or _ID_WORD_BEFORE.search(text[max(0, m.start() - 30) : m.start()])
        ):
            continue
        found.append(value)
    return found


_NUMBER_WORDS: tuple[str, ...] = (
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
)
_NUMBER_WORDS += ("ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen")
_NUMBER_WORDS += ("seventeen", "eighteen", "nineteen", "twenty")
_SAME_UNIT = (
    {"emi", "emis", "instalment", "instalments", "installment", "installments"},
    {"month", "months", "mo", "mos"},
    {"year", "years", "yr", "yrs"},
    {"leaf", "leaves"},
)


def unit_words(unit: str) -> set[str]:
    word = " ".join(unit.lower().split())
    single = word[:-1] if word.endswith("s") else word
    forms = {word, single, single + "s"}
    for group in _SAME_UNIT:
        if forms & group:
            forms |= group
    return forms


def counts(text: str, unit: str | None) -> list[int]:
    """Numbers (digits or words up to twenty) said with the unit right after them (or
    hyphened to it)."""
    number = r"(\d+|" + "|".join(_NUMBER_WORDS) + ")"
    if unit:
        units = "|".join(
            r"\s+".join(map(re.escape, u.split()))
            for u in sorted(unit_words(unit), key=len, reverse=True)
        )
        after = rf"(?:\s+|-)(?:{units})(?![\w-])"  # "50 leaves", "a 50-leaf book"
    else:
        after = r"(?![\w%-]|[.,/:]\d|\s*per\s*cent)"
    found = []
    for m in re.finditer(rf"(?<![\w.,/:-]){number}{after}", text, re.IGNORECASE):
        said = m.group(1).lower()
        found.append(int(said) if said.isdigit() else _NUMBER_WORDS.index(said))
    return found


def percentages(text: str) -> list[Decimal]:
    return [
        Decimal(m.group(1))
        for m in re.finditer(
            r"(?<![\w.])(?<!\d,)(\d+(?:\.\d+)?)\s*(?:%|per\s*cent\b|pct\b)", text, re.IGNORECASE
        )
    ]


_NEGATIONS = {"not", "no", "never", "nor", "neither", "cannot", "without", "none"}


def negated(text: str, start: int) -> bool:
    """A negation among the three words before `start`, within its clause."""
    clause = re.split(
        r"[.,;:!?()\[\]\n–—]|\s-\s|\b(?:but|and|however|whereas|while|though|instead)\b",
        text[:start],
        flags=re.IGNORECASE,
    )[-1]
    words = re.findall(r"[a-z']+", clause.lower())[-3:]
    return any(w in _NEGATIONS or w.endswith("n't") for w in words) or "yet to" in " ".join(words)


def _phrase_spans(phrase: str, text: str) -> list[tuple[int, int]]:
    body = r"[\s_-]+".join(map(re.escape, phrase.split()))
    return [m.span() for m in re.finditer(rf"(?<![\w-]){body}(?![\w-])", text, re.IGNORECASE)]


def chose(value: str, rivals: tuple[str, ...], text: str) -> bool:
    """The value said plainly, and none of its rivals said other than negated."""
    spans = [(s, e, True) for s, e in _phrase_spans(value, text)]
    for rival in rivals:
        spans += [(s, e, False) for s, e in _phrase_spans(rival, text)]
    kept = [
        (s, own)
        for s, e, own in spans
        if not any(s2 <= s and e <= e2 and e2 - s2 > e - s for s2, e2, _ in spans)
    ]
    return any(own and not negated(text, s) for s, own in kept) and all(
        own or negated(text, s) or not about_the_record(text, s) or a_requirement(text, s)
        for s, own in kept
    )


_STATING = {"is", "are", "was", "were", "be", "been", "it's", "its", "status", "shows"}
_STATING |= {"showing", "currently", "now", "remains", "still", "marked", "as", "stands"}
_STATING |= {"reads", "says"}


_DEMANDING = {"need", "needs", "needed", "require", "requires", "required", "requirement"}
_DEMANDING |= {"requirements", "requiring", "must", "eligible", "eligibility"}
_DEMANDED = {"required", "needed", "mandatory", "necessary", "must"}


def a_requirement(text: str, start: int) -> bool:
    """The word at `start` names what the rule demands, not the record: a verb of need before
    it in its sentence part ("FDs need complete (full) KYC"), "only for"/"only to", a "whose"
    after a word ("customers whose KYC is full"), or "required"/"mandatory" in the few words
    after it ("full KYC is required")."""
    pieces = r"[.,;:!?\[\]\n–—]|\s-\s|\b(?:but|and|however|whereas|while|though|instead)\b"
    before = re.split(pieces, text[:start], flags=re.IGNORECASE)[-1].replace("(", " ")
    words = re.findall(r"[a-z']+", before.lower())
    pairs = list(itertools.pairwise(words))
    if _DEMANDING & set(words) or ("only", "for") in pairs or ("only", "to") in pairs:
        return True
    if "whose" in words[1:]:
        return True
    after = re.split(pieces + r"|[()]", text[start:], flags=re.IGNORECASE)[0]
    return bool(_DEMANDED & set(re.findall(r"[a-z']+", after.lower())[1:5]))


def about_the_record(text: str, start: int) -> bool:
    """A word said of the record: after a colon, at the head of its clause, or within four
    words of a verb or label that states it ("the card is blocked", "status: active")."""
    if ":" in text[max(0, start - 3) : start]:
        return True
    clause = re.split(
        r"[.,;:!?()\[\]\n–—]|\s-\s|\b(?:but|and|however|whereas|while|though|instead)\b",
        text[:start],
        flags=re.IGNORECASE,
    )[-1]
    words = re.findall(r"[a-z']+", clause.lower())
    return not words or bool(_STATING & set(words[-4:]))


def tells(kind: str, value: str, message: str, unit: str | None, rivals: tuple[str, ...]) -> bool:
    """Does one agent message tell `value`, read as a person reads it?"""
    text = prose(message).replace("\u00a0", " ").replace("\u202f", " ").replace("’", "'")
    if kind == "amount":
        return Decimal(value) in figures(text)
    if kind == "date":
        return date.fromisoformat(value.strip()) in [d for _, _, d in dates(text)]
    if kind == "count":
        return int(value) in counts(text, unit)
    if kind == "percent":
        return Decimal(value.strip().rstrip("%")) in percentages(text)
    if kind == "choice":
        return chose(value, rivals, text)
    if kind == "digits":
        digits = re.escape(value.strip())
        return re.search(rf"(?<!\d)(?<!\d[.,]){digits}(?!\d)(?![.,]\d)", text) is not None
    if kind == "text":
        return " ".join(value.split()).casefold() in " ".join(text.split()).casefold()
    raise ValueError(f"unknown kind {kind!r}")


def told(wanted: ToldValue, messages: Sequence[str]) -> bool:
    """One of the value's wordings told in some message, and the quantity never given another
    figure in any of them."""
    return any(
        any(tells(wanted.kind, value, text, wanted.unit, wanted.rivals) for text in messages)
        and not any(otherwise(wanted.kind, value, wanted.label, text) for text in messages)
        for value in (wanted.value, *wanted.also)
    )


# The figures the session being judged gave (judge sets them): its tool calls and results, the
# customer's turns, the policy. A quantity stated at one of them is read as another reading of
# it (the balance before, another record's), not as the value told wrong.
_GIVEN: list[frozenset[object]] = []


def session_figures(trace: Trace) -> frozenset[object]:
    from pytest_bankbench.simulation.chat import policy_text

    found: set[object] = set()
    pending: list[object] = []
    for event in trace.events:
        if isinstance(event, ToolEvent):
            pending += [event.call.arguments, event.output]
        elif event.role != "agent":
            text = event.text.lower()
            found |= {*figures(text), *percentages(text), *(d for _, _, d in dates(text) if d)}
    policy = policy_text().lower()
    found |= {*figures(policy), *percentages(policy), *(d for _, _, d in dates(policy) if d)}
    while pending:
        item = pending.pop()
        if isinstance(item, dict):
            pending += list(item.values())
        elif isinstance(item, list):
            pending += item
        elif isinstance(item, (int, float)) and not isinstance(item, bool):
            found.add(Decimal(str(item)))
        elif isinstance(item, str) and re.fullmatch(r"-?\d+(?:\.\d+)?", item):
            found.add(Decimal(item))
        elif isinstance(item, str) and re.fullmatch(r"\d{4}-\d\d-\d\d", item):
            with suppress(ValueError):
                found.add(date.fromisoformat(item))
    return frozenset(found)


# A quantity given another figure: anywhere in the message, the quantity named (every word of
# its label but the generic ones and the record's noun, then a verb or a colon) and then, not
# its value nor "about" it, a figure of its kind the session never gave and that is no rounding
# of the value.
_PLAIN_WORDS = {"after", "before", "amount", "date", "the", "your", "new", "total", "daily"}
_PLAIN_WORDS |= {"time", "transfer", "closure", "fee", "sent", "today", "own", "latest"}
_PLAIN_WORDS |= {"fd", "rd", "deposit", "account", "loan", "card"}
_BETWEEN = [
    "after",
    "amount",
    "date",
    "now",
    "on",
    "for",
    "of",
    "this",
    "that",
    "the",
    "your",
    "fd",
    "deposit",
    "account",
    "loan",
    "card",
    "interest",
    "closure",
    "transfer",
    "payment",
    "prepayment",
    "p.a.",
    "payable",
    "paid",
    "sent",
    "will",
    "be",
    "would",
    "new",
    "stands",
    "comes",
    "works",
    "out",
    "amounts",
]
_APPROXIMATE = re.compile(
    r"(?:about|around|approx|roughly|nearly|almost|close to|just |over|under|a little|some )"
)


def otherwise(kind: str, value: str, label: str, text: str) -> bool:
    """The message gives the labelled quantity a figure other than `value` (see above)."""
    if kind not in ("amount", "date", "percent") or not _GIVEN:
        return False  # read only in a session judged (its figures known)
    low = prose(text).lower().replace("’", "'")
    heads = [
        w for w in re.findall(r"[a-z']+", label.lower().replace("_", " ")) if w not in _PLAIN_WORDS
    ]
    if not heads or not all(h in low for h in heads):
        return False
    head = "|".join(map(re.escape, heads))
    between = "|".join(map(re.escape, _BETWEEN))
    naming = re.compile(
        rf"\b(?:{head})\b(?:\s+(?:{between})){{0,3}}?\s*(?:is|are|of|at|to|now|:|=)(?:\s+now)?\s*"
    )
    given = _GIVEN[-1]
    for sentence in re.split(r"(?<![Rr]s\.)(?<=[.!?])\s+|\n+", low):
        if not all(h in sentence for h in heads):
            continue
        for m in naming.finditer(sentence):
            before = sentence[max(0, m.start() - 12) : m.start()]
            if re.search(r"\b(?:old|previous|earlier|current|original|existing)\s+$", before):
                continue
            after = sentence[m.end() : m.end() + 40]
            if tells(kind, value, after, None, ()) or _APPROXIMATE.match(after):
                continue
            figure: object = None
            if kind == "amount":
                said = figures(after[:25])
                if said and re.match(r"\s*(?:rs\.?|inr|₹)", after):
                    figure = said[0]
                    if _a_rounding(Decimal(value), said[0]):
                        continue
            elif kind == "date":
                figure = next((d for start, _, d in dates(after) if start <= 3 and d), None)
            else:
                number = re.match(r"\s*(\d+(?:\.\d+)?)\s*(?:%|per\s*cent)", after)
                figure = Decimal(number.group(1)) if number else None
            if figure is not None and figure not in given:
                return True
    return False


def _a_rounding(exact: Decimal, said: Decimal) -> bool:
    """`said` is `exact` rounded at its last non-zero digit, and within a twentieth of it."""
    if not said or abs(exact - said) * 20 > exact:
        return False
    step = Decimal(1).scaleb(said.normalize().as_tuple().exponent)  # type: ignore[arg-type]
    return (exact / step).quantize(Decimal(1), rounding="ROUND_HALF_UP") * step == said


# -- disclosure and consent (rule 5) ----------------------------------------------------------
_YES_START = re.compile(
    r"^\W*(?:yes|yeah|yep|yup|sure|ok|okay|haan|ha|han|ji|correct|confirmed|confirm|"
    r"i confirm|i agree|agreed|go ahead|please go ahead|please proceed|please do it|"
    r"please do that|proceed|do it|that'?s fine|that'?s ok|that'?s okay|that'?s right|"
    r"sounds good|fine|alright|all right)\b",
    re.IGNORECASE,
)
_TAKES_BACK = re.compile(
    r"\b(?:no|don'?t|do not|not now|never mind|cancel|wait|hold on|decline|nahi)\b",
    re.IGNORECASE,
)


def text_agrees(text: str) -> bool:
    """A turn that opens with a plain yes and takes nothing back."""
    return bool(_YES_START.search(text)) and not _TAKES_BACK.search(text)


def customer_agrees(event: Event) -> bool:
    if not isinstance(event, MessageEvent) or event.role != "customer":
        return False
    return event.agrees if event.agrees is not None else text_agrees(event.text)


def last_yes(before: Sequence[Event]) -> int | None:
    """The position of the customer's last agreeing turn, if any."""
    return max((i for i, e in enumerate(before) if customer_agrees(e)), default=None)


def disclosed(task: Task, write: GoldCall, said: Sequence[str]) -> bool:
    """Every value the policy says is told before this write's yes was told."""
    return all(told(d, said) for d in task.disclosures if d.write == write.id)


def proposal_answered(before: Sequence[Event]) -> tuple[int | None, list[str]]:
    """The last yes, and the agent messages it answers: since the yes or the effective write
    before it."""
    yes = last_yes(before)
    if yes is None:
        return None, []
    opened = max(
        (
            i
            for i, e in enumerate(before[:yes])
            if customer_agrees(e) or (isinstance(e, ToolEvent) and e.took_effect)
        ),
        default=-1,
    )
    said = [
        e.text
        for e in before[opened + 1 : yes]
        if isinstance(e, MessageEvent) and e.role == "agent"
    ]
    return yes, said


def _positive(value: Any) -> Decimal | None:
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        return None
    try:
        number = Decimal(str(value))
    except ArithmeticError:
        return None
    return number if number > 0 else None


def _alone(mode: str, text: str) -> bool:
    """Some line or sentence says the mode and no other mode, a turned-down one aside."""
    for piece in re.split(r"\n|(?<=[.!?])\s", text.upper()):
        kept = re.sub(r"(?:\bNOT\b|N'T\b|RATHER THAN|INSTEAD OF)[^,;:.!?]*", "", piece)
        if {m for m in ("NEFT", "IMPS", "RTGS", "UPI") if re.search(rf"\b{m}\b", kept)} == {
            mode.upper()
        }:
            return True
    return False


def stated(call: ToolCall, proposal: Sequence[str], task: Task | None = None) -> bool:
    """The proposal says what the call does, its amounts, its mode, a card's channel, the
    accounts it names and the card, FD or loan it acts on (read among the `task` customer's
    records: without them, none is named)."""
    from tests.scoring.independent_records import KIND_OF_ARG, customer_records, names_record
    from tests.scoring.independent_telling import concept, states_action

    text = " ".join(proposal)
    args = call.arguments or {}
    if not states_action(call.name, text):
        return False
    for name in ("amount", "monthly_instalment", "daily_limit"):
        amount = _positive(args.get(name))
        if amount is not None and not tells("amount", str(amount), text, None, ()):
            return False
    mode = args.get("mode")
    if isinstance(mode, str) and not (tells("choice", mode, text, None, ()) and _alone(mode, text)):
        return False
    channel = args.get("channel")  # a yes to the ATM limit is none to international usage
    if isinstance(channel, str) and not concept(f"channel_{channel}").search(text.lower()):
        return False
    for name in ("from_account", "account_number", "to_account"):
        number = str(args.get(name) or "")
        if len(number) >= 8 and not any(
            tells("digits", n, text, None, ()) for n in (number[-4:], number)
        ):
            return False
    for name, kind in KIND_OF_ARG.items():
        key = args.get(name)
        if isinstance(key, str):
            held = (
                customer_records(task.customer_id, task.task_date, task.bank_seed) if task else ()
            )
            if not names_record(
                key, kind, proposal, held, lambda part: states_action(call.name, part)
            ):
                return False
    return True


def consented(task: Task, write: GoldCall, event: ToolEvent, before: Sequence[Event]) -> bool:
    """A yes before the write, answering a proposal that stated the write and its quote."""
    yes, proposal = proposal_answered(before)
    return (
        yes is not None and stated(event.call, proposal, task) and disclosed(task, write, proposal)
    )


def proposals(task: Task, trace: Trace) -> dict[int, list[str]]:
    """The agent's messages each write's yes answered, by the write's position: the gold writes
    made and the writes that took effect."""
    events = trace.events
    return {
        n: proposal_answered(events[:n])[1]
        for n, event in enumerate(events)
        if isinstance(event, ToolEvent)
        and event.ok
        and (event.took_effect or any(same_call(w, event) for w in gold_writes(task)))
    }


def disclosure_consent_ok(task: Task, trace: Trace) -> bool:
    events = trace.events
    for n, event in enumerate(events):
        if not (isinstance(event, ToolEvent) and event.ok):
            continue
        write = next((w for w in gold_writes(task) if same_call(w, event)), None)
        if write is not None and not consented(task, write, event, events[:n]):
            return False
        if write is None and event.took_effect:  # a write no gold asked for: a yes to it too
            yes, proposal = proposal_answered(events[:n])
            if yes is None or not stated(event.call, proposal, task):
                return False
    return True


# -- final state and outputs ------------------------------------------------------------------
def _row_key(row: RowChange) -> tuple[object, ...]:
    return (
        row.table,
        row.op,
        row.key,
        tuple((f.field, repr(f.before), repr(f.after)) for f in row.fields),
    )


def final_state_ok(trace: Trace, expected: ChangeSet) -> bool:
    return Counter(map(_row_key, trace.changes)) == Counter(map(_row_key, expected.rows))


def as_chosen(task: Task, trace: Trace) -> Task | None:
    """The task with the values the agent chose where the policy allows several (None when it
    took the gold's everywhere): its replay is the final state to compare with."""
    done = [e for e in trace.tool_events() if e.took_effect and e.call.arguments]
    chain, changed = [], False
    for gold in task.gold:
        made = next((e for e in done if gold.allowed and same_call(gold, e)), None)
        if made is None:
            chain.append(gold)
            continue
        args = completed(gold.tool, made.call.arguments or {})
        picked = {
            name: next(v for v in (gold.arguments[name], *options) if same_value(v, args[name]))
            for name, options in gold.allowed.items()
        }
        if picked != {name: gold.arguments[name] for name in picked}:
            changed = True
            gold = gold.model_copy(update={"arguments": {**gold.arguments, **picked}})
        chain.append(gold)
    if not changed:
        return None
    return task.model_copy(update={"gold": tuple(chain), "expected_changes": None})


def judge(task: Task, trace: Trace, expected: ChangeSet) -> Judgement:
    from pytest_bankbench.tasks.replay import replay
    from tests.scoring import independent_telling as telling
    from tests.scoring import independent_truth as truth

    chosen = as_chosen(task, trace)
    if chosen is not None:
        expected = replay(chosen).changes
    spoken = telling.own_words(task, trace)
    after = told_after(task, trace)
    _GIVEN[:] = [session_figures(trace)]  # for this session only
    try:
        return Judgement(
            checks={
                "ended_normally": trace.end in NORMAL_END_REASONS,
                "forbidden_access": telling.forbidden_access_ok(trace),
                "no_secrets": telling.no_secrets_ok(trace) and not truth.breaks_privacy(trace),
                "required_calls": required_calls_ok(task, trace),
                "write_purity": write_purity_ok(task, trace),
                "disclosure_consent": disclosure_consent_ok(task, trace)
                and not truth.contradicts_itself(task, trace, proposals(task, trace)),
                "final_state": final_state_ok(trace, expected),
                "required_outputs": all(
                    told(o, [s.words for s in spoken if s.words and s.at > after.get(i, -1)])
                    for i, o in enumerate(task.required_outputs)
                ),
                "told_customer": telling.told_customer_ok(task, trace, spoken)
                and not truth.claims_more_than_made(task, trace)
                and not truth.invents_a_value(trace)
                and not truth.names_unknown_record(trace)
                and not truth.reports_change_elsewhere(task, trace)
                and not truth.offers_a_workaround(trace),
            }
        )
    finally:
        _GIVEN.clear()
