"""The records a customer holds beside accounts: loans, deposits, cards, service requests."""

from __future__ import annotations

import random
from datetime import date, timedelta
from decimal import Decimal
from typing import Any

from pytest_bankbench.bank import rules
from pytest_bankbench.bank.schema import TABLES
from pytest_bankbench.bank.seed_pools import (
    _FD_TENURES,
    _FEMALE,
    _MALE,
    _MERCHANTS,
    _RELATIONS,
    _SURNAMES,
    AS_OF,
    Row,
    _amount,
    _day,
)


class RecordWriter:
    """Rows by table, numbered ids, and the nominees both accounts and deposits take."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.rows: dict[str, list[Row]] = {table.name: [] for table in TABLES}
        self.counters: dict[str, int] = {}

    def next(self, prefix: str, width: int = 6) -> str:
        self.counters[prefix] = self.counters.get(prefix, 0) + 1
        return f"{prefix}{self.counters[prefix]:0{width}d}"

    def add(self, table: str, **values: Any) -> Row:
        self.rows[table].append(values)
        return values

    def nominee(self, cid: str, record: str) -> None:
        rng = self.rng
        self.add(
            "nominees",
            nominee_id=self.next("NOM"),
            customer_id=cid,
            record_id=record,
            name=f"{rng.choice(_MALE + _FEMALE)} {rng.choice(_SURNAMES)}",
            relation=rng.choice(_RELATIONS),
            share_pct=100,
        )


class ProductRecords(RecordWriter):
    """Loans, fixed and recurring deposits, cards and service requests of a customer."""

    def loan(self, cid: str, account: Row) -> Row:
        rng = self.rng
        kind = rng.choices(("home", "personal", "car", "gold"), (28, 32, 25, 15))[0]
        principal, rate, tenure = {
            "home": (
                _amount(rng, 20_00_000, 1_20_00_000, 10_000),
                f"{rng.choice((8.40, 8.75, 9.10, 9.50)):.2f}",
                240,
            ),
            "personal": (
                _amount(rng, 1_00_000, 15_00_000, 5_000),
                f"{rng.choice((10.99, 12.50, 13.75, 15.25)):.2f}",
                rng.choice((36, 48, 60)),
            ),
            "car": (
                _amount(rng, 4_00_000, 20_00_000, 5_000),
                f"{rng.choice((8.90, 9.40, 9.85)):.2f}",
                rng.choice((60, 72, 84)),
            ),
            "gold": (_amount(rng, 50_000, 5_00_000, 1_000), f"{rng.choice((9.00, 9.60)):.2f}", 12),
        }[kind]
        paid = rng.randint(1, min(tenure - 4, 20 if kind == "personal" else tenure - 4))
        instalment = rules.emi(principal, Decimal(rate), tenure)
        outstanding = Decimal(principal)
        for _ in range(paid):
            outstanding = outstanding * (1 + Decimal(rate) / 1200) - instalment
        due_day = rng.randint(1, 28)
        last_emi = date(2026, 3, due_day)
        disbursed = rules.add_months(last_emi, -paid)
        return self.add(
            "loans",
            loan_id=self.next("LN"),
            customer_id=cid,
            loan_type=kind,
            principal=principal,
            outstanding=int(outstanding),
            rate=rate,
            emi=instalment,
            tenure_months=tenure,
            remaining_months=tenure - paid,
            emis_paid=paid,
            disbursed_on=disbursed.isoformat(),
            last_emi_date=last_emi.isoformat(),
            next_due_date=date(2026, 4, due_day).isoformat(),
            linked_account=account["account_number"],
            status="active",
        )

    def deposit(self, cid: str, account: Row, born: date, loans: list[Row]) -> None:
        rng = self.rng
        tax_saver = rng.random() < 0.1
        tenure = rules.TAX_SAVER_DAYS if tax_saver else rng.choice(_FD_TENURES)
        start = _day(
            rng,
            max(date(2023, 4, 1), date(2026, 7, 15) - timedelta(days=tenure - 1)),
            date(2026, 2, 28),
        )
        senior = rules.age_on(born, start) >= rules.SENIOR_AGE
        rate = rules.fd_rate(tenure, senior)
        principal = _amount(rng, 25_000, 25_00_000, 1_000)
        secured = [loan for loan in loans if loan["loan_type"] in ("personal", "gold")]
        lien = secured[0]["loan_id"] if secured and rng.random() < 0.45 else None
        fd_id = self.next("FD")
        self.add(
            "deposits",
            deposit_id=fd_id,
            customer_id=cid,
            deposit_type="tax_saver_fd" if tax_saver else "fd",
            linked_account=account["account_number"],
            principal=principal,
            instalment=None,
            rate=f"{rate:.2f}",
            tenure_days=tenure,
            tenure_months=None,
            start_date=start.isoformat(),
            maturity_date=(start + timedelta(days=tenure)).isoformat(),
            maturity_instruction=rng.choice(("renew_principal_and_interest", "credit_to_account")),
            lien_loan_id=lien,
            status="active",
            closed_on=None,
            payout=None,
        )
        if rng.random() < 0.5:
            self.nominee(cid, fd_id)

    def recurring(self, cid: str, account: Row, born: date) -> None:
        rng = self.rng
        months = rng.choice((12, 24, 36, 60))
        start = date(2025, rng.randint(1, 12), rng.randint(1, 28))
        senior = rules.age_on(born, start) >= rules.SENIOR_AGE
        self.add(
            "deposits",
            deposit_id=self.next("RD"),
            customer_id=cid,
            deposit_type="rd",
            linked_account=account["account_number"],
            principal=None,
            instalment=rng.randint(10, 200) * 100_00,
            rate=f"{rules.fd_rate(months * 30, senior):.2f}",
            tenure_days=None,
            tenure_months=months,
            start_date=start.isoformat(),
            maturity_date=rules.add_months(start, months).isoformat(),
            maturity_instruction="credit_to_account",
            lien_loan_id=None,
            status="active",
            closed_on=None,
            payout=None,
        )

    def card(self, cid: str, kind: str, account: Row) -> None:
        rng = self.rng
        if kind == "debit":
            product = rng.choices(("RuPay Classic Debit", "Visa Platinum Debit"), (6, 4))[0]
            limit = outstanding = minimum = None
            statement = due = None
        else:
            product = rng.choices(("Suvarna Rewards Credit", "Suvarna Secured Credit"), (8, 2))[0]
            limit = _amount(rng, 50_000, 5_00_000, 5_000)
            outstanding = int(limit * rng.uniform(0.05, 0.8)) // 100 * 100
            minimum = rules.minimum_due(outstanding)
            statement, due = "2026-03-20", "2026-04-09"
        blocked = rng.random() < 0.03
        card_id = self.next("CRD")
        self.add(
            "cards",
            card_id=card_id,
            customer_id=cid,
            card_kind=kind,
            product=product,
            last4=f"{rng.randint(0, 9999):04d}",
            status="blocked" if blocked else "active",
            block_reason="damaged" if blocked else None,
            linked_account=account["account_number"],
            credit_limit=limit,
            outstanding=outstanding,
            minimum_due=minimum,
            statement_date=statement,
            payment_due_date=due,
            expiry=f"{rng.randint(1, 12):02d}/{rng.randint(27, 31)}",
        )
        for channel, maximum in rules.CARD_PRODUCTS[product].items():
            cap = maximum if maximum is not None else limit
            assert cap is not None
            self.add(
                "card_controls",
                card_id=card_id,
                channel=channel,
                enabled=1,
                daily_limit=cap if rng.random() < 0.5 else cap // 2,
            )
        intl = product in rules.INTERNATIONAL_CAPABLE and rng.random() < 0.3
        self.add(
            "card_controls",
            card_id=card_id,
            channel="international",
            enabled=int(intl),
            daily_limit=None,
        )
        if kind == "credit":
            for _ in range(6):
                self.add(
                    "card_transactions",
                    card_txn_id=self.next("CTX", 8),
                    card_id=card_id,
                    txn_date=_day(rng, date(2026, 2, 21), date(2026, 3, 20)).isoformat(),
                    merchant=rng.choice(_MERCHANTS),
                    amount=_amount(rng, 150, 25_000, 1),
                    kind="purchase",
                )

    def service_request(self, cid: str) -> None:
        rng = self.rng
        kind = rng.choice(
            (
                "debit card replacement",
                "address change",
                "cheque book delivery",
                "statement by post",
                "mobile number update",
                "complaint: ATM cash not dispensed",
            )
        )
        self.add(
            "service_requests",
            request_id=self.next("SR"),
            customer_id=cid,
            kind=kind,
            status=rng.choice(("open", "in progress", "closed", "closed")),
            opened_on=_day(rng, date(2026, 1, 1), AS_OF).isoformat(),
            details=f"Request raised for {kind}",
        )


# Accounts added after every customer is made, from a generator of their own, so that no other
# record changes: a frozen savings account (debits refused, policy H.29) and a large current
# account (enough to ask for an FD above the Rs 2 crore maximum). They go to customers that no
# task used before these accounts existed, so the tasks of the other families stay the same.
