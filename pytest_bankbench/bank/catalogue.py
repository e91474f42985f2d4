"""The bank's tools described for task authors (`python -m pytest_bankbench tools`): each tool's
kind, arguments and the record fields its result shows, read from the registry itself."""

from __future__ import annotations

from typing import Any

from pytest_bankbench.bank.facts import ARG_PREFIX, LOGGED_IN
from pytest_bankbench.bank.registry import ToolSpec, all_tools, get_tool


def describe(spec: ToolSpec) -> list[str]:
    """A tool as a few lines: name and kind, its description, arguments, the facts it shows."""
    lines = [f"{spec.name} ({spec.kind})", f"  {spec.description}"]
    params = spec.schema()["function"]["parameters"]
    required = set(params.get("required", ()))
    for name, prop in params.get("properties", {}).items():
        lines.append(f"  - {name}: {_argument(prop, name in required)}")
    if not params.get("properties"):
        lines.append("  (no arguments)")
    for reveal in spec.reveals:
        if reveal.key == LOGGED_IN:
            key = "the logged-in customer's id"
        elif reveal.key.startswith(ARG_PREFIX):
            key = f"the {reveal.key.removeprefix(ARG_PREFIX)} argument"
        else:
            key = reveal.key
        where = f" in each of {reveal.at}" if reveal.at else ""
        fields = ", ".join(reveal.field_map())
        lines.append(f"  shows {reveal.entity} (key: {key}){where}: {fields}")
    return lines


def _kind(prop: dict[str, Any]) -> str:
    """What an argument takes: its values, its JSON type, or each of a union's ("number or
    null" for an optional amount)."""
    if "enum" in prop:
        return " or ".join(map(str, prop["enum"]))
    if "anyOf" in prop:
        return " or ".join(_kind(member) for member in prop["anyOf"])
    return str(prop.get("type", "any"))


def _argument(prop: dict[str, Any], required: bool) -> str:
    kind = _kind(prop)
    need = "required" if required else f"default {prop.get('default')!r}"
    note = f", {prop['description']}" if "description" in prop else ""
    return f"{kind} ({need}){note}"


def catalogue(names: list[str] | None = None) -> list[str]:
    """Every tool (or the named ones: an unknown name raises UnknownTool), sorted by name."""
    specs = [get_tool(n) for n in names] if names else sorted(all_tools().values(), key=_name)
    lines: list[str] = []
    for spec in specs:
        lines += [*describe(spec), ""]
    return lines[:-1]


def _name(spec: ToolSpec) -> str:
    return spec.name
