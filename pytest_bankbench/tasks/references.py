"""What a task's fields refer to, checked against the tools and the bank (fifth user trial): a
disclosure's `write` that is a write, an `allowed` value its tool's typed argument takes. Each
is a problem of `validate-tasks` (tasks/validate.py), and `--bank-tasks` refuses the file at
load the same way."""

from __future__ import annotations

from pydantic import ValidationError

from pytest_bankbench.bank.registry import ToolSpec, all_tools
from pytest_bankbench.tasks.model import Task


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
