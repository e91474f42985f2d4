"""Banking concepts matched by meaning, from one shared vocabulary (task_data/concepts.toml).

A reason, a status, an alternative or a completion is told when one of its concept's phrases is
said, un-negated, in a clause of the message: "pledged as collateral" tells `lien`, "it is not
under lien" does not, and "block" never tells `lock_in` (whole words only). The scorer
(scoring/told.py, scoring/outputs.py) and the scripted customer (which releases a fallback only
once the agent has stated the rule) read the same vocabulary. Top level: both layers import it.
"""

from __future__ import annotations

import re
import threading
import tomllib
from dataclasses import dataclass, field
from functools import lru_cache

from pytest_bankbench.errors import BankBenchError
from pytest_bankbench.paths import data_dir

_NUMBER_WORDS = (
    "one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|eighteen|"
    "twenty|twenty-four|thirty|thirty-six|sixty"
)
# A clause ends at punctuation or a contrast; a negator before a phrase in its own clause
# takes it back ("not pledged"), one in another clause does not ("No, it is pledged").
# Its first character looked for first (a break, a space or a contrast's first letter): the
# engine leaves the other positions after one test (negated() reads up to _LOOK_BACK characters
# before every phrase said).
_CLAUSE_BREAK = re.compile(
    r"(?=[.,;:!?()\[\]\n–—\sbhwtis])"
    r"(?:[.,;:!?()\[\]\n–—]|\s-\s|\b(?:but|however|whereas|while|though|instead|because|so)\b)",
    re.IGNORECASE,
)
# The same breaks in text known to hold no upper-case letter (ASCII, lowered: spans() reads such
# text): there case-free matching finds the same breaks at several times the cost.
_CLAUSE_BREAK_LOWER = re.compile(_CLAUSE_BREAK.pattern)
_NEGATORS = frozenset({"not", "never", "no", "nor", "neither", "cannot", "without", "none"})
_WORD = re.compile(r"[a-z']+")
_RECENT = 2048


class UnknownConcept(BankBenchError, KeyError):
    """A task or rule names a concept the vocabulary does not define."""

    def __init__(self, name: str, known: tuple[str, ...]) -> None:
        super().__init__(
            f"unknown concept {name!r}; task_data/concepts.toml defines: {', '.join(sorted(known))}"
        )


@dataclass(frozen=True)
class Concept:
    name: str
    means: str
    phrases: tuple[str, ...]
    # A literal piece of every phrase (`phrase_keys`, in phrase order): a text holding none of
    # them cannot say the concept, and most messages hold none, so a pattern runs on few (the
    # scorer reads every message).
    phrase_keys: tuple[str, ...]
    keys: tuple[str, ...]
    # The patterns by the one key whose phrases they hold ("": every phrase), compiled when
    # first needed (a dict: the record is frozen).
    _compiled: dict[str, re.Pattern[str]] = field(default_factory=dict, compare=False, repr=False)

    def pattern_in(self, lowered: str) -> re.Pattern[str] | None:
        """The pattern of the phrases that may occur in `lowered` (None when none may).

        Every match of a phrase holds its key, so a phrase whose key the text lacks matches
        nowhere in it, and a pattern of more phrases, in the same order, finds the same matches.
        A text holding one key (most that hold any) is searched with the pattern of that key's
        phrases, one holding more with the pattern of every phrase: a pattern narrowed to each
        set of keys met, compiled for each new set (a millisecond each, 87 over the shipped gold
        sessions), was most of the cost of the sessions that met one. Looking for each key as a
        substring costs less than one pattern of them all."""
        held: str | None = None
        for key in self.keys:  # a loop: no generator resumed, and a second key ends it
            if key in lowered:
                if held is not None:
                    held = ""
                    break
                held = key
        if held is None:
            return None
        pattern = self._compiled.get(held)
        return pattern if pattern is not None else self._compile(held)

    def _compile(self, key: str) -> re.Pattern[str]:
        kept = [p for p, k in zip(self.phrases, self.phrase_keys, strict=True) if key in ("", k)]
        # Every phrase opens and closes with the same whole-word tests: said once around the
        # alternation, which tries each body with them in the same order (A|B)C = AC|BC, and
        # compiles in two thirds of the time.
        body = f"{_OPENS}(?:{'|'.join(map(_phrase_body, kept))}){_CLOSES}"
        starts = [_first_letter(p) for p in kept]
        if all(starts):  # the engine leaves the other positions after one test
            body = f"(?=[{''.join(sorted({re.escape(c) for c in starts if c}))}])(?:{body})"
        # read on lower-case text (_plain)
        return self._compiled.setdefault(key, re.compile(body))


def _first_letter(phrase: str) -> str | None:
    """The character every match of the phrase opens with, when it has one."""
    first = phrase.lower().split()[0]
    return first[0] if first[0].isalpha() else None


def _key(phrase: str) -> str:
    """The longest literal piece of a phrase."""
    pieces = [p.rstrip("*") for w in phrase.lower().split() for p in w.split("-") if p not in "*#"]
    return max(pieces, key=len)


_OPENS = r"(?<![\w-])"  # a phrase opens a word
_CLOSES = r"(?![\w])"  # and closes one


def phrase_pattern(phrase: str) -> str:
    """The regular expression of one vocabulary phrase (see task_data/concepts.toml)."""
    return _OPENS + _phrase_body(phrase) + _CLOSES


def _phrase_body(phrase: str) -> str:
    """A phrase's words, without the whole-word tests around them."""
    parts: list[str] = []
    for word in phrase.lower().split():
        if word == "#":  # a number, in rupees too: "at least Rs. 10,000", "at least ₹10,000"
            # Grouped as people write rupees: "Rs 5,00,000", "50,000.00".
            parts.append(
                rf"(?:(?:rs\.?|inr|₹)\s*)?(?:\d{{1,3}}(?:,\d{{2,3}})+(?:\.\d+)?|\d+(?:\.\d+)?"
                rf"|{_NUMBER_WORDS})"
            )
        elif word == "*":
            parts.append(r"[\w']+(?:\s+[\w']+)?")  # one or two words ("your gold", "the")
        elif word.endswith("*"):
            parts.append(re.escape(word[:-1]) + r"[\w-]*")
        else:
            parts.append(r"[\s-]*".join(map(re.escape, word.split("-"))))
    return r"[\s_-]+".join(parts)


_LOADED: dict[str, Concept] = {}
_LOADING = threading.Lock()


def vocabulary() -> dict[str, Concept]:
    """Every concept, loaded and compiled once per process.

    Built whole, then published in one step: with --bank-concurrency several threads read at
    once, and a half-filled table would say a concept does not exist."""
    if not _LOADED:
        with _LOADING:
            if not _LOADED:
                raw = tomllib.loads((data_dir() / "concepts.toml").read_text(encoding="utf-8"))
                built: dict[str, Concept] = {}
                for name, table in raw.items():
                    phrases = tuple(table["phrases"])
                    phrase_keys = tuple(_key(p) for p in phrases)
                    keys = tuple(sorted(set(phrase_keys)))
                    built[name] = Concept(name, table.get("means", ""), phrases, phrase_keys, keys)
                _LOADED.update(built)
    return _LOADED


def concept(name: str) -> Concept:
    known = vocabulary()
    if name not in known:
        raise UnknownConcept(name, tuple(known))
    return known[name]


_LOOK_BACK = 120  # characters: two words and a clause break, whatever their spelling


def negated(text: str, start: int, *, lowered: bool = False) -> bool:
    """A negator among the two words before `start`, in the same clause: "not pledged", "has
    not been paid". Further back it negates the verb, not the concept: "you can't foreclose it
    before 12 EMIs" states the lock-in. `lowered`: the text is ASCII with no upper case."""
    # Only the last stretch before `start` is read: from the text's start, a text that names a
    # concept at every word would cost the square of its length.
    window = max(0, start - _LOOK_BACK)
    breaks_in = _CLAUSE_BREAK_LOWER if lowered else _CLAUSE_BREAK
    breaks = [m.end() for m in breaks_in.finditer(text, window, start)]
    words = _WORD.findall(text[breaks[-1] if breaks else window : start].lower())[-2:]
    return any(w in _NEGATORS or w.endswith("n't") for w in words) or "yet to" in " ".join(words)


@lru_cache(maxsize=_RECENT)
def spans(name: str, text: str) -> tuple[tuple[int, int, bool], ...]:
    """Where the concept is said in `text` (positions of `text` itself): (start, end, negated)."""
    plain = _plain(text)
    pattern = concept(name).pattern_in(plain)
    if pattern is None:
        return ()
    lowered = plain.isascii()  # _plain lowered every ASCII letter
    return tuple(
        (m.start(), m.end(), negated(plain, m.start(), lowered=lowered))
        for m in pattern.finditer(plain)
    )


@lru_cache(maxsize=_RECENT)
def says(name: str, text: str) -> bool:
    """The text says the concept somewhere, un-negated (spans() read up to the first such)."""
    plain = _plain(text)
    pattern = concept(name).pattern_in(plain)
    if pattern is None:
        return False
    lowered = plain.isascii()
    return any(not negated(plain, m.start(), lowered=lowered) for m in pattern.finditer(plain))


@lru_cache(maxsize=_RECENT)
def mentions(name: str, text: str) -> bool:
    """The text names the concept at all, negated or not ("never share your OTP" mentions it):
    some span, whatever its negation (none is read)."""
    plain = _plain(text)
    pattern = concept(name).pattern_in(plain)
    return pattern is not None and pattern.search(plain) is not None


@lru_cache(maxsize=_RECENT)  # read once per text, not once per concept asked of it
def _plain(text: str) -> str:
    """The text in lower case, markdown stars and odd spaces as spaces, of the same length (a
    span's positions are the text's own). Patterns then need no IGNORECASE, which cost several
    times the lowering."""
    plain = text.replace("\u00a0", " ").replace("\u202f", " ").replace("’", "'").replace("*", " ")
    lowered = plain.lower()
    return lowered if len(lowered) == len(plain) else plain.translate(_ASCII_LOWER)


_ASCII_LOWER = {c: c + 32 for c in range(ord("A"), ord("Z") + 1)}
