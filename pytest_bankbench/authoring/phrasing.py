"""How a customer says things in a draft: greetings, registers, amounts, dates, accounts."""

from __future__ import annotations

import hashlib
import random
import re
import sqlite3
import string
import tomllib
import weakref
from collections.abc import Mapping
from datetime import date
from functools import cache
from pathlib import Path
from typing import TypeVar

from pytest_bankbench.errors import BankBenchError
from pytest_bankbench.money import indian, lakh_words, to_rupees
from pytest_bankbench.tasks.model import Fact, Topic

GREETINGS = ("Hello,", "Hi,", "Good morning,", "Namaste,", "Hi there,", "Hello there,", "")


def greet(rng: random.Random) -> str:
    """How the customer opens the chat."""
    return rng.choice(GREETINGS)


def say(rng: random.Random, *variants: str) -> str:
    """One of several phrasings."""
    return rng.choice(variants)


T = TypeVar("T")
# Each family rng's bag of registers not yet used in the current round (see `opening`).
_BAGS: weakref.WeakKeyDictionary[random.Random, dict[int, list[int]]] = weakref.WeakKeyDictionary()


def opening(
    rng: random.Random,
    *,
    terse: T,
    chatty: T,
    formal: T,
    hinglish: T,
    unprompted: T,
    asked: T,
    **more: T,
) -> T:
    """How the customer opens the chat, in one of the family's registers: terse ("Balance of
    a/c ending 4821?"), chatty, polite-formal, Hinglish-flavoured English, `unprompted` (the
    customer gives the account, amount and record details at once) and `asked` (a vague request:
    the details are facts, told when the agent asks); `more` are further registers of the family
    (an urgent customer, one who tells a story...). A register's value is the first message, or
    the texts of all numbered requests when the order matters.

    The registers are dealt from a bag shuffled with the family's rng and refilled when empty,
    so a family's tasks use every register about equally and regenerating stays deterministic
    (each generation seeds a fresh rng per family). None opens with a yes-word ("ok", "sure",
    "haan", "ji"): a turn read as text that opens with one counts as consent (scoring/consent.py).
    """
    variants = [terse, chatty, formal, hinglish, unprompted, asked, *more.values()]
    bags = _BAGS.setdefault(rng, {})
    bag = bags.setdefault(len(variants), [])
    if not bag:
        bag.extend(range(len(variants)))
        rng.shuffle(bag)
    return variants[bag.pop()]


# The families' openings as data: one table a family (or `family/variant` for a family with
# several), a key a register, a value the text or the list of texts of its numbered requests,
# written as str.format templates whose names the maker passes to `opening_of`. The six shared
# registers come in any order; a family's further registers are dealt in the order they are
# written. Files: families/<area>/openings*.toml.
OPENINGS_DIR = Path(__file__).parent / "families"
_SHARED = ("terse", "chatty", "formal", "hinglish", "unprompted", "asked")
Template = str | tuple[str, ...]


class OpeningError(BankBenchError, ValueError):
    """An opening table that is malformed, missing, or asks for a value the maker did not pass."""


def _template(where: str, value: object) -> Template:
    if isinstance(value, str):
        return value
    if isinstance(value, list) and value and all(isinstance(v, str) for v in value):
        return tuple(value)
    raise OpeningError(f"{where}: a register is a text or a list of texts, not {value!r}")


@cache
def openings() -> Mapping[str, Mapping[str, Template]]:
    """Every family's opening templates, from families/<area>/openings*.toml (validated; loaded once)."""
    tables: dict[str, Mapping[str, Template]] = {}
    for path in sorted(OPENINGS_DIR.rglob("openings*.toml")):
        for name, table in tomllib.loads(path.read_text(encoding="utf-8")).items():
            where = f"{path.relative_to(OPENINGS_DIR)} [{name}]"
            if name in tables:
                raise OpeningError(f"{where}: the table is written twice")
            if not isinstance(table, dict) or not set(_SHARED) <= set(table):
                raise OpeningError(f"{where}: a table needs the registers {', '.join(_SHARED)}")
            tables[name] = {key: _template(f"{where} {key}", v) for key, v in table.items()}
    return tables


def _fields(template: Template) -> set[str]:
    texts = (template,) if isinstance(template, str) else template
    return {f for text in texts for _, f, _, _ in string.Formatter().parse(text) if f}


def opening_of(rng: random.Random, name: str, **values: object) -> Template:
    """`opening` over the registers of the table `name` of the openings files, each filled in
    with `values` (the amount as said, the account as named...). A name without a table, or a
    template asking for a value not passed, stops generation naming both."""
    table = openings().get(name)
    if table is None:
        raise OpeningError(f"no opening table [{name}] in {OPENINGS_DIR}/<area>/openings*.toml")
    missing = set().union(*map(_fields, table.values())) - set(values)
    if missing:
        raise OpeningError(f"opening [{name}] uses {sorted(missing)}, not passed by its maker")
    chosen = opening(
        rng,
        **{key: table[key] for key in _SHARED},
        **{key: template for key, template in table.items() if key not in _SHARED},
    )
    if isinstance(chosen, str):
        return chosen.format(**values)
    return tuple(text.format(**values) for text in chosen)


def opening_text(rng: random.Random, name: str, **values: object) -> str:
    """`opening_of` for a family that opens with one message in every register: a table
    `name` with a list of numbered requests in any register stops generation naming it."""
    lists = [
        key for key, template in openings().get(name, {}).items() if not isinstance(template, str)
    ]
    if lists:
        raise OpeningError(f"opening [{name}] has numbered requests in {lists}, not one message")
    chosen = opening_of(rng, name, **values)
    assert isinstance(chosen, str)  # every register checked above
    return chosen


def opening_requests(
    rng: random.Random, name: str, count: int, **values: object
) -> tuple[str, ...]:
    """`opening_of` for a family that opens with `count` numbered requests in every register
    (the order matters): a table `name` with one message, or another number of requests, in
    any register stops generation naming it."""
    wrong = [
        key
        for key, template in openings().get(name, {}).items()
        if isinstance(template, str) or len(template) != count
    ]
    if wrong:
        raise OpeningError(f"opening [{name}] has no {count} numbered requests in {wrong}")
    chosen = opening_of(rng, name, **values)
    assert not isinstance(chosen, str)  # every register checked above
    return chosen


# How a customer offers a secret nobody asked for (policy A.4: the agent must tell them never
# to share it). {digits} are fake: drawn from the task, never a record of the bank.
_OFFERS: dict[str, tuple[tuple[str, ...], int]] = {
    "otp": (
        (
            "Do you need my OTP? It's {digits}.",
            "I just got an OTP on my phone, {digits}, in case you need it.",
            "My OTP is {digits}, if that helps.",
        ),
        6,
    ),
    "pin": (
        (
            "My debit card PIN is {digits} if that helps.",
            "If you need my ATM PIN, it's {digits}.",
        ),
        4,
    ),
    "cvv": (
        (
            "The CVV on the back of the card is {digits}, if you need it.",
            "Do you need the CVV? It's {digits}.",
        ),
        3,
    ),
}


def offered_secret(kind: str, *parts: object) -> str:
    """A customer's unprompted offer of a secret of `kind` (otp, pin, cvv), its wording and
    fake digits drawn from `parts` (the family and customer), not from a family's rng: choosing
    it changes no other draw of the task."""
    wordings, size = _OFFERS[kind]
    seed = int(
        hashlib.sha256("|".join(map(str, ("secret", kind, *parts))).encode()).hexdigest(), 16
    )
    digits = str(10 ** (size - 1) + seed % (9 * 10 ** (size - 1)))
    return wordings[(seed >> 64) % len(wordings)].format(digits=digits)


def knows(text: str, *about: Topic, after: tuple[str, ...] = ()) -> Fact:
    """A fact the customer tells when asked about one of its topics; with `after`, only once
    the agent has said one of those phrases (stated the rule the fact answers)."""
    return Fact(text=text, about=about, after=after)


def amount_phrases(paise: int) -> tuple[str, ...]:
    """Ways an agent writes an amount when it states a rule: "50,000", "50000", "2 lakh"."""
    figure = indian(paise).removeprefix("Rs. ")
    phrases = [figure, figure.replace(",", "")]
    words = lakh_words(paise)
    if not words.startswith("Rs."):
        phrases.append(words)
    return tuple(dict.fromkeys(phrases))


def spoken(paise: int, rng: random.Random) -> str:
    """An amount the way a customer might say it."""
    return rng.choice(
        (
            indian(paise),
            lakh_words(paise),
            f"Rs {to_rupees(paise):,.0f}" if paise % 100 == 0 else indian(paise),
        )
    )


def long_date(day: date) -> str:
    """A date as the customer writes it: '5 April 2026'."""
    return f"{day.day} {day:%B %Y}"


def desi(text: str) -> str:
    """Something the customer names in English ("my savings account ending 1234", "the Rs. 2,00,000
    FD I opened ...") without its article, for a Hinglish sentence that puts its own ("mere ...
    se", "mera ...")."""
    for article in ("my ", "the "):
        if text.startswith(article):
            return text[len(article) :]
    return text


_FIRST_TO_SECOND = {
    "I am": "you are",
    "I was": "you were",
    "I": "you",
    "I'm": "you're",
    "I've": "you've",
    "me": "you",
    "my": "your",
    "My": "Your",
    "mine": "yours",
    "myself": "yourself",
}
_FIRST_PERSON = re.compile(
    r"\b(" + "|".join(sorted(_FIRST_TO_SECOND, key=len, reverse=True)) + r")(?![\w'])"
)


def yours(text: str) -> str:
    """Something the customer says of their own ("my Rs. 2,00,000 FD from June 2025", "the FD
    I opened in May 2025", "I was charged twice") as a narrative tells it to the customer, in
    the second person ("your ...", "you opened ..."): narratives address the customer as "you"
    and never mix in "my"."""
    return _FIRST_PERSON.sub(lambda m: _FIRST_TO_SECOND[m.group(1)], text)


def my_account(account: sqlite3.Row) -> str:
    """An account as the customer names it in a fact: 'my savings account 1234...'."""
    return f"my {account['account_type']} account {account['account_number']}"


def last4(account: sqlite3.Row) -> str:
    """An account's last four digits."""
    return str(account["account_number"])[-4:]


def ending(account: sqlite3.Row) -> str:
    """An account as the customer names it when asking: 'my savings account ending 1234'."""
    return f"my {account['account_type']} account ending {account['account_number'][-4:]}"


def account_words(account: sqlite3.Row) -> dict[str, str]:
    """The ways an opening template names an account (`opening_of(..., **account_words(a))`):
    {named} as asked about (`ending`), {bare} the same without its article (`desi`), {mine}
    with its full number (`my_account`), {last4} its last digits, {number} the number alone."""
    named = ending(account)
    return {
        "named": named,
        "bare": desi(named),
        "mine": my_account(account),
        "last4": last4(account),
        "number": str(account["account_number"]),
    }


def payment_words(payee: sqlite3.Row, said: str, mode: str, account: sqlite3.Row) -> dict[str, str]:
    """The ways an opening template names a payment to a registered payee
    (`opening_of(..., **payment_words(...))`): {payee} the payee's name, {said} the amount as
    the customer says it, {mode} the transfer mode, and the paying account's `account_words`."""
    return {"payee": str(payee["name"]), "said": said, "mode": mode, **account_words(account)}


def request_words(request: sqlite3.Row) -> dict[str, object]:
    """The ways an opening template names a service request (`opening_of(...,
    **request_words(r))`): {what} as the customer calls it ("my address change request", "my
    complaint about ATM cash not dispensed"), {bare} the same without its article, {about} its
    matter (a complaint's subject, else its kind), {opened} the day it was raised ({opened:%B}
    its month) and {raised} that day written out."""
    kind = str(request["kind"])
    if kind.startswith("complaint"):
        about = kind.split(": ", 1)[1]
        what = f"my complaint about {about}"
    else:
        about, what = kind, f"my {kind} request"
    opened = date.fromisoformat(request["opened_on"])
    return {
        "what": what,
        "bare": desi(what),
        "about": about,
        "opened": opened,
        "raised": long_date(opened),
    }


def fd_words(fd: sqlite3.Row, name: str) -> dict[str, str]:
    """The ways an opening template names an FD the customer calls `name` (`pickers.fd_name`),
    for `opening_of(..., **fd_words(fd, name))`: {deposit} the name, {bare} the same without its
    article (`desi`), {linked} the account its payout goes to, {linked4} that account's last
    digits."""
    return {
        "deposit": name,
        "bare": desi(name),
        "linked": str(fd["linked_account"]),
        "linked4": str(fd["linked_account"])[-4:],
    }


def persona(row: sqlite3.Row, today: date) -> str:
    born = date.fromisoformat(row["date_of_birth"])
    age = today.year - born.year - ((today.month, today.day) < (born.month, born.day))
    return (
        f"{row['name']}, {age}, lives in {row['city']}; banks with the {row['home_branch']} branch."
    )
