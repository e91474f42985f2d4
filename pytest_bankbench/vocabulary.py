"""The benchmark's names and default limits, each defined once (issue 11, item 3).

Splits, task categories, service areas and built-in agent names are Literal types here; the
tuples are read from them, so a name is written in exactly one place. The task model, the
options, the pytest markers and the agent registry all derive from this module. It imports only
`typing`: the pytest11 entry module (plugin/) reads the markers from it at every pytest start.
"""

from __future__ import annotations

from typing import Literal, get_args

Split = Literal["base", "lite", "train", "test"]
Category = Literal["sequencing", "control", "edge_case", "rare_tool"]
ServiceArea = Literal["everyday", "deposits", "loans", "cards"]
# The agents --bank-model accepts without a model; simulation/agents.py maps each to its class
# (tests/test_vocabulary.py holds BUILTIN_AGENTS to this list).
BuiltinAgent = Literal[
    "gold",
    "reply-only",
    "lookup-only",
    "claim-done",
    "write-everything",
    "paste-everything",
    "no-reads",
    "no-consent",
    "silent",
    "recite",
    "ask-secrets",
]

GOLD: BuiltinAgent = "gold"  # the oracle: it follows each task's gold chain

SPLITS: tuple[Split, ...] = get_args(Split)
CATEGORIES: tuple[Category, ...] = get_args(Category)
SERVICE_AREAS: tuple[ServiceArea, ...] = get_args(ServiceArea)
BUILTIN_NAMES: tuple[BuiltinAgent, ...] = get_args(BuiltinAgent)

DEFAULT_SPLIT: Split = "base"
# Session limits (--bank-max-steps, --bank-max-errors): a step is one agent move or tool call.
DEFAULT_MAX_STEPS = 200
DEFAULT_MAX_ERRORS = 10

_CATEGORY_TEXT: dict[Category, str] = {
    "sequencing": "dependent multi-call chains",
    "control": "straightforward requests",
    "edge_case": "decline, correct, tell apart, stay within limits",
    "rare_tool": "the least used tools",
}
_SERVICE_AREA_TEXT: dict[ServiceArea, str] = {
    "everyday": "accounts, transfers, cheques, statements",
    "deposits": "fixed and recurring deposits",
    "loans": "loans",
    "cards": "debit and credit cards",
}
# Every benchmark test carries its category and service area as markers (-m edge_case);
# indexing by the tuples makes a name without a description fail at import.
MARKERS: dict[str, str] = {
    **{name: f"bank task category: {_CATEGORY_TEXT[name]}" for name in CATEGORIES},
    **{name: f"bank service area: {_SERVICE_AREA_TEXT[name]}" for name in SERVICE_AREAS},
}

# A model string naming the managed local model (llama.cpp's server, started by the run).
LOCAL_MODEL_PREFIX = "local/"
