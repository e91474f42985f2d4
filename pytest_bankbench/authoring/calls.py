"""Gold-call constructors shared by the families: one per tool call shape (amounts in paise).

Arguments keep the order the tools document; `after` and `instruction` are as for `Call`."""

from __future__ import annotations

import sqlite3
from datetime import date
from typing import Any

from pytest_bankbench.authoring.base import (
    Call,
    Need,
    Ref,
    as_step,
    rupees_arg,
)
from pytest_bankbench.bank.facts import Entity

After = tuple[str, ...]


def fact(
    tool: str,
    entity: Entity,
    key: str | Ref,
    fields: tuple[str, ...],
    args: dict[str, Any] | None = None,
    after: After = (),
    instruction: int = 0,
) -> Call:
    """A gold read that is a required fact: the gold agent calls `tool`, but any successful
    result showing the record's fields satisfies it."""
    return Call(
        tool,
        dict(args or {}),
        after=after,
        instruction=instruction,
        facts=Need(entity, key, fields),
    )


def profile(customer_id: str, fields: tuple[str, ...], after: After = ()) -> Call:
    """The logged-in customer's profile fields (KYC status, senior citizen, phone...)."""
    return fact("get_customer_profile", "customer", customer_id, fields, after=after)


def listed(tool: str, entity: Entity, key: str, fields: tuple[str, ...], after: After = ()) -> Call:
    """A list read that finds one record (the one the customer described) and its fields."""
    return fact(tool, entity, key, fields, after=after)


def _matched(tool: str, args: dict[str, Any], after: After = (), instruction: int = 0) -> Call:
    """A call whose arguments are all matched."""
    return Call(tool, args, match=tuple(args), after=after, instruction=instruction)


# -- accounts, transfers and statements -----------------------------------------------------------


def balance(number: str, after: After = (), fields: tuple[str, ...] = ("balance",)) -> Call:
    """The account's balance (a fact: list_accounts or a debit's own result show it too)."""
    return fact("get_account_balance", "account", number, fields, {"account_number": number}, after)


TRANSACTIONS_MAX = 50  # get_recent_transactions' largest count


def transactions(
    number: str, count: int | None = None, after: After = (), at_least: bool = False
) -> Call:
    """get_recent_transactions, with the count when the customer names one (matched: with
    `at_least`, any larger count shows those transactions too); without one, the count is
    not matched."""
    args: dict[str, Any] = {"account_number": number}
    if count is None:
        return Call("get_recent_transactions", args, match=("account_number",), after=after)
    args["count"] = count
    call = _matched("get_recent_transactions", args, after)
    if at_least:
        call.allowed = {"count": tuple(range(count + 1, TRANSACTIONS_MAX + 1))}
    return call


def find_payee(payee: sqlite3.Row) -> Call:
    """Identify the registered payee the customer named: list_beneficiaries shows it."""
    return listed("list_beneficiaries", "beneficiary", payee["beneficiary_id"], ("name",))


def find_account(account: sqlite3.Row) -> Call:
    """Identify the account the customer named by its last digits and check its state: any
    result showing the account's status will do (list_accounts, get_account_balance); its type
    is not asked for."""
    return listed("list_accounts", "account", account["account_number"], ("status",))


def find_request(request: sqlite3.Row) -> Call:
    """Identify the service request the customer described: get_service_requests shows it."""
    return listed("get_service_requests", "service_request", request["request_id"], ("status",))


def transfer_limits(number: str) -> Call:
    return _matched("get_transfer_limits", {"account_number": number})


def transfer(
    number: str,
    payee: str | Ref,
    amount: int,
    mode: str,
    after: After,
    allowed: tuple[str, ...] = (),
) -> Call:
    """transfer_funds by `mode`; `allowed` are the other modes the policy allows as well."""
    args = {
        "from_account": number,
        "beneficiary_id": payee,
        "amount": rupees_arg(amount),
        "mode": mode,
    }
    call = _matched("transfer_funds", args, after)
    if allowed:
        call.allowed = {"mode": allowed}
    return call


def payee_transfer(
    payee: sqlite3.Row, number: str, amount: int, mode: str, allowed: tuple[str, ...] = ()
) -> list[Call]:
    """The gold steps of a transfer to a registered payee: "payee" identifies the payee the
    customer named, then "transfer" sends `amount` from account `number` by `mode`."""
    return [
        as_step("payee", find_payee(payee)),
        as_step(
            "transfer",
            transfer(number, payee["beneficiary_id"], amount, mode, ("payee",), allowed),
        ),
    ]


def statement(
    number: str, start: date, end: date, delivery: str, after: After = (), instruction: int = 0
) -> Call:
    args = {
        "account_number": number,
        "from_date": start.isoformat(),
        "to_date": end.isoformat(),
        "delivery": delivery,
    }
    return _matched("request_account_statement", args, after, instruction)


# -- deposits ---------------------------------------------------------------------------------------


def deposit_details(fd: sqlite3.Row, fields: tuple[str, ...] = ("principal", "status")) -> Call:
    """An FD's details as a fact (list_deposits shows most of them)."""
    args = {"deposit_id": fd["deposit_id"]}
    return fact("get_deposit_details", "deposit", fd["deposit_id"], fields, args)


def find_fd(fd: sqlite3.Row) -> Call:
    """Identify the FD the customer described (amount and month): list_deposits shows it."""
    return listed("list_deposits", "deposit", fd["deposit_id"], ("principal", "start_date"))


def closure_quote(fd: sqlite3.Row, after: After = (), instruction: int = 0) -> Call:
    return _matched("get_fd_closure_quote", {"deposit_id": fd["deposit_id"]}, after, instruction)


def closure(fd: sqlite3.Row, after: After, instruction: int = 0) -> Call:
    """close_fd_premature, after the quote the customer agreed to."""
    return _matched("close_fd_premature", {"deposit_id": fd["deposit_id"]}, after, instruction)


def fd_closure_calls(fd: sqlite3.Row) -> list[Call]:
    """Closing an FD the customer described early, as policy E.20 orders it: find it, its
    closure quote ("quote") and, after the quote, the closure ("close")."""
    return [
        find_fd(fd),
        as_step("quote", closure_quote(fd)),
        as_step("close", closure(fd, after=("quote",))),
    ]


def fd_maturity(amount: int, days: int, instruction: int = 0) -> Call:
    args = {"amount": rupees_arg(amount), "tenure_days": days}
    return _matched("calculate_fd_maturity", args, instruction=instruction)


def create_fd(number: str, amount: int, days: int, after: After, instruction: int = 0) -> Call:
    """create_fd with the maturity proceeds credited to the funding account (not matched)."""
    return Call(
        "create_fd",
        {
            "from_account": number,
            "amount": rupees_arg(amount),
            "tenure_days": days,
            "maturity_instruction": "credit_to_account",
        },
        match=("from_account", "amount", "tenure_days"),
        after=after,
        instruction=instruction,
    )


def fd_booking_calls(number: str, amount: int, days: int, after: After = ()) -> list[Call]:
    """Booking an FD as policy E.19 orders it: the rate card ("rates"), the maturity projection
    ("quote") and, after them and `after`, the booking ("booking")."""
    return [
        as_step("rates", Call("get_deposit_rate_card")),
        as_step("quote", fd_maturity(amount, days)),
        as_step("booking", create_fd(number, amount, days, after=(*after, "rates", "quote"))),
    ]


def create_rd(number: str, instalment: int, months: int, after: After) -> Call:
    """create_rd funded from the account, every argument matched."""
    args = {
        "from_account": number,
        "monthly_instalment": rupees_arg(instalment),
        "tenure_months": months,
    }
    return _matched("create_rd", args, after)


def rd_booking_calls(number: str, instalment: int, months: int) -> list[Call]:
    """Booking an RD as KB 06 orders it: the rate card ("rates") and, after it, the booking
    ("booking"), whose rate `rd_rate` tells."""
    return [
        as_step("rates", Call("get_deposit_rate_card")),
        as_step("booking", create_rd(number, instalment, months, after=("rates",))),
    ]


# -- loans ------------------------------------------------------------------------------------------


def loan_details(
    loan: sqlite3.Row | dict[str, str],
    after: After = (),
    fields: tuple[str, ...] = ("outstanding", "emi"),
) -> Call:
    """A loan's details as a fact (list_loans, and a prepayment's result, show the common ones)."""
    return fact(
        "get_loan_details", "loan", loan["loan_id"], fields, {"loan_id": loan["loan_id"]}, after
    )


def find_loan(loan: sqlite3.Row) -> Call:
    """Identify the loan the customer named by type: list_loans shows it."""
    return listed("list_loans", "loan", loan["loan_id"], ("loan_type", "outstanding"))


def foreclosure_quote(loan: sqlite3.Row) -> Call:
    return _matched("get_loan_foreclosure_quote", {"loan_id": loan["loan_id"]})


def foreclose(loan: sqlite3.Row, payer: sqlite3.Row, after: After) -> Call:
    args = {"loan_id": loan["loan_id"], "from_account": payer["account_number"]}
    return _matched("foreclose_loan", args, after)


def prepayment_impact(loan: sqlite3.Row, amount: int, option: str) -> Call:
    args = {"loan_id": loan["loan_id"], "amount": rupees_arg(amount), "option": option}
    return _matched("calculate_prepayment_impact", args)


def prepay(loan: sqlite3.Row, amount: int, option: str, payer: sqlite3.Row, after: After) -> Call:
    args = {
        "loan_id": loan["loan_id"],
        "amount": rupees_arg(amount),
        "option": option,
        "from_account": payer["account_number"],
    }
    return _matched("make_loan_prepayment", args, after)


# -- cards ------------------------------------------------------------------------------------------


def block_card(card: sqlite3.Row, reason: str, after: After = ()) -> Call:
    return _matched("block_card", {"card_id": card["card_id"], "reason": reason}, after)


def find_card(card: sqlite3.Row) -> Call:
    """Identify the card the customer named by product and last digits: list_cards shows it."""
    return listed("list_cards", "card", card["card_id"], ("product", "masked_number"))


def card_details(
    card: sqlite3.Row, after: After = (), fields: tuple[str, ...] = ("status", "controls")
) -> Call:
    """A card's details as a fact (list_cards shows status; only details show the controls)."""
    return fact(
        "get_card_details", "card", card["card_id"], fields, {"card_id": card["card_id"]}, after
    )


def card_statement(
    card: sqlite3.Row,
    after: After = (),
    fields: tuple[str, ...] = ("total_outstanding", "minimum_due"),
) -> Call:
    """A credit card's dues as a fact (a bill payment's result shows them after it)."""
    args = {"card_id": card["card_id"]}
    return fact("get_credit_card_statement", "card", card["card_id"], fields, args, after)


def set_channel(
    card: sqlite3.Row,
    channel: str,
    enabled: bool,
    limit: int | None = None,
    after: After = (),
    instruction: int = 0,
) -> Call:
    """set_card_channel_limit: a channel switched on or off, with a daily limit if one is set."""
    args: dict[str, Any] = {"card_id": card["card_id"], "channel": channel, "enabled": enabled}
    if limit is not None:
        args["daily_limit"] = rupees_arg(limit)
    return _matched("set_card_channel_limit", args, after, instruction)


def pay_card(card: sqlite3.Row, amount: int, payer: sqlite3.Row, after: After) -> Call:
    args = {
        "card_id": card["card_id"],
        "amount": rupees_arg(amount),
        "from_account": payer["account_number"],
    }
    return _matched("pay_credit_card_bill", args, after)


def handoff(reason: str, summary: str, after: After, instruction: int = 0) -> Call:
    """transfer_to_human_agent; nothing is matched, only the order counts."""
    return Call(
        "transfer_to_human_agent",
        {"reason": reason, "summary": summary},
        after=after,
        instruction=instruction,
    )
