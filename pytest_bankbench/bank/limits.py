"""The policy's limits on a deposit booking's numbers, read from a call's raw arguments (H.29).

A booking outside them is a request the policy refuses: an attempt, whatever the tool answers.
The tools check these limits themselves and refuse with a rule violation, but a number their
schema already rejects (an FD tenure of 0 days or over 36,500, an amount of Rs 0) is refused as
invalid arguments before any rule runs. The scorer reads the call with this module so that both
refusals count alike (issue 16 item 3). A call whose number is not a number at all ("365 days",
"1 lakh") or that leaves one out is malformed, not an attempt: retried rightly, it passes.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from decimal import Decimal, InvalidOperation
from typing import Any

from pytest_bankbench.bank import rules

Limit = Callable[[Decimal], bool]  # True when the number is within the policy's limit


def _between(low: Decimal, high: Decimal, step: Decimal | None = None) -> Limit:
    return lambda n: low <= n <= high and (step is None or n % step == 0)


_RUPEE = Decimal(100)
# Each booking tool's limited arguments: the policy's limit, and how the policy states it.
LIMITS: dict[str, dict[str, tuple[Limit, str]]] = {
    "create_fd": {
        "amount": (
            _between(rules.FD_MIN / _RUPEE, rules.FD_MAX / _RUPEE),
            "an FD of Rs 10,000 to Rs 2,00,00,000",
        ),
        "tenure_days": (
            _between(Decimal(rules.FD_MIN_DAYS), Decimal(rules.FD_MAX_DAYS), Decimal(1)),
            f"an FD tenure of {rules.FD_MIN_DAYS} to {rules.FD_MAX_DAYS} days",
        ),
    },
    "create_rd": {
        "monthly_instalment": (
            _between(rules.RD_MIN_INSTALMENT / _RUPEE, Decimal("Infinity"), rules.RD_STEP / _RUPEE),
            "an RD instalment of at least Rs 500 in multiples of Rs 100",
        ),
        "tenure_months": (
            _between(Decimal(6), Decimal(120), Decimal(3)),
            "an RD tenure of 6 to 120 months in multiples of 3",
        ),
    },
}


def _number(value: Any) -> Decimal | None:
    """A JSON number or a string of one; anything else (a word, a unit, a list) is None."""
    if isinstance(value, bool) or not isinstance(value, int | float | str | Decimal):
        return None
    try:
        number = Decimal(str(value).strip())
    except InvalidOperation:
        return None
    return number if number.is_finite() else None


def outside_limits(tool: str, arguments: Mapping[str, Any] | None) -> list[str]:
    """The policy limits the call's numbers break ("an FD tenure of 7 to 3650 days: 0")."""
    found = []
    for name, (within, stated) in LIMITS.get(tool, {}).items():
        number = _number((arguments or {}).get(name))
        if number is not None and not within(number):
            found.append(f"{stated}: {(arguments or {})[name]!r}")
    return found
