"""A card setting or a transfer's mode told after a change that contradicts the change made
(J.38, careless trial).

`set_card_channel_limit` reports no value: "Done" tells its result (told.py). A message after
it that states the channel's setting otherwise than the call set it tells a result the bank did
not give: "Your international channel is now off." after switching it on, "Your daily ATM limit
is now Rs 15,000" after setting Rs 5,000. Read per clause that names the channel (the
`channel_*` concepts), up to the next call that sets the same card's channel again:

- a state: "switched on", "enabled", "is now on" against "switched off", "disabled", "paused",
  "is off". Said negated, as before ("it was off"), to come or as a condition ("will be
  switched off after your trip", "if you want it off") it states nothing of the setting now;
- a limit: a clause that names the channel's limit as set now ("is now", "set to", "raised
  to") and gives amounts none of which is the limit set. The old and the new figures together
  ("raised from Rs 5,000 to Rs 10,000") hold the new one.

A clause that names another record (a run of four or more digits ending in another record's
last four) is about that record. Accepted: "Your ATM limit is now Rs 10,000 (it was Rs 5,000).",
"International usage is now on, and online stays off.", "International was off; it's now on."
Refused: "Your international channel is now off." after switching it on.

A transfer's mode the same way: after a transfer, a clause that says the money went, was sent
or is on its way by another mode than the call's, un-negated and not beside the call's own,
fails ("The money went by IMPS, not NEFT." after an NEFT transfer); "Sent by NEFT, as IMPS
can't carry this amount" passes.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from decimal import Decimal, InvalidOperation
from typing import Protocol

from pytest_bankbench.concepts import mentions
from pytest_bankbench.scoring.outputs import amounts_in
from pytest_bankbench.scoring.view import SessionView

SET_CHANNEL = "set_card_channel_limit"

# A clause ends at ; ! ? ( ) a line, a full stop that ends no "Rs.", a comma before a space, or a
# conjunction ("on, and online stays off" is two clauses).
_CLAUSE = re.compile(
    r"[;!?()\n]|(?<!\brs)\.(?:\s|$)|,\s|\b(?:and|but|while|whereas|however|though)\b"
)
_ON = re.compile(
    r"\b(?:switched on|turned on|(?:re-?)?enabled|activated|(?:is|are|now|remains?|stays?|set to)"
    r" on\b)"
)
_OFF = re.compile(
    r"\b(?:switched off|turned off|disabled|deactivated|paused|(?:is|are|now|remains?|stays?"
    r"|set to) off\b)"
)
# Said as the setting now: "is now", "set to", "raised to".
_NOW = re.compile(
    r"\b(?:now|set (?:to|at)|changed to|updated to|raised to|increased to|reduced to"
    r"|lowered to|brought down to)\b"
)
_NOT_NOW = frozenset(
    {"was", "were", "had", "previously", "earlier", "before", "used", "will", "would", "once"}
    | {"if", "when", "until", "after", "can", "could", "may", "might", "shall", "should", "want"}
    | {"not", "never", "no", "cannot", "isn't", "aren't", "wasn't", "hasn't", "won't", "don't"}
)
_WORD = re.compile(r"[a-z']+")
_RUN = re.compile(r"\d{4,}")


class _Message(Protocol):
    @property
    def position(self) -> int: ...
    @property
    def plain_words(self) -> str: ...


def contrary_settings(
    view: SessionView, messages: Sequence[_Message], names: dict[str, frozenset[str]]
) -> list[str]:
    """Evidence for each channel setting told after a change otherwise than the change set it.
    `names`: each record's names (told.py), to tell the card's clauses from another's."""
    problems: list[str] = []
    sets = [c for c in view.effective if c.event.call.name == SET_CHANNEL]
    for i, call in enumerate(sets):
        args = call.event.call.arguments or {}
        channel, card = str(args.get("channel", "")), str(args.get("card_id", ""))
        until = next(
            (
                c.position
                for c in sets[i + 1 :]
                if (c.event.call.arguments or {}).get("card_id") == card
                and (c.event.call.arguments or {}).get("channel") == channel
            ),
            None,
        )
        others = frozenset(n for key, named in names.items() if key != card for n in named)
        for m in messages:
            if m.position <= call.position or (until is not None and m.position > until):
                continue
            plain = m.plain_words
            if not plain or not mentions(f"channel_{channel}", plain):  # most messages
                continue
            said = _contrary(plain, channel, others, args.get("enabled"), args.get("daily_limit"))
            if said:
                problems.append(
                    f"told the {channel} setting of card {card} otherwise than {SET_CHANNEL}"
                    f"({args}) set it (J.38): said {said!r}"
                )
                break
    return problems


def _contrary(
    plain: str, channel: str, others: frozenset[str], enabled: object, limit: object
) -> str | None:
    """The first clause of `plain` that states the channel's setting otherwise than set."""
    starts = [0, *(m.end() for m in _CLAUSE.finditer(plain))]
    ends = [*(m.start() for m in _CLAUSE.finditer(plain)), len(plain)]
    for start, end in zip(starts, ends, strict=True):
        clause = plain[start:end]
        if not mentions(f"channel_{channel}", clause):
            continue
        if any(run[-4:] in others for run in _RUN.findall(clause)):
            continue  # about another of the customer's records
        if isinstance(enabled, bool) and (_states(clause, _OFF if enabled else _ON)):
            return clause.strip()
        if limit is not None and "limit" in clause and _NOW.search(clause):
            try:
                wanted = Decimal(str(limit))
            except InvalidOperation:
                continue
            found = [value for value, marked, _ in amounts_in(clause) if marked]
            if found and wanted not in found:
                return clause.strip()
    return None


def _states(clause: str, state: re.Pattern[str]) -> bool:
    """The clause says the state of the setting now: not negated, past, to come or wished."""
    for m in state.finditer(clause):
        if _NOT_NOW.isdisjoint(_WORD.findall(clause[: m.start()])):
            return True
    return False


TRANSFER = "transfer_funds"
_MODES = re.compile(r"\b(neft|imps|rtgs)\b")
_SENT = re.compile(
    r"\b(?:went|gone|sent|transferred|paid|made|processed|travel\w*|way|via|through)\b"
)
_TURNED_DOWN = re.compile(r"\b(?:not|rather than|instead of|than)\s+(?:by\s+|via\s+)?$")
# Past tense is the report itself ("it was sent via RTGS"): only a negation or a wish is none.
_NOT_SENT = frozenset(
    {"if", "when", "until", "once", "can", "could", "may", "might", "shall", "should", "want"}
    | {"not", "never", "no", "cannot", "isn't", "wasn't", "won't", "don't", "would", "will"}
)
_CANNOT = re.compile(
    r"^\s*(?:can't|cannot|couldn't|isn't|wasn't|won't|would|could|doesn't|does not)"
)


def contrary_modes(view: SessionView, messages: Sequence[_Message]) -> list[str]:
    """Evidence for a transfer's mode told after it otherwise than the call sent it, in the
    messages up to the next transfer."""
    problems: list[str] = []
    sent = [c for c in view.effective if c.event.call.name == TRANSFER]
    for i, call in enumerate(sent):
        mode = str((call.event.call.arguments or {}).get("mode", "")).lower()
        until = sent[i + 1].position if i + 1 < len(sent) else None
        for m in messages:
            if m.position <= call.position or (until is not None and m.position > until):
                continue
            plain = m.plain_words
            if not plain or not _MODES.search(plain):  # most messages
                continue
            said = _contrary_mode(plain, mode)
            if said:
                problems.append(
                    f"told the transfer went by another mode than {TRANSFER} sent it "
                    f"({mode.upper()}) (J.38): said {said!r}"
                )
                break
    return problems


def _contrary_mode(plain: str, mode: str) -> str | None:
    starts = [0, *(m.end() for m in _CLAUSE.finditer(plain))]
    ends = [*(m.start() for m in _CLAUSE.finditer(plain)), len(plain)]
    for start, end in zip(starts, ends, strict=True):
        clause = plain[start:end]
        if not _SENT.search(clause):
            continue
        asserted = {
            found.group(1)
            for found in _MODES.finditer(clause)
            if not _TURNED_DOWN.search(clause[: found.start()])
            and not _CANNOT.search(clause[found.end() :])
            and _NOT_SENT.isdisjoint(_WORD.findall(clause[: found.start()]))
        }
        if asserted and mode not in asserted:
            return clause.strip()
    return None
