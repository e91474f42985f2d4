"""The act reader on a corpus of agent turns written as assistant models write them.

Each line of agent_turns.txt is a turn and the acts a person reads in it; the reader must read
the same acts (and, for questions, at least the labelled topics). A phrasing the customer
misreads is fixed by a line here and a row in simulation/acts_rules.py.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import pytest

from pytest_bankbench.simulation import acts
from pytest_bankbench.simulation.acts import read
from pytest_bankbench.simulation.acts_rules import ACTS, Act
from pytest_bankbench.simulation.acts_text import said, split
from pytest_bankbench.tasks.model import TOPICS, Topic

CORPUS = Path(__file__).with_name("agent_turns.txt")


@dataclass(frozen=True)
class Turn:
    line: int
    acts: frozenset[Act]
    topics: frozenset[Topic]
    style: str
    text: str


def _turns() -> list[Turn]:
    turns = []
    for number, raw in enumerate(CORPUS.read_text(encoding="utf-8").splitlines(), 1):
        if not raw.strip() or raw.startswith("#"):
            continue
        labels, style, text = (part.strip() for part in raw.split("|", 2))
        acts: set[Act] = set()
        topics: set[Topic] = set()
        for label in labels.split():
            if label == "-":
                continue
            act, _, named = label.partition(":")
            assert act in ACTS, f"line {number}: unknown act {act!r}"
            acts.add(act)
            for topic in filter(None, named.split(",")):
                assert topic in TOPICS, f"line {number}: unknown topic {topic!r}"
                topics.add(topic)
        text = text.replace("\\n", "\n")
        turns.append(Turn(number, frozenset(acts), frozenset(topics), style, text))
    return turns


TURNS = _turns()


@pytest.mark.parametrize("turn", TURNS, ids=lambda t: f"L{t.line}-{t.style}")
def test_the_reader_reads_each_turn_as_labelled(turn: Turn) -> None:
    reading = read(turn.text)
    assert reading.acts == turn.acts, f"line {turn.line}: {turn.text!r}"
    assert turn.topics <= reading.topics, f"line {turn.line}: {sorted(reading.topics)}"


def test_the_corpus_is_large_varied_and_covers_every_act() -> None:
    assert len(TURNS) >= 300
    styles = Counter(t.style.split("-")[0] for t in TURNS)
    for style in ("gpt", "claude", "gemini", "llama", "qwen", "terse", "verbose", "polite"):
        assert styles[style] >= 3, style
    assert styles["markdown"] + styles["bulleted"] >= 5
    assert sum(len(t.acts) > 1 for t in TURNS) >= 40
    assert {a for t in TURNS for a in t.acts} == set(ACTS)
    assert len({t.text for t in TURNS}) == len(TURNS), "a turn is listed twice"


@pytest.mark.parametrize(
    ("text", "sentences"),
    [
        ("Your balance is Rs. 5,000. Anything else?", 2),
        ("The rate is 7.1% p.a. for 3 years.", 1),
        ("**Done.**\n- Amount: Rs. 500\n\n| a | b |\n|---|---|", 3),
        ("Shall I proceed? (yes/no)", 2),
    ],
)
def test_sentences_are_cut_where_people_end_them(text: str, sentences: int) -> None:
    assert len(split(text)) == sentences


def test_a_proposal_names_what_it_would_do() -> None:
    assert read("Would you like me to block the card?").actions == {"block"}
    assert read("I'll send Rs 500 by IMPS. Shall I proceed?").actions == {"transfer"}
    assert read("Before I transfer you, shall I block the card?").actions == {"block"}
    assert read("Shall I check your balance?").actions == {"look"}
    assert read("I checked: you have enough money. Shall I proceed?").actions == set()


def test_a_pasted_record_is_read_quickly_and_as_a_report() -> None:
    pasted = "Here is everything on file:\n" + '{"balance": "5000.00", "id": 1} ' * 2000
    assert read(pasted).acts == {"done"}


def test_a_kept_reading_is_the_reading_of_its_text() -> None:
    """Readings are kept per text (issue 11, item 7): the kept one is what reading again gives."""
    text = "Hello! I'll send Rs 500 by IMPS. Shall I proceed?"
    assert read(text) is read(text)
    assert read(text) == read.__wrapped__(text)


def test_the_rules_compile_once_when_many_sessions_read_at_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import threading
    import time

    from pytest_bankbench.simulation import acts_sentence

    compiled = acts_sentence._compile
    calls: list[int] = []

    def slow() -> acts_sentence._Rules:
        calls.append(1)
        time.sleep(0.05)  # long enough for every thread to arrive while it runs
        return compiled()

    monkeypatch.setattr(acts_sentence, "_COMPILED", [])
    monkeypatch.setattr(acts_sentence, "_compile", slow)
    readers = [threading.Thread(target=acts_sentence._rules) for _ in range(16)]
    for thread in readers:
        thread.start()
    for thread in readers:
        thread.join()
    assert calls == [1]


def test_a_turn_that_recites_every_record_is_read_at_its_ends() -> None:
    """An agent that lists thousands of records a turn is read at its first and last sentences
    (the work per turn is bounded); what it asks at the end still counts."""
    records = "\n".join(f"- Rs {1000 + i} paid to M{i} on 2024-03-01." for i in range(3000))
    reading = read(f"Here are your transactions:\n{records}\nShall I block the card?")
    assert len(reading.sentences) == 2 * acts._ENDS
    assert "confirm" in reading.acts


@pytest.mark.parametrize(
    ("text", "heard"),
    [
        ('{"message": "Your card is blocked."}', "Your card is blocked."),
        (
            '{"reply": "Done.", "next_steps": ["Check your SMS.", "Call us."]}',
            "Done.\nCheck your SMS.\nCall us.",
        ),
        ('"Which account should I use?"', "Which account should I use?"),
        ('{"name": "block_card", "arguments": {"card_id": "C1"}}', ""),
        ("{not json} Shall I proceed?", "{not json} Shall I proceed?"),
        ("Shall I block the card?", "Shall I block the card?"),
    ],
)
def test_a_json_reply_is_heard_as_its_strings_and_a_tool_call_as_nothing(
    text: str, heard: str
) -> None:
    assert said(text) == heard
