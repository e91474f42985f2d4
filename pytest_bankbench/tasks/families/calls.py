"""Gold-call constructors shared by the families: one per tool call shape (amounts in paise).

Arguments keep the order the tools document; `after` and `instruction` are as for `Call`."""

from __future__ import annotations

import sqlite3
from datetime import date
from typing import Any

from pytest_bankbench.tasks.families.base import Call, Ref, rupees_arg

After = tuple[str, ...]


def _matched(tool: str, args: dict[str, Any], after: After = (), instruction: int = 0) -> Call:
    """A call whose arguments are all matched."""
    return Call(tool, args, match=tuple(args), after=after, instruction=instruction)


# -- accounts, transfers and statements -----------------------------------------------------------


def balance(number: str, after: After = ()) -> Call:
    return _matched("get_account_balance", {"account_number": number}, after)


def transactions(number: str, count: int | None = None, after: After = ()) -> Call:
    """get_recent_transactions, with the count when the customer names one."""
    args: dict[str, Any] = {"account_number": number}
    if count is not None:
        args["count"] = count
    return _matched("get_recent_transactions", args, after)


def transfer_limits(number: str) -> Call:
    return _matched("get_transfer_limits", {"account_number": number})


def transfer(number: str, payee: str | Ref, amount: int, mode: str, after: After) -> Call:
    args = {
        "from_account": number,
        "beneficiary_id": payee,
        "amount": rupees_arg(amount),
        "mode": mode,
    }
    return _matched("transfer_funds", args, after)


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


def deposit_details(fd: sqlite3.Row) -> Call:
    return _matched("get_deposit_details", {"deposit_id": fd["deposit_id"]})


def closure_quote(fd: sqlite3.Row, after: After = (), instruction: int = 0) -> Call:
    return _matched("get_fd_closure_quote", {"deposit_id": fd["deposit_id"]}, after, instruction)


def closure(fd: sqlite3.Row, after: After, instruction: int = 0) -> Call:
    """close_fd_premature, after the quote the customer agreed to."""
    return _matched("close_fd_premature", {"deposit_id": fd["deposit_id"]}, after, instruction)


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


# -- loans ------------------------------------------------------------------------------------------


def loan_details(loan: sqlite3.Row, after: After = ()) -> Call:
    return _matched("get_loan_details", {"loan_id": loan["loan_id"]}, after)


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


def block_card(card: sqlite3.Row, reason: str) -> Call:
    return _matched("block_card", {"card_id": card["card_id"], "reason": reason})


def card_details(card: sqlite3.Row, after: After = ()) -> Call:
    return _matched("get_card_details", {"card_id": card["card_id"]}, after)


def card_statement(card: sqlite3.Row, after: After = ()) -> Call:
    return _matched("get_credit_card_statement", {"card_id": card["card_id"]}, after)


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
