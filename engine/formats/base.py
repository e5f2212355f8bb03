"""What every format shares: knobs, the closed-round check, and the derived facts.

A format is a small subclass of :class:`Format` (like the games): it declares ``key``,
``aliases`` (the Chinese names from SPEC), ``knobs`` with the seed that sets each default,
and its tie-break chain, then implements ``plan`` and ``standings``. Formats keep no state:
everything is re-derived from the :class:`TournamentState` each call, so a ``/fix`` or a
penalty re-plays consistently and the same seed always gives the same plan.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from engine.errors import ConfigError, FormatError
from engine.games.base import Game, Knob
from engine.model import (
    Finished,
    PlayerId,
    RoundPlan,
    Standing,
    TableStatus,
    TournamentState,
)

AnyGame = Game[Any]


class Format:
    """Base format. Subclasses set the class attributes and ``plan``/``standings``."""

    key: ClassVar[str]
    aliases: ClassVar[tuple[str, ...]]
    knobs: ClassVar[tuple[Knob, ...]] = ()
    seeds: ClassVar[tuple[str, ...]] = ()
    tiebreaks: ClassVar[tuple[str, ...]] = ("points", "flip")

    def __init__(self, game: AnyGame, options: Mapping[str, str] | None = None) -> None:
        given = dict(options or {})
        unknown = sorted(set(given) - {k.name for k in self.knobs})
        if unknown:
            raise ConfigError("unknown-knob", knob=unknown[0], known=self.knob_names())
        self.game = game
        self.options: dict[str, object] = {
            k.name: k.coerce(given.get(k.name, k.default)) for k in self.knobs
        }

    @classmethod
    def knob_names(cls) -> tuple[str, ...]:
        return tuple(k.name for k in cls.knobs)

    def int_option(self, name: str) -> int:
        value = self.options[name]
        assert isinstance(value, int)
        return value

    def str_option(self, name: str) -> str:
        return str(self.options[name])

    @property
    def sizes(self) -> tuple[int, ...]:
        """Table sizes the game allows, the usual one first."""
        return self.game.seat_counts

    # --- the contract ----------------------------------------------------------------
    def plan(self, state: TournamentState) -> RoundPlan | Finished:
        raise NotImplementedError

    def standings(self, state: TournamentState) -> tuple[Standing, ...]:
        raise NotImplementedError

    # --- shared checks ---------------------------------------------------------------
    @staticmethod
    def require_closed(state: TournamentState) -> None:
        """Planning needs every table of every round confirmed or forfeited."""
        for rec in state.rounds:
            done = {
                res.table.number
                for res in rec.results
                if res.status in (TableStatus.CONFIRMED, TableStatus.FORFEIT)
            }
            missing = [t.number for t in rec.plan.tables if t.number not in done]
            if missing:
                raise FormatError("round-open", round=rec.number, table=missing[0])

    @staticmethod
    def active(state: TournamentState) -> list[PlayerId]:
        """Signed-up players not removed, in sign-up order."""
        return [p for p in state.players if p not in state.removed]

    @staticmethod
    def label(state: TournamentState) -> str:
        """The stream label of the next round's draw (``round<n>``)."""
        return f"round{len(state.rounds) + 1}"
