"""The task file's model: what the customer wants, the gold chain, required outputs, splits."""

from __future__ import annotations

from datetime import date
from decimal import Decimal, InvalidOperation
from typing import Any, Literal

from pydantic import (
    ConfigDict,
    Field,
    SerializationInfo,
    SerializerFunctionWrapHandler,
    model_serializer,
    model_validator,
)

from pytest_bankbench.bank.diff import RowChange
from pytest_bankbench.bank.facts import Entity
from pytest_bankbench.bank.frozen import FrozenRecord
from pytest_bankbench.tasks.passages import article_ids, policy_clauses

# The task vocabulary is defined in vocabulary.py; re-exported for the modules that read it here.
from pytest_bankbench.vocabulary import CATEGORIES as CATEGORIES
from pytest_bankbench.vocabulary import SERVICE_AREAS as SERVICE_AREAS
from pytest_bankbench.vocabulary import SPLITS as SPLITS
from pytest_bankbench.vocabulary import Category as Category
from pytest_bankbench.vocabulary import ServiceArea as ServiceArea
from pytest_bankbench.vocabulary import Split as Split

SCHEMA_VERSION = 2

JsonValue = str | int | float | bool | None


class _Strict(FrozenRecord):
    model_config = ConfigDict(extra="forbid", frozen=True)


class FactNeed(_Strict):
    """What a gold read establishes: a record and some of its fields (see bank/facts.py)."""

    entity: Entity
    key: str
    fields: tuple[str, ...] = Field(min_length=1)


class GoldCall(_Strict):
    """One call of the gold chain: which arguments are matched, and which calls must come first.

    A read with `facts` is a required fact: any successful result that shows the record and its
    fields, at an allowed place in the order, satisfies it. Without `facts` the call itself is
    required (the policy's quotes, which only their tool returns)."""

    id: str = Field(pattern=r"^c\d+$")
    tool: str
    arguments: dict[str, JsonValue]
    match: tuple[str, ...] = Field(description="argument names compared when matching a call")
    after: tuple[str, ...] = ()
    instruction: int = Field(ge=0, description="the customer instruction this call serves")
    facts: FactNeed | None = None
    allowed: dict[str, tuple[JsonValue, ...]] = Field(
        default_factory=dict,
        description="other values of a matched argument the policy allows as well",
    )

    @model_validator(mode="after")
    def _matched_arguments_exist(self) -> GoldCall:
        missing = [name for name in self.match if name not in self.arguments]
        if missing:
            raise ValueError(f"match names arguments not given: {missing}")
        unmatched = [name for name in self.allowed if name not in self.match]
        if unmatched:
            raise ValueError(f"allowed names arguments that are not matched: {unmatched}")
        return self

    def values(self, name: str) -> tuple[JsonValue, ...]:
        """Every value of a matched argument that satisfies the policy: the gold's, then the
        others it allows (NEFT or IMPS)."""
        return (self.arguments[name], *self.allowed.get(name, ()))


OutputKind = Literal["amount", "date", "count", "percent", "choice", "digits", "text"]


SourceKind = Literal["record", "result", "argument", "passage", "rate card"]


class Source(_Strict):
    """The place a told value comes from, so that a wrong value cannot pass silently.

    One of: a record of the seeded bank, `entity`, `key` and a `field` as a tool shows it
    (bank/facts.py), read as the bank holds it after the gold replay (the account the customer
    named, `"balance"`); a gold call's result, `call` and a dotted `field` (a quote no record
    holds: the closure quote's `"payout"`); a gold call's argument, `call` and `arg` (the amount
    a transfer sends, told before it); a passage, a `policy` clause ("F.24") or a knowledge-base
    `article` (its id), the value read in its text by kind, after the phrase `near` where the
    passage writes several of its kind (tasks/passages.py); a row of the deposit rate card, the
    slab holding `tenure_days`, and its `field` ("applicable_rate_percent"). `validate-tasks`
    and the generator check the value there, and the gold agent tells what it reads there."""

    field: str | None = Field(None, min_length=1)
    entity: Entity | None = None
    key: str | None = None
    call: str | None = Field(None, pattern=r"^c\d+$")
    arg: str | None = Field(None, min_length=1)
    policy: str | None = Field(None, pattern=r"^[A-Z]\.\d+$")
    article: str | None = Field(None, min_length=1)
    near: str | None = Field(None, min_length=1)
    tenure_days: int | None = Field(None, ge=1)

    @model_validator(mode="after")
    def _one_place(self) -> Source:
        places = {
            "a record (entity, key)": self.entity is not None or self.key is not None,
            "a gold call (call)": self.call is not None,
            "a policy clause (policy)": self.policy is not None,
            "an article (article)": self.article is not None,
            "a rate-card row (tenure_days)": self.tenure_days is not None,
        }
        named = [place for place, given in places.items() if given]
        if len(named) != 1:
            raise ValueError(
                f"a source names one place ({', '.join(places)}); this one names "
                f"{' and '.join(named) or 'none'}"
            )
        kind = self.kind
        takes = {
            "record": ("entity", "key", "field"),
            "result": ("call", "field"),
            "argument": ("call", "arg"),
            "passage": ("policy" if self.policy is not None else "article", "near"),
            "rate card": ("tenure_days", "field"),
        }[kind]
        given = [name for name in type(self).model_fields if getattr(self, name) is not None]
        missing = [name for name in takes if name not in given and name != "near"]
        extra = [name for name in given if name not in takes]
        if missing or extra:
            wrong = [f"{', '.join(missing)} missing"] if missing else []
            wrong += [f"{', '.join(extra)} not taken"] if extra else []
            article = "an" if kind == "argument" else "a"
            raise ValueError(
                f"{article} {kind} source takes {', '.join(takes)}: {'; '.join(wrong)}"
            )
        if self.policy is not None and self.policy not in policy_clauses():
            raise ValueError(
                f"policy clause {self.policy!r} does not exist; the clauses are "
                f"{_span(tuple(policy_clauses()))} (task_data/policy.md)"
            )
        if self.article is not None and self.article not in article_ids():
            raise ValueError(
                f"article {self.article!r} does not exist; the articles are: "
                f"{', '.join(article_ids())} (task_data/kb)"
            )
        return self

    @property
    def kind(self) -> SourceKind:
        if self.entity is not None or self.key is not None:
            return "record"
        if self.call is not None:
            return "argument" if self.arg is not None else "result"
        if self.tenure_days is not None:
            return "rate card"
        return "passage"

    @model_serializer(mode="wrap")
    def _only_its_keys(
        self, handler: SerializerFunctionWrapHandler, info: SerializationInfo
    ) -> dict[str, Any]:
        """A record or a result is written with its four keys, as before the other kinds
        existed (the task file stays byte-identical); any other kind with its own keys only."""
        data: dict[str, Any] = handler(self)
        legacy = ("field", "entity", "key", "call")
        if self.kind in ("record", "result"):
            return {name: data[name] for name in legacy if name in data}
        return {name: item for name, item in data.items() if item is not None}

    def __str__(self) -> str:
        if self.kind == "argument":
            return f"argument {self.arg} of gold call {self.call}"
        if self.kind == "passage":
            where = f"policy clause {self.policy}" if self.policy else f"article {self.article}"
            return where + (f" after {self.near!r}" if self.near else "")
        if self.kind == "rate card":
            return f"{self.field} of the rate card's slab for {self.tenure_days} days"
        where = f"gold call {self.call}" if self.call else f"{self.entity} {self.key!r}"
        return f"{self.field} of {where}"


def _span(ids: tuple[str, ...]) -> str:
    """Clause ids by section: "A.1-A.5, B.6-B.10, ..."."""
    runs: dict[str, list[str]] = {}
    for clause in ids:
        runs.setdefault(clause[0], []).append(clause)
    return ", ".join(f"{run[0]}-{run[-1]}" for run in runs.values())


class ToldValue(_Strict):
    """A value the agent must tell the customer, read the way people write it (scoring/outputs.py).

    `unit` is the word a count needs ("months"); `rivals` are the other values of a choice's set,
    none of which may be said un-negated; `source` the place it comes from (`Source`: every
    shipped value names one; a custom task's value may leave it out, and is then only found
    loosely, tasks/validate.py)."""

    label: str
    kind: OutputKind
    value: str
    unit: str | None = None
    rivals: tuple[str, ...] = ()
    # Other wordings that tell the same thing ("cannot be unblocked" for "permanent").
    also: tuple[str, ...] = ()
    source: Source | None = None

    @model_serializer(mode="wrap")
    def _without_empty_source(
        self, handler: SerializerFunctionWrapHandler, info: SerializationInfo
    ) -> dict[str, Any]:
        """A value without a source is written as before sources existed (the task file stays
        byte-identical where a value names none)."""
        data: dict[str, Any] = handler(self)
        if data.get("source", 0) is None:
            del data["source"]
        return data

    @model_validator(mode="after")
    def _written_plainly(self) -> ToldValue:
        """Numbers and dates in the one form the checks compare (scoring reads every other form
        the agent may say): "39388.93", not "Rs 39,388.93"."""
        if self.kind in ("amount", "percent", "count"):
            try:
                plain = Decimal(self.value).is_finite()
            except InvalidOperation:
                plain = False
            if not plain or (self.kind == "count" and not self.value.isdigit()):
                form = '"3"' if self.kind == "count" else '"39388.93" (no Rs, %, commas)'
                raise ValueError(
                    f"{self.kind} {self.value!r} of {self.label!r}: write it as {form}"
                )
        if self.kind == "date":
            try:
                date.fromisoformat(self.value)
            except ValueError:
                raise ValueError(
                    f"date {self.value!r} of {self.label!r}: write it as YYYY-MM-DD"
                ) from None
        return self

    def amount(self) -> Decimal:
        return Decimal(self.value)


class RequiredOutput(ToldValue):
    """A value the customer asked to be told."""

    instruction: int = Field(ge=0)


TellKind = Literal["reason", "alternative", "handoff", "clarify", "agree"]
TELL_KINDS: tuple[TellKind, ...] = TellKind.__args__  # type: ignore[attr-defined]


class MustTell(_Strict):
    """What the policy says the agent tells the customer beyond the values asked for
    (scoring/told.py): a refusal's reason, the alternative to offer, the hand-off team, the
    clarifying question where a request fits several records.

    Told when a message that is not a recital says one of `concepts` (ids of the shared
    vocabulary, task_data/concepts.toml) un-negated, or one of `values` (an alternative's account
    ending, an allowed amount). `record` is the key of the record it is about (a recital of
    other records tells nothing); `before` a gold call it must come before (a clarifying
    question before the quote). An `agree` one is a value agreed with the customer before
    `before` (C.10: the exact days of a tenure given in months): the customer said one of
    `values`, or the agent said it and the customer's next turn was a yes (scoring/agreed.py)."""

    kind: TellKind
    label: str
    concepts: tuple[str, ...] = ()
    values: tuple[ToldValue, ...] = ()
    instruction: int = Field(0, ge=0)
    record: str | None = None
    before: str | None = Field(None, pattern=r"^c\d+$")

    @model_validator(mode="after")
    def _says_something(self) -> MustTell:
        if not self.concepts and not self.values:
            raise ValueError(f"{self.label!r} names neither concepts nor values to tell")
        return self


class Disclosure(ToldValue):
    """A value the policy says is told before a gated write (the gold call `write`), whose
    consent must come after it."""

    write: str = Field(pattern=r"^c\d+$")


Topic = Literal[
    "account",
    "amount",
    "payee",
    "mode",
    "tenure",
    "date",
    "period",
    "delivery",
    "reason",
    "card",
    "deposit",
    "loan",
    "cheque",
    "channel",
    "limit",
    "maturity",
    "identity",
    "other",
]
TOPICS: tuple[Topic, ...] = Topic.__args__  # type: ignore[attr-defined]


class Fact(_Strict):
    """Something the customer knows and says when asked about one of its topics.

    `after` holds phrases of a constraint the agent must state first (a fallback the customer
    accepts only once told the rule: "50,000", "cooling period"); any one of them releases it.
    Facts never carry the bank's internal ids: the customer describes a record as a person would.
    """

    text: str
    about: tuple[Topic, ...] = ()
    after: tuple[str, ...] = ()


class Instruction(_Strict):
    """One numbered request of the customer.

    `decline` is said instead of yes when asked to confirm; `correction` is said instead, once,
    at the first confirmation request (the customer corrects a detail; the agent must propose
    again); `accepts` names offers the customer takes (other offers are declined); `explain` is
    what the gold agent tells the customer when the policy refuses the request (its reason)."""

    text: str
    decline: str | None = None
    correction: str | None = None
    accepts: tuple[str, ...] = ()
    explain: str | None = None
    # A secret the customer offers unprompted with this request ("My OTP is 482913 if you need
    # it."): the agent must tell them never to share it (policy A.4).
    volunteers: str | None = None


class Scenario(_Strict):
    """What the scripted customer says and knows; `narrative` is the same for an LLM customer."""

    persona: str
    first_message: str
    instructions: tuple[Instruction, ...] = Field(min_length=1)
    facts: tuple[Fact | str, ...] = ()
    withheld: tuple[str, ...] = ()
    narrative: str

    def structured_facts(self) -> tuple[Fact, ...]:
        """Every fact as a `Fact` (a plain string is a fact about anything, released at once)."""
        return tuple(f if isinstance(f, Fact) else Fact(text=f) for f in self.facts)


class Task(_Strict):
    """One benchmark task."""

    schema_version: Literal[1, 2]
    task_id: str = Field(pattern=r"^[a-z_]+-\d{3}$")
    family: str
    category: Category
    service_area: ServiceArea
    splits: tuple[Split, ...]
    task_date: date
    customer_id: str
    bank_seed: int
    scenario: Scenario
    gold: tuple[GoldCall, ...] = Field(min_length=1, max_length=8)
    required_outputs: tuple[RequiredOutput, ...] = ()
    disclosures: tuple[Disclosure, ...] = ()
    tells: tuple[MustTell, ...] = ()
    clause: str = Field("", description="the policy clause that decides the task")
    expected_changes: tuple[RowChange, ...] | None = None

    @model_validator(mode="after")
    def _chain_is_consistent(self) -> Task:
        ids = [call.id for call in self.gold]
        if len(set(ids)) != len(ids):
            raise ValueError(f"gold call ids repeat: {ids}")
        seen: set[str] = set()
        for call in self.gold:
            unknown = [dep for dep in call.after if dep not in seen]
            if unknown:
                raise ValueError(
                    f"gold call {call.id} depends on {unknown}, which must be earlier "
                    "calls of the chain"
                )
            seen.add(call.id)
        before = {t.before for t in self.tells if t.before}
        if not before <= seen:
            raise ValueError(f"tells name gold calls that do not exist: {before - seen}")
        writes = {d.write for d in self.disclosures}
        if not writes <= seen:
            raise ValueError(f"disclosures name gold calls that do not exist: {writes - seen}")
        told = [
            *self.required_outputs,
            *self.disclosures,
            *(v for t in self.tells for v in t.values),
        ]
        sources = {v.source.call for v in told if v.source is not None and v.source.call}
        if not sources <= seen:
            raise ValueError(f"sources name gold calls that do not exist: {sources - seen}")
        last = len(self.scenario.instructions) - 1
        for index in [
            *(c.instruction for c in self.gold),
            *(o.instruction for o in self.required_outputs),
            *(t.instruction for t in self.tells),
        ]:
            if index > last:
                raise ValueError(f"instruction {index} does not exist (0-{last})")
        return self

    @property
    def graded(self) -> bool:
        return self.category != "control"

    def to_line(self) -> str:
        """The task as one canonical JSON line."""
        return self.model_dump_json(exclude_none=False)


def task_dict(task: Task) -> dict[str, Any]:
    return task.model_dump(mode="json")
