"""Record pickers and eligibility SQL shared by the families: which customer, account, payee,
deposit, loan or card a draft uses."""

from __future__ import annotations

import random
import sqlite3
from collections.abc import Callable
from datetime import date
from typing import Any

from pytest_bankbench.authoring.base import Context
from pytest_bankbench.authoring.phrasing import knows, my_account
from pytest_bankbench.bank import rules
from pytest_bankbench.bank.seed import FROZEN_FOR, WEALTHY
from pytest_bankbench.money import indian
from pytest_bankbench.tasks.model import Fact

# -- record pickers shared by the families ------------------------------------------------------


def pick(rng: random.Random, rows: list[sqlite3.Row]) -> sqlite3.Row | None:
    """One of the rows, or None if there are none."""
    return rng.choice(rows) if rows else None


def customer_accounts(ctx: Context, cid: str, status: str | None = None) -> list[sqlite3.Row]:
    """The customer's accounts by number, whatever their state; with `status`, those in it
    ("dormant")."""
    sql = "SELECT * FROM accounts WHERE customer_id = ?"
    params = [cid] if status is None else [cid, status]
    where = "" if status is None else " AND status = ?"
    return ctx.all(f"{sql}{where} ORDER BY account_number", *params)


def active_accounts(
    ctx: Context, cid: str, need: int | None = None, no_hold: bool = False
) -> list[sqlite3.Row]:
    """The customer's active accounts by number; with `need`, those with at least that many
    paise available; with `no_hold`, those without a hold."""
    sql = "SELECT * FROM accounts WHERE customer_id = ? AND status = 'active'"
    params: list[Any] = [cid]
    if no_hold:
        sql += " AND hold_amount = 0"
    if need is not None:
        sql += " AND balance - hold_amount >= ?"
        params.append(need)
    return ctx.all(sql + " ORDER BY account_number", *params)


def account_row(ctx: Context, number: str) -> sqlite3.Row:
    return ctx.one("SELECT * FROM accounts WHERE account_number = ?", number)


def request_fact(account: sqlite3.Row) -> Fact:
    """The customer tells the account a request is for (a statement, a cheque book)."""
    return knows(f"It's for {my_account(account)}.", "account")


def source_fact(account: sqlite3.Row) -> Fact:
    """The customer tells the account a transfer is sent from."""
    return knows(f"Send it from {my_account(account)}.", "account")


def paying_account(ctx: Context, record: sqlite3.Row, need: int) -> sqlite3.Row | None:
    """The account to debit for a loan or card: its linked account if that has `need` available,
    else the first other active account of the customer that has."""
    rows = active_accounts(ctx, record["customer_id"], need)
    rows.sort(key=lambda a: a["account_number"] != record["linked_account"])
    return rows[0] if rows else None


def pick_payer(
    ctx: Context, rng: random.Random, record: sqlite3.Row, need: int
) -> sqlite3.Row | None:
    """The account the customer pays a loan or card from: any of their active accounts with
    `need` available (the linked one, or another), drawn with the rng."""
    return pick(rng, active_accounts(ctx, record["customer_id"], need))


def pick_funded(ctx: Context, rng: random.Random, cid: str, need: int) -> sqlite3.Row | None:
    """One of the customer's active accounts without a hold and with `need` paise available."""
    return pick(rng, active_accounts(ctx, cid, need, no_hold=True))


# -- eligibility SQL fragments (alias `a.` for accounts) -------------------------------------------

AVAILABLE = "a.status = 'active' AND a.balance - a.hold_amount"


def unheld(need: int, alias: str = "a.") -> str:
    """An active account without a hold and with a balance of at least `need` paise."""
    return f"{alias}status = 'active' AND {alias}hold_amount = 0 AND {alias}balance >= {need}"


def funded_customers(need: int) -> str:
    """Customers with an active account without a hold and with a balance of `need` paise."""
    return f"SELECT DISTINCT customer_id FROM accounts WHERE {unheld(need, '')} ORDER BY 1"


# -- shared by families of more than one module -------------------------------------------------


def payee_customers(need: int) -> str:
    """Customers with a payee and an active account without a hold holding `need` paise."""
    return (
        "SELECT DISTINCT b.customer_id FROM beneficiaries b JOIN accounts a "
        f"USING (customer_id) WHERE {unheld(need)} ORDER BY 1"
    )


def registered_payees(ctx: Context, cid: str) -> list[sqlite3.Row]:
    """Payees added before today whose full name is unique among the customer's payees."""
    rows = ctx.all(
        "SELECT * FROM beneficiaries WHERE customer_id = ? AND added_on < ? "
        "ORDER BY beneficiary_id",
        cid,
        ctx.today.isoformat(),
    )
    names = [r["name"] for r in rows]
    return [r for r in rows if names.count(r["name"]) == 1]


def payee_fact(payee: sqlite3.Row, said: str) -> Fact:
    """The customer tells the amount (as `said`) and the registered payee it is for."""
    return knows(f"It's {said} for {payee['name']}, who is on my payee list.", "payee", "amount")


def amount_within(rng: random.Random, choices: tuple[int, ...], low: int, high: int) -> int | None:
    """One of `choices` (rupees) as paise, within low..high paise, or None."""
    fits = [c * 100 for c in choices if low <= c * 100 <= high]
    return rng.choice(fits) if fits else None


def payment(
    ctx: Context,
    rng: random.Random,
    cid: str,
    need: int,
    choices: tuple[int, ...],
    most: int | None = None,
) -> tuple[sqlite3.Row, sqlite3.Row, int] | None:
    """A registered payee, an account without a hold holding `need`, and one of `choices` that
    leaves Rs 5,000 in the account (and is at most `most`): payee, account, amount."""
    payees = registered_payees(ctx, cid)
    account = pick_funded(ctx, rng, cid, need)
    if not payees or account is None:
        return None
    payee = rng.choice(payees)
    high = account["balance"] - 5_000_00
    amount = amount_within(rng, choices, 0, high if most is None else min(most, high))
    if amount is None:
        return None
    return payee, account, amount


FULL_KYC = (
    "SELECT c.customer_id FROM customers c JOIN accounts a USING (customer_id) "
    f"WHERE c.kyc_status = 'full' AND {AVAILABLE} >= 6000000 GROUP BY c.customer_id"
)


TENURES = (
    (365, "1 year (365 days)"),
    (730, "2 years (730 days)"),
    (180, "180 days"),
    (400, "400 days"),
    (1095, "3 years (1095 days)"),
    (555, "555 days"),
    (91, "91 days"),
    (1825, "5 years (1825 days)"),
)


def funding_account(ctx: Context, rng: random.Random, cid: str, need: int) -> sqlite3.Row | None:
    """One of the customer's active accounts with `need` paise available, drawn with the rng."""
    return pick(rng, active_accounts(ctx, cid, need))


def fd_names(ctx: Context, fd: sqlite3.Row) -> list[str]:
    """How the customer may name an FD, as a person would (never by its id): by its amount and
    the month it was opened, or the month it matures; only names that fit none of the customer's
    other active fixed deposits."""
    others = ctx.all(
        "SELECT * FROM deposits WHERE customer_id = ? AND status = 'active' AND "
        "deposit_type <> 'rd' AND deposit_id <> ?",
        fd["customer_id"],
        fd["deposit_id"],
    )
    amount = indian(fd["principal"])
    start = date.fromisoformat(fd["start_date"])
    matures = date.fromisoformat(fd["maturity_date"])

    def clash(column: str) -> bool:
        return any(
            o["principal"] == fd["principal"] and o[column][:7] == fd[column][:7] for o in others
        )

    names: list[str] = []
    if not clash("start_date"):
        names += [
            f"the {amount} FD I opened in {start:%B %Y}",
            f"my {amount} FD from {start:%B %Y}",
        ]
    if not clash("maturity_date"):
        names.append(f"my {amount} FD that matures in {matures:%B %Y}")
    return names


def fd_name(ctx: Context, rng: random.Random, fd: sqlite3.Row) -> str | None:
    """One of `fd_names`, drawn with the rng; None when none tells the FD apart."""
    names = fd_names(ctx, fd)
    return rng.choice(names) if names else None


def named_fd(
    ctx: Context, rng: random.Random, fds: list[sqlite3.Row]
) -> tuple[sqlite3.Row, str] | None:
    """One of `fds` (`pick`) and how the customer names it (`fd_name`); None when there is none,
    or no name tells the drawn one apart (the family then skips the customer)."""
    fd = pick(rng, fds)
    if fd is None:
        return None
    name = fd_name(ctx, rng, fd)
    return None if name is None else (fd, name)


ACTIVE_CARD = "SELECT DISTINCT customer_id FROM cards WHERE status = 'active'"


CREDIT_CARD = "card_kind = 'credit'"


def customer_cards(ctx: Context, cid: str, where: str = "") -> list[sqlite3.Row]:
    """The customer's cards of any status in list_cards order, optionally filtered."""
    extra = f" AND {where}" if where else ""
    return ctx.all(
        f"SELECT * FROM cards WHERE customer_id = ?{extra} ORDER BY card_kind DESC, card_id", cid
    )


def active_cards(ctx: Context, cid: str, where: str = "") -> list[sqlite3.Row]:
    """The customer's active cards in list_cards order, optionally filtered further."""
    return customer_cards(
        ctx, cid, f"status = 'active' AND {where}" if where else "status = 'active'"
    )


def pick_card(
    ctx: Context, rng: random.Random, customer: sqlite3.Row, where: str = ""
) -> sqlite3.Row | None:
    """One of the customer's active cards (those `where` keeps, `active_cards`), drawn with the
    rng; None when there is none."""
    return pick(rng, active_cards(ctx, customer["customer_id"], where))


def card_name(card: sqlite3.Row) -> str:
    """A card as the customer names it: product and last four digits."""
    return f"{card['product']} card ending {card['last4']}"


def card_words(card: sqlite3.Row) -> dict[str, str]:
    """The ways an opening template names a card (`opening_text(..., **card_words(card))`):
    {named} as the customer names it (`card_name`), {product}, {last4}, {kind} (debit, credit)
    and {account}, the number of the account it is linked to."""
    return {
        "named": card_name(card),
        "product": card["product"],
        "last4": card["last4"],
        "kind": card["card_kind"],
        "account": card["linked_account"],
    }


def card_fact(card: sqlite3.Row) -> Fact:
    return knows(f"It's my {card_name(card)}.", "card")


LOAN_LABEL = {
    "home": "home loan",
    "car": "car loan",
    "personal": "personal loan",
    "gold": "gold loan",
}


FREE_LOAN = "NOT (l.loan_type = 'personal' AND l.emis_paid < 12)"


def customer_loans(ctx: Context, cid: str) -> list[sqlite3.Row]:
    return ctx.all(
        "SELECT * FROM loans WHERE customer_id = ? AND status = 'active' "
        "ORDER BY disbursed_on, loan_id",
        cid,
    )


def free_to_close(loan: sqlite3.Row) -> bool:
    """Out of lock-in: may be prepaid or foreclosed."""
    return not (loan["loan_type"] == "personal" and loan["emis_paid"] < rules.PERSONAL_LOCK_IN_EMIS)


def loan_name(loan: sqlite3.Row, loans: list[sqlite3.Row]) -> str:
    """How the customer names a loan: by type, plus the sanctioned amount if the type repeats."""
    label = LOAN_LABEL[loan["loan_type"]]
    if sum(1 for other in loans if other["loan_type"] == loan["loan_type"]) > 1:
        return f"{label} of {indian(loan['principal'])}"
    return label


def loan_fact(loan: sqlite3.Row) -> Fact:
    return knows(
        f"It's my {LOAN_LABEL[loan['loan_type']]}, sanctioned for {indian(loan['principal'])}; my "
        f"EMI is {indian(loan['emi'])}.",
        "loan",
    )


def loan_words(loan: sqlite3.Row, name: str, payer: sqlite3.Row | None = None) -> dict[str, str]:
    """The ways an opening template names a loan (`opening_text(..., **loan_words(...))`):
    {loan} as the customer names it (`loan_name`), {principal} its sanctioned amount, {emi} its
    EMI and, with `payer`, {payer} the account the customer pays from (`my_account`)."""
    words = {"loan": name, "principal": indian(loan["principal"]), "emi": indian(loan["emi"])}
    if payer is not None:
        words["payer"] = my_account(payer)
    return words


def debit_fact(account: sqlite3.Row) -> Fact:
    return knows(f"Debit the money from {my_account(account)}.", "account")


def fd_funding_facts(
    named: str, maturity: str = "Credit the maturity amount to my account."
) -> list[Fact]:
    """What a customer booking an FD tells when asked: the account it is funded from (`named`,
    as the customer names it) and, in `maturity`, where its maturity amount goes."""
    return [knows(f"Fund it from {named}.", "account"), knows(maturity, "maturity")]


def pick_loan(
    ctx: Context,
    rng: random.Random,
    customer: sqlite3.Row,
    keep: Callable[[sqlite3.Row], bool] | None = None,
) -> tuple[sqlite3.Row, str] | None:
    """One of the customer's active loans (those `keep` accepts), with the name the customer
    uses for it."""
    loans = customer_loans(ctx, customer["customer_id"])
    loan = pick(rng, [loan for loan in loans if keep is None or keep(loan)])
    return None if loan is None else (loan, loan_name(loan, loans))


# The customers given late accounts (bank.seed: a frozen account, a large current account) are
# reserved for the families written for them (authoring/families docstring): a new family's
# `eligible` SQL ends with `AND <alias>customer_id NOT IN {RESERVED}`.
RESERVED = "(" + ", ".join(f"'{c}'" for c in sorted({*FROZEN_FOR, *WEALTHY})) + ")"
