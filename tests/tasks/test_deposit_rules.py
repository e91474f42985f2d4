"""Issue 9's refusal families: every shipped task poses the rule its family is named for, on the
seeded records it claims (a frozen account, a tax-saver tenure, a deposit limit, a blocked FD)."""

from __future__ import annotations

from collections import Counter
from decimal import Decimal

from pytest_bankbench.bank import rules
from pytest_bankbench.bank.seed import FROZEN_FOR, WEALTHY
from pytest_bankbench.bank.store import DEFAULT_SEED
from pytest_bankbench.money import to_paise
from pytest_bankbench.tasks.families.base import Context
from pytest_bankbench.tasks.generate import TASKS_PER_FAMILY
from pytest_bankbench.tasks.loader import shipped_tasks
from pytest_bankbench.tasks.model import Task

TASKS = shipped_tasks()
CTX = Context(DEFAULT_SEED)


def tasks_of(name: str) -> list[Task]:
    members = [t for t in TASKS if t.family == name]
    assert len(members) == TASKS_PER_FAMILY, name
    return members


def writes(task: Task) -> list[str]:
    return [c.tool for c in task.gold if c.tool in {"transfer_funds", "create_fd", "create_rd"}]


def test_late_accounts_belong_to_no_customer_of_an_older_family() -> None:
    """The frozen and large accounts were given to customers no older family used, so adding
    them moved no other family's tasks (other_customers_account draws any customer's account)."""
    late = set(FROZEN_FOR) | set(WEALTHY)
    new = {
        "frozen_source_account",
        "deposit_outside_limits",
        "tax_saver_fixed_tenure",
        "refused_step_blocks_next",
    }
    clash = sorted({t.task_id for t in TASKS if t.family not in new and t.customer_id in late})
    assert not clash, clash
    frozen = CTX.all("SELECT customer_id FROM accounts WHERE status = 'frozen' ORDER BY 1")
    assert [r["customer_id"] for r in frozen] == sorted(FROZEN_FOR)


def test_frozen_source_account_refuses_the_frozen_account_and_pays_from_an_active_one() -> None:
    for task in tasks_of("frozen_source_account"):
        looked_up = task.gold[0].facts
        assert looked_up is not None and looked_up.fields == ("status",)
        frozen = CTX.one("SELECT * FROM accounts WHERE account_number = ?", looked_up.key)
        assert frozen["status"] == "frozen", task.task_id
        paid = next(c for c in task.gold if c.tool == "transfer_funds")
        payer = CTX.one(
            "SELECT * FROM accounts WHERE account_number = ?", paid.arguments["from_account"]
        )
        assert payer["status"] == "active" and payer["customer_id"] == task.customer_id
        assert "frozen" in (task.scenario.instructions[0].explain or "")
        assert "frozen" not in task.scenario.first_message.lower()
    records = {t.gold[0].facts.key for t in tasks_of("frozen_source_account") if t.gold[0].facts}
    assert len(records) == TASKS_PER_FAMILY


def test_tax_saver_fixed_tenure_books_a_regular_fd_for_the_tenure_asked() -> None:
    asked: Counter[int] = Counter()
    for task in tasks_of("tax_saver_fixed_tenure"):
        booking = next(c for c in task.gold if c.tool == "create_fd")
        days = booking.arguments["tenure_days"]
        assert isinstance(days, int) and days != rules.TAX_SAVER_DAYS, task.task_id
        asked[days] += 1
        assert {d.label for d in task.disclosures} == {"rate", "maturity amount"}
        # The fixed tenure is the reason and a regular FD the alternative, both before booking.
        told = {(t.kind, t.concepts, t.before) for t in task.tells}
        assert told == {
            ("reason", ("fixed_tenure",), booking.id),
            ("alternative", ("regular_fd",), booking.id),
        }, task.task_id
        assert "1825 days" in (task.scenario.instructions[0].explain or "")
    assert len(asked) >= 3, asked


def test_deposit_outside_limits_covers_every_limit_and_books_the_nearest_allowed() -> None:
    kinds: Counter[str] = Counter()
    for task in tasks_of("deposit_outside_limits"):
        booking = next(c for c in task.gold if c.tool in {"create_fd", "create_rd"})
        args = booking.arguments
        if booking.tool == "create_rd":
            assert args["monthly_instalment"] == 500
            kinds["rd minimum"] += 1
            continue
        amount = to_paise(Decimal(str(args["amount"])))
        if amount == rules.FD_MIN:
            kinds["fd minimum"] += 1
        elif amount == rules.FD_MAX:
            kinds["fd maximum"] += 1
        elif args["tenure_days"] == rules.FD_MIN_DAYS:
            kinds["shortest tenure"] += 1
        else:
            assert args["tenure_days"] == rules.FD_MAX_DAYS, task.task_id
            kinds["longest tenure"] += 1
        assert any(f.after for f in task.scenario.structured_facts()), task.task_id
        # The limit is the reason; the deposit booked instead is offered before the booking.
        reason, offer = task.tells
        assert reason.kind == "reason" and reason.concepts == ("outside_limits",)
        assert offer.kind == "alternative" and offer.before == booking.id and offer.values
    assert set(kinds) == {
        "rd minimum",
        "fd minimum",
        "fd maximum",
        "shortest tenure",
        "longest tenure",
    }, kinds


def test_refused_step_blocks_next_writes_nothing_and_names_the_reason() -> None:
    reasons: Counter[str] = Counter()
    for task in tasks_of("refused_step_blocks_next"):
        assert not writes(task), task.task_id
        assert len(task.scenario.instructions) == 2
        first, second = task.scenario.instructions
        assert first.explain and second.explain and second.decline
        fd_id = task.gold[0].facts.key if task.gold[0].facts else ""
        fd = CTX.one("SELECT * FROM deposits WHERE deposit_id = ?", fd_id)
        if fd["deposit_type"] == "tax_saver_fd":
            reasons["lock-in"] += 1
        else:
            assert fd["lien_loan_id"] is not None, task.task_id
            reasons["lien"] += 1
        assert not task.required_outputs, task.task_id
        assert [(t.kind, t.concepts, t.record) for t in task.tells] == [
            ("reason", ("lock_in",) if fd["deposit_type"] == "tax_saver_fd" else ("lien",), fd_id)
        ], task.task_id
    assert set(reasons) == {"lock-in", "lien"}, reasons
