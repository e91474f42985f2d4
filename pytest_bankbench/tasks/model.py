"""The task file's model: what the customer wants, the gold chain, required outputs, splits."""

from __future__ import annotations

from datetime import date
from typing import Any, Literal

from pydantic import ConfigDict, Field, model_validator

from pytest_bankbench.bank.diff import RowChange
from pytest_bankbench.bank.facts import Entity
from pytest_bankbench.bank.frozen import FrozenRecord

# What a task says must be told is defined in tasks/tells.py; re-exported for its readers here.
from pytest_bankbench.tasks.tells import TELL_KINDS as TELL_KINDS
from pytest_bankbench.tasks.tells import Disclosure as Disclosure
from pytest_bankbench.tasks.tells import MustTell as MustTell
from pytest_bankbench.tasks.tells import OutputKind as OutputKind
from pytest_bankbench.tasks.tells import RequiredOutput as RequiredOutput
from pytest_bankbench.tasks.tells import Source as Source
from pytest_bankbench.tasks.tells import SourceKind as SourceKind
from pytest_bankbench.tasks.tells import TellKind as TellKind
from pytest_bankbench.tasks.tells import ToldValue as ToldValue

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

    def customer_words(self) -> str:
        """Everything the customer may say or knows, one text (the records they name)."""
        texts = [self.first_message, self.narrative]
        texts += [i.text for i in self.instructions] + [f.text for f in self.structured_facts()]
        return "\n".join(texts)

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
        told = [
            *self.required_outputs,
            *self.disclosures,
            *(v for t in self.tells for v in t.values),
        ]
        for what, named in (
            ("tells", {t.before for t in self.tells if t.before}),
            ("disclosures", {d.write for d in self.disclosures}),
            ("sources", {v.source.call for v in told if v.source is not None and v.source.call}),
        ):
            if not named <= seen:
                raise ValueError(
                    f"{what} name gold calls that do not exist: {', '.join(sorted(named - seen))}"
                    f"; the chain's ids are {', '.join(c.id for c in self.gold)}"
                )
        last = len(self.scenario.instructions) - 1
        for field, indexes in (
            ("gold", [c.instruction for c in self.gold]),
            ("required_outputs", [o.instruction for o in self.required_outputs]),
            ("tells", [t.instruction for t in self.tells]),
        ):
            for at, index in enumerate(indexes):
                if index > last:
                    raise ValueError(
                        f"field '{field}.{at}.instruction': instruction {index} does not "
                        f"exist; scenario.instructions holds 0 to {last}"
                    )
        return self

    @property
    def graded(self) -> bool:
        return self.category != "control"

    def to_line(self) -> str:
        """The task as one canonical JSON line."""
        return self.model_dump_json(exclude_none=False)


def task_dict(task: Task) -> dict[str, Any]:
    return task.model_dump(mode="json")
