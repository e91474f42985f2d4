"""The agent's own words, as the checks of what was told read them (told.py).

Only the agent's own words count. Raw tool output (scoring/raw_output.py) and sentences
copied verbatim from a tool result (a knowledge-base article pasted back) are taken out, and a
recital tells nothing: a message that names two or more of the customer's records the task
does not involve, or runs past RECITAL_CHARS, is a dump of records, not an answer. A sentence
that says the other records are left as they were ("Your other cards ending 2906 and 4225
remain as they were.") recites nothing. A reason said in a sentence that names one of the
customer's other records is about that record, not the one refused ("Your FD ending 1220 is
under lien"): with none the task involves named, what follows the first other record's name is
about it; what comes before still tells the reason ("RuPay cards don't support international
usage. Your Visa card ending 0427 does.").
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from functools import lru_cache
from typing import Any, NamedTuple

from pytest_bankbench.records import RecordKind, holdings, named_in
from pytest_bankbench.scoring.outputs import clean
from pytest_bankbench.scoring.view import SessionView
from pytest_bankbench.tasks.model import Task

RECITAL_CHARS = 3000
RECITAL_RECORDS = 2
_RECORD_KEYS = ("account_number", "deposit_id", "loan_id", "card_id", "beneficiary_id")
_RECORD_KEY_SET = frozenset(_RECORD_KEYS)
_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n+")
_COPIED = 30  # a sentence this long found verbatim in a tool result was pasted, not told
_NOT_DIGIT = re.compile(r"\D")


class Said(NamedTuple):
    """One agent message as the checks read it: where it is, its own words, and whether it is
    a recital (then it tells nothing, but a clarifying question may list the records it asks
    about). A named tuple, as the session view's records are: one is built per agent message of
    every session scored."""

    position: int
    text: str  # as the value readers take it (they take raw output out themselves)
    plain: str  # raw output out, lower case: what the concept readers and the length see
    names_others: bool = False
    too_long: bool = False
    of_ours: str | None = None  # for a reason: plain, what it says of another record blanked

    @property
    def words(self) -> str:
        return "" if self.names_others or self.too_long else self.text

    @property
    def plain_words(self) -> str:
        return "" if self.names_others or self.too_long else self.plain


def records(outputs: Sequence[Any]) -> dict[str, frozenset[str]]:
    """Every record the results show, in document order: its key -> its names, lower case."""
    found: dict[str, frozenset[str]] = {}
    for value in outputs:
        _walk(value, found)
    return found


# Tuples made once: `dict | list` builds a union object at each test of every field.
_CONTAINERS = (dict, list)
_KEY_TYPES = (str, int)


def _walk(value: Any, found: dict[str, frozenset[str]]) -> None:
    # Only containers are walked into, and a dict's keys are read only when it holds a record
    # key (most rows, transactions and rates, hold none): a call per field was most of the cost.
    if isinstance(value, dict):
        if not _RECORD_KEY_SET.isdisjoint(value):
            for name in _RECORD_KEYS:  # its first record key: a loop, not next() of a generator
                if isinstance(key := value.get(name), _KEY_TYPES):
                    # Names merged: a write's result may list a card by its id alone, and the
                    # card keeps the last four an earlier list gave it (issue 16).
                    names = _record_names(str(key), str(value.get("masked_number", "")))
                    known = found.get(str(key))
                    found[str(key)] = names if known is None or known >= names else known | names
                    break
        items: Any = value.values()
    elif isinstance(value, list):
        items = value
    else:
        return
    for item in items:
        if isinstance(item, _CONTAINERS):
            _walk(item, found)


@lru_cache(maxsize=4096)
def _record_names(first: str, masked: str) -> frozenset[str]:
    """The ways a message may name a record of key `first` (and masked number `masked`), lower
    case: the key, and the last four digits of a long number or a masked one (no year). Made
    once per record: the same records come back in every result that lists them."""
    names = {first}
    for raw in (first, masked):
        digits = raw if raw.isdecimal() else _NOT_DIGIT.sub("", raw)  # \d is isdecimal()
        if len(digits) >= 8 or (raw.startswith(("X", "x", "*")) and len(digits) >= 4):
            names.add(digits[-4:])
    return frozenset(n.lower() for n in names if n and not _year_like(n))


def _year_like(name: str) -> bool:
    return len(name) == 4 and name.isdigit() and 1990 <= int(name) <= 2039


def _task_keys(task: Task) -> set[str]:
    """The records the task involves: every key its gold chain or its tells name."""
    keys: set[str] = set()
    for call in task.gold:
        keys.update(str(v) for v in call.arguments.values() if isinstance(v, _KEY_TYPES))
        if call.facts:
            keys.add(call.facts.key)
    keys.update(t.record for t in task.tells if t.record)
    return keys


# What may name a record in a message: an id (FD001219) or a run of four or more digits.
# Its first character looked for first: the engine leaves the other positions after one test.
_ID_RUN = re.compile(r"(?=[A-Za-z\d])(?<![\w-])(?:[A-Za-z]{2,4})?\d{4,}(?![\w-])")
# One digit, then three or more: the same runs as \d{4,}, but a pattern that opens with a class
# is scanned for that class in C (one opening with a repeat is tried at every position).
_DIGIT_RUN = re.compile(r"\d\d{3,}")


def own_words(task: Task, view: SessionView) -> list[Said]:
    """Every agent message with its own words: raw output and copied sentences out, recitals
    marked."""
    outputs = [c.event.output for c in view.successful if c.event.output]
    copied = _tool_text(
        [c.event.output for c in view.successful if c.event.output and c.spec and c.spec.prose]
    )
    others: list[frozenset[str]] | None = None  # the records the task does not involve, once needed
    ours: list[frozenset[str]] = []  # and those it does
    other_names: set[str] = set()
    messages: list[Said] = []
    for message in view.agent:
        text = clean(message.text)
        sentences = _SENTENCE.split(text) if copied else [text]
        kept = [s for s in sentences if not _pasted(s, copied)] if copied else sentences
        # Line breaks kept (a heading is its own clause); unchanged, the text the readers'
        # caches already know.
        plain = "\n".join(kept) if len(kept) < len(sentences) else text
        text = plain if len(kept) < len(sentences) else message.text
        named = False
        of_ours: str | None = None
        if others is None and _may_name(plain):
            involved = _task_keys(task)
            shown = records(outputs)
            others = [names for key, names in shown.items() if key not in involved]
            ours = [names | {key.lower()} for key, names in shown.items() if key in involved]
            other_names = {n for names in others for n in names}
        # A message names another record only if it holds one of their names: most hold none,
        # and then their ids are never read.
        if others and any(n in plain for n in other_names):
            counted = _untouched_out(plain)  # other records said to be left as they were: out
            found = set(_names_in(counted))
            count = sum(1 for names in others if names & found)
            named = count >= RECITAL_RECORDS
            if count and not named:
                of_ours = _of_ours(counted, other_names, {n for names in ours for n in names})
        long = len(plain) > RECITAL_CHARS
        messages.append(Said(message.position, text, plain, named, long, of_ours))
    return messages


# A sentence saying records are left as they were ("remain as they were", "are unchanged",
# "will not be affected", "continue as before"): naming them there recites nothing.
_UNTOUCHED = re.compile(
    r"\b(?:unchanged|unaffected|untouched|not\s+(?:be\s+)?(?:affected|changed|touched)"
    r"|(?:remains?|stays?|continues?|are|is)\s+as\s+(?:they|it)\s+(?:were|was|are|is)"
    r"|as\s+before|(?:remain|stay)s?\s+the\s+same)\b"
)
_UNTOUCHED_KEYS = ("unchanged", "unaffected", "untouched", "not ", " as ", "same")


def _untouched_out(plain: str) -> str:
    """`plain` with each sentence that says records are left as they were blanked."""
    if not any(k in plain for k in _UNTOUCHED_KEYS):  # most messages: no pattern run
        return plain
    kept = list(plain)
    starts = [0, *(m.end() for m in _SENTENCE.finditer(plain))]
    ends = [*(m.start() for m in _SENTENCE.finditer(plain)), len(plain)]
    for start, end in zip(starts, ends, strict=True):
        if _UNTOUCHED.search(plain, start, end):
            kept[start:end] = " " * (end - start)
    return "".join(kept)


def _of_ours(plain: str, other: set[str], ours: set[str]) -> str:
    """`plain` blanked where it speaks of another record: from each other record's name to its
    sentence's end or the next of ours; where none of ours is named, from the first other
    record's name on (what follows is about it)."""
    kept = list(plain)
    runs = [(m.start(), m.group().lower()) for m in _ID_RUN.finditer(plain)]
    if not any(name in ours for _, name in runs):
        first = next((at for at, name in runs if name in other), len(plain))
        return plain[:first] + " " * (len(plain) - first)
    ends = [m.start() for m in _SENTENCE.finditer(plain)] + [len(plain)]
    start = end = -1  # an other record's name (none: -1), blanked up to end, its sentence's end
    for at, name in runs:
        if start >= 0 and (name in ours or at > end):
            stop = min(at, end)
            kept[start:stop] = " " * (stop - start)
            start = -1
        if start < 0 and name in other and name not in ours:
            start = at
            end = min(e for e in ends if e > start)
    if start >= 0:
        kept[start:end] = " " * (end - start)
    return "".join(kept)


@lru_cache(maxsize=1024)  # read for every agent message of every session, as _names_in
def _may_name(plain: str) -> bool:
    """Whether _names_in(plain) may find a name, read from its digit runs alone: a name holds a
    run of four or more digits that is no year or follows a letter (a date's year names no
    record, and then the session's results are never walked for their records)."""
    for m in _DIGIT_RUN.finditer(plain):
        start = m.start()
        if not _year_like(m.group()) or (start and plain[start - 1].isalpha()):
            return True
    return False


@lru_cache(maxsize=1024)  # as the readers of scoring/outputs.py: stock sentences recur
def _names_in(plain: str) -> tuple[str, ...]:
    """What may name a record in a message, lower case; () when none may. Every name holds a
    run of four or more digits: one is looked for first (most messages hold none)."""
    if not _DIGIT_RUN.search(plain):
        return ()
    return tuple(t.lower() for t in _ID_RUN.findall(plain) if not _year_like(t))


def _tool_text(outputs: Sequence[dict[str, Any]]) -> str:
    """The long strings of the prose tools' results (articles: what a sentence could be copied
    from), flattened as the messages are, JSON escapes undone; "" when there are none (most
    sessions: then no message needs to be split to look for copies)."""
    return _long_strings(json.dumps(outputs, ensure_ascii=False)) if outputs else ""


@lru_cache(maxsize=256)  # an article comes back in many sessions: flattened once
def _long_strings(raw: str) -> str:
    found = [f for f in _STRING.findall(raw) if len(f) >= _COPIED]
    flat = (" ".join(f.replace("\\n", " ").replace('\\"', '"').split()).casefold() for f in found)
    return "\x00".join(flat)


_STRING = re.compile(r'"([^"\\]*(?:\\.[^"\\]*)*)"')  # a JSON string literal


def _pasted(sentence: str, copied: str) -> bool:
    flat = " ".join(sentence.split()).casefold().strip(" -*>\"'")
    return len(flat) >= _COPIED and flat in copied


# A sentence about another of the customer's records named by its description, not its id:
# "Your FD of Rs. 79,000 opened on 30 July 2023 is under lien" when the FD refused is another
# (careless-agent trial, wrong_fd). A contrast splits a sentence: "Your other FD of Rs 79,000
# can be closed, but this one is under lien" still tells the reason of this one.
_LOWER_SENTENCE = re.compile(r"(?<!\brs\.)(?<=[.!?])\s+|\n+")  # "rs. 9,06,000" ends none
_CONTRAST = re.compile(r",?\s+\b(?:but|however|whereas|while|though|although)\b")


def about_record(task: Task, key: str, plain: str) -> str:
    """`plain` with each sentence (or contrasted part) that names another record of the kind of
    `key`, by more than a word for its kind, and not `key`'s, blanked."""
    kind = _KINDS.get(key[:2].upper())
    if kind is None:
        return plain
    held = holdings(task.customer_id, task.task_date, task.bank_seed, (kind,))
    if not any(h.key == key for h in held):
        return plain
    kept: list[str] = []
    for sentence in _LOWER_SENTENCE.split(plain):
        for part in _CONTRAST.split(sentence):
            said = named_in([part], held, kind, strong=True)
            kept.append(" " * len(part) if said and key not in said else part)
    return " ".join(kept)


_KINDS: dict[str, RecordKind] = {"FD": "deposit", "RD": "deposit", "CR": "card", "LN": "loan"}
