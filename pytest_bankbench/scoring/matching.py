"""Whether an agent's call is a gold call: the same tool, and each matched argument equal to the
gold's value (or another the policy allows) after normalization and the tool's defaults."""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation
from functools import lru_cache
from typing import Any

from pytest_bankbench.bank.registry import get_tool
from pytest_bankbench.scoring.view import Call
from pytest_bankbench.simulation.trace import ToolEvent
from pytest_bankbench.tasks.model import GoldCall

_NUMBER = re.compile(r"^[+-]?\d+(\.\d+)?$")


def normalize(value: Any) -> Any:
    """Matched-argument normal form: numbers by value, strings by case-free trimmed text."""
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, int | float | str):
        return _normal(value)
    return value


@lru_cache(maxsize=1024, typed=True)  # a session compares the same few values many times
def _normal(value: int | float | str) -> Decimal | str:
    if not isinstance(value, str):
        return Decimal(str(value)).normalize()
    text = value.strip().lower()
    if _NUMBER.match(text):
        try:
            return Decimal(text).normalize()
        except InvalidOperation:  # pragma: no cover - guarded by the pattern
            return text
    return text


_TRUTHY, _FALSY = frozenset({"true", "yes", "on", "1"}), frozenset({"false", "no", "off", "0"})


def _flag(value: Any) -> bool | None:
    """A yes/no argument read the way the bank's validation reads it."""
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    return True if text in _TRUTHY else False if text in _FALSY else None


def same_value(gold: Any, got: Any) -> bool:
    """Matched-argument equality: flags by truth value, else by normal form."""
    if got == gold and type(got) is type(gold):  # the same value: equal in every reading
        return True
    if isinstance(gold, bool):
        return _flag(got) is gold
    if isinstance(got, bool):
        return False
    return bool(normalize(got) == normalize(gold))


def matches(gold: GoldCall, event: ToolEvent) -> bool:
    """Same tool, and every matched argument equal, after normalization and schema defaults, to
    the gold's value or another the policy allows (`allowed`: NEFT or IMPS)."""
    if event.call.name != gold.tool or event.call.arguments is None:
        return False
    return _args_match(gold, get_tool(gold.tool).with_defaults(event.call.arguments))


def matches_call(gold: GoldCall, call: Call) -> bool:
    """matches() on a call of a session's view: its arguments with defaults are read once."""
    if call.event.call.name != gold.tool:
        return False
    args = call.arguments
    return args is not None and _args_match(gold, args)


def _args_match(gold: GoldCall, args: dict[str, Any]) -> bool:
    """Each matched argument equal to one of gold.values(name): the gold's own value first, the
    values the policy also allows (few calls have any) only when it differs."""
    allowed = gold.allowed
    for name in gold.match:
        if name not in args:
            return False
        got = args[name]
        if same_value(gold.arguments[name], got):
            continue
        if not (allowed and any(same_value(value, got) for value in allowed.get(name, ()))):
            return False
    return True
