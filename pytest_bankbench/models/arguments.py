"""Model arguments and endpoints checked once, before the first session (issue 19, item 5).

A wrong-typed --bank-model-args value (`"api_key": ["..."]`, `"temperature": "hot"`) used to
reach litellm in every session: each became a harness error with a ~300-line traceback that
printed the arguments. Now each value is held to the type litellm.completion declares for
that parameter and a mismatch is one usage error naming the option, the argument and the
accepted type. The declared types are read from litellm's source (its `completion`
signature), not by importing it: the controller of a run never pays litellm's 4 s import.
A parameter litellm does not declare (it passes **kwargs on to the provider), or one whose
type names a class a JSON value cannot be checked against, is accepted as it is.

An --bank-api-base that is not an http:// or https:// URL with a host (`127.0.0.1:9`), or
whose port is not a number from 1 to 65535, is refused here too: litellm retried it as a
transport failure, and the endpoint check let it through.
"""

from __future__ import annotations

import ast
import importlib.util
import urllib.parse
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

from pytest_bankbench.errors import BankBenchError, json_kind


class ArgumentError(BankBenchError, ValueError):
    """A model argument or endpoint the provider library cannot take; names what it accepts."""


# JSON value -> the check of a plain type name as litellm's annotations spell it.
_PLAIN: dict[str, Any] = {
    "str": lambda v: isinstance(v, str),
    "bool": lambda v: isinstance(v, bool),
    "int": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "float": lambda v: isinstance(v, int | float) and not isinstance(v, bool),
    "dict": lambda v: isinstance(v, dict),
    "Dict": lambda v: isinstance(v, dict),
    "list": lambda v: isinstance(v, list),
    "List": lambda v: isinstance(v, list),
    "tuple": lambda v: isinstance(v, list),
    "Any": lambda v: True,
    "object": lambda v: True,
}
_NAMES = {"bool": "a boolean", "int": "a whole number", "float": "a number", "str": "a string"}


def _accepts(node: ast.expr, value: Any) -> bool | None:
    """Whether `value` fits the annotation; None: the annotation names a type that a JSON
    value cannot be held to (a class, a TypedDict, a forward reference), so anything goes."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        sides = (_accepts(node.left, value), _accepts(node.right, value))
        return None if None in sides else any(sides)
    if isinstance(node, ast.Constant):
        return value is None if node.value is None else None
    if isinstance(node, ast.Attribute):
        return None
    if isinstance(node, ast.Name):
        check = _PLAIN.get(node.id)
        return None if check is None else bool(check(value))
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name):
        name, inner = node.value.id, node.slice
        items = list(inner.elts) if isinstance(inner, ast.Tuple) else [inner]
        if name == "Optional":
            found = _accepts(items[0], value)
            return True if value is None else found
        if name == "Union":
            results = [_accepts(item, value) for item in items]
            return None if None in results else any(results)
        if name == "Literal":
            return any(isinstance(i, ast.Constant) and i.value == value for i in items)
        if name in _PLAIN:  # list[...], Dict[...]: the container, not its items
            return bool(_PLAIN[name](value))
    return None


def _litellm_main() -> Path | None:
    spec = importlib.util.find_spec("litellm")
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations))) / "main.py"


@cache
def completion_annotations() -> dict[str, ast.expr]:
    """litellm.completion's parameters and their annotations, from its source (none when
    litellm is missing or its source has no such function)."""
    main = _litellm_main()
    try:
        tree = ast.parse(main.read_text(encoding="utf-8")) if main is not None else None
    except (OSError, SyntaxError, ValueError):
        return {}
    for node in tree.body if tree is not None else ():
        if isinstance(node, ast.FunctionDef) and node.name == "completion":
            arguments = [*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs]
            return {a.arg: a.annotation for a in arguments if a.annotation is not None}
    return {}


def _accepted(node: ast.expr) -> str:
    """The annotation in words: `str or null`, `a number or null`."""
    text = ast.unparse(node)
    words = [
        "null" if part == "None" else _NAMES.get(part, part)
        for part in (p.strip() for p in text.split("|"))
    ]
    return " or ".join(words)


def check_model_args(option: str, args: Mapping[str, Any]) -> None:
    """Each argument held to litellm.completion's declared type; ArgumentError on the first
    that does not fit, naming it, what it is and what is accepted."""
    declared = completion_annotations()
    for name, value in args.items():
        node = declared.get(name)
        if node is None or _accepts(node, value) is not False:
            continue
        raise ArgumentError(
            f"{option}: {name!r} is {json_kind(value)}, but litellm.completion accepts "
            f"{_accepted(node)} for it; fix its value in {option}"
        )


def check_api_base(option: str, base: str) -> None:
    """An http:// or https:// URL naming a host, whose port (if any) is a number from 1 to
    65535."""
    parts = urllib.parse.urlsplit(base)
    if parts.scheme.lower() not in ("http", "https") or not parts.hostname:
        raise ArgumentError(
            f"{option} {base!r}: not an http:// or https:// URL with a host; give a URL such "
            "as http://localhost:8000/v1"
        )
    try:
        port = parts.port
    except ValueError as exc:
        raise ArgumentError(
            f"{option} {base!r}: {exc}; give a URL such as http://localhost:8000/v1"
        ) from None
    if port == 0:
        raise ArgumentError(
            f"{option} {base!r}: port 0 cannot be connected to; give a URL such as "
            "http://localhost:8000/v1"
        )
