"""Season points (赛季积分): each event's final places turned into points, summed.

The organiser sets the scoring with ``/season start <name> [scoring]``: points by final
place (``10/7/5/3/1``: 1st 10, 2nd 7 … 6th and below 0), or ``rating``, where a season
point is a rating point gained (the displayed figure after the event minus before).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from engine.errors import ConfigError
from engine.model import PlayerId
from engine.numbers import plain

DEFAULT_SCORING = "10/7/5/3/1"
RATING = "rating"
MAX_PLACES = 32


def parse_scoring(text: str) -> str:
    """The canonical scoring text, or refuse: ``rating`` or up to 32 numbers ``a/b/c``."""
    value = text.strip().lower() or DEFAULT_SCORING
    if value in (RATING, "等级分"):
        return RATING
    try:
        figures = [Decimal(part) for part in value.split("/")]
    except InvalidOperation:
        raise ConfigError("season-scoring", value=text) from None
    if (
        not figures
        or len(figures) > MAX_PLACES
        or any(f < 0 or f > 1000 or f != f.quantize(Decimal("0.5")) for f in figures)
    ):
        raise ConfigError("season-scoring", value=text)
    return "/".join(plain(f) for f in figures)


def place_points(scoring: str, place: int) -> Decimal:
    """Points for finishing ``place`` (1-based) under a by-place scoring."""
    figures = [Decimal(part) for part in scoring.split("/")]
    return figures[place - 1] if 0 < place <= len(figures) else Decimal(0)


@dataclass(frozen=True)
class SeasonLine:
    """One player's season: rank, points, events played and best place."""

    rank: int
    player: PlayerId
    points: Decimal
    events: int
    best: int


def season_table(
    events: Sequence[Mapping[PlayerId, tuple[int, Decimal]]],
) -> list[SeasonLine]:
    """Sum each player's points over the season's events (player → (place, points)),
    ranked as :func:`ranked_season`."""
    totals: dict[PlayerId, tuple[Decimal, int, int]] = {}
    for event in events:
        for p, (place, pts) in event.items():
            points, played, best = totals.get(p, (Decimal(0), 0, place))
            totals[p] = (points + pts, played + 1, min(best, place))
    return ranked_season(totals)


def ranked_season(totals: Mapping[PlayerId, tuple[Decimal, int, int]]) -> list[SeasonLine]:
    """The season table from each player's (points, events played, best place): ranked by
    points, then more events played, then the best place, then player id, so no two
    players share a rank."""
    order = sorted(totals, key=lambda p: (-totals[p][0], -totals[p][1], totals[p][2], p))
    return [SeasonLine(i + 1, p, *totals[p]) for i, p in enumerate(order)]
