"""No import circle anywhere in ``src/``: every module is parsed (imports inside functions
included), the graph of the project's modules built, and its strongly connected components
must each be one module. And no module of the project is imported by a string
(``importlib.import_module``, ``__import__``): such an arrow is one neither this test nor
``lint-imports`` sees (the levels of the computer players were found so, upwards: their
registry, :mod:`cardavia.ai.levels`, now stands above them and imports each)."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"
ROOT = "cardavia"


def modules() -> dict[str, Path]:
    """Every module of the project, by its dotted name."""
    found = {}
    for path in sorted((SRC / ROOT).rglob("*.py")):
        parts = list(path.relative_to(SRC).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def imported(name: str, path: Path, known: dict[str, Path]) -> Iterator[str]:
    """The project's modules that module ``name`` imports, wherever the import is."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            # ``from package import module`` imports the module; ``from module import name``
            # the module.
            targets = [f"{base}.{alias.name}" for alias in node.names] + [base]
        else:
            continue
        for target in targets:
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target and target != name and target.startswith(ROOT + "."):
                yield target


def circles(graph: dict[str, set[str]]) -> list[frozenset[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[frozenset[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for other in graph[node]:
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            component = set()
            while True:
                member = stack.pop()
                component.add(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(frozenset(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_no_import_circle_in_src() -> None:
    known = modules()
    graph = {name: set(imported(name, path, known)) for name, path in known.items()}
    found = list(circles(graph))
    assert not found, [sorted(c) for c in found]


def test_the_check_finds_a_circle() -> None:
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [frozenset({"a", "b", "c"})]


STRING_IMPORTS = {"cardavia.ai._dds": "the solver's compiled kernel, optional: no Python module"}
"""The modules of the project imported by a string on purpose, and why."""


def imports_by_string(path: Path) -> list[str]:
    """What a module imports by a string: each name given as a constant, ``?`` where the
    name is worked out as the program runs."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Call) or not node.args:
            continue
        called = node.func
        name = called.attr if isinstance(called, ast.Attribute) else getattr(called, "id", "")
        if name in ("import_module", "__import__"):
            first = node.args[0]
            constant = isinstance(first, ast.Constant) and isinstance(first.value, str)
            found.append(first.value if constant else "?")
    return found


def test_no_module_of_the_project_is_imported_by_a_string() -> None:
    found = {
        name: [target for target in imports_by_string(path) if target not in STRING_IMPORTS]
        for name, path in modules().items()
    }
    assert {name: targets for name, targets in found.items() if targets} == {}
