"""Service tools: every tool's happy path and every refusal it can raise."""

from __future__ import annotations

from typing import Any

import pytest

from pytest_bankbench.bank import rules
from pytest_bankbench.bank.errors import (
    InsufficientFunds,
    InvalidArguments,
    NotFound,
    RuleViolation,
)
from pytest_bankbench.bank.registry import get_tool
from tests.bank.bank_testkit import (
    OpenBank,
    assert_changes,
    call,
    has,
    inserted,
    own,
    public_functions,
    record,
    refuse,
    rupees,
    tools_of,
    txn,
    updated,
)
from tests.bank.tool_cases import (
    EVERYDAY,
    EVERYDAY_ACCOUNT,
    WITH_BOOK,
    everyday_args,
    refuse_spoiled,
    unused_leaf,
)

TOOLS = tools_of("tools_service")

# -- the module as a whole -----------------------------------------------------------------------


def test_every_public_function_of_the_module_is_a_tool() -> None:
    assert public_functions("tools_service") == TOOLS
    kinds = {name: get_tool(name).kind for name in TOOLS}
    assert kinds["transfer_to_human_agent"] == "human"
    assert sorted(n for n, k in kinds.items() if k == "write") == [
        "request_account_statement",
        "request_cheque_book",
        "stop_cheque",
    ]
    assert not get_tool("request_cheque_book").changes_records
    assert not get_tool("request_account_statement").changes_records


# -- cheques ---------------------------------------------------------------------------------------


def test_stop_cheque_happy(open_bank: OpenBank) -> None:
    bank = open_bank(EVERYDAY)
    acct = own(bank, "accounts", EVERYDAY_ACCOUNT)
    leaf = unused_leaf(bank, acct["account_number"])
    result = call(
        bank,
        "stop_cheque",
        account_number=acct["account_number"],
        cheque_number=leaf,
        reason="lost",
    )
    after = acct["balance"] - rules.STOP_CHEQUE_FEE
    assert result == {
        "status": "success",
        "cheque_number": leaf,
        "fee": "100.00",
        "balance_after": rupees(after),
    }
    assert_changes(
        bank,
        inserted(
            "cheques",
            account_number=acct["account_number"],
            cheque_number=leaf,
            status="stopped",
            status_date="2026-05-15",
        ),
        updated("accounts", acct["account_number"], balance=(acct["balance"], after)),
        txn(
            acct["account_number"], 100_00, "debit", "charge", f"Stop payment fee chq {leaf}", after
        ),
    )
    listed = {a["account_number"]: a for a in call(bank, "list_accounts")["accounts"]}
    assert listed[acct["account_number"]]["cheques_paid_or_stopped"][str(leaf)] == "stopped"
    assert listed[acct["account_number"]]["balance"] == rupees(after)


def test_stop_cheque_happy_last_leaf_of_the_book(open_bank: OpenBank) -> None:
    bank = open_bank(EVERYDAY)
    acct = own(bank, "accounts", EVERYDAY_ACCOUNT)["account_number"]
    book = record(bank, "SELECT * FROM cheque_books WHERE account_number = ?", acct)
    call(bank, "stop_cheque", account_number=acct, cheque_number=book["last_leaf"])


PAID = "EXISTS (SELECT 1 FROM cheques q WHERE q.account_number = a.account_number)"


def test_stop_cheque_of_a_paid_cheque(open_bank: OpenBank) -> None:
    bank = open_bank(has("accounts", f"a.status = 'active' AND {PAID}"))
    acct = own(bank, "accounts", f"a.status = 'active' AND {PAID}")["account_number"]
    paid = record(bank, "SELECT * FROM cheques WHERE account_number = ? AND status = 'paid'", acct)
    exc = refuse(
        bank,
        "stop_cheque",
        {"account_number": acct, "cheque_number": paid["cheque_number"]},
        RuleViolation,
    )
    assert str(paid["cheque_number"]) in exc.message


def test_stop_cheque_twice(open_bank: OpenBank) -> None:
    bank = open_bank(EVERYDAY)
    args = everyday_args(bank)["stop_cheque"]
    call(bank, "stop_cheque", **args)
    assert len(bank.changes().rows) == 3
    exc = refuse(bank, "stop_cheque", args, RuleViolation)
    assert str(args["cheque_number"]) in exc.message


@pytest.mark.parametrize("where", ["before", "after", "another account"])
def test_stop_cheque_of_a_leaf_outside_the_books(open_bank: OpenBank, where: str) -> None:
    bank = open_bank(EVERYDAY)
    acct = own(bank, "accounts", EVERYDAY_ACCOUNT)["account_number"]
    books = bank.all("SELECT * FROM cheque_books WHERE account_number = ?", acct)
    if where == "before":
        leaf = min(b["first_leaf"] for b in books) - 1
    elif where == "after":
        leaf = max(b["last_leaf"] for b in books) + 1
    else:
        leaf = (
            record(
                bank,
                "SELECT first_leaf FROM cheque_books WHERE account_number != ? AND "
                "first_leaf NOT IN (SELECT first_leaf FROM cheque_books WHERE "
                "account_number = ?)",
                acct,
                acct,
            )["first_leaf"]
            + 1
        )
    assert not any(b["first_leaf"] <= leaf <= b["last_leaf"] for b in books)
    exc = refuse(bank, "stop_cheque", {"account_number": acct, "cheque_number": leaf}, NotFound)
    assert str(leaf) in exc.message


def test_stop_cheque_on_a_dormant_account(open_bank: OpenBank) -> None:
    cond = f"a.status = 'dormant' AND {WITH_BOOK}"
    bank = open_bank(has("accounts", cond))
    acct = own(bank, "accounts", cond)["account_number"]
    refuse(
        bank,
        "stop_cheque",
        {"account_number": acct, "cheque_number": unused_leaf(bank, acct)},
        RuleViolation,
    )


def test_stop_cheque_fee_needs_available_balance(open_bank: OpenBank) -> None:
    bank = open_bank(EVERYDAY)
    args = everyday_args(bank)["stop_cheque"]
    # set up: only Rs 99.99 left available
    bank.execute(
        "UPDATE accounts SET hold_amount = balance - 9999 WHERE account_number = ?",
        args["account_number"],
    )
    refuse(bank, "stop_cheque", args, InsufficientFunds)


@pytest.mark.parametrize("leaf", [0, -5])
def test_stop_cheque_number_must_be_positive(open_bank: OpenBank, leaf: int) -> None:
    exc = refuse_spoiled(open_bank, "stop_cheque", {"cheque_number": leaf}, InvalidArguments)
    assert "cheque_number" in exc.message


@pytest.mark.parametrize(
    ("leaves", "delivery"), [(25, "registered_address"), (50, "home_branch"), (100, None)]
)
def test_request_cheque_book_happy(open_bank: OpenBank, leaves: int, delivery: str | None) -> None:
    bank = open_bank(EVERYDAY)
    acct = own(bank, "accounts", EVERYDAY_ACCOUNT)["account_number"]
    args: dict[str, Any] = {"account_number": acct, "leaves": leaves}
    if delivery is not None:
        args["delivery"] = delivery
    result = call(bank, "request_cheque_book", **args)
    assert result["status"] == "requested"
    assert result["reference"].startswith("CB")
    assert (result["leaves"], result["delivery"], result["expected_within_working_days"]) == (
        leaves,
        delivery or "registered_address",
        7,
    )
    assert bank.changes().rows == ()  # a service request changes no records


@pytest.mark.parametrize("leaves", [0, 10, 30, 75, 200])
def test_request_cheque_book_leaves_not_25_50_100(open_bank: OpenBank, leaves: int) -> None:
    exc = refuse_spoiled(open_bank, "request_cheque_book", {"leaves": leaves}, InvalidArguments)
    assert str(leaves) in exc.message


def test_request_cheque_book_for_a_dormant_account(open_bank: OpenBank) -> None:
    bank = open_bank(has("accounts", "a.status = 'dormant'"))
    acct = own(bank, "accounts", "a.status = 'dormant'")["account_number"]
    exc = refuse(bank, "request_cheque_book", {"account_number": acct, "leaves": 25}, RuleViolation)
    assert acct in exc.message


def test_request_cheque_book_unknown_delivery(open_bank: OpenBank) -> None:
    exc = refuse_spoiled(
        open_bank, "request_cheque_book", {"delivery": "courier"}, InvalidArguments
    )
    assert "courier" in exc.message


# -- statements ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("start", "end", "delivery"),
    [
        ("2025-05-15", "2026-05-15", "email"),  # 12 months ending today
        ("2026-05-15", "2026-05-15", "post"),  # one day
        ("2021-05-15", "2022-05-14", None),  # starts exactly 5 years ago
        ("2025-06-01", "2025-06-30", "post"),
    ],
)
def test_request_account_statement_happy(
    open_bank: OpenBank, start: str, end: str, delivery: str | None
) -> None:
    bank = open_bank(EVERYDAY)
    acct = own(bank, "accounts", EVERYDAY_ACCOUNT)["account_number"]
    args: dict[str, Any] = {"account_number": acct, "from_date": start, "to_date": end}
    if delivery is not None:
        args["delivery"] = delivery
    result = call(bank, "request_account_statement", **args)
    assert result["status"] == "requested" and result["reference"].startswith("ST")
    assert (result["from_date"], result["to_date"], result["delivery"]) == (
        start,
        end,
        delivery or "email",
    )
    assert bank.changes().rows == ()


def test_request_account_statement_happy_dormant_account(open_bank: OpenBank) -> None:
    bank = open_bank(has("accounts", "a.status = 'dormant'"))
    acct = own(bank, "accounts", "a.status = 'dormant'")["account_number"]
    call(
        bank,
        "request_account_statement",
        account_number=acct,
        from_date="2023-01-01",
        to_date="2023-12-31",
    )


@pytest.mark.parametrize(
    ("start", "end", "error"),
    [
        ("2025-01-01", "2026-05-15", RuleViolation),  # more than 12 months
        ("2024-04-01", "2025-05-15", RuleViolation),
        ("2020-01-01", "2020-06-30", RuleViolation),  # more than 5 years ago
        ("2021-05-14", "2021-12-31", RuleViolation),  # one day before the 5-year window
        ("2026-05-01", "2026-05-16", InvalidArguments),  # ends after today
        ("2026-06-01", "2026-06-30", InvalidArguments),
        ("2026-04-01", "2026-03-01", InvalidArguments),  # runs backwards
        ("2026-02-30", "2026-03-31", InvalidArguments),  # not a real date
        ("2026-01-01", "2026-13-01", InvalidArguments),
    ],
)
def test_request_account_statement_bad_period(
    open_bank: OpenBank, start: str, end: str, error: type[InvalidArguments]
) -> None:
    bank = open_bank(EVERYDAY)
    acct = own(bank, "accounts", EVERYDAY_ACCOUNT)["account_number"]
    refuse(
        bank,
        "request_account_statement",
        {"account_number": acct, "from_date": start, "to_date": end},
        error,
    )


def test_request_account_statement_end_after_today_names_today(open_bank: OpenBank) -> None:
    bank = open_bank(EVERYDAY)
    acct = own(bank, "accounts", EVERYDAY_ACCOUNT)["account_number"]
    exc = refuse(
        bank,
        "request_account_statement",
        {"account_number": acct, "from_date": "2026-05-01", "to_date": "2026-05-16"},
        InvalidArguments,
    )
    assert "2026-05-15" in exc.message


@pytest.mark.parametrize("value", ["15/05/2026", "2026-5-15", "yesterday", "20260515"])
def test_request_account_statement_date_format(open_bank: OpenBank, value: str) -> None:
    exc = refuse_spoiled(
        open_bank, "request_account_statement", {"from_date": value}, InvalidArguments
    )
    assert value in exc.message


def test_request_account_statement_twelve_months_and_a_day(open_bank: OpenBank) -> None:
    bank = open_bank(EVERYDAY)
    acct = own(bank, "accounts", EVERYDAY_ACCOUNT)["account_number"]
    refuse(
        bank,
        "request_account_statement",
        {"account_number": acct, "from_date": "2025-05-14", "to_date": "2026-05-15"},
        RuleViolation,
    )


# -- help ------------------------------------------------------------------------------------------


def test_get_service_requests_happy(open_bank: OpenBank) -> None:
    bank = open_bank(
        "(SELECT COUNT(*) FROM service_requests s WHERE s.customer_id = c.customer_id) >= 2"
    )
    rows = bank.all(
        "SELECT * FROM service_requests WHERE customer_id = ? ORDER BY opened_on, request_id",
        bank.customer_id,
    )
    assert call(bank, "get_service_requests") == {
        "service_requests": [
            {
                "request_id": r["request_id"],
                "kind": r["kind"],
                "status": r["status"],
                "opened_on": r["opened_on"],
                "details": r["details"],
            }
            for r in rows
        ]
    }


def test_get_service_requests_happy_none(open_bank: OpenBank) -> None:
    bank = open_bank(f"NOT {has('service_requests')}")
    assert call(bank, "get_service_requests") == {"service_requests": []}


@pytest.mark.parametrize(
    ("query", "doc_id"),
    [
        ("cooling period new beneficiary", "09-beneficiaries-and-cooling-period"),
        ("premature closure penalty", "03-premature-fd-closure"),
        ("stop payment cheque", "20-cheque-books-and-stop-payment"),
    ],
)
def test_search_knowledge_base_happy(open_bank: OpenBank, query: str, doc_id: str) -> None:
    bank = open_bank("1")
    results = call(bank, "search_knowledge_base", query=query)["results"]
    assert 1 <= len(results) <= 2
    assert results[0]["doc_id"] == doc_id
    assert results[0]["title"] and results[0]["text"].startswith("# ")


def test_search_knowledge_base_happy_nothing_found(open_bank: OpenBank) -> None:
    bank = open_bank("1")
    result = call(bank, "search_knowledge_base", query="xyzzy plugh")
    assert result["results"] == [] and result["note"]


def test_search_knowledge_base_query_too_short(open_bank: OpenBank) -> None:
    bank = open_bank("1")
    exc = refuse(bank, "search_knowledge_base", {"query": "a"}, InvalidArguments)
    assert "query" in exc.message


def test_transfer_to_human_agent_happy(open_bank: OpenBank) -> None:
    bank = open_bank("1")
    result = call(
        bank,
        "transfer_to_human_agent",
        reason="card dispute",
        summary="customer disputes a POS charge",
    )
    assert result == {"status": "transferred", "queue": "customer care", "reason": "card dispute"}
    assert bank.changes().rows == ()


def test_transfer_to_human_agent_reason_too_short(open_bank: OpenBank) -> None:
    bank = open_bank("1")
    exc = refuse(bank, "transfer_to_human_agent", {"reason": "no"}, InvalidArguments)
    assert "reason" in exc.message
