"""Statistics of a task file: splits, families, categories, chain lengths, the bank and tools
it runs against (`bankbench stats`)."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pytest_bankbench.tasks.model import Task


_DIGITS = re.compile(r"[\d,.]+")
_RECORD_ARGS = (
    "deposit_id",
    "loan_id",
    "card_id",
    "beneficiary_id",
    "account_number",
    "from_account",
)


def _record(task: Task) -> str:
    """The record a task is about: its first required fact's key, else its first matched id."""
    for call in task.gold:
        if call.facts and call.facts.entity != "customer":
            return f"{call.facts.entity}:{call.facts.key}"
    for call in task.gold:
        for name in _RECORD_ARGS:
            if name in call.match:
                return f"{name}:{call.arguments[name]}"
    return f"customer:{task.customer_id}"


def family_lines(tasks: Sequence[Task]) -> list[str]:
    """One line per family: category, openings (first messages with the numbers taken out),
    distinct records the tasks are about, and the policy clause that decides it."""
    lines = [f"{'family':<30} {'category':<10} openings records  clause"]
    for name in sorted({t.family for t in tasks}):
        members = [t for t in tasks if t.family == name]
        openings = len({_DIGITS.sub("#", t.scenario.first_message) for t in members})
        records = len({_record(t) for t in members})
        clause = members[0].clause.split(";")[0][:60]
        lines.append(f"{name:<30} {members[0].category:<10} {openings:>8} {records:>7}  {clause}")
    return lines


def stats_lines(tasks_path: Path | None = None) -> list[str]:
    """Statistics computed from the shipped files (tasks, records, tools, knowledge base)."""
    from pytest_bankbench.bank.knowledge import documents
    from pytest_bankbench.bank.registry import all_tools
    from pytest_bankbench.bank.store import Bank
    from pytest_bankbench.tasks.loader import load_tasks, shipped_tasks
    from pytest_bankbench.tasks.model import CATEGORIES, SERVICE_AREAS, SPLITS

    tasks = load_tasks(tasks_path) if tasks_path else list(shipped_tasks())
    lines = [f"tasks (base): {sum('base' in t.splits for t in tasks)}"]
    lines.append("splits: " + ", ".join(f"{s} {sum(s in t.splits for t in tasks)}" for s in SPLITS))
    train = {t.customer_id for t in tasks if "train" in t.splits}
    test = {t.customer_id for t in tasks if "test" in t.splits}
    lines.append(f"train/test customers: {len(train)}/{len(test)}, shared: {len(train & test)}")
    families = Counter(t.family for t in tasks)
    lines.append(
        f"families: {len(families)} (tasks per family: min {min(families.values())}, "
        f"max {max(families.values())})"
    )
    by_cat = Counter(t.category for t in tasks)
    fam_cat = Counter(t.category for t in {t.family: t for t in tasks}.values())
    lines.append(f"categories: {len(by_cat)}")
    for cat in CATEGORIES:
        lines.append(f"  {cat:<12} {fam_cat[cat]:>3} families {by_cat[cat]:>5} tasks")
    by_area = Counter(t.service_area for t in tasks)
    lines.append("service areas: " + ", ".join(f"{a} {by_area[a]}" for a in SERVICE_AREAS))
    lengths = Counter(len(t.gold) for t in tasks)
    mean = sum(len(t.gold) for t in tasks) / len(tasks)
    lines.append(f"gold chain length: {min(lengths)}-{max(lengths)}, mean {mean:.2f}")
    for length in sorted(lengths):
        lines.append(f"  {length} calls {lengths[length]:>5} {'#' * (lengths[length] // 10)}")
    graded = [t for t in tasks if t.graded]
    # A file of one's own may hold only control tasks (issue 17: min() of nothing crashed).
    shortest = f" (min chain {min(len(t.gold) for t in graded)})" if graded else ""
    lines.append(f"graded tasks: {len(graded)}{shortest}; control: {len(tasks) - len(graded)}")
    entries = [g for t in tasks for g in t.gold]
    lines.append(
        f"gold entries: {len(entries)}, of which required facts {sum(bool(g.facts) for g in entries)}"
        f"; tasks with values told before a write: {sum(bool(t.disclosures) for t in tasks)}"
    )
    lines.append(
        f"tasks with required outputs: {sum(bool(t.required_outputs) for t in tasks)}; "
        f"with order dependencies: {sum(any(c.after for c in t.gold) for t in tasks)}"
    )
    kinds = Counter(spec.kind for spec in all_tools().values())
    lines.append(
        f"tools: {len(all_tools())} (read {kinds['read']}, write {kinds['write']}, "
        f"human {kinds['human']})"
    )
    with Bank("CUST00001", tasks[0].task_date) as bank:
        customers = bank.one("SELECT COUNT(*) AS n FROM customers")
        assert customers is not None
        lines.append(
            f"customers: {customers['n']} (tasks use {len({t.customer_id for t in tasks})})"
        )
    lines.append(f"knowledge-base documents: {len(documents())}")
    lines += family_lines(tasks)
    return lines
