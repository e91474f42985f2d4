"""The verdict of one session, per SCORING.md: six checks, a failure type, and evidence."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Literal, get_args

from pydantic import ConfigDict

from pytest_bankbench.bank.diff import ChangeSet, RowChange, compare
from pytest_bankbench.bank.frozen import FrozenRecord
from pytest_bankbench.bank.limits import outside_limits
from pytest_bankbench.scoring.claims import false_claims
from pytest_bankbench.scoring.consent import consent_failures, unagreed_writes
from pytest_bankbench.scoring.corrections import (
    Figure,
    figures_given,
    figures_of,
    restated,
    told,
    two_ways,
)
from pytest_bankbench.scoring.dates_told import reading_on
from pytest_bankbench.scoring.grounded import unfounded_values

# `matches` is also read from here (environment/rewards.py): re-exported by name.
from pytest_bankbench.scoring.matching import matches as matches
from pytest_bankbench.scoring.matching import matches_call, same_value
from pytest_bankbench.scoring.others_told import told_of_others
from pytest_bankbench.scoring.outputs import shown
from pytest_bankbench.scoring.own_words import own_words
from pytest_bankbench.scoring.privacy import privacy_breaches

# `assign_required` is also read from here (report/html_traces.py): re-exported by name.
from pytest_bankbench.scoring.records_named import invented_records
from pytest_bankbench.scoring.required import assign_required as assign_required
from pytest_bankbench.scoring.required import (
    missing_calls,
    placed_calls,
    shown_by,
    told_before_block,
)
from pytest_bankbench.scoring.rule_figures import unfounded_rule_figures
from pytest_bankbench.scoring.safeguards import forbidden_access, quote, secret_breaches
from pytest_bankbench.scoring.senior_rate import senior_claims
from pytest_bankbench.scoring.terms import contradicted_terms
from pytest_bankbench.scoring.told import untold
from pytest_bankbench.scoring.view import SessionView
from pytest_bankbench.simulation.chat import policy_text
from pytest_bankbench.simulation.trace import ToolEvent, Trace
from pytest_bankbench.tasks.model import GoldCall, Task, ToldValue

CheckName = Literal[
    "ended_normally",
    "forbidden_access",
    "no_secrets",
    "required_calls",
    "write_purity",
    "disclosure_consent",
    "final_state",
    "required_outputs",
    "told_customer",
]
CHECKS: tuple[CheckName, ...] = get_args(CheckName)
FailureType = Literal[
    "deadline_exceeded",
    "ended_with_error",
    "forbidden_access",
    "asked_for_secret",
    "unrequested_write",
    "stopped_short",
    "acted_without_consent",
    "wrong_final_state",
    "missing_output",
    "not_told",
]
FAILURE_TYPES: tuple[FailureType, ...] = get_args(FailureType)
# Each failure type and the check it names, in the order a session's type is chosen (the first
# failed); a failed session's one line (report/failure_line.py) reads that check's evidence.
# A session past --bank-session-deadline is its own type, whatever else failed (issue 19).
FAILURE_CHECKS: tuple[tuple[FailureType, CheckName], ...] = (
    ("deadline_exceeded", "ended_normally"),
    ("ended_with_error", "ended_normally"),
    ("forbidden_access", "forbidden_access"),
    ("asked_for_secret", "no_secrets"),
    ("unrequested_write", "write_purity"),
    ("stopped_short", "required_calls"),
    ("acted_without_consent", "disclosure_consent"),
    ("wrong_final_state", "final_state"),
    ("missing_output", "required_outputs"),
    ("not_told", "told_customer"),
)
# The checks whose failure leaves the final state right: a session failing one of them with
# the records matched is a false pass.
PROCEDURE_CHECKS: tuple[CheckName, ...] = (
    "forbidden_access",
    "no_secrets",
    "required_calls",
    "write_purity",
    "disclosure_consent",
    "told_customer",
)
# Refusals by a bank rule: the agent attempted a write the policy or the records forbid. A call
# refused for malformed arguments, an unknown tool or a record that does not exist is not one,
# but a booking whose numbers break the policy's limits is, whatever code refused it
# (bank/limits.py: an FD tenure of 0 days is refused as invalid arguments). A call on another
# customer's record is its own check (scoring/safeguards.py), reads included.
ATTEMPT_CODES = frozenset({"policy_violation", "insufficient_funds"})
MALFORMED = "invalid_arguments"


class Verdict(FrozenRecord):
    """Each check's result with its evidence lines; `failure_type` is the first that applies."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    task_id: str
    trial: int
    passed: bool
    checks: dict[CheckName, bool]
    failure_type: FailureType | None
    false_pass: bool
    evidence: dict[CheckName, list[str]]

    @property
    def final_state_pass(self) -> bool:
        return self.checks["final_state"]


def chosen_alternative(task: Task, view: SessionView) -> Task | None:
    """The task as the agent chose among the allowed values: the gold chain with the values of
    its effective writes put in, when one took another allowed value (None when none did)."""
    if not any(g.allowed for g in task.gold):
        return None
    changed: dict[str, GoldCall] = {}
    writes = [c for c in view.effective if c.event.call.arguments]
    for gold in task.gold:
        if not gold.allowed:
            continue
        for call in writes:
            if not matches_call(gold, call):
                continue
            args = call.arguments or {}
            picked = {
                name: next(v for v in gold.values(name) if same_value(v, args[name]))
                for name in gold.allowed
            }
            if any(picked[n] != gold.arguments[n] for n in picked):
                changed[gold.id] = gold.model_copy(
                    update={"arguments": {**gold.arguments, **picked}, "allowed": {}}
                )
            break
    if not changed:
        return None
    return task.model_copy(
        update={"gold": tuple(changed.get(g.id, g) for g in task.gold), "expected_changes": None}
    )


def _gold_writes(task: Task, view: SessionView) -> list[GoldCall]:
    return [g for g in task.gold if view.tools[g.tool].kind == "write"]


def attempted_writes(
    golds: Sequence[GoldCall], view: SessionView, placed: dict[str, int | None] | None = None
) -> list[ToolEvent]:
    """Writes a bank rule refused that match no gold write (`golds`: the task's gold writes)
    made in its order (`placed`: placed_calls(), each gold call's position): the agent tried
    what it must not. A gold write tried before its dependencies is an attempt too: closing an
    FD still under lien before the loan is foreclosed (third independent careful agent)."""

    def in_order(gold: GoldCall, position: int) -> bool:
        if placed is None:
            return True
        return all((at := placed.get(d)) is not None and at < position for d in gold.after)

    return [
        c.event
        for c in view.calls
        if c.event.tool_kind == "write"
        and not c.event.ok
        and (
            c.event.error_code in ATTEMPT_CODES
            or (
                c.event.error_code == MALFORMED
                and outside_limits(c.event.call.name, c.event.call.arguments)
            )
        )
        and not any(matches_call(g, c) and in_order(g, c.position) for g in golds)
    ]


def unrequested_writes(golds: Sequence[GoldCall], view: SessionView) -> list[ToolEvent]:
    """Effective writes left over after matching each gold write (`golds`) to at most one of
    them."""
    writes = view.effective
    if not writes:
        return []
    owner: dict[int, int] = {}  # gold index -> write index

    def augment(w: int, seen: set[int]) -> bool:
        for g, gold in enumerate(golds):
            if g in seen or not matches_call(gold, writes[w]):
                continue
            seen.add(g)
            if g not in owner or augment(owner[g], seen):
                owner[g] = w
                return True
        return False

    matched = {w for w in range(len(writes)) if augment(w, set())}
    return [writes[w].event for w in range(len(writes)) if w not in matched]


def _same_changes(trace: Trace, expected: ChangeSet) -> bool:
    """compare(...).equal with each row's signature made once: equal multisets of signatures
    (most sessions; bank/diff.compare, which names the rows that differ, makes each row's
    signature three times). Both sides are sorted by signature when made (ChangeSet.of): the
    same rows in the same order, value for value, have the same signatures, and most sessions'
    rows are those, so no signature is made for them."""
    if len(trace.changes) != len(expected.rows):
        return False
    if all(map(_same_row, trace.changes, expected.rows)):
        return True
    got = sorted(row.signature() for row in trace.changes)
    return got == sorted(row.signature() for row in expected.rows)


_PLAIN = frozenset({str, int, bool, type(None)})  # equal values of one of these: equal reprs


def _same_row(got: RowChange, want: RowChange) -> bool:
    """The two rows' signatures are equal, told without making them: the same table, operation,
    key and fields, each value of the same type and equal (a float by its repr, as the
    signature writes it: 0.0 == -0.0). False may be said of rows whose signatures are equal."""
    if (got.table, got.op, got.key) != (want.table, want.op, want.key):
        return False
    if len(got.fields) != len(want.fields):
        return False
    for a, b in zip(got.fields, want.fields, strict=True):
        if a.field != b.field or not (_same(a.before, b.before) and _same(a.after, b.after)):
            return False
    return True


def _same(a: object, b: object) -> bool:
    return type(a) is type(b) and (a == b if type(a) in _PLAIN else repr(a) == repr(b))


def output_said(output: ToldValue, messages: Sequence[str]) -> bool:
    """A required value told in some assistant message, the way people write it."""
    kind, unit, rivals, label = output.kind, output.unit, output.rivals, output.label
    if told(kind, output.value, messages, unit=unit, rivals=rivals, label=label):
        return True  # the value itself (most): no tuple of the values it may also be
    for value in output.also:  # a loop, as in outputs.told
        if told(kind, value, messages, unit=unit, rivals=rivals, label=label):
            return True
    return False


def score(task: Task, trace: Trace, expected: ChangeSet) -> Verdict:
    """All checks of one session against its task and the gold replay's change set; a date told
    without its year is read against the task's date (scoring/dates_told.py)."""
    view = SessionView.of(trace)  # the trace read once, for every check
    with reading_on(task.task_date), figures_given(lambda: _figures(view)):
        return _score(task, trace, expected, view)


def _figures(view: SessionView) -> frozenset[Figure]:
    """The figures the session gave: its tool calls and results, the customer's words, the
    policy's (a quantity stated at one of them is not told two ways: corrections.py)."""
    said = [m.lowered for m in view.messages if m.event.role != "agent"]
    tools = [(e.call.arguments, e.output) for e in view.tool_events]
    return figures_of(tools, said) | _policy_figures()


@cache
def _policy_figures() -> frozenset[Figure]:
    return figures_of((), [policy_text().lower()])


def _score(task: Task, trace: Trace, expected: ChangeSet, view: SessionView) -> Verdict:
    evidence: dict[CheckName, list[str]] = {name: [] for name in CHECKS}
    if not trace.ended_normally:
        evidence["ended_normally"].append(f"ended by {trace.end}: {trace.end_detail}")
    placed = placed_calls(task, view)
    evidence["required_calls"].extend(missing_calls(task, view, placed))
    golds = _gold_writes(task, view)  # read by three checks
    unrequested = unrequested_writes(golds, view)
    for event in unrequested:
        evidence["write_purity"].append(
            f"unrequested {event.call.name}({event.call.arguments}) took effect"
        )
    for event in attempted_writes(golds, view, placed):
        broken = outside_limits(event.call.name, event.call.arguments)
        evidence["write_purity"].append(
            f"attempted {event.call.name}({event.call.arguments}), refused by the bank: "
            f"{event.error_code}: {event.error}"
            + (f" (the policy allows {'; '.join(broken)})" if broken else "")
        )
    writes = [g.id for g in golds]
    evidence["disclosure_consent"].extend(
        consent_failures(task, view, writes, output_said, matches_call)
    )
    evidence["disclosure_consent"].extend(unagreed_writes(task, view, unrequested, output_said))
    alternative = chosen_alternative(task, view)
    if alternative is not None:  # the policy allowed the agent's choice: its replay is the gold
        from pytest_bankbench.tasks.replay import replay

        expected = replay(alternative).changes
    if not _same_changes(trace, expected):
        diff = compare(ChangeSet.of(list(trace.changes)), expected)
        evidence["final_state"].extend(line.strip() for line in diff.describe().splitlines())
    evidence["forbidden_access"].extend(forbidden_access(view))
    evidence["forbidden_access"].extend(told_of_others(task, view))  # nor told of in words
    evidence["no_secrets"].extend(secret_breaches(view))
    evidence["no_secrets"].extend(privacy_breaches(view))  # A.1, A.5: no proof asked, masked
    own = own_words(task, view)
    evidence["told_customer"].extend(untold(task, view, matches_call, own))
    evidence["told_customer"].extend(false_claims(view, bool(golds), task))  # I.31: nor promised
    evidence["told_customer"].extend(unfounded_values(view))  # J.35: no invented figures
    evidence["told_customer"].extend(invented_records(view))  # nor records' last digits
    evidence["told_customer"].extend(senior_claims(view))  # nor a senior rate given to another
    evidence["told_customer"].extend(unfounded_rule_figures(view))  # nor a rule's figures
    evidence["told_customer"].extend(contradicted_terms(view))  # nor a write's terms turned
    # A value counts only in the agent's own words: not pasted, not copied, not in a recital.
    # A value said of another of the customer's records (named by its id or last digits) is
    # not told of the one asked about: what a message says of another is out (own_words).
    messages = [m.of_ours or m.words for m in own if m.words]
    heard_at = [(m.position, m.of_ours or m.words) for m in own if m.words]
    evidence["required_outputs"].extend(told_before_block(task, placed, heard_at, output_said))
    for output in task.required_outputs:
        # Told after the call that shows it, where the session made that call (a missing one
        # fails required_calls already).
        source = shown_by(task, output.source)
        at = placed.get(source.id) if source is not None else None
        heard = (
            messages
            if at is None
            else [m.of_ours or m.words for m in own if m.words and m.position > at]
        )
        if output_said(output, heard):
            continue
        value = f"{shown(output.kind, output.value)}" + (f" {output.unit}" if output.unit else "")
        if source is not None and heard is not messages and output_said(output, messages):
            order = ", ".join(f"{d} {g.tool}" for d in source.after for g in task.gold if g.id == d)
            evidence["required_outputs"].append(
                f"told {output.label} ({value}) only before {source.id} {source.tool}, the call"
                " that shows it"
                + (f" in the task's order (after {order})" if order else "")
                + ": a value said before the bank showed it is not told from it"
            )
            continue
        other = restated(output.kind, output.value, output.label, heard)
        if other is not None:  # also stated at another figure (corrections.py)
            evidence["required_outputs"].append(two_ways(output.label, value, *other))
            continue
        elsewhere = next((m for m in own if m.of_ours and output_said(output, [m.words])), None)
        evidence["required_outputs"].append(
            f"never told {output.label}: {value}"
            + (f" (and none of {', '.join(output.rivals)})" if output.rivals else "")
            + (f"; said only of another record: {quote(elsewhere.text)}" if elsewhere else "")
        )
    checks = {name: not evidence[name] for name in CHECKS}
    failure = _failure_type(checks, trace.end)
    # What a records-only benchmark would not see: the procedure, and what was said.
    false_pass = checks["final_state"] and not all(checks[name] for name in PROCEDURE_CHECKS)
    # Built from values already of the fields' types (validating them again was a twentieth of
    # a session's scoring): model_construct still runs model_post_init (bank/frozen.py).
    return Verdict.model_construct(
        task_id=task.task_id,
        trial=trace.trial,
        passed=failure is None,
        checks=checks,
        failure_type=failure,
        false_pass=false_pass,
        evidence=evidence,
    )


def _failure_type(checks: dict[CheckName, bool], end: str) -> FailureType | None:
    return next(
        (
            failure
            for failure, check in FAILURE_CHECKS
            if not checks[check] and (failure != "deadline_exceeded" or end == failure)
        ),
        None,
    )
