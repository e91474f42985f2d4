"""The look-ups policy C.11 demands before a write, added to every gold chain in one place.

"Before changing anything, look the record up ... and check its current state: status, balance
and available balance, ..., KYC status." A family writes only what its request needs; this
module adds, before each write that debits an account, the fact of that account's status and
available balance, and before each deposit booking, the fact of the customer's KYC status,
unless the chain already establishes them earlier. Which argument a write debits is declared
with the tool (`debits`), not listed here per family.
"""

from __future__ import annotations

import re
from dataclasses import replace

from pytest_bankbench.authoring.base import Call, Need
from pytest_bankbench.bank.registry import get_tool
from pytest_bankbench.errors import BankBenchError

DEBIT_FIELDS = ("status", "available_balance")
BOOKINGS = frozenset({"create_fd", "create_rd"})
_POSITIONAL = re.compile(r"[ck]\d+")


class StepNameClash(BankBenchError, ValueError):
    """Two calls of a draft share a step name, or one is named like a position ("c2", "k1")."""


def _covered(earlier: list[Call], need: Need) -> bool:
    return any(
        c.facts is not None
        and c.facts.entity == need.entity
        and c.facts.key == need.key
        and set(need.fields) <= set(c.facts.fields)
        for c in earlier
    )


def needed_checks(call: Call, earlier: list[Call], customer_id: str) -> list[Call]:
    """The look-ups to add before `call`, given the calls the chain makes before it."""
    spec = get_tool(call.tool)
    if spec.kind != "write":
        return []
    checks: list[Call] = []
    if call.tool in BOOKINGS:
        need = Need("customer", customer_id, ("kyc_status",))
        if not _covered(earlier, need):
            checks.append(Call("get_customer_profile", facts=need, instruction=call.instruction))
    number = call.args.get(spec.debits) if spec.debits else None
    if isinstance(number, str):
        need = Need("account", number, DEBIT_FIELDS)
        if not _covered(earlier, need):
            checks.append(
                Call(
                    "get_account_balance",
                    {"account_number": number},
                    facts=need,
                    instruction=call.instruction,
                )
            )
    return checks


def with_checks(calls: list[Call], customer_id: str) -> tuple[list[Call], list[str]]:
    """The chain with the checks inserted before their writes, and each call's id in the draft
    (its step name, else `cN`, for the family's own calls; `kN` for added ones); `after` still
    names draft ids."""
    out: list[Call] = []
    ids: list[str] = []
    added = 0
    for position, call in enumerate(calls, start=1):
        checks = needed_checks(call, out, customer_id)
        check_ids = []
        for check in checks:
            added += 1
            check_ids.append(f"k{added}")
            out.append(check)
            ids.append(check_ids[-1])
        out.append(replace(call, after=(*call.after, *check_ids)) if checks else call)
        ids.append(call.step or f"c{position}")
    if len(set(ids)) < len(ids) or any(_POSITIONAL.fullmatch(c.step) for c in calls if c.step):
        raise StepNameClash(f"step names must be unique and not positional ids: {ids}")
    return out, ids
