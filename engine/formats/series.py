"""Best-of-N series at two-player tables (一局定胜负 / 五局三胜制 / 七局四胜制;
docs/rules/groups.md#best-of).

A format that plays a stage as best-of-N puts ``best-of-N`` in the round's notes; the
report of such a table lists the series' games. Every game shares one point between the
two players (1-0, 0-1, ½-½), so the points in a report are the games played. A report is
refused when it holds more than N games, or a game after one player already had more than
N/2 points: the series was decided by then (五局三胜: the first to three wins). A shorter
series stands: the score so far decides when the clock stops it early
(若比分未达到三局，则以当前比分决出胜负).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from decimal import Decimal

from engine.errors import ReportError
from engine.games.base import Outcome

NOTE = re.compile(r"best-of-(\d+)")


def series_length(notes: Sequence[str]) -> int | None:
    """N of a ``best-of-N`` note, or None when the round plays no series."""
    for note in notes:
        match = NOTE.fullmatch(note)
        if match:
            return int(match.group(1))
    return None


def check_series(best_of: int, outcome: Outcome) -> None:
    """Refuse a two-player series report that a best-of-``best_of`` cannot produce."""
    played = sum(outcome.scores, Decimal(0))
    if played > best_of:
        raise ReportError("series-too-long", best_of=best_of, games=played)
    won = [Decimal(0), Decimal(0)]
    for number, hand in enumerate(outcome.per_hand, 1):
        if max(won) * 2 > best_of:
            raise ReportError("series-over", best_of=best_of, game=number, after=number - 1)
        won = [a + b for a, b in zip(won, hand, strict=True)]
