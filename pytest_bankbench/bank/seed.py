"""The synthetic customers and their records, generated from one seed (no real people, no real ids)."""

from __future__ import annotations

import random
from datetime import date, timedelta
from decimal import Decimal
from typing import Any

from pytest_bankbench.bank import rules
from pytest_bankbench.bank.schema import TABLES

AS_OF = date(2026, 3, 31)
CUSTOMERS = 944

Row = dict[str, Any]

_MALE = [
    "Aarav",
    "Aditya",
    "Ajay",
    "Akash",
    "Amit",
    "Anand",
    "Anil",
    "Arjun",
    "Ashok",
    "Deepak",
    "Dev",
    "Gaurav",
    "Harish",
    "Karan",
    "Kiran",
    "Krishna",
    "Manoj",
    "Mohan",
    "Naveen",
    "Nikhil",
    "Pradeep",
    "Prakash",
    "Rahul",
    "Rajesh",
    "Ramesh",
    "Ravi",
    "Rohan",
    "Sandeep",
    "Sanjay",
    "Suresh",
    "Tarun",
    "Varun",
    "Vijay",
    "Vikram",
    "Vinod",
    "Yash",
    "Abhishek",
    "Farhan",
    "Imran",
    "Joseph",
    "Harpreet",
    "Gurpreet",
    "Subramanian",
    "Venkatesh",
    "Srinivas",
    "Balaji",
    "Mahesh",
    "Dinesh",
]
_FEMALE = [
    "Aditi",
    "Ananya",
    "Anjali",
    "Anita",
    "Aparna",
    "Bhavna",
    "Deepa",
    "Divya",
    "Gayatri",
    "Geeta",
    "Isha",
    "Jyoti",
    "Kavita",
    "Lakshmi",
    "Meena",
    "Meera",
    "Neha",
    "Nisha",
    "Pooja",
    "Priya",
    "Radha",
    "Rekha",
    "Ritu",
    "Sakshi",
    "Savita",
    "Shalini",
    "Shreya",
    "Sneha",
    "Sunita",
    "Swati",
    "Tanvi",
    "Uma",
    "Usha",
    "Vandana",
    "Yamini",
    "Zoya",
    "Fatima",
    "Mary",
    "Simran",
    "Harleen",
    "Padma",
    "Revathi",
    "Kamala",
    "Sarala",
    "Vasudha",
    "Nandini",
]
_SURNAMES = [
    "Sharma",
    "Verma",
    "Gupta",
    "Agarwal",
    "Iyer",
    "Iyengar",
    "Nair",
    "Menon",
    "Pillai",
    "Reddy",
    "Rao",
    "Naidu",
    "Patel",
    "Shah",
    "Mehta",
    "Desai",
    "Joshi",
    "Kulkarni",
    "Deshpande",
    "Patil",
    "Chavan",
    "Banerjee",
    "Chatterjee",
    "Mukherjee",
    "Das",
    "Ghosh",
    "Bose",
    "Sen",
    "Singh",
    "Chauhan",
    "Yadav",
    "Mishra",
    "Tiwari",
    "Pandey",
    "Dubey",
    "Khan",
    "Qureshi",
    "Siddiqui",
    "Fernandes",
    "D'Souza",
    "Gill",
    "Sandhu",
    "Bhatia",
    "Malhotra",
    "Kapoor",
    "Saxena",
    "Srivastava",
    "Hegde",
    "Shetty",
    "Kamath",
    "Krishnan",
    "Subramaniam",
    "Bhat",
    "Jain",
]
# (city, branch, branch code, PIN prefix)
_BRANCHES = (
    ("Mumbai", "Andheri East", "000101", "4000"),
    ("Mumbai", "Dadar West", "000102", "4000"),
    ("Pune", "Kothrud", "000201", "4110"),
    ("Pune", "Viman Nagar", "000202", "4110"),
    ("Bengaluru", "Koramangala", "000301", "5600"),
    ("Bengaluru", "Jayanagar", "000302", "5600"),
    ("Chennai", "T. Nagar", "000401", "6000"),
    ("Chennai", "Adyar", "000402", "6000"),
    ("Hyderabad", "Banjara Hills", "000501", "5000"),
    ("Hyderabad", "Kukatpally", "000502", "5000"),
    ("New Delhi", "Connaught Place", "000601", "1100"),
    ("New Delhi", "Lajpat Nagar", "000602", "1100"),
    ("Kolkata", "Salt Lake", "000701", "7000"),
    ("Kolkata", "Park Street", "000702", "7000"),
    ("Ahmedabad", "Navrangpura", "000801", "3800"),
    ("Jaipur", "Malviya Nagar", "000901", "3020"),
    ("Lucknow", "Hazratganj", "001001", "2260"),
    ("Kochi", "Edappally", "001101", "6820"),
    ("Chandigarh", "Sector 17", "001201", "1600"),
    ("Indore", "Vijay Nagar", "001301", "4520"),
    ("Nagpur", "Dharampeth", "001401", "4400"),
    ("Coimbatore", "RS Puram", "001501", "6410"),
    ("Bhubaneswar", "Saheed Nagar", "001601", "7510"),
    ("Mysuru", "Saraswathipuram", "001701", "5700"),
)
_OTHER_BANKS = ("HDFC0", "ICIC0", "SBIN0", "UTIB0", "KKBK0", "PUNB0", "BARB0", "CNRB0", "IDIB0")
_MERCHANTS = (
    "Amazon India",
    "Flipkart",
    "BigBasket",
    "Swiggy",
    "Zomato",
    "IRCTC",
    "Indian Oil",
    "Croma",
    "Reliance Digital",
    "Apollo Pharmacy",
    "MakeMyTrip",
    "Myntra",
    "Tata CLiQ",
)
_RELATIONS = ("spouse", "son", "daughter", "father", "mother", "brother", "sister")
_FD_TENURES = (180, 270, 365, 400, 555, 730, 1000, 1095, 1500, 1825, 2555, 3650)


def _amount(rng: random.Random, low: int, high: int, step: int) -> int:
    """A log-uniform rupee amount in paise, rounded to `step` rupees."""
    value = int(low * (high / low) ** rng.random())
    return max(low, value // step * step) * 100


def _day(rng: random.Random, start: date, end: date) -> date:
    return start + timedelta(days=rng.randint(0, (end - start).days))


class _Generator:
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
