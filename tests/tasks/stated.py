"""How a test reads an agent's statement of a rule, the way the scripted customer does: an
`after` entry that names a concept of the shared vocabulary (task_data/concepts.toml) is stated when
the concept is said un-negated; any other entry is a phrase said as it is ("50,000")."""

from __future__ import annotations

from pytest_bankbench.concepts import says, vocabulary


def is_concept(entry: str) -> bool:
    return entry in vocabulary()


def stated(entry: str, text: str) -> bool:
    """The text states the rule `entry` stands for."""
    if is_concept(entry):
        return says(entry, text)
    return entry.lower() in text.lower()
