"""Can a small learned model read unseen real turns better than the rule reader? An experiment.

`tests/simulation/test_real_turns.py` measures the rule reader (`simulation.acts.read`) by the
share of a part's turns whose reading changes the scripted customer's next move. The rules were
tuned on every tuning part, so their numbers there are contaminated; only parts they never saw are
honest. Here linear models predict the next move (8 classes) directly from a turn, and are scored
by leave-one-part-out (LOPO): train on every other part, predict the part left out.

Features: lowercased word unigrams and bigrams (digits folded to one token), the words of the last
sentence and the first three words and the last word of each question, a few shapes (ends with '?', how many '?', a
numbered list, length bucket, where the last question stands), and, in the variants that use
them, the rule reader's acts, move and last sentence's acts, so the model can learn when the rules
are right.

Honest rule features: the rule features of a left-out part are its rules' readings before any
round tuned on it (bench/unseen_readings.json, written by bench/unseen_readings.py): tuning-9 to
tuning-30 read by the commit before their round, held-out-27 and held-out-28 by today's rules. So
every variant is scored on those 24 parts (the "honest" parts); tuning to tuning-8 have no unseen
reading and are only trained on (the text-only model is scored on them too). Training turns carry
either today's readings or the unseen ones (a setting, `train_rules`).

Settings are chosen by LOPO over tuning-9 to tuning-30 only; held-out-27 and held-out-28 are then
scored once with the chosen settings (`--final`). (The figures below are from before round 16,
which renamed held-out-27 and held-out-28 tuning-31 and tuning-32, read unseen at 74cf329; the
script scores the held-out parts of today: held-out-29 and held-out-30 until round 17 renamed
them tuning-33 and tuning-34, read unseen at c4b3ebc; none while round 17 tunes; held-out-33
while round 18 tunes on held-out-31 and held-out-32, renamed tuning-35 and tuning-36, read unseen
at 290e665; none while round 19 tunes on held-out-33, renamed tuning-37, read unseen at 56fe437;
held-out-34 and held-out-35 after round 19; none while round 20 tunes on them, renamed tuning-38
and tuning-39, read unseen at 94084ea.)
Models, all seeded and deterministic:

- nb: multinomial naive Bayes over binary features, additive smoothing `alpha`;
- perceptron: averaged perceptron, `epochs` passes in a seeded order;
- logreg: multinomial logistic regression by SGD with L2 on the touched weights.

Combinations with the rule reader (unseen readings):

- rules: the rules alone;
- model: the model alone (with or without rule features);
- override: the rules' move unless the model gives another move a probability above `threshold`;
- abstain: where rules and model disagree, the customer says "please go on" (counted apart).

    python bench/learned_reader.py            # the settings search on tuning-9..30 (LOPO)
    python bench/learned_reader.py --final    # the chosen settings, every part, held-out once

What it found (changed moves, LOPO; the rules on their unseen readings):

- tuning-9..30: rules 372/2982 (12.5%); text-only perceptron 345 (11.6%); perceptron with the
  rules' acts 284 (9.5%); logistic regression with them 292 (9.8%), overriding the rules above
  0.6 288 (9.7%); agree-or-abstain 419 (14.1%): 207 abstentions (6.9%), 212 wrong moves made.
- the gain shrinks as the rules mature: tuning-25..30 (rounds 13-15) rules 70/741 (9.4%), the
  perceptron with rules 64 (8.6%), logistic regression 61 (8.2%); held-out-27 and held-out-28
  (scored with the settings fixed beforehand) rules 26/241 (10.8%), perceptron with rules 26,
  logistic regression 24 (10.0%), override 23 (9.5%), text-only perceptron 32 (13.3%).
- nothing comes near the goal of 2%: where a model and the rules agree they are still wrong on
  7.6% of the turns. Where they disagree (7% of turns) the rules are the wrong one on 3 of 4
  (165/223 over the 24 parts), on 8 of 16 in held-out-27/28: a flag for review, not a reader.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import re
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path
from typing import get_args

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from unseen_readings import OUT as UNSEEN_FILE  # noqa: E402
from unseen_readings import UNSEEN_AT, key  # noqa: E402

from pytest_bankbench.simulation.acts import read  # noqa: E402
from tests.simulation.test_real_turns import HELD_OUT, TURNS, Move, move  # noqa: E402

MOVES: tuple[Move, ...] = get_args(Move)
SAFE: Move = "go-on"
SEED = 16


@dataclass(frozen=True)
class RuleReading:
    acts: frozenset[str]
    last: frozenset[str]  # the acts of the turn's last sentence

    @property
    def move(self) -> Move:
        return move(self.acts)  # type: ignore[arg-type]


@dataclass(frozen=True)
class Example:
    part: str
    label: Move
    text: list[int]  # feature ids of the text alone
    today: RuleReading  # today's rules
    unseen: RuleReading | None  # the rules before any round tuned on the part


# Features -----------------------------------------------------------------------------------

_WORD = re.compile(r"[a-z]+(?:'[a-z]+)?|\d+|[?!]")
_SENTENCE = re.compile(r"(?<=[.?!:])\s+|\n+")
_NUMBERED = re.compile(r"^\s*(\d+[.)]|[-*•])\s", re.M)


def _words(text: str) -> list[str]:
    return ["<n>" if w.isdigit() else w for w in _WORD.findall(text.lower())]


def text_features(text: str, rich: bool = False) -> set[str]:
    """The turn's words, bigrams and shapes; `rich` adds the bigrams of each question and the
    trigrams of the last sentence."""
    words = _words(text)
    feats = {f"w:{w}" for w in words}
    feats |= {f"b:{a}_{b}" for a, b in zip(["<s>", *words], [*words, "</s>"], strict=True)}
    sentences = [s for s in _SENTENCE.split(text.strip()) if _WORD.search(s)]
    last = _words(sentences[-1]) if sentences else []
    feats |= {f"l:{w}" for w in last}
    feats |= {f"l0:{w}" for w in last[:2]}
    questions = [i for i, s in enumerate(sentences) if s.rstrip().endswith("?")]
    for i in questions:
        question = _words(sentences[i])  # ends with "?"
        feats |= {f"q:{w}" for w in question[:3]}
        feats.add(f"qend:{question[-2] if len(question) > 1 else ''}")
        if rich:
            feats |= {f"qb:{a}_{b}" for a, b in pairwise(question)}
    if rich:
        feats |= {f"lt:{a}_{b}_{c}" for a, b, c in zip(last, last[1:], last[2:], strict=False)}
        feats.add(f"ns:{min(len(sentences), 8)}")
    feats.add(f"ends?:{text.rstrip().endswith('?')}")
    feats.add(f"n?:{min(text.count('?'), 3)}")
    feats.add(f"list:{bool(_NUMBERED.search(text))}")
    feats.add(f"len:{min(int(math.log2(len(words) + 1)), 9)}")
    where = "none" if not questions else str(min(len(sentences) - 1 - questions[-1], 3))
    feats.add(f"lastq:{where}")
    return feats


def rule_features(reading: RuleReading) -> set[str]:
    """What the rule reader says: its acts, its move, the last sentence's acts."""
    feats = {f"r:{a}" for a in reading.acts} | {f"rl:{a}" for a in reading.last}
    feats.add(f"rm:{reading.move}")
    feats.add(f"rn:{len(reading.acts)}")
    return feats


class Vocabulary:
    """Feature names to ids, fixed once built."""

    def __init__(self) -> None:
        self.ids: dict[str, int] = {}

    def __call__(self, names: Iterable[str]) -> list[int]:
        # in sorted order, so the ids (and the float sums over them) never depend on str hashing
        return sorted(self.ids.setdefault(n, len(self.ids)) for n in sorted(names))


VOCAB = Vocabulary()
RULE_IDS: dict[RuleReading, list[int]] = {}


def rule_ids(reading: RuleReading) -> list[int]:
    if reading not in RULE_IDS:
        RULE_IDS[reading] = VOCAB(rule_features(reading))
    return RULE_IDS[reading]


def examples(rich: bool = False) -> list[Example]:
    """Every labelled turn, with today's and (where known) its unseen rule reading."""
    unseen = json.loads(UNSEEN_FILE.read_text(encoding="utf-8"))
    out = []
    for turn in TURNS:
        now = read(turn.text)
        today = RuleReading(now.acts, now.sentences[-1].acts if now.sentences else frozenset())
        old = unseen.get(turn.part, {}).get(key(turn.text))
        before = None
        if old is not None:
            before = RuleReading(frozenset(old["acts"]), frozenset(old["last"]))
        label: Move = move(turn.acts)
        out.append(Example(turn.part, label, VOCAB(text_features(turn.text, rich)), today, before))
        for reading in (today, before):
            if reading is not None:
                rule_ids(reading)  # every id known before any model is sized
    return out


# Models -------------------------------------------------------------------------------------

Features = list[int]


class Model:
    """A linear scorer over feature ids, one weight list per move."""

    def __init__(self, size: int) -> None:
        self.w = [[0.0] * size for _ in MOVES]
        self.bias = [0.0] * len(MOVES)

    def scores(self, x: Features) -> list[float]:
        return [b + sum(map(w.__getitem__, x)) for w, b in zip(self.w, self.bias, strict=True)]

    def probabilities(self, x: Features) -> list[float]:
        return _softmax(self.scores(x))

    def predict(self, x: Features) -> Move:
        s = self.scores(x)
        return MOVES[s.index(max(s))]


def _softmax(s: list[float]) -> list[float]:
    top = max(s)
    e = [math.exp(v - top) for v in s]
    total = sum(e)
    return [v / total for v in e]


def train_nb(data: Sequence[tuple[Features, int]], size: int, alpha: float) -> Model:
    """Multinomial naive Bayes: log P(move) + sum of log P(feature | move)."""
    model = Model(size)
    counts = [[0] * size for _ in MOVES]
    totals = [0] * len(MOVES)
    prior = Counter(y for _, y in data)
    for x, y in data:
        row = counts[y]
        for f in x:
            row[f] += 1
        totals[y] += len(x)
    seen = {f for x, _ in data for f in x}
    for c in range(len(MOVES)):
        denominator = math.log(totals[c] + alpha * len(seen))
        model.w[c] = [
            math.log(counts[c][f] + alpha) - denominator if f in seen else 0.0 for f in range(size)
        ]
        model.bias[c] = math.log((prior[c] + 1) / (len(data) + len(MOVES)))
    return model


def train_perceptron(data: Sequence[tuple[Features, int]], size: int, epochs: int) -> Model:
    """The averaged perceptron (the weights averaged over every step, by the timestamp trick)."""
    model, total = Model(size), Model(size)
    order = list(range(len(data)))
    rng = random.Random(SEED)
    step = 1
    for _ in range(epochs):
        rng.shuffle(order)
        for i in order:
            x, y = data[i]
            guess = MOVES.index(model.predict(x))
            if guess != y:
                for c, sign in ((y, 1.0), (guess, -1.0)):
                    w, t = model.w[c], total.w[c]
                    for f in x:
                        w[f] += sign
                        t[f] += sign * step
                    model.bias[c] += sign
                    total.bias[c] += sign * step
            step += 1
    for c in range(len(MOVES)):
        model.w[c] = [w - t / step for w, t in zip(model.w[c], total.w[c], strict=True)]
        model.bias[c] -= total.bias[c] / step
    return model


def train_logreg(
    data: Sequence[tuple[Features, int]], size: int, epochs: int, l2: float, rate: float = 0.2
) -> Model:
    """Multinomial logistic regression by SGD, a decaying step, L2 on the weights it touches."""
    model = Model(size)
    order = list(range(len(data)))
    rng = random.Random(SEED)
    for epoch in range(epochs):
        rng.shuffle(order)
        step = rate / (1 + epoch)
        for i in order:
            x, y = data[i]
            p = model.probabilities(x)
            p[y] -= 1.0
            for c, g in enumerate(p):
                if abs(g) < 1e-3:
                    continue
                w = model.w[c]
                shrink = 1 - step * l2
                for f in x:
                    w[f] = w[f] * shrink - step * g
                model.bias[c] -= step * g
    return model


# Settings and scoring ----------------------------------------------------------------------


@dataclass(frozen=True)
class Setting:
    model: str  # nb, perceptron, logreg
    rules: bool  # the rule reader's output as features
    train_rules: str = "today"  # which readings the training turns carry: today, unseen
    epochs: int = 8
    l2: float = 1e-4
    alpha: float = 0.5

    def label(self) -> str:
        knobs = {"nb": f"alpha={self.alpha}", "perceptron": f"epochs={self.epochs}"}
        knob = knobs.get(self.model, f"epochs={self.epochs} l2={self.l2}")
        rules = f"+rules({self.train_rules})" if self.rules else " text only"
        return f"{self.model}{rules} {knob}"


def features(ex: Example, setting: Setting, testing: bool) -> Features:
    if not setting.rules:
        return ex.text
    reading = ex.today
    if (testing or setting.train_rules == "unseen") and ex.unseen is not None:
        reading = ex.unseen
    return sorted(set(ex.text) | set(rule_ids(reading)))


def train(setting: Setting, exs: Sequence[Example]) -> Model:
    data = [(features(e, setting, testing=False), MOVES.index(e.label)) for e in exs]
    size = len(VOCAB.ids)
    if setting.model == "nb":
        return train_nb(data, size, setting.alpha)
    if setting.model == "perceptron":
        return train_perceptron(data, size, setting.epochs)
    return train_logreg(data, size, setting.epochs, setting.l2)


def lopo(
    setting: Setting, exs: Sequence[Example], parts: Iterable[str]
) -> tuple[dict[str, list[Move]], dict[str, list[list[float]]], float]:
    """Each part's turns predicted by a model trained on every other part (LOPO), the model's
    move probabilities, and the seconds spent training."""
    moves: dict[str, list[Move]] = {}
    probs: dict[str, list[list[float]]] = {}
    spent = 0.0
    for part in parts:
        start = time.perf_counter()
        model = train(setting, [e for e in exs if e.part != part])
        spent += time.perf_counter() - start
        test = [features(e, setting, testing=True) for e in exs if e.part == part]
        moves[part] = [model.predict(x) for x in test]
        probs[part] = [model.probabilities(x) for x in test]
    return moves, probs, spent


@dataclass
class Score:
    turns: int = 0
    changed: int = 0  # moves other than the label's, abstentions included
    abstained: int = 0
    unsafe_yes: int = 0  # consent where the label is not
    unsafe_end: int = 0  # next or hand-off where the label is wait or answer

    def add(self, got: Move, wanted: Move, abstained: bool) -> None:
        self.turns += 1
        self.changed += got != wanted
        self.abstained += abstained
        self.unsafe_yes += got == "consent" and wanted != "consent"
        self.unsafe_end += got in {"next", "hand-off"} and wanted in {"wait", "answer"}

    def __iadd__(self, other: Score) -> Score:
        for name in ("turns", "changed", "abstained", "unsafe_yes", "unsafe_end"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        return self

    @property
    def share(self) -> float:
        return self.changed / self.turns if self.turns else 0.0

    @property
    def wrong_answered(self) -> int:
        """Changed moves the customer actually commits to (not abstentions)."""
        return self.changed - self.abstained

    def brief(self) -> str:
        abstained = f" a{self.abstained}" if self.abstained else ""
        return f"{self.changed}/{self.turns}{abstained} {self.share:.0%}"

    def cell(self) -> str:
        text = f"{self.changed:3d}/{self.turns:<4d} {self.share:6.1%}"
        if self.abstained:
            text += f" (abst {self.abstained}, wrong {self.wrong_answered})"
        return text


def score(
    exs: Sequence[Example],
    parts: Iterable[str],
    got: Callable[[str, int, Example], tuple[Move, bool]],
) -> dict[str, Score]:
    """Each part's score for a variant: `got(part, i, example)` gives its move and whether it
    abstained on the part's i-th turn."""
    result: dict[str, Score] = {}
    for part in parts:
        s = Score()
        for i, ex in enumerate(e for e in exs if e.part == part):
            move_got, abstained = got(part, i, ex)
            s.add(move_got, ex.label, abstained)
        result[part] = s
    return result


def pooled(scores: dict[str, Score], parts: Iterable[str]) -> Score:
    total = Score()
    for part in parts:
        total += scores[part]
    return total


def variants(
    moves: dict[str, list[Move]], probs: dict[str, list[list[float]]], threshold: float
) -> dict[str, Callable[[str, int, Example], tuple[Move, bool]]]:
    """The ways of reading a turn compared: the rules, the model, and the two combinations."""

    def rules(part: str, i: int, ex: Example) -> tuple[Move, bool]:
        assert ex.unseen is not None
        return ex.unseen.move, False

    def model(part: str, i: int, ex: Example) -> tuple[Move, bool]:
        return moves[part][i], False

    def override(part: str, i: int, ex: Example) -> tuple[Move, bool]:
        assert ex.unseen is not None
        p = probs[part][i]
        best = max(range(len(MOVES)), key=p.__getitem__)
        if MOVES[best] != ex.unseen.move and p[best] > threshold:
            return MOVES[best], False
        return ex.unseen.move, False

    def abstain(part: str, i: int, ex: Example) -> tuple[Move, bool]:
        assert ex.unseen is not None
        if moves[part][i] == ex.unseen.move:
            return ex.unseen.move, False
        return SAFE, True

    return {"rules": rules, "model": model, "override": override, "abstain": abstain}


# The runs -----------------------------------------------------------------------------------

HONEST_TUNING = [p for p in UNSEEN_AT if p not in HELD_OUT]
THRESHOLDS = (0.5, 0.6, 0.7, 0.8, 0.9, 0.95)
GRID = (
    Setting("nb", rules=False, alpha=0.1),
    Setting("nb", rules=False, alpha=0.5),
    Setting("nb", rules=True, alpha=0.1),
    Setting("nb", rules=True, alpha=0.5),
    Setting("nb", rules=True, train_rules="unseen", alpha=0.1),
    Setting("perceptron", rules=False, epochs=5),
    Setting("perceptron", rules=False, epochs=10),
    Setting("perceptron", rules=True, epochs=5),
    Setting("perceptron", rules=True, epochs=10),
    Setting("perceptron", rules=True, train_rules="unseen", epochs=10),
    Setting("logreg", rules=False, epochs=6, l2=1e-4),
    Setting("logreg", rules=False, epochs=6, l2=1e-3),
    Setting("logreg", rules=True, epochs=6, l2=1e-4),
    Setting("logreg", rules=True, epochs=6, l2=1e-3),
    Setting("logreg", rules=True, train_rules="unseen", epochs=6, l2=1e-4),
    Setting("logreg", rules=True, train_rules="unseen", epochs=6, l2=1e-3),
    Setting("logreg", rules=True, train_rules="unseen", epochs=12, l2=1e-4),
)


def search(exs: Sequence[Example], models: Sequence[str], only: str = "") -> None:
    """Every setting of GRID by LOPO over tuning-9..30 (never the held-out parts)."""
    print(f"LOPO over {len(HONEST_TUNING)} tuning parts (tuning-9..30), unseen rule readings\n")
    for setting in (s for s in GRID if s.model in models and only in s.label()):
        moves, probs, spent = lopo(setting, exs, HONEST_TUNING)
        print(f"{setting.label()}: training {spent / len(HONEST_TUNING):.1f}s a fold")
        for threshold in THRESHOLDS if setting.model == "logreg" else (None,):
            by = variants(moves, probs, threshold or 1.0)
            names: tuple[str, ...] = ("model", "abstain") if threshold is None else ("override",)
            if threshold == THRESHOLDS[0]:
                names = ("model", "abstain", "override")
            for name in names:
                s = pooled(score(exs, HONEST_TUNING, by[name]), HONEST_TUNING)
                tag = name if name != "override" else f"override>{threshold}"
                print(f"    {tag:15s} {s.cell()}  unsafe yes {s.unsafe_yes}, end {s.unsafe_end}")
        sys.stdout.flush()
    rules = pooled(score(exs, HONEST_TUNING, variants({}, {}, 1.0)["rules"]), HONEST_TUNING)
    print(f"\nrules (unseen readings): {rules.cell()} unsafe {rules.unsafe_yes}+{rules.unsafe_end}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--final", action="store_true", help="the chosen settings on every part")
    parser.add_argument("--models", default="nb,perceptron,logreg", help="search only these")
    parser.add_argument("--only", default="", help="search only settings whose label has this")
    parser.add_argument("--rich", action="store_true", help="question bigrams, last trigrams")
    args = parser.parse_args()
    start = time.perf_counter()
    exs = examples(args.rich or args.final)
    print(f"{len(exs)} turns, {len(VOCAB.ids)} features ({time.perf_counter() - start:.0f}s)\n")
    if not args.final:
        search(exs, args.models.split(","), args.only)
        return
    final(exs)


# Chosen by `search` (LOPO over tuning-9..30 only, the pooled changed share, rich features):
# the perceptron with the rules' unseen readings as training features was best (284/2982, 9.5%),
# logistic regression next (292, 9.8%; overriding the rules only above 0.6 gave 291); of the
# text-only models the perceptron (5 epochs: 334 with the base features, 345 with the rich).
TEXT_ONLY = Setting("perceptron", rules=False, epochs=5)
WITH_RULES = Setting("perceptron", rules=True, train_rules="unseen", epochs=10)
SECOND = Setting("logreg", rules=True, train_rules="unseen", epochs=6, l2=1e-4)
THRESHOLD = 0.6


def final(exs: Sequence[Example]) -> None:
    """The chosen settings by LOPO over every part; the held-out parts scored this once."""
    parts = list(dict.fromkeys(e.part for e in exs))
    honest = [p for p in parts if p in UNSEEN_AT]
    text_moves, _, text_time = lopo(TEXT_ONLY, exs, parts)
    moves, probs, rules_time = lopo(WITH_RULES, exs, honest)
    second_moves, second_probs, _ = lopo(SECOND, exs, honest)
    by = variants(moves, probs, THRESHOLD)
    second = variants(second_moves, second_probs, THRESHOLD)

    def today(part: str, i: int, ex: Example) -> tuple[Move, bool]:
        return ex.today.move, False

    def text_only(part: str, i: int, ex: Example) -> tuple[Move, bool]:
        return text_moves[part][i], False

    columns = {
        "rules today": score(exs, parts, today),
        "rules unseen": score(exs, honest, by["rules"]),
        "text perceptron": score(exs, parts, text_only),
        "perceptron+rules": score(exs, honest, by["model"]),
        "logreg+rules": score(exs, honest, second["model"]),
        f"override>{THRESHOLD}": score(exs, honest, second["override"]),
        "abstain": score(exs, honest, by["abstain"]),
    }
    print(f"text only: {TEXT_ONLY.label()}")
    print(f"with rules: {WITH_RULES.label()} (abstain: it against the rules); {SECOND.label()}")
    print("changed moves by LOPO; 'rules today' is contaminated on every tuning part\n")
    print(f"{'part':12s}" + "".join(f"{name:>17s}" for name in columns))
    for part in parts:
        cells = [c[part].brief() if part in c else "" for c in columns.values()]
        print(f"{part:12s}" + "".join(f"{cell:>17s}" for cell in cells))
    groups: dict[str, list[str]] = {
        "tuning..tuning-8 (no unseen rule reading)": [p for p in parts if p not in UNSEEN_AT],
        "tuning-9..30 (settings chosen here)": HONEST_TUNING,
        "tuning-25..30 (rounds 13-15: the rules' newest unseen readings)": [
            f"tuning-{n}" for n in range(25, 31)
        ],
        **{part: [part] for part in sorted(HELD_OUT)},
        "the held-out parts": sorted(HELD_OUT),
        "every part with an unseen rule reading": honest,
    }
    for group, members in groups.items():
        print(f"\n{group}, pooled:")
        for name, column in columns.items():
            if all(m in column for m in members):
                s = pooled(column, members)
                print(f"    {name:17s} {s.cell()}  unsafe yes {s.unsafe_yes}, end {s.unsafe_end}")
        if all(m in honest for m in members):
            for name, got in (("perceptron+rules", moves), ("logreg+rules", second_moves)):
                print(f"    {name} against the rules: {paired(exs, members, got)}")
    costs(exs, text_time / len(parts), rules_time / len(honest))


def paired(exs: Sequence[Example], parts: Iterable[str], got: dict[str, list[Move]]) -> str:
    """Where a model and the rules (unseen) part: the turns it fixes and breaks, and how often
    the rules are the wrong one where they disagree (a disagreement as a flag for review)."""
    fixes = breaks = neither = 0
    for part in parts:
        for i, ex in enumerate(e for e in exs if e.part == part):
            assert ex.unseen is not None
            model, rules = got[part][i], ex.unseen.move
            if model != rules:
                fixes += model == ex.label
                breaks += rules == ex.label
                neither += ex.label not in {model, rules}
    disagree = fixes + breaks + neither
    return (
        f"they disagree on {disagree} turns: model right {fixes}, rules right {breaks}, "
        f"neither {neither} (rules wrong on {fixes + neither}/{disagree or 1:.0f})"
    )


def costs(exs: Sequence[Example], text_train: float, rules_train: float) -> None:
    """What a learned reader would cost: training, one prediction, the weights kept."""
    model = train(WITH_RULES, exs)
    start = time.perf_counter()
    sample = exs[::10]
    for ex in sample:
        model.probabilities(features(ex, WITH_RULES, testing=True))
    predict = (time.perf_counter() - start) / len(sample)
    start = time.perf_counter()
    for ex in sample[:100]:
        text_features(TURNS[exs.index(ex)].text, rich=True)
    extract = (time.perf_counter() - start) / 100
    used = [f for f in range(len(VOCAB.ids)) if any(abs(w[f]) > 1e-3 for w in model.w)]
    names = {i: n for n, i in VOCAB.ids.items()}
    weights = {names[f]: [round(w[f], 3) for w in model.w] for f in used}
    size = len(json.dumps(weights, separators=(",", ":")))
    strength = sorted(used, key=lambda f: -max(abs(w[f]) for w in model.w))
    full = [model.predict(features(ex, WITH_RULES, testing=True)) for ex in exs]
    for keep in (1000, 3000, 10000):
        kept = set(strength[:keep])
        pruned = [
            model.predict([f for f in features(ex, WITH_RULES, testing=True) if f in kept])
            for ex in exs
        ]
        differ = sum(a != b for a, b in zip(full, pruned, strict=True))
        print(f"pruned to the {keep} strongest features: {differ} of {len(exs)} moves change")
    print(
        f"\ntraining a fold: {text_train:.1f}s text only, {rules_train:.1f}s with rules; "
        f"one prediction {1000 * predict:.2f} ms + features {1000 * extract:.2f} ms a turn "
        f"(+ the rule reader); weights: {len(used)} of {len(VOCAB.ids)} features with a weight "
        f"over 0.001, {size / 1000:.0f} kB as JSON"
    )


if __name__ == "__main__":
    main()
