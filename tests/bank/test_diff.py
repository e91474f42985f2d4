"""Row diffs as a failure message shows them: money fields in rupees, the comparison on values."""

from __future__ import annotations

from pytest_bankbench.bank.diff import ChangeSet, compare, row_change


def _account(balance: int, status: str = "active") -> dict[str, object]:
    return {
        "account_number": "50100000000501",
        "customer_id": "C0001",
        "account_type": "savings",
        "balance": balance,
        "hold_amount": 0,
        "status": status,
        "opened_on": "2020-01-01",
        "ifsc": "BKBN0000001",
        "branch": "Pune",
    }


def test_a_row_diff_reads_money_in_rupees_and_compares_paise() -> None:
    before = _account(95_648_19)
    got = row_change("accounts", "50100000000501", before, _account(1_30_867_97, "frozen"))
    want = row_change("accounts", "50100000000501", before, _account(1_30_867_98, "frozen"))
    assert got is not None and want is not None
    assert got.describe() == (
        "update accounts[50100000000501] balance: Rs 95,648.19 -> Rs 1,30,867.97, "
        "status: 'active' -> 'frozen'"
    )
    # One paisa apart is a different change, though both read in rupees.
    diff = compare(ChangeSet.of([got]), ChangeSet.of([want]))
    assert not diff.equal
    assert "- expected update accounts[50100000000501] balance: Rs 95,648.19 -> Rs 1,30,867.98" in (
        diff.describe()
    )
    # The machine form keeps paise.
    assert ChangeSet.of([got]).to_json()[0]["fields"][0] == {
        "field": "balance",
        "before": 95_648_19,
        "after": 1_30_867_97,
    }
