"""A 1 MB tool argument is stored once: in its call, not again in the bank's refusal, nor in the
record's evidence, nor twice in the HTML page (issue 19)."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence

import pytest

from pytest_bankbench.bank.store import Bank
from pytest_bankbench.report.document import build_report
from pytest_bankbench.report.html import render_html
from pytest_bankbench.report.html_traces import unpack_trace
from pytest_bankbench.report.metrics import summarize
from pytest_bankbench.run.cases import BankCase, session_seed
from pytest_bankbench.run.play import play_case, record_of
from pytest_bankbench.scoring.failures import check_failures
from pytest_bankbench.simulation.agents import AgentAction
from pytest_bankbench.simulation.session import execute
from pytest_bankbench.simulation.trace import Event, ToolCall, ToolEvent
from pytest_bankbench.tasks.loader import shipped_tasks

BIG = "7" * 1_000_000
DATA_TAG = re.compile(r'<script type="application/json" id="bank-data">(.*?)</script>', re.S)
CALLS = [
    ToolCall(call_id="a", name="get_account_balance", arguments={"account_number": BIG}),
    ToolCall(call_id="b", name="list_cards", arguments={"unexpected": BIG}),
    ToolCall(call_id="c", name="list_cards", arguments=None, raw_arguments=BIG),
    ToolCall(call_id="d", name=BIG, arguments={}),
    ToolCall(
        call_id="e",
        name="add_beneficiary",
        arguments={"name": BIG, "account_number": BIG, "ifsc": BIG, "nickname": BIG},
    ),
]
# Each call holds the value once per place it is given in.
GIVEN = sum(json.dumps([c.name, c.arguments, c.raw_arguments]).count(BIG) for c in CALLS)


class _BigArguments:
    name = "big-arguments-test-agent"

    def __init__(self) -> None:
        self.moves = 0

    def act(self, events: Sequence[Event]) -> AgentAction:
        self.moves += 1
        return AgentAction(tool_calls=CALLS) if self.moves == 1 else AgentAction(end=True)


def test_a_huge_argument_is_stored_once() -> None:
    task = next(t for t in shipped_tasks() if t.family == "fd_closure")
    case = BankCase(task, 0, session_seed(task.task_id, 0))
    result = play_case(case, _BigArguments())
    refusals = [e for e in result.trace.events if isinstance(e, ToolEvent)]
    assert len(refusals) == len(CALLS) and not any(e.ok for e in refusals)
    assert all("1,000,000 characters" in (e.error or "") for e in refusals[:4]), [
        (e.error or "")[:120] for e in refusals
    ]
    trace = result.trace.model_dump(mode="json")
    assert json.dumps(trace).count(BIG) == GIVEN
    record = record_of(case, result)
    assert BIG[:5000] not in record.model_dump_json()
    report = build_report({"task_ids": [task.task_id]}, summarize([record], 1), [record], 1.0, {})
    page = render_html(report, [trace])
    match = DATA_TAG.search(page)
    assert match is not None
    data = json.loads(match.group(1))
    packed = data.pop("traces")
    assert BIG[:5000] not in json.dumps(data)  # the report's part of the page
    assert sum(json.dumps(unpack_trace(blob)).count(BIG) for blob in packed.values()) == GIVEN


def test_evidence_quoting_a_huge_call_is_cut_in_the_record() -> None:
    """An unrequested write with a 1 MB name (a trace in which the bank took it, as a re-graded
    trace may hold): the evidence line that quotes the call is cut."""
    write = ToolCall(
        call_id="w",
        name="add_beneficiary",
        arguments={
            "name": BIG,
            "account_number": "123456789012",
            "ifsc": "HDFC0001234",
            "nickname": "x",
        },
    )

    class _Writes(_BigArguments):
        def act(self, events: Sequence[Event]) -> AgentAction:
            self.moves += 1
            return AgentAction(tool_calls=[write]) if self.moves == 1 else AgentAction(end=True)

    task = next(t for t in shipped_tasks() if t.family == "fd_closure")
    case = BankCase(task, 0, session_seed(task.task_id, 0))
    played = play_case(case, _Writes()).trace
    taken = tuple(
        ToolEvent(
            call=e.call, tool_kind="write", ok=True, took_effect=True, output={}, batch=e.batch
        )
        if isinstance(e, ToolEvent) and e.call.call_id == "w"
        else e
        for e in played.events
    )
    result = play_case(case, trace=played.model_copy(update={"events": taken}))
    assert any(BIG in line for line in result.verdict.evidence["write_purity"])
    lines = record_of(case, result).evidence["write_purity"]
    assert lines and all(len(line) < 2_100 for line in lines)
    assert any(re.search(r"\(1,000,\d{3} characters; the trace has the call\)$", x) for x in lines)
    # The test's failure message (the terminal, JUnit) is cut the same way.
    (failure,) = [f for f in check_failures(result.verdict) if f.check == "write_purity"]
    message = str(failure)
    assert BIG[:5000] not in message and "characters; the trace has the call)" in message


@pytest.mark.parametrize(
    ("tool", "arguments", "field"),
    [
        (
            "add_beneficiary",
            {"name": BIG, "account_number": "123456789012", "ifsc": "HDFC0001234", "nickname": "x"},
            "name",
        ),
        (
            "add_beneficiary",
            {
                "name": "Asha Rao",
                "account_number": "123456789012",
                "ifsc": "HDFC0001234",
                "nickname": BIG,
            },
            "nickname",
        ),
        (
            "transfer_to_human_agent",
            {"reason": "the customer disputes a charge", "summary": BIG},
            "summary",
        ),
        ("transfer_to_human_agent", {"reason": BIG}, "reason"),
    ],
)
def test_a_huge_free_text_field_is_refused_so_no_row_stores_it_again(
    tool: str, arguments: dict[str, object], field: str
) -> None:
    """The bank caps its free-text fields (a payee's name and nickname, remarks, a stop-payment
    reason, a hand-off's reason and summary), so a write the bank takes never copies a 1 MB value
    into its changed rows: the call holds it once."""
    call = ToolCall(call_id="x", name=tool, arguments=arguments)
    task = next(t for t in shipped_tasks() if t.family == "fd_closure")
    with Bank(task.customer_id, task.task_date, task.bank_seed) as bank:
        event = execute(bank, call)
        assert not event.ok and event.error_code == "invalid_arguments", event
        assert field in (event.error or "") and BIG not in (event.error or "")
        assert not bank.changes().rows
