"""The layers point one way: no import cycle between the project's top-level packages, between
portal's apps, or between portal's own modules (docs/architecture.md, "Layers").

Every ``import`` and ``from … import`` of every ``.py`` file of the packages counts, wherever it
stands: at the top of a module, inside a function or a method, under ``if TYPE_CHECKING:`` (a
type is a dependency too, even one Python does not load at run time). Migrations count as well.
Relative imports are resolved against the importing module's package. ``from a.b import c``
is an edge to the module ``a.b.c`` when there is one, else to ``a.b``; importing ``a.b.c`` is
not counted as importing the packages ``a`` and ``a.b`` above it.

What is not an import and so not counted: names in strings, such as a model's
``ForeignKey("chat.Message")``, ``INSTALLED_APPS``, the URL patterns' ``include("…")``, Celery
task names, template names.

The three levels:

* the top-level packages (``analysis``, ``clocks``, ``competitions``, ``dbops``, ``durable``,
  ``engine``, ``games``, ``portal``): ``portal.home`` importing ``competitions.selectors`` is
  an edge from ``portal`` to ``competitions``;
* portal's units: each app (``portal/chat``, ``portal/mail``, …) and each of portal's
  top-level modules (``portal/home.py``, ``portal/urls.py``, …) is one unit, and
  ``portal/__init__.py`` is the unit ``portal``;
* portal's modules, each ``.py`` file on its own (a package's ``__init__.py`` is the package).

``python -m tests.test_layers`` prints the layers as they are: every unit with the units it
imports, bottom first.
"""

from __future__ import annotations

import ast
import functools
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("analysis", "clocks", "competitions", "dbops", "durable", "engine", "games", "portal")


@dataclass(frozen=True)
class Edge:
    """One import: ``source`` imports ``target``, at ``path``:``line``."""

    source: str
    target: str
    path: str
    line: int


def _modules() -> dict[str, Path]:
    """Every module of the packages by its dotted name (a package by its ``__init__.py``)."""
    found: dict[str, Path] = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def _known(name: str, modules: dict[str, Path]) -> str | None:
    """The longest prefix of ``name`` that is one of the project's modules, if any."""
    parts = name.split(".")
    while parts:
        candidate = ".".join(parts)
        if candidate in modules:
            return candidate
        parts.pop()
    return None


def _imported(
    node: ast.Import | ast.ImportFrom, module: str, is_package: bool, modules: dict[str, Path]
) -> Iterable[str]:
    """The project's modules one import statement names."""
    if isinstance(node, ast.Import):
        for alias in node.names:
            target = _known(alias.name, modules)
            if target:
                yield target
        return
    if node.level:
        package = module.split(".") if is_package else module.split(".")[:-1]
        if node.level > 1:
            package = package[: -(node.level - 1)]
        base = ".".join([*package, node.module] if node.module else package)
    else:
        base = node.module or ""
    for alias in node.names:
        target = _known(f"{base}.{alias.name}", modules) or _known(base, modules)
        if target:
            yield target


@functools.cache
def module_edges() -> tuple[Edge, ...]:
    """Every import of one of the project's modules by another, with where it is written
    (read once a run: each of the tests below asks)."""
    modules = _modules()
    edges = []
    for module, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        is_package = path.name == "__init__.py"
        for node in ast.walk(tree):
            if not isinstance(node, ast.Import | ast.ImportFrom):
                continue
            for target in _imported(node, module, is_package, modules):
                if target != module:
                    edges.append(
                        Edge(module, target, str(path.relative_to(ROOT)), node.lineno)
                    )
    return tuple(edges)


def top_level(module: str) -> str | None:
    """The top-level package a module is in."""
    return module.split(".")[0]


def portal_unit(module: str) -> str | None:
    """Portal's app or top-level module a module is in (None outside portal)."""
    parts = module.split(".")
    if parts[0] != "portal":
        return None
    return ".".join(parts[:2])


def portal_module(module: str) -> str | None:
    """The module itself, if it is one of portal's (None outside portal)."""
    return module if module.split(".")[0] == "portal" else None


def unit_edges(edges: Iterable[Edge], unit: Callable[[str], str | None]) -> list[Edge]:
    """The edges between distinct units, each kept with the import that makes it."""
    lifted = []
    for edge in edges:
        source, target = unit(edge.source), unit(edge.target)
        if source and target and source != target:
            lifted.append(Edge(source, target, edge.path, edge.line))
    return lifted


def _graph(edges: Iterable[Edge]) -> dict[str, dict[str, list[Edge]]]:
    graph: dict[str, dict[str, list[Edge]]] = defaultdict(lambda: defaultdict(list))
    for edge in edges:
        graph[edge.source][edge.target].append(edge)
    return graph


def strongly_connected(edges: Iterable[Edge]) -> list[list[str]]:
    """The groups of units that import each other, round and round (Tarjan's algorithm)."""
    graph = _graph(edges)
    nodes = sorted(set(graph) | {t for targets in graph.values() for t in targets})
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def visit(node: str) -> None:
        # Iterative, so that a deep chain of modules does not hit the recursion limit.
        work = [(node, iter(sorted(graph.get(node, {}))))]
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        while work:
            current, targets = work[-1]
            for target in targets:
                if target not in index:
                    index[target] = low[target] = len(index)
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(sorted(graph.get(target, {})))))
                    break
                if target in on_stack:
                    low[current] = min(low[current], index[target])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[current])
                if low[current] == index[current]:
                    group = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        group.append(member)
                        if member == current:
                            break
                    if len(group) > 1:
                        groups.append(sorted(group))

    for node in nodes:
        if node not in index:
            visit(node)
    return groups


def cycles_report(edges: list[Edge]) -> str:
    """Every group of units in a cycle, with each import between two of them (file:line)."""
    graph = _graph(edges)
    lines = []
    for group in strongly_connected(edges):
        lines.append("A cycle between " + ", ".join(group) + ":")
        members = set(group)
        for source in group:
            for target in sorted(graph[source]):
                if target in members:
                    places = sorted({(edge.path, edge.line) for edge in graph[source][target]})
                    lines += [f"  {source} -> {target}  ({path}:{line})" for path, line in places]
    return "\n".join(lines)


def test_the_top_level_packages_import_each_other_one_way() -> None:
    edges = unit_edges(module_edges(), top_level)
    assert {e.source for e in edges} >= {"portal", "games"}, "the walk found no imports"
    cycles = strongly_connected(edges)
    assert not cycles, cycles_report(edges)


def test_portals_apps_import_each_other_one_way() -> None:
    edges = unit_edges(module_edges(), portal_unit)
    assert {e.source for e in edges} >= {"portal.mail", "portal.urls"}, "no imports found"
    cycles = strongly_connected(edges)
    assert not cycles, cycles_report(edges)


def test_portals_modules_import_each_other_one_way() -> None:
    edges = unit_edges(module_edges(), portal_module)
    assert {e.source for e in edges} >= {"portal.mail.services.notify"}, "no imports found"
    cycles = strongly_connected(edges)
    assert not cycles, cycles_report(edges)


def test_a_cycle_is_found_and_told_with_its_imports() -> None:
    """The check itself: a function-level import closing a circle is caught and located."""
    edges = [
        Edge("portal.chat", "portal.accounts", "portal/chat/notify.py", 3),
        Edge("portal.accounts", "portal.mail", "portal/accounts/views.py", 10),
        Edge("portal.mail", "portal.chat", "portal/mail/bodies.py", 42),
        Edge("portal.push", "portal.mail", "portal/push/tasks.py", 5),
    ]
    assert strongly_connected(edges) == [["portal.accounts", "portal.chat", "portal.mail"]]
    report = cycles_report(edges)
    assert "portal.mail -> portal.chat  (portal/mail/bodies.py:42)" in report
    assert "portal.push" not in report
    assert not strongly_connected(edges[:2] + edges[3:])


def test_imports_inside_functions_and_relative_imports_are_edges() -> None:
    modules = {"portal.chat": Path(), "portal.chat.models": Path(), "portal.mail": Path(),
               "games.models": Path()}
    inside = ast.parse("def f():\n    from ..mail import send\n    from . import models\n"
                       "    import games.models.Match\n    import django.db\n")
    found = [
        target
        for node in ast.walk(inside)
        if isinstance(node, ast.Import | ast.ImportFrom)
        for target in _imported(node, "portal.chat.views", False, modules)
    ]
    assert found == ["portal.mail", "portal.chat.models", "games.models"]


def test_the_walk_finds_imports_inside_functions_of_the_project() -> None:
    """The mail consumer of a round imports the competitions' models inside its function."""
    edges = module_edges()
    assert any(e.source == "portal.mail.receivers" and e.target == "competitions.models"
               for e in edges)


def layers(edges: list[Edge], units: Iterable[str]) -> list[tuple[str, list[str]]]:
    """The units bottom first: each after every unit it imports (cycles assumed away)."""
    graph = _graph(edges)
    nodes = sorted(set(units) | set(graph) | {t for targets in graph.values() for t in targets})
    depth: dict[str, int] = {}

    def level(node: str, seen: frozenset[str] = frozenset()) -> int:
        if node not in depth:
            below = [t for t in graph.get(node, {}) if t not in seen]
            depth[node] = 1 + max((level(t, seen | {node}) for t in below), default=-1)
        return depth[node]

    return [
        (node, sorted(graph.get(node, {})))
        for node in sorted(nodes, key=lambda n: (level(n), n))
    ]


if __name__ == "__main__":
    everything = module_edges()
    for title, unit in (("Top-level packages", top_level), ("Portal's units", portal_unit)):
        print(f"{title}, bottom first (each imports only those above it in this list):")
        lifted = unit_edges(everything, unit)
        units = {u for u in map(unit, _modules()) if u}
        for node, below in layers(lifted, units):
            print(f"  {node:28} -> {', '.join(below) or '(nothing of the project)'}")
        report = cycles_report(lifted)
        if report:
            print(report)
        print()
