"""The customer's phrasings: openings written as data (families/<area>/openings*.toml)."""

from __future__ import annotations

import random
import sqlite3
from datetime import date
from pathlib import Path

import pytest

from pytest_bankbench.authoring import phrasing
from pytest_bankbench.authoring.base import family_rows

SHARED = "\n".join(
    f'{key} = "{key} {{amount}}"'
    for key in ("terse", "chatty", "formal", "hinglish", "unprompted", "asked")
)


def _with(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, text: str) -> None:
    (tmp_path / "openings_test.toml").write_text(text, encoding="utf-8")
    monkeypatch.setattr(phrasing, "OPENINGS_DIR", tmp_path)
    phrasing.openings.cache_clear()


@pytest.fixture(autouse=True)
def _fresh_cache() -> object:
    phrasing.openings.cache_clear()
    yield
    phrasing.openings.cache_clear()


def test_every_opening_table_belongs_to_a_registered_family() -> None:
    families = set(family_rows())
    tables = phrasing.openings()
    assert tables, "no opening tables were found"
    assert {name.split("/")[0] for name in tables} <= families


def test_an_opening_is_filled_in_and_deals_every_register(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    _with(monkeypatch, tmp_path, f'[fam]\n{SHARED}\nworried = ["first {{amount}}", "then"]\n')
    rng = random.Random(7)
    dealt = [phrasing.opening_of(rng, "fam", amount="Rs. 500") for _ in range(7)]
    assert ("first Rs. 500", "then") in dealt
    assert {"terse Rs. 500", "asked Rs. 500"} <= set(dealt)
    assert len({str(d) for d in dealt}) == 7


def test_the_same_rng_deals_as_the_keyword_form(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    _with(monkeypatch, tmp_path, f'[fam]\n{SHARED}\nextra = "extra {{amount}}"\n')
    keys = ("terse", "chatty", "formal", "hinglish", "unprompted", "asked", "extra")
    by_data = [phrasing.opening_of(random.Random(3), "fam", amount="x") for _ in range(1)]
    by_code = [phrasing.opening(random.Random(3), **{k: f"{k} x" for k in keys})]
    assert by_data == by_code


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('[fam]\nterse = "t"\n', "needs the registers"),
        (f"[fam]\n{SHARED}\nworried = 3\n", "a text or a list of texts"),
        (f"[fam]\n{SHARED}\nworried = []\n", "a text or a list of texts"),
    ],
)
def test_a_malformed_table_is_refused_by_file_and_table(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, text: str, message: str
) -> None:
    _with(monkeypatch, tmp_path, text)
    with pytest.raises(phrasing.OpeningError, match=rf"openings_test\.toml \[fam\].*{message}"):
        phrasing.opening_of(random.Random(1), "fam", amount="x")


def test_a_value_the_maker_did_not_pass_or_a_missing_table_is_named(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    _with(monkeypatch, tmp_path, f"[fam]\n{SHARED}\n")
    with pytest.raises(phrasing.OpeningError, match=r"\[fam\] uses \['amount'\]"):
        phrasing.opening_of(random.Random(1), "fam")
    with pytest.raises(phrasing.OpeningError, match=r"no opening table \[other\]"):
        phrasing.opening_of(random.Random(1), "other", amount="x")


def test_a_one_message_opening_is_text_and_numbered_requests_are_refused(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    _with(
        monkeypatch,
        tmp_path,
        f'[one]\n{SHARED}\n[two]\n{SHARED}\nworried = ["first {{amount}}", "then"]\n',
    )
    assert phrasing.opening_text(random.Random(1), "one", amount="x").endswith(" x")
    with pytest.raises(
        phrasing.OpeningError, match=r"\[two\] has numbered requests in \['worried'\]"
    ):
        phrasing.opening_text(random.Random(1), "two", amount="x")


def test_numbered_requests_are_texts_and_a_register_of_another_count_is_refused(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    pairs = "\n".join(
        f'{key} = ["{key} {{amount}}", "then"]'
        for key in ("terse", "chatty", "formal", "hinglish", "unprompted", "asked")
    )
    _with(
        monkeypatch,
        tmp_path,
        f'[two]\n{pairs}\n[mixed]\n{pairs}\nworried = "one message"\n'
        f'[three]\n{pairs}\nworried = ["a", "b", "c"]\n',
    )
    first, then = phrasing.opening_requests(random.Random(1), "two", 2, amount="x")
    assert first.endswith(" x") and then == "then"
    for name in ("mixed", "three"):
        with pytest.raises(
            phrasing.OpeningError, match=rf"\[{name}\] has no 2 numbered requests in \['worried'\]"
        ):
            phrasing.opening_requests(random.Random(1), name, 2, amount="x")


def _row(**values: object) -> sqlite3.Row:
    conn = sqlite3.connect(":memory:")
    conn.row_factory = sqlite3.Row
    row: sqlite3.Row = conn.execute(
        "SELECT " + ", ".join(f"? AS {key}" for key in values), tuple(values.values())
    ).fetchone()
    return row


def test_a_record_is_named_the_same_way_in_every_template() -> None:
    account = _row(account_type="savings", account_number="50100012344821")
    assert phrasing.account_words(account) == {
        "named": "my savings account ending 4821",
        "bare": "savings account ending 4821",
        "mine": "my savings account 50100012344821",
        "last4": "4821",
        "number": "50100012344821",
    }
    complaint = phrasing.request_words(
        _row(kind="complaint: ATM cash not dispensed", opened_on="2026-02-05")
    )
    other = phrasing.request_words(_row(kind="address change", opened_on="2026-02-05"))
    assert (complaint["what"], complaint["about"], complaint["bare"]) == (
        "my complaint about ATM cash not dispensed",
        "ATM cash not dispensed",
        "complaint about ATM cash not dispensed",
    )
    assert (other["what"], other["about"]) == ("my address change request", "address change")
    assert (other["opened"], other["raised"]) == (date(2026, 2, 5), "5 February 2026")


def test_a_payment_is_named_by_its_payee_amount_mode_and_paying_account() -> None:
    account = _row(account_type="current", account_number="50200099990012")
    words = phrasing.payment_words(_row(name="Irfan Kale"), "Rs 5,000", "IMPS", account)
    assert words == {
        "payee": "Irfan Kale",
        "said": "Rs 5,000",
        "mode": "IMPS",
        **phrasing.account_words(account),
    }
    assert words["named"] == "my current account ending 0012"


def test_an_fd_is_named_by_the_customers_name_and_its_linked_account() -> None:
    words = phrasing.fd_words(
        _row(linked_account="50100012345678"), "my Rs. 1,00,000 FD from March 2025"
    )
    assert words == {
        "deposit": "my Rs. 1,00,000 FD from March 2025",
        "bare": "Rs. 1,00,000 FD from March 2025",
        "linked": "50100012345678",
        "linked4": "5678",
    }
