"""A tool is written once: its typed signature and docstring give the schema, the kind and the docs."""

from __future__ import annotations

import difflib
import hashlib
import importlib
import inspect
import json
import pkgutil
import sys
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from functools import cache, cached_property
from types import ModuleType
from typing import TYPE_CHECKING, Annotated, Any, Literal, get_type_hints

from pydantic import BaseModel, ConfigDict, Field, ValidationError, WithJsonSchema, create_model

from pytest_bankbench.bank.errors import InvalidArguments, UnknownTool
from pytest_bankbench.bank.facts import Reveal

if TYPE_CHECKING:
    from pytest_bankbench.bank.store import Bank

ToolKind = Literal["read", "write", "human"]
Result = dict[str, Any]
ToolFunc = Callable[..., Result]

Rupees = Annotated[
    Decimal,
    Field(gt=0, max_digits=14, decimal_places=2),
    WithJsonSchema({"type": "number", "description": "amount in rupees, e.g. 200000 for 2 lakh"}),
]
RupeesOrZero = Annotated[
    Decimal,
    Field(ge=0, max_digits=14, decimal_places=2),
    WithJsonSchema({"type": "number", "description": "amount in rupees; 0 allowed"}),
]
IsoDate = Annotated[str, Field(pattern=r"^\d{4}-\d{2}-\d{2}$", description="date as YYYY-MM-DD")]
AccountNumber = Annotated[str, Field(description="the customer's account number")]


@dataclass(frozen=True)
class ToolSpec:
    """One tool: name, kind, description and the pydantic model of its arguments."""

    name: str
    kind: ToolKind
    description: str
    arguments: type[BaseModel]
    func: ToolFunc
    # The two service requests are writes that change no records.
    changes_records: bool
    # The records and fields its result shows (see bank/facts.py).
    reveals: tuple[Reveal, ...] = ()
    # The argument naming the account a write debits (policy C.11 checks it first).
    debits: str | None = None
    # The fields of a write's result that tell the customer what came of it (J.38), each
    # `field:kind` (scoring/told.py): a reference, the new balance, a date. Empty: the result
    # is told by saying the change was made.
    reports: tuple[str, ...] = ()
    # Its result holds prose (articles) an agent could paste back as its answer: the scorer
    # looks for copied sentences in these results only (scoring/told.py).
    prose: bool = False

    @cached_property
    def defaults(self) -> dict[str, Any]:
        """Arguments the schema fills in when the agent leaves them out."""
        return {
            name: info.default
            for name, info in self.arguments.model_fields.items()
            if not info.is_required()
        }

    def with_defaults(self, arguments: dict[str, Any]) -> dict[str, Any]:
        """The arguments as the tool runs them: left-out optional ones take their default."""
        return {**self.defaults, **arguments}

    def schema(self) -> dict[str, Any]:
        """OpenAI-style function schema, as the agent sees it."""
        params = self.arguments.model_json_schema()
        params.pop("title", None)
        for prop in params.get("properties", {}).values():
            prop.pop("title", None)
        return {
            "type": "function",
            "function": {"name": self.name, "description": self.description, "parameters": params},
        }

    def validate(self, arguments: dict[str, Any]) -> BaseModel:
        """Typed arguments, or InvalidArguments naming each bad field and what is accepted."""
        try:
            return self.arguments.model_validate(arguments)
        except ValidationError as exc:
            problems = "; ".join(
                f"{'.'.join(str(p) for p in err['loc']) or '(arguments)'}: {err['msg']}"
                + (f" (got {err['input']!r})" if err["type"] != "missing" else "")
                for err in exc.errors()
            )
            accepted = (
                f"Accepted arguments: {', '.join(self.arguments.model_fields)}"
                if self.arguments.model_fields
                else f"{self.name} takes no arguments: call it with {{}}"
            )
            raise InvalidArguments(
                f"invalid arguments for {self.name}: {problems}. {accepted}"
            ) from None

    def invoke(self, bank: Bank, arguments: dict[str, Any]) -> Result:
        """Validate and run against a bank; a write runs all-or-nothing."""
        model = self.validate(arguments)
        values = {name: getattr(model, name) for name in self.arguments.model_fields}
        if self.kind == "write":
            with bank.transaction():
                return self.func(bank, **values)
        return self.func(bank, **values)


def reference(prefix: str, *parts: object) -> str:
    """A request's reference: the prefix and a digest of what was asked (the same ask, the same one)."""
    digest = hashlib.sha256("|".join(str(p) for p in parts).encode()).hexdigest()[:8].upper()
    return f"{prefix}{digest}"


TOOL_MODULE_PREFIX = "tools_"
SPEC_ATTR = "__bank_tool__"


@cache
def tool_modules() -> tuple[str, ...]:
    """The bank's tool modules, every `pytest_bankbench.bank.tools_*`, sorted by name (found by
    scanning the package, the way task families are: a new module needs no list edited)."""
    from pytest_bankbench import bank

    return tuple(
        sorted(
            info.name
            for info in pkgutil.iter_modules(bank.__path__, f"{bank.__name__}.")
            if info.name.rpartition(".")[2].startswith(TOOL_MODULE_PREFIX)
        )
    )


def tool(
    kind: ToolKind,
    *,
    changes_records: bool = True,
    reveals: tuple[Reveal, ...] = (),
    debits: str | None = None,
    reports: tuple[str, ...] = (),
    prose: bool = False,
) -> Callable[[ToolFunc], ToolFunc]:
    """Mark a function `f(bank, **typed_args) -> dict` as a tool of the given kind, declaring
    the records and fields its result shows."""

    def register(func: ToolFunc) -> ToolFunc:
        hints = get_type_hints(func, include_extras=True)
        fields: dict[str, Any] = {}
        for name, param in list(inspect.signature(func).parameters.items())[1:]:
            default = ... if param.default is inspect.Parameter.empty else param.default
            fields[name] = (hints[name], default)
        model = create_model(
            f"{func.__name__}_arguments",
            __config__=ConfigDict(extra="forbid"),
            **fields,
        )
        doc = inspect.getdoc(func) or ""
        spec = ToolSpec(
            name=func.__name__,
            kind=kind,
            description=" ".join(doc.split()),
            arguments=model,
            func=func,
            changes_records=changes_records and kind == "write",
            reveals=reveals,
            debits=debits,
            reports=reports,
            prose=prose,
        )
        setattr(func, SPEC_ATTR, spec)
        return func

    return register


_cache: tuple[tuple[ModuleType, ...], dict[str, ToolSpec]] = ((), {})


def all_tools() -> dict[str, ToolSpec]:
    """Every tool, read from the tool modules (no global registry that a re-import could split)."""
    global _cache
    names = tool_modules()
    held, specs = _cache
    # This runs for every call the scorer matches: the modules read last time, if every one is
    # still the one imported, answer without a scan (a re-import brings a scan).
    if held == tuple(map(sys.modules.get, names)):  # modules compare by identity
        return specs
    modules = tuple(sys.modules.get(name) or importlib.import_module(name) for name in names)
    specs = {
        spec.name: spec
        for m in modules
        for obj in vars(m).values()
        if (spec := getattr(obj, SPEC_ATTR, None)) is not None
    }
    _cache = (modules, specs)
    return specs


def get_tool(name: str) -> ToolSpec:
    """A tool by name, or UnknownTool listing the names accepted."""
    tools = all_tools()
    if name not in tools:
        close = difflib.get_close_matches(str(name), tools, n=1)
        guess = f" (did you mean {close[0]!r}?)" if close else ""  # user trial: a typo in 34
        raise UnknownTool(
            f"unknown tool {name!r}{guess}; available tools: {', '.join(sorted(tools))}"
        )
    return tools[name]


_schemas: tuple[int, str] = (0, "")


def tool_schemas() -> list[dict[str, Any]]:
    """The schemas of all tools, sorted by name: a fresh copy, rendered once per registry.

    Rendering 34 pydantic schemas costs 10-14 ms, once per model session before this cache;
    reading the cached JSON back costs well under 1 ms and nobody shares a mutable copy.
    """
    global _schemas
    tools = all_tools()
    if _schemas[0] != id(tools):
        rendered = [spec.schema() for _, spec in sorted(tools.items())]
        _schemas = (id(tools), json.dumps(rendered))
    loaded: list[dict[str, Any]] = json.loads(_schemas[1])
    return loaded
