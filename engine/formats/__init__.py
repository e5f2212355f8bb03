"""Every tournament format tourbot knows, found by key or Chinese alias (``find_format``)."""

from __future__ import annotations

from engine.errors import ConfigError
from engine.formats.base import Format
from engine.formats.bracket import Bracket
from engine.formats.groups import Groups
from engine.formats.knockout import Knockout
from engine.formats.pairs import Pairs
from engine.formats.stages import Stages
from engine.formats.swiss import Swiss
from engine.formats.teams import Teams

FORMATS: tuple[type[Format], ...] = (Knockout, Swiss, Bracket, Groups, Stages, Teams, Pairs)


def find_format(name: str) -> type[Format]:
    """Look a format up by key or alias (case-insensitive); refuse with the known list."""
    wanted = name.strip().lower()
    for fmt in FORMATS:
        if wanted == fmt.key or wanted in (a.lower() for a in fmt.aliases):
            return fmt
    raise ConfigError("unknown-format", format=name, known=tuple(f.key for f in FORMATS))


__all__ = ["FORMATS", "Format", "find_format"]
