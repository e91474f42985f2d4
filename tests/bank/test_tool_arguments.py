"""Argument checks that every bank tool gets, whatever its module.

Each case starts from arguments the tool accepts for its module's customer (tool_cases.py):
they must be accepted, and with one of them missing, mistyped, added, a bad amount, or a record
that is unknown or another customer's, the call must be refused with the one expected error,
name what was wrong and change no record. What each tool does with good arguments, and the
business rules it enforces, are tested in its module's test file; that every tool has a happy
path test there is checked here.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import pytest

from pytest_bankbench import bank as bank_package
from pytest_bankbench.bank.errors import InvalidArguments, NotFound, NotYourRecord, ToolError
from pytest_bankbench.bank.registry import TOOL_MODULE_PREFIX, all_tools, get_tool, tool_modules
from tests.bank.bank_testkit import (
    MISSING_ID,
    OpenBank,
    call,
    other_account,
    other_customers,
    refuse,
)
from tests.bank.tool_cases import MODULES, ToolModule, accepted, module_of, refuse_spoiled

TOOLS = sorted(all_tools())


# -- the registry covers every tool -------------------------------------------------------------


def test_the_registry_finds_every_tools_module_in_the_package() -> None:
    folder = Path(bank_package.__file__).parent
    on_disk = sorted(
        f"{bank_package.__name__}.{p.stem}" for p in folder.glob(f"{TOOL_MODULE_PREFIX}*.py")
    )
    assert on_disk and list(tool_modules()) == on_disk
    assert {spec.func.__module__ for spec in all_tools().values()} == set(on_disk)


def test_every_tool_belongs_to_one_module_with_cases() -> None:
    # A new tools_*.py is found by the registry; it needs its entry in tool_cases.MODULES.
    assert sorted(f"{bank_package.__name__}.{m.module}" for m in MODULES) == list(tool_modules())
    assert sorted(t for m in MODULES for t in m.tools) == TOOLS


@pytest.mark.parametrize("entry", MODULES, ids=lambda m: m.module)
def test_valid_args_name_exactly_the_modules_tools(open_bank: OpenBank, entry: ToolModule) -> None:
    bank = open_bank(entry.customer)
    assert sorted(entry.valid_args(bank)) == entry.tools


def _test_names(path: Path) -> set[str]:
    return {
        node.name
        for node in ast.parse(path.read_text(encoding="utf-8")).body
        if isinstance(node, ast.FunctionDef) and node.name.startswith("test_")
    }


@pytest.mark.parametrize("tool", TOOLS)
def test_every_tool_has_a_happy_path_test(tool: str) -> None:
    module = module_of(tool).module
    names = _test_names(Path(__file__).with_name(f"test_{module}.py"))
    assert any(n.startswith(f"test_{tool}_happy") for n in names), f"test_{module}.py"


# -- every tool, every argument -----------------------------------------------------------------


@pytest.mark.parametrize("tool", TOOLS)
def test_valid_arguments_are_accepted(open_bank: OpenBank, tool: str) -> None:
    bank, args = accepted(open_bank, tool)
    call(bank, tool, **args)


EXTRA_ARGUMENTS = {
    "otp": "123456",
    "interest_payout": "monthly",
    "waive_charge": True,
    "cvv": "123",
}


@pytest.mark.parametrize("tool", TOOLS)
@pytest.mark.parametrize(("extra", "value"), EXTRA_ARGUMENTS.items())
def test_extra_argument_is_refused(open_bank: OpenBank, tool: str, extra: str, value: Any) -> None:
    exc = refuse_spoiled(open_bank, tool, {extra: value}, InvalidArguments)
    assert extra in exc.message


NO_ARGUMENTS = [t for t in TOOLS if not get_tool(t).arguments.model_fields]


@pytest.mark.parametrize("tool", NO_ARGUMENTS)
def test_a_stray_argument_to_a_tool_without_arguments_says_it_takes_none(
    open_bank: OpenBank, tool: str
) -> None:
    """It ended with an empty 'Accepted arguments: ' (a user trial)."""
    exc = refuse_spoiled(open_bank, tool, {"otp": "123456"}, InvalidArguments)
    assert exc.message == (
        f"invalid arguments for {tool}: otp: Extra inputs are not permitted (got '123456'). "
        f"{tool} takes no arguments: call it with {{}}"
    )


def test_a_refusal_of_a_tool_with_arguments_still_lists_them(open_bank: OpenBank) -> None:
    exc = refuse_spoiled(open_bank, "get_account_balance", {"otp": "1"}, InvalidArguments)
    assert exc.message.endswith(". Accepted arguments: account_number")


REQUIRED = [
    (t, f)
    for t in TOOLS
    for f, info in get_tool(t).arguments.model_fields.items()
    if info.is_required()
]


@pytest.mark.parametrize(("tool", "field"), REQUIRED)
def test_missing_argument_is_refused(open_bank: OpenBank, tool: str, field: str) -> None:
    bank, args = accepted(open_bank, tool)
    exc = refuse(bank, tool, {k: v for k, v in args.items() if k != field}, InvalidArguments)
    assert field in exc.message


ALL_FIELDS = [(t, f) for t in TOOLS for f in get_tool(t).arguments.model_fields]
NOT_SCALARS = [
    pytest.param(["not", "a", "scalar"], id="words"),
    pytest.param(["x"], id="one-word"),
    pytest.param([1, 2], id="numbers"),
    pytest.param({"x": 1}, id="object"),
]


@pytest.mark.parametrize(("tool", "field"), ALL_FIELDS)
@pytest.mark.parametrize("value", NOT_SCALARS)
def test_wrong_type_is_refused(open_bank: OpenBank, tool: str, field: str, value: object) -> None:
    exc = refuse_spoiled(open_bank, tool, {field: value}, InvalidArguments)
    assert field in exc.message


# (tool, field, zero allowed): every argument that is an amount of money.
MONEY_FIELDS = [
    ("transfer_funds", "amount", False),
    ("calculate_fd_maturity", "amount", False),
    ("create_fd", "amount", False),
    ("create_rd", "monthly_instalment", False),
    ("calculate_prepayment_impact", "amount", False),
    ("make_loan_prepayment", "amount", False),
    ("set_card_channel_limit", "daily_limit", True),
    ("pay_credit_card_bill", "amount", False),
]
# Negative, zero, more than two decimals, and words.
BAD_AMOUNTS: list[object] = [
    *(-500, -1000, -25000, -50000, 0),
    *("-0.01", "-0.50", "-1"),
    *("10.005", "12.345", "100.999", "1000.001"),
    *("5k", "1 lakh", "two lakh", "ten thousand"),
]


@pytest.mark.parametrize(
    ("tool", "field", "amount"),
    [
        (tool, field, amount)
        for tool, field, zero_allowed in MONEY_FIELDS
        for amount in BAD_AMOUNTS
        if not (zero_allowed and amount == 0)
    ],
)
def test_bad_amount_is_refused(open_bank: OpenBank, tool: str, field: str, amount: object) -> None:
    exc = refuse_spoiled(open_bank, tool, {field: amount}, InvalidArguments)
    assert field in exc.message and str(amount) in exc.message


# (tool, field, table, key): every argument that names one of the customer's own records.
OWNED_ARGS = [
    ("get_account_balance", "account_number", "accounts", "account_number"),
    ("get_recent_transactions", "account_number", "accounts", "account_number"),
    ("get_transfer_limits", "account_number", "accounts", "account_number"),
    ("transfer_funds", "from_account", "accounts", "account_number"),
    ("transfer_funds", "beneficiary_id", "beneficiaries", "beneficiary_id"),
    ("stop_cheque", "account_number", "accounts", "account_number"),
    ("request_cheque_book", "account_number", "accounts", "account_number"),
    ("request_account_statement", "account_number", "accounts", "account_number"),
    ("get_deposit_details", "deposit_id", "deposits", "deposit_id"),
    ("get_fd_closure_quote", "deposit_id", "deposits", "deposit_id"),
    ("close_fd_premature", "deposit_id", "deposits", "deposit_id"),
    ("create_fd", "from_account", "accounts", "account_number"),
    ("create_rd", "from_account", "accounts", "account_number"),
    ("get_loan_details", "loan_id", "loans", "loan_id"),
    ("get_loan_foreclosure_quote", "loan_id", "loans", "loan_id"),
    ("calculate_prepayment_impact", "loan_id", "loans", "loan_id"),
    ("make_loan_prepayment", "loan_id", "loans", "loan_id"),
    ("make_loan_prepayment", "from_account", "accounts", "account_number"),
    ("foreclose_loan", "loan_id", "loans", "loan_id"),
    ("foreclose_loan", "from_account", "accounts", "account_number"),
    ("get_card_details", "card_id", "cards", "card_id"),
    ("get_credit_card_statement", "card_id", "cards", "card_id"),
    ("block_card", "card_id", "cards", "card_id"),
    ("set_card_channel_limit", "card_id", "cards", "card_id"),
    ("pay_credit_card_bill", "card_id", "cards", "card_id"),
    ("pay_credit_card_bill", "from_account", "accounts", "account_number"),
]


@pytest.mark.parametrize(("tool", "field", "table", "key"), OWNED_ARGS)
def test_unknown_record_is_not_found(
    open_bank: OpenBank, tool: str, field: str, table: str, key: str
) -> None:
    exc = refuse_spoiled(open_bank, tool, {field: MISSING_ID}, NotFound)
    assert MISSING_ID in exc.message


@pytest.mark.parametrize(("tool", "field", "table", "key"), OWNED_ARGS)
def test_another_customers_record_is_refused(
    open_bank: OpenBank, tool: str, field: str, table: str, key: str
) -> None:
    bank, args = accepted(open_bank, tool)
    theirs = (
        other_account(bank)
        if table == "accounts"
        else other_customers(bank, table, key, module_of(tool).theirs)
    )
    exc = refuse(bank, tool, {**args, field: theirs}, NotYourRecord)
    assert theirs in exc.message


# -- numbers the schema allows, the bank handles --------------------------------------------------

INTEGER_FIELDS = [
    (t, f)
    for t in TOOLS
    for f, prop in get_tool(t).schema()["function"]["parameters"]["properties"].items()
    if prop.get("type") == "integer"
]


@pytest.mark.parametrize(("tool", "field"), INTEGER_FIELDS)
def test_every_whole_number_argument_is_bounded(tool: str, field: str) -> None:
    prop = get_tool(tool).schema()["function"]["parameters"]["properties"][field]
    assert "minimum" in prop and "maximum" in prop, prop


@pytest.mark.parametrize(("tool", "field"), INTEGER_FIELDS)
@pytest.mark.parametrize("edge", ["maximum", "minimum", "beyond"])
def test_whole_numbers_at_and_past_the_bounds_end_in_a_tool_error_or_a_result(
    open_bank: OpenBank, tool: str, field: str, edge: str
) -> None:
    # A 31-digit cheque number once made SQLite raise OverflowError out of the session: a bug
    # that removed the session from the score. Anything the schema allows must be handled.
    prop = get_tool(tool).schema()["function"]["parameters"]["properties"][field]
    value = {"maximum": prop["maximum"], "minimum": prop["minimum"], "beyond": 10**31}[edge]
    bank, args = accepted(open_bank, tool)
    try:
        call(bank, tool, **{**args, field: value})
    except ToolError as exc:
        assert edge != "beyond" or isinstance(exc, InvalidArguments)
