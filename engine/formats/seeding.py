"""Seeding from ratings (``/set seeds rating``; docs/rules/ratings.md#seeds): the bot hands
the engine ``TournamentState.seeding``, the rated players strongest first by group rating."""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from engine.games.base import Knob
from engine.model import PlayerId, TournamentState

RATING = "rating"
RATING_WORDS = (RATING, "等级分", "rating seeds")


class SeedsKnob(Knob):
    """A number of seeds (the first sign-ups), or ``rating``: seeds by group rating."""

    def coerce(self, raw: str) -> object:
        return RATING if raw.strip().lower() in RATING_WORDS else super().coerce(raw)


def by_rating(state: TournamentState, pool: Sequence[PlayerId]) -> list[PlayerId]:
    """The rated players of ``pool``, strongest first (the bot's ``seeding`` order)."""
    wanted = set(pool)
    return [p for p in state.seeding if p in wanted]


def snake(order: Sequence[PlayerId], sizes: Sequence[int]) -> list[list[PlayerId]]:
    """Deal ``order`` (strongest first) across tables of ``sizes``, back and forth
    (1 2 3 3 2 1 …), skipping full tables, so the strongest sit apart."""
    tables: list[list[PlayerId]] = [[] for _ in sizes]
    laps = itertools.cycle([*range(len(sizes)), *range(len(sizes) - 1, -1, -1)])
    for p in order[: sum(sizes)]:
        k = next(k for k in laps if len(tables[k]) < sizes[k])
        tables[k].append(p)
    return tables
