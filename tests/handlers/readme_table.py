"""Rewrite the README's permission table from the command declarations.

``.venv/bin/python -m tests.handlers.readme_table`` after declaring, removing or changing
a command (``bot/application/routes.py``); ``test_commands.py`` fails until it is run.
"""

from __future__ import annotations

from pathlib import Path

from bot.application.commands import permission_table
from bot.application.routes import COMMANDS
from bot.language.i18n import Catalogue

README = Path(__file__).resolve().parents[2] / "README.md"
BEGIN, END = "<!-- permissions:begin -->\n", "\n<!-- permissions:end -->"


def table_in(text: str) -> str:
    """The generated block as the README has it now."""
    return text.split(BEGIN, 1)[1].split(END, 1)[0]


def generated() -> str:
    return permission_table(Catalogue()["en"], COMMANDS)


def main() -> None:
    text = README.read_text(encoding="utf-8")
    head, rest = text.split(BEGIN, 1)
    README.write_text(head + BEGIN + generated() + END + rest.split(END, 1)[1], encoding="utf-8")


if __name__ == "__main__":
    main()
