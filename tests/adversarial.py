"""Adversarial agent turns for the fuzz tests (issue 19, item 1): seeded, built from units an
agent under test can repeat (digit runs, nested brackets, repeated money units, newlines,
markdown) mixed with ordinary banking sentences, and a way to time a reader on them.

A turn that costs far more than the median turn is a reader whose work grows faster than the
text (a pattern that backtracks from every position, a rescan per bracket). Timings are noisy on
a shared machine, so a turn over the bound is timed again and its fastest run counts.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable, Iterator

from pytest_bankbench.simulation.trace import MessageEvent, Trace

UNITS = (
    "1", "9", "Rs 1 ", "₹1,", "1 lakh ", "1,", "1.", "1 day ", "12 years ", "(", ")", "[", "]",
    "{", "}", '{"a": ', '"k": 1, ', "**", "__", "`", "#", "> ", "- ", "| ", "\n", "\n\n", " ",
    "\t", "x", "X", "...", "? ", "! ", "if ", "if you can, ", "ending ", "ending in 1234 ",
    "account ", "a/c no. ", "NEFT ", "confirm ", "yes ", "no ", "not ", "please ", "pin ",
    "otp ", "cvv ", "lien ", "lock-in ", "shall i proceed? ", "😀", "\u200b", "ा",
)  # fmt: skip
SENTENCES = (
    "Your balance is Rs 5,000.",
    "Shall I transfer Rs 2,00,000 by NEFT from the account ending 1234?",
    "The FD is under lien, so it cannot be closed.",
    "Please confirm with yes to proceed.",
    "I have blocked the card; the reference is SR123456.",
    "Is there anything else I can help with?",
)


def turns(count: int, seed: int = 19, longest: int = 2000) -> Iterator[str]:
    """`count` turns: one or two units repeated to a random length up to `longest` characters,
    with an ordinary sentence before or after half the time."""
    rng = random.Random(seed)
    for _ in range(count):
        units = rng.sample(UNITS, rng.choice((1, 1, 2)))
        length = rng.randint(longest // 4, longest)
        body = "".join(units) * (length // len("".join(units)) + 1)
        body = body[:length]
        if rng.random() < 0.5:
            sentence = rng.choice(SENTENCES)
            body = f"{sentence} {body}" if rng.random() < 0.5 else f"{body} {sentence}"
        yield body


def _seconds(work: Callable[[str], object], text: str, prepare: Callable[[], object]) -> float:
    reader = prepare()  # not timed: a fresh customer, say
    started = time.perf_counter()
    work(text) if reader is None else work(text, reader)  # type: ignore[call-arg]
    return time.perf_counter() - started


def slow_turns(
    work: Callable[..., object],
    texts: list[str],
    bound: float = 10.0,
    prepare: Callable[[], object] = lambda: None,
) -> tuple[float, list[tuple[float, str]]]:
    """The median cost of a turn, and the turns whose fastest of three runs costs more than
    `bound` times the median (as (multiple, the turn's first 80 characters)). `prepare` makes
    what `work(text, made)` reads the turn with, outside the timing."""
    costs = [_seconds(work, text, prepare) for text in texts]
    median = statistics.median(costs)
    slow = []
    for cost, text in zip(costs, texts, strict=True):
        if cost > bound * median:
            best = min(cost, *(_seconds(work, text, prepare) for _ in range(2)))
            if best > bound * median:
                slow.append((best / median, text[:80]))
    return median, slow


def in_last_agent_message(session: Trace) -> Callable[[str], Trace]:
    """Puts a turn before the text of the session's last agent message: the scorer then reads it
    everywhere it reads what the agent said."""
    last = max(
        i for i, e in enumerate(session.events) if isinstance(e, MessageEvent) and e.role == "agent"
    )

    def with_turn(text: str) -> Trace:
        events = list(session.events)
        said = events[last]
        assert isinstance(said, MessageEvent)
        events[last] = MessageEvent(role="agent", text=f"{text} {said.text}")
        return session.model_copy(update={"events": tuple(events)})

    return with_turn
