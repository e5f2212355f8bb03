"""Every game tourbot knows, found by any of its names (``find_game``)."""

from __future__ import annotations

from engine.errors import ConfigError
from engine.games.base import Game, Knob, Outcome, Step
from engine.games.bigtwo import BigTwo
from engine.games.doudizhu import DouDizhu
from engine.games.doudizhu4 import DouDizhu4
from engine.games.guandan import Guandan
from engine.games.paodekuai import PaoDeKuai
from engine.games.shengji import Shengji
from engine.games.twoplayer import Gomoku, Junqi, Xiangqi

GAMES: tuple[type[Game], ...] = (  # type: ignore[type-arg]
    BigTwo,
    DouDizhu,
    DouDizhu4,
    Guandan,
    Shengji,
    Xiangqi,
    Gomoku,
    Junqi,
    PaoDeKuai,
)


def find_game(name: str) -> type[Game]:  # type: ignore[type-arg]
    """Look a game up by key or alias (case-insensitive); refuse with the known list."""
    wanted = name.strip().lower()
    for game in GAMES:
        if wanted == game.key or wanted in (a.lower() for a in game.aliases):
            return game
    raise ConfigError("unknown-game", game=name, known=tuple(g.key for g in GAMES))


__all__ = ["GAMES", "Game", "Knob", "Outcome", "Step", "find_game"]
