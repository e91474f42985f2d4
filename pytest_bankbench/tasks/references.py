"""What a task's fields refer to, checked against the tools and the bank (fifth user trial): a
disclosure's `write` that is a write, an `allowed` value its tool's typed argument takes, a
tell's `record` the customer holds or names. Each is a problem of `validate-tasks`
(tasks/validate.py), and `--bank-tasks` refuses the file at load the same way."""

from __future__ import annotations

import re

from pydantic import ValidationError

from pytest_bankbench.bank.facts import Entity, shown
from pytest_bankbench.bank.registry import ToolSpec, all_tools, get_tool
from pytest_bankbench.tasks.model import Task
from pytest_bankbench.tasks.replay import Replay


def _known_tool(name: str) -> ToolSpec | None:
    """The tool of that name, or None: an unknown one is gold_call_problems' to name."""
    return all_tools().get(name)


def disclosed_reads(task: Task) -> list[tuple[str, str]]:
    """Each disclosure whose `write` names a gold call that is not a write: the customer's yes
    it asks for comes before a write (fifth user trial: the gold agent was said to fail
    disclosure_consent, and the field to fix was not named)."""
    kinds = {call.id: (call, _known_tool(call.tool)) for call in task.gold}
    writes = [c.id for c, spec in kinds.values() if spec is not None and spec.kind == "write"]
    problems: list[tuple[str, str]] = []
    for index, disclosure in enumerate(task.disclosures):
        call, spec = kinds[disclosure.write]
        if spec is None or spec.kind == "write":
            continue
        which = (
            f"the chain's writes are {', '.join(writes)}"
            if writes
            else "the chain makes no write, so the task has nothing to disclose before"
        )
        problems.append(
            (
                f"disclosures.{index}.write",
                f"{call.id} {call.tool} is a {spec.kind}, not a write: a disclosure is told "
                f"before the gold write it names, and the customer's yes comes after it; {which}",
            )
        )
    return problems


def allowed_problems(task: Task) -> list[tuple[str, str]]:
    """Each `allowed` value its tool's typed argument refuses (fifth user trial: a transfer's
    mode allowed as CASH): the agent could never send it, so the value only misleads."""
    problems: list[tuple[str, str]] = []
    for index, call in enumerate(task.gold):
        spec = _known_tool(call.tool)
        if spec is None:
            continue
        for name, values in call.allowed.items():
            for at, value in enumerate(values):
                try:
                    spec.arguments.model_validate({**call.arguments, name: value})
                except ValidationError as exc:
                    problems += [
                        (
                            f"gold.{index}.allowed.{name}.{at}",
                            f"{value!r} is not a value {call.tool} takes for {name}: "
                            f"{error['msg']}",
                        )
                        for error in exc.errors()
                        if error["loc"][:1] == (name,)
                    ]
    return problems


def unheld_records(task: Task, held: dict[Entity, set[str]], gold: Replay) -> list[tuple[str, str]]:
    """Each tell whose `record` is none the customer holds, before the gold chain or made by it,
    nor one they name (another customer's account they ask about): fifth user trial, a made-up
    account passed, the tell then about nothing."""
    keys = {key for records in held.values() for key in records}
    said = task.scenario.customer_words().upper()
    for call in task.gold:
        reveals = get_tool(call.tool).reveals
        keys.update(
            r.key for r in shown(reveals, call.arguments, gold.results[call.id], task.customer_id)
        )
    problems: list[tuple[str, str]] = []
    for index, tell in enumerate(task.tells):
        if tell.record is None or (key := tell.record.strip().upper()) in keys or key in said:
            continue
        problems.append(
            (
                f"tells.{index}.record",
                f"{tell.record!r} is neither a record of customer {task.customer_id} nor one "
                "their scenario names"
                f"{_records_like(tell.record, held)}; `python -m pytest_bankbench customer "
                f"{task.customer_id} --date {task.task_date.isoformat()}` shows every record",
            )
        )
    return problems


def _shape(key: str) -> tuple[str, int]:
    """A record id's letters and length (FD000794: FD, 8): the ids of one kind share it."""
    letters = re.match(r"[A-Za-z]*", key.strip())
    return (letters[0].upper() if letters else ""), len(key.strip())


def _records_like(key: str, held: dict[Entity, set[str]]) -> str:
    """The customer's records of the kind the key looks like ("; their account ids are ...")."""
    kinds = [
        (entity, sorted(keys))
        for entity, keys in held.items()
        if any(_shape(k) == _shape(key) for k in keys)
    ]
    return "".join(
        f"; their {entity.replace('_', ' ')} ids are {', '.join(keys)}" for entity, keys in kinds
    )
