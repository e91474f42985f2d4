"""A card setting or a transfer's mode told after a change that contradicts the change made
(J.38, careless trial).

`set_card_channel_limit` reports no value: "Done" tells its result (told.py). A message after
it that states the channel's setting otherwise than the call set it tells a result the bank did
not give: "Your international channel is now off." after switching it on, "Your daily ATM limit
is now Rs 15,000" after setting Rs 5,000. Read per clause that names the channel (the
`channel_*` concepts), up to the next call that sets the same card's channel again:

- a state: "switched on", "enabled", "is now on", "is active", "is live", "ATM: ON" against
  "switched off", "disabled", "paused", "is off", "stays blocked", "Int'l: OFF". Said negated, as before ("it was off"), to come or as a condition ("will be
  switched off after your trip", "if you want it off") it states nothing of the setting now;
- a limit: a clause that names the channel's limit as set now ("is now", "set to", "raised
  to") and gives amounts none of which is the limit set. The old and the new figures together
  ("raised from Rs 5,000 to Rs 10,000") hold the new one.

A clause that names another record (a run of four or more digits ending in another record's
last four, or "your other cards") is about that record. A clause naming no channel is about the
one set last before the message when it says "that channel", or for a limit a daily one ("your
daily cap is now Rs 15,000"; careless trial round 3). Accepted: "Your ATM limit is now Rs 10,000 (it was Rs 5,000).",
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

# A clause ends at ; ! ? ( ) a line, a full stop that ends no "Rs.", a comma before a space, a
# slash or bar between spaces ("Int'l: ON / ATM: OFF"), or a conjunction ("on, and online stays
# off" is two clauses).
_CLAUSE = re.compile(
    r"[;!?()\n]|(?<!\brs)\.(?:\s|$)|,\s|\s[/|]\s"
    r"|\b(?:and|but|while|whereas|however|though)\b"
)
# A state said in any words: "switched on", "is now active", "stays blocked", "is live", a line
# "ATM: OFF" (careless trial round 3: "International usage stays blocked" after switching it on,
# "international usage is active" after switching it off, "CH: ON" lines each passed).
# The word between may not be a state of its own ("are now disabled on your card": careful-wording
# hunt round 4, 10/10 of pause_card_channels), and "on" before "your card" is where, not a state.
_STATE_WORD = (
    r"(?!(?:disabled|off|blocked|paused|stopped|suspended|deactivated|barred|closed|restricted"
    r"|inactive|frozen|locked|enabled|activated|active|live|allowed)\b)"
)
_BEING = r"(?:is|are|now|remains?|stays?|set to|kept|left)\s+(?:" + _STATE_WORD + r"\w+\s+)?"
_WHERE = r"(?!\s+(?:your|the|this|that|its|my|all|both|each|every|any|cards?)\b)"
_ON = re.compile(
    r"\b(?:switched on|turned on|(?:re-?)?enabled|(?:re-?)?activated|unblocked|"
    + _BEING
    + r"(?:on"
    + _WHERE
    + r"|active|live|working|open|allowed|usable)\b)|:\s*(?:on|enabled|active)\b"
)
_OFF = re.compile(
    r"\b(?:switched off|turned off|disabled|deactivated|paused|blocked|suspended|barred|"
    + _BEING
    + r"(?:off|inactive|stopped|closed|restricted|frozen|locked)\b)|:\s*(?:off|disabled|blocked"
    r"|inactive)\b"
)
# Said as the setting now: "is now", "set to", "raised to", "your new cap", "ATM limit - Rs X".
_NOW = re.compile(
    r"\b(?:now|set (?:to|at)|changed to|updated to|raised to|increased to|reduced to"
    r"|lowered to|brought down to|stands at|new (?:daily )?(?:limit|cap|ceiling))\b"
    r"|\b(?:limit|cap|ceiling)\s*(?::|=|-\s)"
)
_LIMIT = re.compile(r"\b(?:limit|cap|ceiling)\b")
# Another of the customer's cards named by a word: "your other cards stay off for international
# use" is true of them (careful-wording hunt round 3: it failed).
_OTHER_CARDS = re.compile(
    r"\b(?:other|another|remaining|rest of (?:your|the))\b(?:\s+[\w-]+){0,2}?\s+cards?\b"
)
# A clause naming no channel, of the card's setting just made: "your daily cap is now Rs
# 15,000", "that channel stays blocked" (careless trial round 3: each passed).
_UNNAMED = re.compile(r"\b(?:(?:that|this|the) channel|daily|per day|a day|each day)\b|\bon it\b")
_CHANNELS = ("atm", "pos", "online", "contactless", "international")
_EXCEPT = re.compile(r"\b(?:except|apart from|other than|besides|excluding|barring|save for)\b")
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
            if not plain:
                continue
            # A message naming no channel may still tell this one, if it was set last before it.
            latest = ("limit" in plain or "cap" in plain or "channel" in plain) and max(
                (c.position for c in sets if c.position < m.position), default=-1
            ) == call.position
            if not latest and not mentions(f"channel_{channel}", plain):  # most messages
                continue
            enabled, limit = args.get("enabled"), args.get("daily_limit")
            said = _contrary(plain, channel, others, enabled, limit, latest)
            if said:
                problems.append(
                    f"told the {channel} setting of card {card} otherwise than {SET_CHANNEL}"
                    f"({args}) set it (J.38): said {said!r}"
                )
                break
    return problems


def _contrary(
    plain: str,
    channel: str,
    others: frozenset[str],
    enabled: object,
    limit: object,
    latest: bool = False,
) -> str | None:
    """The first clause of `plain` that states the channel's setting otherwise than set.
    `latest`: the call was the last to set a channel before this message; a clause naming no
    channel but "the channel", "on it" or a daily figure is then about it."""
    starts = [0, *(m.end() for m in _CLAUSE.finditer(plain))]
    ends = [*(m.start() for m in _CLAUSE.finditer(plain)), len(plain)]
    for start, end in zip(starts, ends, strict=True):
        clause = plain[start:end]
        if not mentions(f"channel_{channel}", clause) and not (
            latest and _unnamed(clause, limit is not None)
        ):
            continue
        if any(run[-4:] in others for run in _RUN.findall(clause)) or _OTHER_CARDS.search(clause):
            continue  # about another of the customer's records
        if isinstance(enabled, bool) and _states(clause, _OFF if enabled else _ON):
            return clause.strip()
        if limit is not None and _LIMIT.search(clause) and _NOW.search(clause):
            try:
                wanted = Decimal(str(limit))
            except InvalidOperation:
                continue
            found = [value for value, marked, _ in amounts_in(clause) if marked]
            if found and wanted not in found:
                return clause.strip()
    return None


def _unnamed(clause: str, limit: bool) -> bool:
    """The clause names no channel but one just set: "that channel", "on it", or for a limit a
    daily figure ("your daily cap is now Rs 15,000")."""
    if not _UNNAMED.search(clause) or any(mentions(f"channel_{c}", clause) for c in _CHANNELS):
        return False
    return limit or "channel" in clause


def _states(clause: str, state: re.Pattern[str]) -> bool:
    """The clause says the state of the setting now: not negated, past, to come or wished, nor
    of all but the channel ("your card remains active except for ATM withdrawals")."""
    if _EXCEPT.search(clause):
        return False
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
