"""The deterministic task generator: families x customers -> task_data/tasks.jsonl (byte-identical reruns)."""

from __future__ import annotations

import hashlib
import importlib
import pkgutil
import random
from collections import Counter
from dataclasses import dataclass
from datetime import date, timedelta
from decimal import Decimal
from pathlib import Path
from typing import Any

from pytest_bankbench.authoring.base import (
    FAMILIES,
    REGISTRY,
    Context,
    Draft,
    Known,
    Of,
    Ref,
    Say,
    UnlistedFamily,
    family_rows,
)
from pytest_bankbench.authoring.checks import with_checks
from pytest_bankbench.authoring.phrasing import persona
from pytest_bankbench.bank.errors import ToolError
from pytest_bankbench.bank.registry import get_tool
from pytest_bankbench.bank.store import DEFAULT_SEED, Bank
from pytest_bankbench.concepts import concept
from pytest_bankbench.errors import BankBenchError
from pytest_bankbench.tasks.loader import TASKS_FILE
from pytest_bankbench.tasks.model import (
    SCHEMA_VERSION,
    Disclosure,
    FactNeed,
    GoldCall,
    MustTell,
    RequiredOutput,
    Scenario,
    Source,
    Split,
    Task,
    ToldValue,
)
from pytest_bankbench.tasks.replay import GoldReplayError, replay
from pytest_bankbench.tasks.sources import (
    Places,
    as_kind,
    found_at,
    read_rate_card,
    read_record,
    same,
    unsourced,
)
from pytest_bankbench.tasks.validate import unshown_values

TASKS_PER_FAMILY = 20
LITE_PER_FAMILY = 4
# Every this-many-th task of a family whose draft has a secret to offer gets it (Draft.offers).
OFFER_EVERY = 4
FIRST_DAY, LAST_DAY = date(2026, 4, 1), date(2026, 6, 30)


class WrongExpectedValue(BankBenchError, ValueError):
    """A family wrote a value to tell that its own gold replay never shows: generation stops."""


def load_families() -> None:
    """Import every module of the families package and its area packages so that its families register (a new
    module is found by scanning the package; there is no list to edit)."""
    from pytest_bankbench.authoring import families

    for module in pkgutil.walk_packages(families.__path__, f"{families.__name__}."):
        importlib.import_module(module.name)
    makerless = sorted(set(family_rows()) - set(FAMILIES))
    if makerless:
        raise UnlistedFamily(f"rows of {REGISTRY.name} without a family maker: {makerless}")


def stable_rng(*parts: object) -> random.Random:
    """A random generator seeded from text, the same in every process (never hash())."""
    digest = hashlib.sha256("|".join(str(p) for p in parts).encode()).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))


@dataclass(frozen=True)
class Rejected:
    task: str
    reason: str


def _resolve(value: Any, results: dict[str, dict[str, Any]]) -> Any:
    return results[value.call][value.key] if isinstance(value, Ref) else value


@dataclass(frozen=True)
class _Told:
    """Reads the values a draft's outputs and quotes name, in the bank after the gold chain."""

    task_id: str
    results: dict[str, dict[str, Any]]
    arguments: dict[str, dict[str, Any]]  # draft step -> the arguments it was sent
    final: dict[str, str]  # draft step -> task call id
    bank: Bank

    def of(self, source: Known | Of, kind: str, field: str) -> tuple[str, Source]:
        """The value to tell and the task's `Source` for it. A `Known` value is the family's,
        written with the place `of` it names (the task's check, tasks/validate.py, compares
        them after the replay); any other value is read at its place. The place's `also` are
        checked here and not written (the booked rate is the rate quoted)."""
        of = source.of if isinstance(source, Known) else source
        value, named = (
            (source.value, self._source(of))
            if isinstance(source, Known)
            else self.read(of, kind, field)
        )
        for other in of.also:
            held, where = self.read(other, kind, field)
            if not same(kind, value, held):
                raise WrongExpectedValue(
                    f"{self.task_id}: field {field}: the value {value} is not the {where}, "
                    f"which holds {held} after the gold chain"
                )
        return value, named

    def read(self, of: Of, kind: str, field: str) -> tuple[str, Source]:
        """The value at a record, result, argument or rate-card row, as the task will write
        it, and its `Source`."""
        named = self._source(of)
        if not of.readable:
            raise WrongExpectedValue(
                f"{self.task_id}: field {field}: {named} only confirms a value: give it, "
                "known(value, of)"
            )
        records = {}
        if named.kind == "record":
            key = (str(named.entity), str(named.key), str(named.field))
            records[key] = read_record(self.bank, *key)
        card = read_rate_card(self.bank) if named.kind == "rate card" else None
        by_id = {self.final[step]: args for step, args in self.arguments.items()}
        found = found_at(named, Places(self.results_by_id(), by_id, records, card))
        if not found[0]:
            raise WrongExpectedValue(
                f"{self.task_id}: field {field}: {named} is shown by no gold result or record"
            )
        raw = found[1]
        if kind == "amount":
            return str(Decimal(str(raw))), named
        value = as_kind(kind, raw)
        if value is None:
            raise WrongExpectedValue(
                f"{self.task_id}: field {field}: {named} holds {raw!r}, not a {kind}"
            )
        return (value[-4:] if kind == "digits" else value), named

    def results_by_id(self) -> dict[str, dict[str, Any]]:
        return {self.final[step]: result for step, result in self.results.items()}

    def _source(self, of: Of) -> Source:
        if of.step is not None:
            return Source(field=of.field, call=self.final[of.step], arg=of.arg)
        if of.entity is not None:
            key = str(_resolve(of.key, self.results))
            return Source(field=of.field, entity=of.entity, key=key)
        return Source(
            field=of.field,
            policy=of.policy,
            article=of.article,
            near=of.near,
            tenure_days=of.tenure_days,
        )

    def say(self, value: Say, field: str) -> ToldValue:
        """A value a tell names, read or confirmed at its place."""
        told, where = self.of(value.source, value.kind, field)
        return ToldValue(
            label=value.label, kind=value.kind, value=told, unit=value.unit, source=where
        )


def _build(name: str, index: int, draft: Draft, today: date, seed: int) -> Task:
    """Turn a draft into a task, resolving references by replaying the chain call by call."""
    fam = FAMILIES[name]
    # Results stay keyed by the draft's ids (outputs and references name those); the task's
    # ids number the chain after the policy's look-ups are added.
    calls, draft_ids = with_checks(draft.calls, draft.customer_id)
    final = {draft_id: f"c{n}" for n, draft_id in enumerate(draft_ids, start=1)}
    results: dict[str, dict[str, Any]] = {}
    sent: dict[str, dict[str, Any]] = {}
    gold: list[GoldCall] = []
    with Bank(draft.customer_id, today, seed) as bank:
        for draft_id, call in zip(draft_ids, calls, strict=True):
            cid = final[draft_id]
            args = {k: _resolve(v, results) for k, v in call.args.items()}
            sent[draft_id] = args
            try:
                results[draft_id] = get_tool(call.tool).invoke(bank, args)
            except ToolError as exc:
                raise GoldReplayError(
                    f"{name}-{index:03d}: {cid} {call.tool}: {exc.message}"
                ) from None
            need = call.facts
            facts = (
                FactNeed(
                    entity=need.entity, key=str(_resolve(need.key, results)), fields=need.fields
                )
                if need
                else None
            )
            gold.append(
                GoldCall(
                    id=cid,
                    tool=call.tool,
                    arguments=args,
                    match=call.match,
                    after=tuple(final[a] for a in call.after),
                    instruction=call.instruction,
                    facts=facts,
                    allowed=dict(call.allowed),
                )
            )
        told = _Told(f"{name}-{index:03d}", results, sent, final, bank)
        outputs = tuple(
            RequiredOutput(
                label=o.label,
                kind=o.kind,
                value=(source := told.of(o.source, o.kind, f"required_outputs.{i}"))[0],
                unit=o.unit,
                rivals=o.rivals,
                also=o.also,
                instruction=o.instruction,
                source=source[1],
            )
            for i, o in enumerate(draft.outputs)
        )
        disclosures: list[Disclosure] = []
        for d in draft.disclosures:
            value, where = told.of(d.source, d.kind, f"disclosures.{len(disclosures)}")
            disclosures.append(
                Disclosure(
                    label=d.label,
                    kind=d.kind,
                    value=value,
                    unit=d.unit,
                    also=d.also,
                    write=final[d.write],
                    source=where,
                )
            )
        tells = []
        for i, t in enumerate(draft.tells):
            for concept_id in t.concepts:
                concept(concept_id)  # an unknown concept fails here, not when the task is scored
            tells.append(
                MustTell(
                    kind=t.kind,
                    label=t.label,
                    concepts=t.concepts,
                    values=tuple(
                        told.say(v, f"tells.{i}.values.{j}") for j, v in enumerate(t.values)
                    ),
                    instruction=t.instruction,
                    record=t.record,
                    before=final[t.before] if t.before else None,
                )
            )
    instructions = list(draft.instructions)
    if draft.offers and index % OFFER_EVERY == 0:
        instructions[0] = instructions[0].model_copy(update={"volunteers": draft.offers})
    first = instructions[0].text
    scenario = Scenario(
        persona=draft.persona,
        first_message=f"{draft.greeting} {first}".strip(),
        instructions=tuple(instructions),
        facts=tuple(draft.facts),
        withheld=tuple(draft.withheld),
        narrative=draft.narrative,
    )
    return Task(
        schema_version=SCHEMA_VERSION,
        task_id=f"{name}-{index:03d}",
        family=name,
        category=fam.category,
        service_area=fam.service_area,
        splits=("base",),
        task_date=today,
        customer_id=draft.customer_id,
        bank_seed=seed,
        scenario=scenario,
        gold=tuple(gold),
        required_outputs=outputs,
        disclosures=tuple(disclosures),
        tells=tuple(tells),
        clause=fam.clause,
    )


def _family_tasks(ctx: Context, name: str, seed: int, rejected: list[Rejected]) -> list[Task]:
    fam = FAMILIES[name]
    rng = stable_rng(seed, name)
    candidates = ctx.all(fam.eligible)
    rng.shuffle(candidates)
    tasks: list[Task] = []
    for row in candidates:
        if len(tasks) == TASKS_PER_FAMILY:
            break
        today = FIRST_DAY + timedelta(days=rng.randint(0, (LAST_DAY - FIRST_DAY).days))
        ctx.today = today
        customer = ctx.one("SELECT * FROM customers WHERE customer_id = ?", row["customer_id"])
        draft = fam.make(ctx, rng, customer)
        if draft is None:
            continue
        draft.persona = draft.persona or persona(customer, today)
        try:
            task = _build(name, len(tasks) + 1, draft, today, seed)
            gold_replay = replay(task)
        except GoldReplayError as exc:
            rejected.append(Rejected(f"{name}-{len(tasks) + 1:03d}", str(exc)))
            continue
        unshown, _checked = unshown_values(task, gold_replay)
        unshown += unsourced(task)
        if unshown:  # a family's expected value its own gold never shows: a bug, not a draft
            raise WrongExpectedValue(
                f"family {name}, task {task.task_id}: "
                + "; ".join(f"field {field}: {why}" for field, why in unshown)
            )
        tasks.append(task.model_copy(update={"expected_changes": gold_replay.changes.rows}))
    if len(tasks) < TASKS_PER_FAMILY:
        reasons = Counter(r.reason.split(": ", 1)[-1] for r in rejected if r.task.startswith(name))
        raise RuntimeError(
            f"family {name} made {len(tasks)} of {TASKS_PER_FAMILY} tasks from "
            f"{len(candidates)} customers; rejections: {reasons.most_common(3)}"
        )
    return tasks


def _assign_splits(tasks: list[Task], seed: int) -> list[Task]:
    """lite: 4 per family; train/test: by customer, so the two share no customer and no task."""
    by_family: dict[str, list[Task]] = {}
    for task in tasks:
        by_family.setdefault(task.family, []).append(task)
    lite: set[str] = set()
    for name, members in sorted(by_family.items()):
        picks = stable_rng(seed, "lite", name).sample(members, LITE_PER_FAMILY)
        lite.update(t.task_id for t in picks)
    out = []
    for task in tasks:
        side: Split = (
            "train" if stable_rng(seed, "split", task.customer_id).random() < 0.5 else "test"
        )
        splits: tuple[Split, ...] = (
            ("base", "lite", side) if task.task_id in lite else ("base", side)
        )
        out.append(task.model_copy(update={"splits": splits}))
    return out


def generate(seed: int = DEFAULT_SEED) -> tuple[list[Task], list[Rejected]]:
    """All tasks of all families, sorted by id, with the rejections of the construction filter."""
    load_families()
    ctx = Context(seed)
    rejected: list[Rejected] = []
    tasks: list[Task] = []
    for name in sorted(FAMILIES):
        tasks.extend(_family_tasks(ctx, name, seed, rejected))
    tasks = _assign_splits(sorted(tasks, key=lambda t: t.task_id), seed)
    return tasks, rejected


def write(out_dir: Path, seed: int = DEFAULT_SEED) -> tuple[int, int]:
    """Write tasks.jsonl into a folder; returns (tasks written, drafts rejected)."""
    tasks, rejected = generate(seed)
    out_dir.mkdir(parents=True, exist_ok=True)
    text = "".join(task.to_line() + "\n" for task in tasks)
    (out_dir / TASKS_FILE).write_text(text, encoding="utf-8")
    return len(tasks), len(rejected)
