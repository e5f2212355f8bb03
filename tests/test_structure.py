"""The bot asks the engine what a game or format has; it never knows them by key.

Adding a game or a format touches ``engine/`` and the message catalogues only (issue 9):
so no Python file under ``bot/`` may hold a game or format key (or alias) as a string,
nor probe an engine object with ``getattr``/``hasattr``. Command names are the one
exception: ``/bracket`` is a command as well as a format key.
"""

from __future__ import annotations

import ast
from pathlib import Path

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


def test_the_bot_never_probes_engine_objects_with_getattr() -> None:
    offenders = [
        str(path.relative_to(BOT.parent))
        for path in sorted(BOT.rglob("*.py"))
        if "getattr(" in path.read_text(encoding="utf-8")
        or "hasattr(" in path.read_text(encoding="utf-8")
    ]
    assert offenders == []


def test_the_grep_would_catch_a_format_key_in_the_bot(tmp_path: Path) -> None:
    """The check itself works: a branch on a format key is reported."""
    sample = tmp_path / "sample.py"
    sample.write_text('if t.format == "teams":\n    pass\nCommand("bracket")\n')
    assert literals(sample) == [(1, "teams")]
