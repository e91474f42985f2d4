"""What a task says the agent must tell the customer: the values, where each comes from (`Source`),
the tells beyond the values asked for (`MustTell`) and the disclosures before a gated write."""

from __future__ import annotations

from datetime import date
from decimal import Decimal, InvalidOperation
from typing import Any, Literal

from pydantic import (
    Field,
    SerializationInfo,
    SerializerFunctionWrapHandler,
    model_serializer,
    model_validator,
)

from pytest_bankbench.bank.facts import Entity
from pytest_bankbench.bank.frozen import FrozenRecord
from pytest_bankbench.tasks.passages import article_ids, policy_clauses

OutputKind = Literal["amount", "date", "count", "percent", "choice", "digits", "text"]


SourceKind = Literal["record", "result", "argument", "passage", "rate card"]


class Source(FrozenRecord):
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


class ToldValue(FrozenRecord):
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


class MustTell(FrozenRecord):
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
