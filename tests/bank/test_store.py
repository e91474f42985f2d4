"""The in-memory bank: change capture, normalized change sets, isolation and a deterministic seed."""

from __future__ import annotations

from collections import Counter

import pytest

from pytest_bankbench.bank.diff import ChangeSet, FieldChange, RowChange, compare
from pytest_bankbench.bank.schema import TABLE_BY_NAME, TABLES
from pytest_bankbench.bank.seed import CUSTOMERS, generate_records
from pytest_bankbench.bank.store import DEFAULT_SEED, Bank, table_names
from tests.bank.bank_testkit import (
    TODAY,
    OpenBank,
    as_counter,
    call,
    funded,
    has,
    inserted,
    own,
    record,
    updated,
)


def test_a_fresh_bank_has_no_changes(open_bank: OpenBank) -> None:
    bank = open_bank("1")
    assert bank.changes().rows == ()
    assert bank.changes() == ChangeSet(())
    assert bank.today == TODAY


def test_reads_make_no_changes(open_bank: OpenBank) -> None:
    bank = open_bank(has("loans") + " AND " + has("cards") + " AND " + has("deposits"))
    for name in (
        "get_customer_profile",
        "list_accounts",
        "list_loans",
        "list_cards",
        "list_deposits",
        "list_beneficiaries",
        "get_service_requests",
        "get_deposit_rate_card",
    ):
        call(bank, name)
    assert bank.changes().rows == ()


def test_update_shows_table_key_field_before_and_after(open_bank: OpenBank) -> None:
    bank = open_bank(has("accounts"))
    acct = own(bank, "accounts")
    bank.execute(
        "UPDATE accounts SET balance = balance + 12345, status = 'dormant' "
        "WHERE account_number = ?",
        acct["account_number"],
    )
    (row,) = bank.changes().rows
    assert row == RowChange(
        table="accounts",
        key=acct["account_number"],
        op="update",
        fields=(
            FieldChange(field="balance", before=acct["balance"], after=acct["balance"] + 12345),
            FieldChange(field="status", before=acct["status"], after="dormant"),
        ),
    )
    assert "balance" in row.describe() and acct["account_number"] in row.describe()


def test_update_of_a_composite_key_row(open_bank: OpenBank) -> None:
    bank = open_bank(has("cards"))
    card = own(bank, "cards")
    ctl = record(
        bank, "SELECT * FROM card_controls WHERE card_id = ? AND channel = 'atm'", card["card_id"]
    )
    bank.execute(
        "UPDATE card_controls SET enabled = 1 - enabled WHERE card_id = ? AND channel = 'atm'",
        card["card_id"],
    )
    assert as_counter(bank.changes()) == Counter(
        [
            updated(
                "card_controls",
                f"{card['card_id']}|atm",
                enabled=(ctl["enabled"], 1 - ctl["enabled"]),
            ),
        ]
    )


def test_several_updates_of_one_row_show_seed_value_and_latest(open_bank: OpenBank) -> None:
    bank = open_bank(has("accounts"))
    acct = own(bank, "accounts")
    for delta in (100, 200, 300):
        bank.execute(
            "UPDATE accounts SET balance = balance + ? WHERE account_number = ?",
            delta,
            acct["account_number"],
        )
    assert as_counter(bank.changes()) == Counter(
        [
            updated(
                "accounts", acct["account_number"], balance=(acct["balance"], acct["balance"] + 600)
            ),
        ]
    )


def test_an_update_then_its_undo_is_no_change(open_bank: OpenBank) -> None:
    bank = open_bank(has("accounts"))
    acct = own(bank, "accounts")
    bank.execute("UPDATE accounts SET balance = 1 WHERE account_number = ?", acct["account_number"])
    assert len(bank.changes().rows) == 1
    bank.execute(
        "UPDATE accounts SET balance = ? WHERE account_number = ?",
        acct["balance"],
        acct["account_number"],
    )
    assert bank.changes().rows == ()


def test_insert_with_a_seeded_key_shows_every_column(open_bank: OpenBank) -> None:
    bank = open_bank(has("accounts"))
    acct = own(bank, "accounts")
    values = {
        "nominee_id": "NOMTEST1",
        "customer_id": bank.customer_id,
        "record_id": acct["account_number"],
        "name": "Test Nominee",
        "relation": "spouse",
        "share_pct": 100,
    }
    bank.insert("nominees", **values)
    (row,) = bank.changes().rows
    assert (row.table, row.op, row.key) == ("nominees", "insert", "NOMTEST1")
    assert {f.field: (f.before, f.after) for f in row.fields} == {
        k: (None, v) for k, v in values.items()
    }


def test_insert_with_a_generated_key_is_keyed_by_content(open_bank: OpenBank) -> None:
    bank = open_bank(has("accounts"))
    acct = own(bank, "accounts")
    txn_id = bank.next_id("TXN")
    bank.insert(
        "transactions",
        txn_id=txn_id,
        account_number=acct["account_number"],
        txn_date=TODAY.isoformat(),
        amount=500,
        direction="credit",
        channel="test",
        description="test",
        counterparty=None,
        balance_after=acct["balance"] + 500,
    )
    (row,) = bank.changes().rows
    assert row.key == "<new>"
    assert "txn_id" not in {f.field for f in row.fields}
    assert as_counter(bank.changes()) == Counter(
        [
            inserted(
                "transactions",
                account_number=acct["account_number"],
                txn_date=TODAY.isoformat(),
                amount=500,
                direction="credit",
                channel="test",
                description="test",
                balance_after=acct["balance"] + 500,
            )
        ]
    )


def test_delete_shows_the_seed_row(open_bank: OpenBank) -> None:
    bank = open_bank(has("nominees"))
    nominee = own(bank, "nominees")
    bank.execute("DELETE FROM nominees WHERE nominee_id = ?", nominee["nominee_id"])
    (row,) = bank.changes().rows
    assert (row.table, row.op, row.key) == ("nominees", "delete", nominee["nominee_id"])
    assert {f.field: (f.before, f.after) for f in row.fields} == {
        k: (nominee[k], None) for k in TABLE_BY_NAME["nominees"].column_names
    }


def test_insert_then_delete_is_no_change(open_bank: OpenBank) -> None:
    bank = open_bank(has("accounts"))
    bank.insert(
        "nominees",
        nominee_id="NOMTEST2",
        customer_id=bank.customer_id,
        record_id="X",
        name="N",
        relation="son",
        share_pct=100,
    )
    bank.execute("DELETE FROM nominees WHERE nominee_id = 'NOMTEST2'")
    assert bank.changes().rows == ()


@pytest.mark.parametrize("nominee_id", ["NOM|PIPE", "NOM9", "42"])
def test_a_row_is_found_by_its_logged_key_whatever_the_key_holds(
    open_bank: OpenBank, nominee_id: str
) -> None:
    """The key columns speed the lookup; the logged key decides, also when a key value holds the
    separator (then the lookup scans) or is all digits."""
    bank = open_bank(has("accounts"))
    values = {"customer_id": bank.customer_id, "record_id": "X", "name": "N", "relation": "son"}
    bank.insert("nominees", nominee_id=nominee_id, share_pct=100, **values)
    bank.execute("UPDATE nominees SET share_pct = 50 WHERE nominee_id = ?", nominee_id)
    (row,) = bank.changes().rows
    assert (row.op, row.key) == ("insert", nominee_id)
    assert ("share_pct", None, 50) in {(f.field, f.before, f.after) for f in row.fields}


def test_transaction_rolls_back_everything_on_error(open_bank: OpenBank) -> None:
    bank = open_bank(has("accounts"))
    acct = own(bank, "accounts")
    with pytest.raises(RuntimeError), bank.transaction():
        bank.execute(
            "UPDATE accounts SET balance = 0 WHERE account_number = ?", acct["account_number"]
        )
        bank.next_id("FD")
        raise RuntimeError("half way")
    assert bank.changes().rows == ()
    assert (
        record(
            bank, "SELECT balance FROM accounts WHERE account_number = ?", acct["account_number"]
        )["balance"]
        == acct["balance"]
    )
    # the sequence was rolled back too
    with Bank(bank.customer_id, TODAY) as fresh:
        assert bank.next_id("FD") == fresh.next_id("FD")


def test_next_id_is_sequential_and_does_not_clash_with_the_seed(open_bank: OpenBank) -> None:
    bank = open_bank("1")
    first, second = bank.next_id("FD"), bank.next_id("FD")
    assert first.startswith("FD") and second.startswith("FD")
    assert int(second[2:]) == int(first[2:]) + 1
    for fd_id in (first, second):
        assert bank.one("SELECT 1 FROM deposits WHERE deposit_id = ?", fd_id) is None


FD_CUSTOMER = (
    "c.kyc_status = 'full' AND (SELECT COUNT(*) FROM accounts a WHERE "
    f"a.customer_id = c.customer_id AND {funded(1_00_000_00)}) >= 2"
)


def test_same_fd_with_a_different_generated_id_gives_equal_change_sets(open_bank: OpenBank) -> None:
    first = open_bank(FD_CUSTOMER)
    second = open_bank(FD_CUSTOMER)
    acct = own(first, "accounts", funded(1_00_000_00))["account_number"]
    second.next_id("FD")  # the second bank mints a different deposit id
    second.next_id("TXN")
    args = {"from_account": acct, "amount": 50000, "tenure_days": 400}
    a, b = call(first, "create_fd", **args), call(second, "create_fd", **args)
    assert a["deposit_id"] != b["deposit_id"]
    assert first.changes() == second.changes()
    assert hash(first.changes()) == hash(second.changes())
    assert compare(first.changes(), second.changes()).equal


def test_two_fds_booked_in_either_order_give_equal_change_sets(open_bank: OpenBank) -> None:
    first, second, third = (open_bank(FD_CUSTOMER) for _ in range(3))
    accounts = first.all(
        f"SELECT a.account_number FROM accounts a WHERE a.customer_id = ? AND "
        f"{funded(1_00_000_00)} ORDER BY a.account_number",
        first.customer_id,
    )
    fd_a = {"from_account": accounts[0]["account_number"], "amount": 20000, "tenure_days": 365}
    fd_b = {"from_account": accounts[1]["account_number"], "amount": 30000, "tenure_days": 730}
    call(first, "create_fd", **fd_a)
    call(first, "create_fd", **fd_b)
    call(second, "create_fd", **fd_b)
    call(second, "create_fd", **fd_a)
    assert first.changes() == second.changes()
    assert ChangeSet.from_json(first.changes().to_json()) == second.changes()
    # and a different FD is a different change set
    call(third, "create_fd", **fd_a)
    call(third, "create_fd", **{**fd_b, "amount": 30001})
    diff = compare(third.changes(), first.changes())
    assert not diff.equal
    assert diff.unexpected and diff.missing and "Rs 30,001.00" in diff.describe()


def test_banks_are_isolated(open_bank: OpenBank) -> None:
    one, two = open_bank(has("accounts")), open_bank(has("accounts"))
    assert one.customer_id == two.customer_id
    acct = own(one, "accounts")
    one.execute("UPDATE accounts SET balance = 0 WHERE account_number = ?", acct["account_number"])
    assert len(one.changes().rows) == 1
    assert two.changes().rows == ()
    assert (
        record(
            two, "SELECT balance FROM accounts WHERE account_number = ?", acct["account_number"]
        )["balance"]
        == acct["balance"]
    )


def test_context_manager_closes_the_connection() -> None:
    with Bank("", TODAY) as bank:
        assert bank.one("SELECT COUNT(*) AS n FROM customers") is not None
    with pytest.raises(Exception, match="closed"):
        bank.one("SELECT 1")


def test_seed_is_deterministic_and_has_its_customers() -> None:
    first, second = generate_records(DEFAULT_SEED), generate_records(DEFAULT_SEED)
    assert first == second
    assert len(first["customers"]) == CUSTOMERS
    assert len({c["customer_id"] for c in first["customers"]}) == CUSTOMERS
    assert set(first) == set(table_names())


def test_another_seed_gives_other_records() -> None:
    assert (
        generate_records(DEFAULT_SEED + 1)["customers"]
        != generate_records(DEFAULT_SEED)["customers"]
    )


def test_the_bank_holds_exactly_the_seed_records(probe: Bank) -> None:
    records = generate_records(DEFAULT_SEED)
    for table in TABLES:
        row = record(probe, f"SELECT COUNT(*) AS n FROM {table.name}")
        assert row["n"] == len(records[table.name]), table.name
    first = records["customers"][0]
    assert (
        dict(record(probe, "SELECT * FROM customers WHERE customer_id = ?", first["customer_id"]))
        == first
    )


def test_table_names_follow_the_schema() -> None:
    assert table_names() == [t.name for t in TABLES]
    assert "transactions" in table_names() and "sequences" not in table_names()
