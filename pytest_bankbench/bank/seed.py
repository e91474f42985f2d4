"""The synthetic customers and their records, generated from one seed (no real people, no real ids)."""

from __future__ import annotations

import random
from datetime import date, timedelta

from pytest_bankbench.bank import rules
from pytest_bankbench.bank.seed_pools import (
    _BRANCHES,
    _FEMALE,
    _MALE,
    _MERCHANTS,
    _OTHER_BANKS,
    _SURNAMES,
    AS_OF,
    Row,
    _amount,
    _day,
)
from pytest_bankbench.bank.seed_products import ProductRecords

__all__ = ["AS_OF", "CUSTOMERS", "FROZEN_FOR", "WEALTHY", "Row", "generate_records"]

CUSTOMERS = 944


class _Generator(ProductRecords):
    """A customer at a time: who they are, their accounts, then what else they hold."""

    def customer(self, index: int) -> None:
        rng = self.rng
        female = rng.random() < 0.48
        first = rng.choice(_FEMALE if female else _MALE)
        last = rng.choice(_SURNAMES)
        senior = rng.random() < 0.24
        age = rng.randint(60, 84) if senior else rng.randint(22, 59)
        born = date(AS_OF.year - age - 1, rng.randint(1, 12), rng.randint(1, 28))
        city, branch, code, pin = rng.choice(_BRANCHES)
        cid = f"CUST{index + 1:05d}"
        kyc = rng.choices(("full", "pending", "expired"), (92, 3, 5))[0]
        handle = f"{first}.{last}".lower().replace("'", "")
        self.add(
            "customers",
            customer_id=cid,
            name=f"{first} {last}",
            date_of_birth=born.isoformat(),
            city=city,
            phone=f"9{rng.randint(100000000, 999999999)}",
            email=f"{handle}{rng.randint(1, 99)}@example.in",
            address=f"{rng.randint(1, 400)}, {rng.choice(('MG Road', 'Station Road', 'Nehru Nagar', 'Gandhi Marg', 'Lake View Colony', 'Shanti Nagar'))}, {city} {pin}{rng.randint(10, 99)}",
            kyc_status=kyc,
            pan_on_file=int(rng.random() < 0.95),
            home_branch=f"{branch}, {city}",
        )
        ifsc = f"{rules.IFSC_PREFIX}{code}"
        accounts = [self.account(cid, "savings", ifsc, branch, "active")]
        if rng.random() < 0.3:
            status = "dormant" if rng.random() < 0.35 else "active"
            accounts.append(self.account(cid, "savings", ifsc, branch, status))
        if rng.random() < 0.15:
            accounts.append(self.account(cid, "current", ifsc, branch, "active"))
        active = [a for a in accounts if a["status"] == "active"]
        for account in accounts:
            self.transactions(account)
            if rng.random() < 0.7:
                self.cheques(account)
            if rng.random() < 0.7:
                self.nominee(cid, account["account_number"])
        for _ in range(rng.choice((0, 1, 2, 2, 3, 3, 4, 5))):
            self.beneficiary(cid)
        loans = [self.loan(cid, active[0]) for _ in range(rng.choices((0, 1, 2), (48, 40, 12))[0])]
        for _ in range(rng.choices((0, 1, 2, 3, 4), (35, 25, 20, 12, 8))[0]):
            self.deposit(cid, rng.choice(active), born, loans)
        if rng.random() < 0.18:
            self.recurring(cid, active[0], born)
        for account in active:
            if account["account_type"] == "savings" or rng.random() < 0.5:
                self.card(cid, "debit", account)
        if rng.random() < 0.45:
            self.card(cid, "credit", active[0])
        if rng.random() < 0.3:
            for _ in range(rng.randint(1, 2)):
                self.service_request(cid)

    def account(self, cid: str, kind: str, ifsc: str, branch: str, status: str) -> Row:
        rng = self.rng
        balance = (
            _amount(rng, 8_000, 15_00_000, 1) + rng.randint(0, 99)
            if kind == "savings"
            else _amount(rng, 50_000, 40_00_000, 1)
        )
        hold = _amount(rng, 5_000, 1_00_000, 1000) if rng.random() < 0.06 else 0
        return self.add(
            "accounts",
            account_number=f"5010{rng.randint(10**9, 10**10 - 1)}",
            customer_id=cid,
            account_type=kind,
            ifsc=ifsc,
            branch=branch,
            balance=balance,
            hold_amount=min(hold, balance // 2),
            status=status,
            opened_on=_day(rng, date(2008, 1, 1), date(2024, 3, 31)).isoformat(),
        )

    def transactions(self, account: Row) -> None:
        rng = self.rng
        last = date(2023, 12, 20) if account["status"] == "dormant" else AS_OF
        days = sorted(_day(rng, last - timedelta(days=80), last) for _ in range(8))
        balance = account["balance"]
        entries = []
        for day in reversed(days):
            credit = rng.random() < 0.4
            amount = _amount(rng, 200, 80_000, 1)
            if not credit and amount > balance:
                credit = True
            desc = (
                rng.choice(
                    (
                        "Salary credit",
                        "NEFT from " + rng.choice(_SURNAMES),
                        "Interest credit",
                        "UPI received",
                    )
                )
                if credit
                else rng.choice(
                    (
                        "UPI to " + rng.choice(_MERCHANTS),
                        "ATM withdrawal",
                        "POS " + rng.choice(_MERCHANTS),
                        "Electricity bill",
                        "NEFT to " + rng.choice(_SURNAMES),
                    )
                )
            )
            entries.append((day, amount, "credit" if credit else "debit", desc, balance))
            balance = balance - amount if credit else balance + amount
        for day, amount, direction, desc, after in reversed(entries):
            self.add(
                "transactions",
                txn_id=self.next("TXN", 8),
                account_number=account["account_number"],
                txn_date=day.isoformat(),
                amount=amount,
                direction=direction,
                channel=desc.split()[0].lower(),
                description=desc,
                counterparty=None,
                balance_after=after,
            )

    def cheques(self, account: Row) -> None:
        rng = self.rng
        first = rng.randint(100, 990) * 1000 + 1
        self.add(
            "cheque_books",
            book_id=self.next("CHQBK"),
            account_number=account["account_number"],
            first_leaf=first,
            last_leaf=first + 24,
            issued_on=_day(rng, date(2024, 6, 1), date(2026, 1, 31)).isoformat(),
        )
        for leaf in range(first, first + rng.randint(0, 5)):
            self.add(
                "cheques",
                account_number=account["account_number"],
                cheque_number=leaf,
                status="paid",
                amount=_amount(rng, 1_000, 2_00_000, 100),
                payee=f"{rng.choice(_MALE + _FEMALE)} {rng.choice(_SURNAMES)}",
                status_date=_day(rng, date(2025, 1, 1), AS_OF).isoformat(),
            )

    def beneficiary(self, cid: str) -> None:
        rng = self.rng
        name = f"{rng.choice(_MALE + _FEMALE)} {rng.choice(_SURNAMES)}"
        self.add(
            "beneficiaries",
            beneficiary_id=self.next("BEN"),
            customer_id=cid,
            name=name,
            account_number=str(rng.randint(10**11, 10**12 - 1)),
            ifsc=f"{rng.choice(_OTHER_BANKS)}{rng.randint(0, 999999):06d}",
            nickname=name.split()[0].lower(),
            added_on=_day(rng, date(2023, 1, 1), date(2026, 3, 25)).isoformat(),
        )


FROZEN_FOR = (
    "CUST00002", "CUST00016", "CUST00106", "CUST00107", "CUST00114", "CUST00123", "CUST00130",
    "CUST00141", "CUST00147", "CUST00254", "CUST00277", "CUST00284", "CUST00294", "CUST00340",
    "CUST00363", "CUST00369", "CUST00397", "CUST00419", "CUST00431", "CUST00449", "CUST00479",
    "CUST00520", "CUST00549", "CUST00559", "CUST00579", "CUST00597", "CUST00602", "CUST00631",
    "CUST00636", "CUST00673", "CUST00683", "CUST00692", "CUST00707", "CUST00719", "CUST00738",
    "CUST00753", "CUST00787", "CUST00878", "CUST00907", "CUST00935",
)  # fmt: skip
WEALTHY = (
    "CUST00003", "CUST00095", "CUST00110", "CUST00246", "CUST00282", "CUST00436", "CUST00458",
    "CUST00534", "CUST00550", "CUST00570", "CUST00573", "CUST00674", "CUST00697", "CUST00729",
    "CUST00892",
)  # fmt: skip


def _late_accounts(generator: _Generator, seed: int) -> None:
    """The frozen and the large accounts, drawn from their own rng after every other record."""
    generator.rng = random.Random(seed * 7919 + 17)
    first: dict[str, Row] = {}
    for row in generator.rows["accounts"]:
        first.setdefault(row["customer_id"], row)
    for cid, kind, status in [(c, "savings", "frozen") for c in FROZEN_FOR] + [
        (c, "current", "active") for c in WEALTHY
    ]:
        home = first[cid]
        account = generator.account(cid, kind, home["ifsc"], home["branch"], status)
        if cid in WEALTHY:
            account["balance"] = _amount(generator.rng, 2_10_00_000, 3_50_00_000, 1_000)
            account["hold_amount"] = 0
        generator.transactions(account)


def generate_records(seed: int) -> dict[str, list[Row]]:
    """All records of the bank for a seed, by table; the same seed gives the same rows."""
    generator = _Generator(seed)
    for index in range(CUSTOMERS):
        generator.customer(index)
    _late_accounts(generator, seed)
    return generator.rows
