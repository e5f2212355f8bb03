"""The bot asks the engine what a game or format has; it never knows them by key.

Adding a game or a format touches ``engine/`` and the message catalogues only
(docs/development.md#game):
so no Python file under ``bot/`` may hold a game or format key (or alias) as a string,
nor probe an engine object with ``getattr``/``hasattr``. Command names are the one
exception: ``/bracket`` is a command as well as a format key.
"""

from __future__ import annotations

import ast
from pathlib import Path

from db import status
from engine.formats import FORMATS
from engine.games import GAMES

BOT = Path(__file__).resolve().parents[1] / "bot"
ENGINE_NAMES = {name.lower() for cls in (*GAMES, *FORMATS) for name in (cls.key, *cls.aliases)}


def command_names(tree: ast.AST) -> set[int]:
    """ids of the string nodes that name a command in a declaration ``command("x", …)``."""
    exempt: set[int] = set()
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "Command"
            and node.args
        ):
            exempt.add(id(node.args[0]))
    return exempt


def literals(path: Path) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    exempt = command_names(tree)
    found = []
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and node.value.strip().lower() in ENGINE_NAMES
            and id(node) not in exempt
        ):
            found.append((node.lineno, node.value))
    return found


def test_the_bot_holds_no_game_or_format_key_literal() -> None:
    assert "paodekuai" in ENGINE_NAMES and "swiss" in ENGINE_NAMES and "团体赛" in ENGINE_NAMES
    offenders = [
        f"{path.relative_to(BOT.parent)}:{line}: {value!r}"
        for path in sorted(BOT.rglob("*.py"))
        for line, value in literals(path)
    ]
    assert offenders == []


def probes(path: Path) -> list[tuple[int, str]]:
    """``getattr(x, "name", …)`` / ``hasattr(x, "name")``: asking an object whether it has
    a named attribute (a proxy forwarding ``getattr(inner, name)``, or ``__name__``, is not
    a probe)."""
    return [
        (node.lineno, node.args[1].value)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id in ("getattr", "hasattr")
        and len(node.args) >= 2
        and isinstance(node.args[1], ast.Constant)
        and isinstance(node.args[1].value, str)
        and not node.args[1].value.startswith("__")  # Python's own, e.g. a function's name
    ]


def test_the_bot_never_probes_engine_objects_with_getattr(tmp_path: Path) -> None:
    offenders = [
        f"{path.relative_to(BOT.parent)}:{line}: {name!r}"
        for path in sorted(BOT.rglob("*.py"))
        for line, name in probes(path)
    ]
    assert offenders == []
    sample = tmp_path / "sample.py"
    sample.write_text('f = getattr(fmt, "bracket", None)\nok = getattr(inner, name)\n')
    assert probes(sample) == [(1, "bracket")]


def test_the_grep_would_catch_a_format_key_in_the_bot(tmp_path: Path) -> None:
    """The check itself works: a branch on a format key is reported."""
    sample = tmp_path / "sample.py"
    sample.write_text('if t.format == "teams":\n    pass\nCommand("bracket")\n')
    assert literals(sample) == [(1, "teams")]


STATUS_VALUES = {
    member.value
    for enum in (
        status.EventStatus,
        status.PlayerStatus,
        status.RoundStatus,
        status.TableState,
        status.ReportStatus,
        status.PenaltyKind,
        status.ExportStatus,
        status.OutboxStatus,
    )
    for member in enum
}


def status_literals(path: Path) -> list[tuple[int, str]]:
    """String constants compared with, assigned to or stored as a ``status`` (or a
    penalty ``kind``): the values ``db/status.py`` names once."""

    def is_status(node: ast.AST) -> bool:
        return (isinstance(node, ast.Attribute) and node.attr in ("status", "kind")) or (
            isinstance(node, ast.Name) and node.id == "status"
        )

    def strings(node: ast.AST) -> list[tuple[int, str]]:
        return [
            (c.lineno, c.value)
            for c in ast.walk(node)
            if isinstance(c, ast.Constant) and c.value in STATUS_VALUES
        ]

    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Compare) and any(
            is_status(n) for n in (node.left, *node.comparators)
        ):
            found += strings(node)
        elif isinstance(node, ast.Assign):
            targets = [
                e for t in node.targets for e in (t.elts if isinstance(t, ast.Tuple) else [t])
            ]
            values = node.value.elts if isinstance(node.value, ast.Tuple) else [node.value]
            found += [
                hit
                for target, value in zip(targets, values, strict=False)
                if is_status(target)
                for hit in strings(value)
            ]
        elif isinstance(node, ast.keyword) and node.arg in ("status", "default"):
            found += strings(node.value)
        elif isinstance(node, ast.Dict):
            found += [
                hit
                for key, value in zip(node.keys, node.values, strict=True)
                if isinstance(key, ast.Constant) and key.value == "status"
                for hit in strings(value)
            ]
    return found


def test_statuses_are_named_once_not_spelled_in_bot_or_db() -> None:
    sources = [
        p
        for root in (BOT, BOT.parent / "db")
        for p in sorted(root.rglob("*.py"))
        if "migrations" not in p.parts and p.name != "status.py"
    ]
    offenders = [
        f"{p.relative_to(BOT.parent)}:{line}: {value!r}"
        for p in sources
        for line, value in status_literals(p)
    ]
    assert offenders == []


def test_the_status_check_would_catch_a_literal(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text('if row.status == "confirmed":\n    row.status = "forfeit"\n')
    assert status_literals(sample) == [(1, "confirmed"), (2, "forfeit")]
