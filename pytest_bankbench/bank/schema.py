"""The bank's tables: one declaration gives the DDL, the change-capture triggers and the diff keys."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Table:
    """A table of bank records; `key` names its primary-key columns."""

    name: str
    columns: tuple[tuple[str, str], ...]
    key: tuple[str, ...]
    # Keys minted by the bank during a session (sequence numbers): an inserted row is compared by
    # its content, not by a key that depends only on how many rows were made before it.
    generated_key: bool = False

    @property
    def column_names(self) -> tuple[str, ...]:
        return tuple(name for name, _ in self.columns)


TABLES: tuple[Table, ...] = (
    Table(
        "customers",
        (
            ("customer_id", "TEXT"),
            ("name", "TEXT"),
            ("date_of_birth", "TEXT"),
            ("city", "TEXT"),
            ("phone", "TEXT"),
            ("email", "TEXT"),
            ("address", "TEXT"),
            ("kyc_status", "TEXT"),
            ("pan_on_file", "INTEGER"),
            ("home_branch", "TEXT"),
        ),
        ("customer_id",),
    ),
    Table(
        "accounts",
        (
            ("account_number", "TEXT"),
            ("customer_id", "TEXT"),
            ("account_type", "TEXT"),
            ("ifsc", "TEXT"),
            ("branch", "TEXT"),
            ("balance", "INTEGER"),
            ("hold_amount", "INTEGER"),
            ("status", "TEXT"),
            ("opened_on", "TEXT"),
        ),
        ("account_number",),
    ),
    Table(
        "transactions",
        (
            ("txn_id", "TEXT"),
            ("account_number", "TEXT"),
            ("txn_date", "TEXT"),
            ("amount", "INTEGER"),
            ("direction", "TEXT"),
            ("channel", "TEXT"),
            ("description", "TEXT"),
            ("counterparty", "TEXT"),
            ("balance_after", "INTEGER"),
        ),
        ("txn_id",),
        generated_key=True,
    ),
    Table(
        "beneficiaries",
        (
            ("beneficiary_id", "TEXT"),
            ("customer_id", "TEXT"),
            ("name", "TEXT"),
            ("account_number", "TEXT"),
            ("ifsc", "TEXT"),
            ("nickname", "TEXT"),
            ("added_on", "TEXT"),
        ),
        ("beneficiary_id",),
        generated_key=True,
    ),
    Table(
        "deposits",
        (
            ("deposit_id", "TEXT"),
            ("customer_id", "TEXT"),
            ("deposit_type", "TEXT"),
            ("linked_account", "TEXT"),
            ("principal", "INTEGER"),
            ("instalment", "INTEGER"),
            ("rate", "TEXT"),
            ("tenure_days", "INTEGER"),
            ("tenure_months", "INTEGER"),
            ("start_date", "TEXT"),
            ("maturity_date", "TEXT"),
            ("maturity_instruction", "TEXT"),
            ("lien_loan_id", "TEXT"),
            ("status", "TEXT"),
            ("closed_on", "TEXT"),
            ("payout", "INTEGER"),
        ),
        ("deposit_id",),
        generated_key=True,
    ),
    Table(
        "loans",
        (
            ("loan_id", "TEXT"),
            ("customer_id", "TEXT"),
            ("loan_type", "TEXT"),
            ("principal", "INTEGER"),
            ("outstanding", "INTEGER"),
            ("rate", "TEXT"),
            ("emi", "INTEGER"),
            ("tenure_months", "INTEGER"),
            ("remaining_months", "INTEGER"),
            ("emis_paid", "INTEGER"),
            ("disbursed_on", "TEXT"),
            ("last_emi_date", "TEXT"),
            ("next_due_date", "TEXT"),
            ("linked_account", "TEXT"),
            ("status", "TEXT"),
        ),
        ("loan_id",),
    ),
    Table(
        "cards",
        (
            ("card_id", "TEXT"),
            ("customer_id", "TEXT"),
            ("card_kind", "TEXT"),
            ("product", "TEXT"),
            ("last4", "TEXT"),
            ("status", "TEXT"),
            ("block_reason", "TEXT"),
            ("linked_account", "TEXT"),
            ("credit_limit", "INTEGER"),
            ("outstanding", "INTEGER"),
            ("minimum_due", "INTEGER"),
            ("statement_date", "TEXT"),
            ("payment_due_date", "TEXT"),
            ("expiry", "TEXT"),
        ),
        ("card_id",),
    ),
    Table(
        "card_controls",
        (
            ("card_id", "TEXT"),
            ("channel", "TEXT"),
            ("enabled", "INTEGER"),
            ("daily_limit", "INTEGER"),
        ),
        ("card_id", "channel"),
    ),
    Table(
        "card_transactions",
        (
            ("card_txn_id", "TEXT"),
            ("card_id", "TEXT"),
            ("txn_date", "TEXT"),
            ("merchant", "TEXT"),
            ("amount", "INTEGER"),
            ("kind", "TEXT"),
        ),
        ("card_txn_id",),
        generated_key=True,
    ),
    Table(
        "cheque_books",
        (
            ("book_id", "TEXT"),
            ("account_number", "TEXT"),
            ("first_leaf", "INTEGER"),
            ("last_leaf", "INTEGER"),
            ("issued_on", "TEXT"),
        ),
        ("book_id",),
    ),
    Table(
        "cheques",
        (
            ("account_number", "TEXT"),
            ("cheque_number", "INTEGER"),
            ("status", "TEXT"),
            ("amount", "INTEGER"),
            ("payee", "TEXT"),
            ("status_date", "TEXT"),
        ),
        ("account_number", "cheque_number"),
    ),
    Table(
        "nominees",
        (
            ("nominee_id", "TEXT"),
            ("customer_id", "TEXT"),
            ("record_id", "TEXT"),
            ("name", "TEXT"),
            ("relation", "TEXT"),
            ("share_pct", "INTEGER"),
        ),
        ("nominee_id",),
    ),
    Table(
        "service_requests",
        (
            ("request_id", "TEXT"),
            ("customer_id", "TEXT"),
            ("kind", "TEXT"),
            ("status", "TEXT"),
            ("opened_on", "TEXT"),
            ("details", "TEXT"),
        ),
        ("request_id",),
    ),
)

TABLE_BY_NAME = {table.name: table for table in TABLES}
CHANGE_LOG = "_changes"


def ddl() -> str:
    """CREATE statements for every table, the sequence table and the change log."""
    parts = []
    for table in TABLES:
        cols = ", ".join(f"{name} {kind}" for name, kind in table.columns)
        parts.append(f"CREATE TABLE {table.name} ({cols}, PRIMARY KEY ({', '.join(table.key)}))")
    parts.append("CREATE TABLE sequences (name TEXT PRIMARY KEY, next INTEGER)")
    parts.append(
        f"CREATE TABLE {CHANGE_LOG} (tbl TEXT, pk TEXT, before TEXT, PRIMARY KEY (tbl, pk))"
    )
    parts.extend(_index_ddl())
    return ";\n".join(parts) + ";"


def _index_ddl() -> list[str]:
    owner = (
        "accounts",
        "beneficiaries",
        "deposits",
        "loans",
        "cards",
        "nominees",
        "service_requests",
    )
    stmts = [f"CREATE INDEX ix_{name}_customer ON {name}(customer_id)" for name in owner]
    stmts.append("CREATE INDEX ix_txn_account ON transactions(account_number, txn_date)")
    stmts.append("CREATE INDEX ix_card_txn ON card_transactions(card_id, txn_date)")
    stmts.append("CREATE INDEX ix_cheque_books ON cheque_books(account_number)")
    return stmts


def _json_of(table: Table, alias: str) -> str:
    pairs = ", ".join(f"'{name}', {alias}.{name}" for name in table.column_names)
    return f"json_object({pairs})"


def _key_of(table: Table, alias: str) -> str:
    return " || '|' || ".join(f"CAST({alias}.{col} AS TEXT)" for col in table.key)


def trigger_ddl() -> str:
    """Triggers that log the before-image of every row the first time a session touches it."""
    stmts = []
    for table in TABLES:
        for event, alias, before in (
            ("INSERT", "NEW", "NULL"),
            ("UPDATE", "OLD", _json_of(table, "OLD")),
            ("DELETE", "OLD", _json_of(table, "OLD")),
        ):
            stmts.append(
                f"CREATE TRIGGER cap_{table.name}_{event.lower()} AFTER {event} ON {table.name} "
                f"BEGIN INSERT OR IGNORE INTO {CHANGE_LOG}(tbl, pk, before) "
                f"VALUES ('{table.name}', {_key_of(table, alias)}, {before}); END"
            )
    return ";\n".join(stmts) + ";"


def select_row_json(table: Table) -> str:
    """SELECT of one row as JSON by its logged key (a scan of the table)."""
    return f"SELECT {_json_of(table, 't')} FROM {table.name} t WHERE {_key_of(table, 't')} = ?"


def select_row_json_by_parts(table: Table) -> str:
    """The same SELECT through the primary key: one parameter per key column, then the logged
    key, which still decides (the columns only let SQLite use the key's index)."""
    by_column = " AND ".join(f"t.{col} = ?" for col in table.key)
    return (
        f"SELECT {_json_of(table, 't')} FROM {table.name} t "
        f"WHERE {by_column} AND {_key_of(table, 't')} = ?"
    )
