"""A value agreed with the customer before a call: the `agree` tells (tasks/model.py `MustTell`).

C.10 on a tenure given in months: "agree the exact number of days with them before quoting".
An agent that works out 914 days itself and quotes for them, never saying so or without a yes,
has agreed nothing. The value counts as agreed when, before the call:

- the customer said it ("30 months from today is 11 December 2028, so 914 days"): what the
  customer says is agreed by them; or
- the agent said it and the customer's next turn was a yes ("That is 914 days - shall I quote
  for 914 days?" "Yes.", the customer's own reading of its turn, else its text's, as consent
  reads a yes). A turn that answers with something else agrees to nothing.

Only the words count, read by the value readers (scoring/outputs.py); raw tool output in an
agent message is no statement to the customer.
"""

from __future__ import annotations

from collections.abc import Sequence

from pytest_bankbench.scoring.consent import agrees
from pytest_bankbench.scoring.outputs import said
from pytest_bankbench.scoring.view import Message
from pytest_bankbench.tasks.model import MustTell


def _says(tell: MustTell, text: str) -> bool:
    return any(
        said(v.kind, value, text, unit=v.unit, rivals=v.rivals)
        for v in tell.values
        for value in (v.value, *v.also)
    )


def agreed(tell: MustTell, messages: Sequence[Message], limit: int | None) -> bool:
    """The tell's value agreed before position `limit` (None: anywhere in the session):
    said by the customer, or said by the agent and answered with a yes."""
    before = [m for m in messages if limit is None or m.position < limit]
    for index, message in enumerate(before):
        if not _says(tell, message.text):
            continue
        if message.role == "customer":
            return True
        reply = next((m for m in before[index + 1 :] if m.role == "customer"), None)
        if reply is not None and agrees(reply.event):
            return True
    return False


def unagreed(tell: MustTell, point: str) -> str:
    """The evidence line for an `agree` tell not agreed."""
    values = " or ".join(
        f"{v.label} {v.value}{f' {v.unit}' if v.unit else ''}" for v in tell.values
    )
    return (
        f"never agreed the {tell.label} with the customer{point} (C.10): expected {values}, "
        "said by the customer, or said by the agent and answered with a yes"
    )
