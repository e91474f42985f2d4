"""A told value's `Source`: one place of five kinds, and the check of a value against it."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from pytest_bankbench.tasks.model import Source, ToldValue
from pytest_bankbench.tasks.sources import Places, rate_row, source_mismatch

CARD = {
    "slabs": [
        {"tenure_days": "7-45", "applicable_rate_percent": "3.50"},
        {"tenure_days": "366-730", "applicable_rate_percent": "7.25"},
    ]
}


@pytest.mark.parametrize(
    ("data", "kind", "line"),
    [
        (
            {"field": "balance", "entity": "account", "key": "501"},
            "record",
            '{"field":"balance","entity":"account","key":"501","call":null}',
        ),
        (
            {"field": "payout", "call": "c2"},
            "result",
            '{"field":"payout","entity":null,"key":null,"call":"c2"}',
        ),
        ({"call": "c3", "arg": "amount"}, "argument", '{"call":"c3","arg":"amount"}'),
        ({"policy": "F.24", "near": "fee"}, "passage", '{"policy":"F.24","near":"fee"}'),
        ({"article": "15-lost-or-stolen-card"}, "passage", '{"article":"15-lost-or-stolen-card"}'),
        (
            {"tenure_days": 400, "field": "applicable_rate_percent"},
            "rate card",
            '{"field":"applicable_rate_percent","tenure_days":400}',
        ),
    ],
)
def test_each_kind_is_written_with_its_own_keys(data: dict[str, Any], kind: str, line: str) -> None:
    """A record or a result keeps the four keys it was written with before the other kinds (the
    task file stays byte-identical); the others write only theirs."""
    source = Source.model_validate(data)
    assert (source.kind, source.model_dump_json()) == (kind, line)
    assert Source.model_validate_json(line) == source


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"policy": "F.24", "call": "c1"}, "this one names a gold call (call) and a policy clause"),
        ({"field": "balance"}, "this one names none"),
        ({"policy": "Z.9"}, "policy clause 'Z.9' does not exist; the clauses are A.1-A.5, "),
        ({"article": "99-none"}, "article '99-none' does not exist; the articles are: 01-"),
        ({"call": "c1", "arg": "amount", "field": "x"}, "an argument source takes call, arg: "),
        ({"tenure_days": 30}, "a rate card source takes tenure_days, field: field missing"),
        ({"policy": "F.24", "field": "fee"}, "a passage source takes policy, near: field not"),
    ],
)
def test_a_malformed_source_is_one_error_saying_why(data: dict[str, Any], message: str) -> None:
    with pytest.raises(ValidationError) as caught:
        Source.model_validate(data)
    errors = caught.value.errors()
    assert len(errors) == 1 and message in errors[0]["msg"], errors


def _value(kind: str, value: str, **source: Any) -> ToldValue:
    return ToldValue(label="v", kind=kind, value=value, source=Source.model_validate(source))


def test_each_kind_is_checked_at_its_place() -> None:
    places = Places(
        results={"c1": {"quote": {"payout": "150.50"}}},
        arguments={"c2": {"amount": 15000, "mode": "NEFT"}},
        records={("account", "501", "balance"): (True, "99.10")},
        rate_card=CARD,
    )
    good = [
        _value("amount", "150.5", call="c1", field="quote.payout"),
        _value("amount", "15000.00", call="c2", arg="amount"),
        _value("text", "neft", call="c2", arg="mode"),
        _value("amount", "99.10", entity="account", key="501", field="balance"),
        _value("amount", "200", policy="F.24"),
        _value("percent", "7.25", tenure_days=400, field="applicable_rate_percent"),
    ]
    assert [source_mismatch(v, places) for v in good] == [None] * len(good)
    wrong = [v.model_copy(update={"value": "1"}) for v in good if v.kind != "text"]
    assert all(source_mismatch(v, places) for v in wrong)
    assert source_mismatch(_value("amount", "1", call="c2", arg="amout"), places) == (
        "'v': gold call c2 has no argument 'amout'; it has amount, mode"
    )
    assert source_mismatch(_value("amount", "1", call="c1", field="interest"), places) == (
        "'v': names interest of gold call c1, which the gold replay does not show; the result "
        "of gold call c1 has quote"
    )
    assert source_mismatch(good[-1], Places(results={})) == (
        "'v': names applicable_rate_percent of the rate card's slab for 400 days, which the "
        "gold replay does not show"
    )


def test_a_rate_card_row_is_the_slab_holding_the_tenure() -> None:
    assert rate_row(CARD, 45, "applicable_rate_percent") == (True, "3.50")
    assert rate_row(CARD, 400, "applicable_rate_percent") == (True, "7.25")
    assert rate_row(CARD, 100, "applicable_rate_percent") == (False, None)
    assert rate_row(CARD, 400, "senior_rate_percent") == (False, None)
