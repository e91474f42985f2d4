"""Test reports shown without credentials: the terminal, JUnit XML and the xdist relay.

Issue 19: a harness error's traceback was redacted in its record but not where pytest shows
it. A wrong-typed model argument printed `api_key = '...'` and the environment's key in the
terminal and in `<failure>` of the JUnit XML. Every failed report's longrepr (pytest's repr
objects: traceback entries, source lines, locals, the crash line, chained exceptions) and
its captured sections are rewritten in place, string by string, so the structure that the
terminal, the short summary, JUnit and xdist's serialisation read stays the same.
"""

from __future__ import annotations

import contextlib
from typing import Any

import pytest

from pytest_bankbench.redaction import redact_text, scrub

# Objects of these modules are pytest's report reprs, walked attribute by attribute.
_REPR_MODULES = ("_pytest.",)


def _redacted(value: Any, seen: set[int]) -> Any:
    """`value` with every string in it redacted; pytest's repr objects are changed in place."""
    if isinstance(value, str):
        return redact_text(value)
    if id(value) in seen:
        return value
    seen.add(id(value))
    if isinstance(value, list):
        value[:] = [_redacted(v, seen) for v in value]
        return value
    if isinstance(value, tuple):
        return tuple(_redacted(v, seen) for v in value)
    if isinstance(value, dict):
        return {k: _redacted(v, seen) for k, v in value.items()}
    if type(value).__module__.startswith(_REPR_MODULES) and hasattr(value, "__dict__"):
        for name, attr in list(vars(value).items()):
            if isinstance(attr, str | list | tuple | dict) or hasattr(attr, "__dict__"):
                # A frozen repr (FrozenInstanceError is an AttributeError) keeps its strings.
                with contextlib.suppress(AttributeError):
                    setattr(value, name, _redacted(attr, seen))
    return value


def redact_report(report: pytest.TestReport) -> None:
    """Redact a report's failure repr (or text) and captured output before anyone shows it."""
    if report.longrepr is not None:
        report.longrepr = _redacted(report.longrepr, set())
    if report.sections:
        report.sections = [(title, redact_text(text)) for title, text in report.sections]
    report.user_properties = [
        (name, scrub(value) if isinstance(value, str) else value)
        for name, value in report.user_properties
    ]
