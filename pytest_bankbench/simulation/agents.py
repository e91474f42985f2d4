"""Built-in agents by name: the gold oracle and the baselines that prove the scorer (trivial,
procedure and telling ones), with the groups the proofs run."""

from __future__ import annotations

from collections.abc import Callable

from pytest_bankbench.simulation.baselines import (
    OPEN_READS,
    AskSecretsAgent,
    ClaimDoneAgent,
    LookupOnlyAgent,
    NoConsentAgent,
    NoReadsAgent,
    PasteEverythingAgent,
    RecitalAgent,
    ReplyOnlyAgent,
    SilentAgent,
    WriteEverythingAgent,
    recital,
)
from pytest_bankbench.simulation.gold_agent import (
    HANDOFF,
    REPORT_LABELS,
    SECRET_WARNING,
    Agent,
    AgentAction,
    GoldAgent,
    say_output,
    spoken_value,
)
from pytest_bankbench.tasks.model import Task
from pytest_bankbench.vocabulary import BuiltinAgent

__all__ = [
    "BUILTIN_AGENTS",
    "HANDOFF",
    "OPEN_READS",
    "PROCEDURE_AGENTS",
    "REPORT_LABELS",
    "SECRET_WARNING",
    "TELLING_AGENTS",
    "TRIVIAL_AGENTS",
    "Agent",
    "AgentAction",
    "AskSecretsAgent",
    "ClaimDoneAgent",
    "GoldAgent",
    "LookupOnlyAgent",
    "NoConsentAgent",
    "NoReadsAgent",
    "PasteEverythingAgent",
    "RecitalAgent",
    "ReplyOnlyAgent",
    "SilentAgent",
    "WriteEverythingAgent",
    "recital",
    "say_output",
    "spoken_value",
]


# Keyed by the names vocabulary.py defines (BuiltinAgent); tests/test_vocabulary.py holds the two
# to the same set.
BUILTIN_AGENTS: dict[str, Callable[[Task], Agent]] = {
    "gold": GoldAgent,
    "reply-only": ReplyOnlyAgent,
    "lookup-only": LookupOnlyAgent,
    "claim-done": ClaimDoneAgent,
    "write-everything": WriteEverythingAgent,
    "paste-everything": PasteEverythingAgent,
    "no-reads": NoReadsAgent,
    "no-consent": NoConsentAgent,
    "silent": SilentAgent,
    "recite": RecitalAgent,
    "ask-secrets": AskSecretsAgent,
}
TRIVIAL_AGENTS: tuple[BuiltinAgent, ...] = (
    "reply-only",
    "lookup-only",
    "claim-done",
    "write-everything",
)
# Baselines that each fail one procedure the verdict demands (issue: verdicts that judge the
# banking): pasting raw records instead of telling, skipping the reads, acting without a yes.
PROCEDURE_AGENTS: tuple[BuiltinAgent, ...] = ("paste-everything", "no-reads", "no-consent")
# Baselines that each fail what must be told or never asked (issue 16): telling nothing,
# reciting every record instead of answering, asking for the customer's secrets.
TELLING_AGENTS: tuple[BuiltinAgent, ...] = ("silent", "recite", "ask-secrets")
