"""The layers (issue 11, item 1): pytest at the edge, a pytest-free core below it, no circle.

Every module under pytest_bankbench/ is parsed, not imported; every import counts, including the
ones inside functions and under TYPE_CHECKING.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest_bankbench

PACKAGE = Path(pytest_bankbench.__file__).parent
PYTEST_NAMES = ("pytest", "_pytest", "xdist", "pluggy")
BELOW_THE_PLUGIN = (
    "report",
    "run",
    "bank",
    "tasks",
    "authoring",
    "scoring",
    "simulation",
    "models",
)


def _modules() -> Iterator[tuple[str, Path]]:
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        yield ".".join(("pytest_bankbench", *parts)), path


def _imports(path: Path) -> set[str]:
    """Every module name an import statement of this file names (absolute imports only)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0, f"{path}: relative import"
            assert node.module is not None
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return found


def _layer(module: str) -> str | None:
    """The layer of a package module: its subpackage, or the module itself at the top level."""
    parts = module.split(".")
    if parts[0] != "pytest_bankbench" or len(parts) < 2:
        return None
    name = parts[1]
    if (PACKAGE / name).is_dir() or (PACKAGE / f"{name}.py").is_file():
        return name
    return None


def _graph() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for module, path in _modules():
        source = _layer(module)
        if source is None:
            continue
        targets = {_layer(name) for name in _imports(path)}
        graph.setdefault(source, set()).update(t for t in targets if t and t != source)
    return graph


def test_only_the_plugin_package_imports_pytest() -> None:
    offenders = [
        f"{module} imports {name}"
        for module, path in _modules()
        if not module.startswith("pytest_bankbench.plugin")
        for name in _imports(path)
        if name.split(".")[0] in PYTEST_NAMES
    ]
    assert offenders == []


def test_nothing_below_the_plugin_imports_it() -> None:
    offenders = [
        f"{module} imports {name}"
        for module, path in _modules()
        if _layer(module) in BELOW_THE_PLUGIN
        for name in _imports(path)
        if name == "pytest_bankbench.plugin" or name.startswith("pytest_bankbench.plugin.")
    ]
    assert offenders == []


def test_the_layers_import_each_other_without_a_circle() -> None:
    graph = _graph()
    assert {"plugin", "run", "report", "bank"} <= set(graph)  # the walk found the layers
    cycles: list[list[str]] = []

    def visit(node: str, path: list[str]) -> None:
        for target in sorted(graph.get(node, ())):
            if target in path:
                cycles.append([*path[path.index(target) :], target])
            elif len(path) < len(graph):
                visit(target, [*path, target])

    done: set[str] = set()
    for start in sorted(graph):
        if start not in done:
            visit(start, [start])
            done.add(start)
    assert cycles == []
