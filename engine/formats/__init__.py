"""Every tournament format tourbot knows, found by key or Chinese alias (``find_format``)."""

from __future__ import annotations

from contextlib import suppress

from engine.errors import ConfigError
from engine.formats.base import Format
from engine.formats.bracket import Bracket
from engine.formats.groups import Groups
from engine.formats.knockout import Knockout
from engine.formats.multistage import Multistage
from engine.formats.pairs import Pairs
from engine.formats.stages import Stages
from engine.formats.swiss import Swiss
from engine.formats.teams import Teams

FORMATS: tuple[type[Format], ...] = (
    Knockout,
    Swiss,
    Bracket,
    Groups,
    Stages,
    Teams,
    Pairs,
    Multistage,
)
# Formats with knobs set, that ``Game.formats_by_size`` may name: the groups A/B of the
# pairs of 80分 (docs/rules/pairs.md#groups).
PRESETS: dict[str, tuple[str, dict[str, str]]] = {"pairs-groups": ("pairs", {"groups": "2"})}
# ``format_word``: letters a misspelt ASCII format word of 4+ letters starting like a key or
# one-word alias may differ by; up to ``SHORT_WORD`` letters long, one letter only.
TYPO_DISTANCE = 2
SHORT_WORD = 5


def find_format(name: str) -> type[Format]:
    """Look a format up by key or alias (case-insensitive); refuse with the known list."""
    wanted = name.strip().lower()
    for fmt in FORMATS:
        if wanted == fmt.key or wanted in (a.lower() for a in fmt.aliases):
            return fmt
    raise ConfigError("unknown-format", format=name, known=tuple(f.key for f in FORMATS))


def preset(name: str) -> tuple[str, dict[str, str]]:
    """A format key or preset name as (format key, the knobs it sets)."""
    key, knobs = PRESETS.get(name, (name, {}))
    return key, dict(knobs)


def format_word(word: str) -> type[Format] | None:
    """The format the word after the game in ``/new <game> [format] [title…]`` names, or
    ``None``: the title's first word. A likely misspelt format (``knockuot``, ``swis``, not
    ``Fair`` or ``Team5``) is refused (``format-typo``) rather than taken as the title."""
    with suppress(ConfigError):
        return find_format(word)
    wanted = word.strip().lower()
    if not (wanted.isascii() and wanted.isalpha() and len(wanted) >= 4):
        return None
    distance, key = min(
        (
            (edit_distance(wanted, name), fmt.key)
            for fmt in FORMATS
            for name in (fmt.key.lower(), *(a.lower() for a in fmt.aliases))
            if name.isascii() and name.isalpha() and name[0] == wanted[0]
        ),
        default=(TYPO_DISTANCE + 1, ""),
    )
    if distance <= (TYPO_DISTANCE if len(wanted) > SHORT_WORD else 1):
        raise ConfigError("format-typo", word=word, closest=key)
    return None


def edit_distance(a: str, b: str) -> int:
    """Levenshtein distance: insertions, deletions and substitutions of one letter."""
    row = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        prev, row[0] = row[0], i
        for j, cb in enumerate(b, 1):
            prev, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, prev + (ca != cb))
    return row[-1]


__all__ = ["FORMATS", "PRESETS", "Format", "edit_distance", "find_format", "format_word", "preset"]
