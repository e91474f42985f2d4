"""Source-account families: a dormant account refused, an active one paid from."""

from __future__ import annotations

from pytest_bankbench.authoring.generate import TASKS_PER_FAMILY
from tests.authoring.families.shipped import (
    CTX,
    tasks_of,
)


def test_dormant_source_account_refuses_the_dormant_account_and_pays_from_an_active_one() -> None:
    for task in tasks_of("dormant_source_account"):
        looked_up = task.gold[0].facts
        assert looked_up is not None and looked_up.fields == ("status",)
        dormant = CTX.one("SELECT * FROM accounts WHERE account_number = ?", looked_up.key)
        assert dormant["status"] == "dormant", task.task_id
        paid = next(c for c in task.gold if c.tool == "transfer_funds")
        payer = CTX.one(
            "SELECT * FROM accounts WHERE account_number = ?", paid.arguments["from_account"]
        )
        assert payer["status"] == "active" and payer["customer_id"] == task.customer_id
        assert "dormant" in (task.scenario.instructions[0].explain or "")
        assert "dormant" not in task.scenario.first_message.lower()
    records = {t.gold[0].facts.key for t in tasks_of("dormant_source_account") if t.gold[0].facts}
    assert len(records) == TASKS_PER_FAMILY
