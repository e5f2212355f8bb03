"""The folders say what depends on what (docs/development.md#layers).

``engine/`` decides and knows nothing else; ``db/`` stores; ``bot/`` is split by what a
module is: ``transport`` (updates in, messages out), ``application`` (one update, one
transaction), ``language`` (words in and out) and ``presentation`` (the standings in words
and pictures). A module may lean on the layers under it, never on one above, and no two
modules import each other, even inside a function: a cycle is a layer that is not one.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("engine", "db", "charts", "paper", "playground", "bot")

# Who may not import whom: (importer prefix, forbidden prefixes).
FORBIDDEN = (
    ("engine", ("bot", "db", "charts", "paper", "playground")),
    ("db", ("bot", "charts", "paper", "playground")),
    ("charts", ("bot", "db", "paper", "playground")),
    ("bot.language", ("bot.application", "bot.presentation", "bot.transport", "db")),
    ("bot.presentation", ("bot.transport",)),
    ("bot.application", ("bot.transport", "bot.app", "bot.cli")),
)


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(p): p for pkg in PACKAGES for p in (ROOT / pkg).rglob("*.py")}


def imported(name: str, path: Path) -> Iterator[str]:
    """The project modules ``name`` imports, anywhere in it but under ``TYPE_CHECKING``.

    ``from pkg import sub`` names the submodule, not the package: Python runs a
    package's ``__init__`` first either way, and that alone is no cycle."""
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]

    def walk(node: ast.AST) -> Iterator[str]:
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            yield from (m for child in node.orelse for m in walk(child))
            return
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                head = package[: len(package) - node.level + 1]
                base = ".".join([*head, base] if base else head)
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                yield sub if sub in MODULES else base
        for child in ast.iter_child_nodes(node):
            yield from walk(child)

    tree = ast.parse(path.read_text(encoding="utf-8"))
    yield from {m for m in walk(tree) if m in MODULES and m != name}


GRAPH = {name: set(imported(name, path)) for name, path in MODULES.items()}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected groups of more than one module (Tarjan, iteratively)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1:
                    found.append(sorted(group))
    return found


def test_no_module_imports_itself_back() -> None:
    assert cycles(GRAPH) == []


def test_the_check_finds_a_cycle_through_a_late_import() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(graph) == [["a", "b", "c"]]


def test_no_layer_leans_on_one_above_it() -> None:
    offenders = [
        f"{name} imports {target}"
        for name, targets in GRAPH.items()
        for prefix, banned in FORBIDDEN
        if name == prefix or name.startswith(prefix + ".")
        for target in targets
        if any(target == b or target.startswith(b + ".") for b in banned)
    ]
    assert offenders == []


def test_bot_has_no_loose_modules_beyond_its_entry_points() -> None:
    """Everything in bot/ lives in a layer folder but what starts and configures it."""
    loose = {p.name for p in (ROOT / "bot").glob("*.py")}
    assert loose == {"__init__.py", "__main__.py", "app.py", "cli.py", "config.py"}
    assert {p.name for p in (ROOT / "bot").iterdir() if p.is_dir() and p.name[0] != "_"} == {
        "application",
        "language",
        "presentation",
        "transport",
    }
