"""What each write does, in the styled agent's words (tests/simulation/styled_agent.py).

Filled from the call's arguments in the style's forms (styled_reasons.py): the amount, the
account by its masked last four digits, the mode, the card's channel, the dates. Internal ids
(deposit, loan, card ids) are never said, as the gold agent never says them.
"""

from __future__ import annotations

from pytest_bankbench.tasks.model import GoldCall
from tests.simulation.styled_reasons import amount, day, masked

# What each write does, in the style's words ({amount}, {account}, ... from the arguments).
_ACTIONS: dict[str, dict[str, str]] = {
    "transfer_funds": {
        "table": "Transfer {amount} via **{mode}** from {from_account}",
        "terse": "send {amount} by {mode} from {from_account}",
        "apologetic": "transfer {amount} using {mode} from your account {from_account}",
        "desi": "do a {mode} transfer of {amount} from your {from_account}",
    },
    "add_beneficiary": {
        "table": "Add **{name}** (account {account_number}) as a payee",
        "terse": "register {name} ({account_number}) as a new payee",
        "apologetic": "add {name}, account {account_number}, to your list of beneficiaries",
        "desi": "register {name} as a new beneficiary with {account_number}",
    },
    "create_fd": {
        "table": "Open a fixed deposit of {amount} for {tenure_days} days, funded from "
        "{from_account}",
        "terse": "open an FD of {amount}, {tenure_days} days, from {from_account}",
        "apologetic": "open a new fixed deposit of {amount} for {tenure_days} days, debiting "
        "your account {from_account}",
        "desi": "book an FD of {amount} for {tenure_days} days by debiting your {from_account}",
    },
    "create_rd": {
        "table": "Open a recurring deposit of {monthly_instalment}/month for {tenure_months} "
        "months from {from_account}",
        "terse": "open an RD, {monthly_instalment} monthly for {tenure_months} months, from "
        "{from_account}",
        "apologetic": "set up a recurring deposit with a monthly instalment of "
        "{monthly_instalment} for {tenure_months} months from your account {from_account}",
        "desi": "open an RD of {monthly_instalment} per month for {tenure_months} months from "
        "your {from_account}",
    },
    "close_fd_premature": {
        "table": "Prematurely close the FD and credit the proceeds to the linked account",
        "terse": "break the FD early; payout to the linked account",
        "apologetic": "close your fixed deposit before maturity and credit the proceeds to its "
        "linked account",
        "desi": "do premature closure of the FD and credit the maturity proceeds to the linked "
        "account",
    },
    "make_loan_prepayment": {
        "table": "Part-prepay {amount} on the loan (**{option}**) from {from_account}",
        "terse": "prepay {amount} on the loan ({option}) from {from_account}",
        "apologetic": "make a part-prepayment of {amount} towards your loan ({option}) from your "
        "account {from_account}",
        "desi": "do part-prepayment of {amount} on your loan ({option}) from your {from_account}",
    },
    "foreclose_loan": {
        "table": "Foreclose the loan in full, paid from {from_account}",
        "terse": "foreclose the loan from {from_account}",
        "apologetic": "foreclose your loan completely, with the amount debited from your account "
        "{from_account}",
        "desi": "do foreclosure of the loan by debiting your {from_account}",
    },
    "block_card": {
        "table": "Block the card **permanently** (reason: {reason})",
        "terse": "block the card ({reason})",
        "apologetic": "block the card, with the reason recorded as {reason}",
        "desi": "hotlist the card (reason: {reason})",
    },
    "set_card_channel_limit": {
        "table": "Turn the card's **{channel}** usage {state}",
        "terse": "switch {channel} {state}",
        "apologetic": "set your card's {channel} usage {state}",
        "desi": "make the {channel} channel of the card {state}",
    },
    "pay_credit_card_bill": {
        "table": "Pay {amount} towards the credit card bill from {from_account}",
        "terse": "pay {amount} to the card bill from {from_account}",
        "apologetic": "make a payment of {amount} towards your credit card bill from your "
        "account {from_account}",
        "desi": "pay {amount} towards your credit card dues from your {from_account}",
    },
    "stop_cheque": {
        "table": "Stop payment of cheque no. **{cheque_number}** on {account_number}",
        "terse": "stop payment on cheque {cheque_number}, {account_number}",
        "apologetic": "place a stop payment on cheque number {cheque_number} from your account "
        "{account_number}",
        "desi": "mark stop payment on cheque no. {cheque_number} of your {account_number}",
    },
    "request_cheque_book": {
        "table": "Order a **{leaves}-leaf** cheque book for {account_number}, delivered to your "
        "{delivery}",
        "terse": "order a {leaves}-leaf cheque book for {account_number} to your {delivery}",
        "apologetic": "request a new cheque book with {leaves} leaves for your account "
        "{account_number}, to be delivered to your {delivery}",
        "desi": "issue a cheque book of {leaves} leaves for your {account_number}, to be "
        "delivered at your {delivery}",
    },
    "request_account_statement": {
        "table": "Request a statement of {account_number} for {from_date} to {to_date}, sent by "
        "**{delivery}**",
        "terse": "request a statement for {account_number}, {from_date} to {to_date}, by "
        "{delivery}",
        "apologetic": "request an account statement of your account {account_number} covering "
        "{from_date} to {to_date}, delivered by {delivery}",
        "desi": "generate the statement of your {account_number} from {from_date} to {to_date} "
        "and send it by {delivery}",
    },
}


def action(style: str, write: GoldCall) -> str:
    """What the write will do, in the style's words, from its arguments."""
    args = dict(write.arguments)
    filled: dict[str, str] = {}
    for name, raw in args.items():
        if name in ("amount", "monthly_instalment", "daily_limit"):
            filled[name] = amount(style, str(raw))
        elif name in ("from_account", "account_number") and len(str(raw)) >= 8:
            filled[name] = masked(style, str(raw))
        elif name in ("from_date", "to_date"):
            filled[name] = day(style, str(raw))
        else:
            filled[name] = str(raw).replace("_", " ")
    on = "off" if args.get("enabled") is False else "on"
    limit = filled.get("daily_limit")
    filled["state"] = f"{on}, with a daily limit of {limit}" if limit else on
    template = _ACTIONS.get(write.tool, {}).get(style, "make the change you asked for")
    try:
        return template.format(**filled)
    except KeyError:
        return template.split(" {")[0]
