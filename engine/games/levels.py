"""What the two climbing games (掼蛋 Guandan, 升级 Shengji) share: sides, levels, match points.

Both are played by two partnerships, A&C against B&D (partners sit opposite), climbing the
levels 2, 3 … 10, J, Q, K, A. A report's ``scores`` are the level steps each seat's side
gained (0 for the other side); the match layer replays them with :class:`LevelState` to know
the levels reached, games won, and the match points (docs/rules/guandan.md#match,
docs/rules/shengji.md#match).
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass, replace
from decimal import Decimal
from typing import TypeVar

from engine.errors import ConfigError, ReportError
from engine.games.base import Game, Outcome, replay_hands

H = TypeVar("H")

LEVELS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
SIDES: tuple[tuple[int, ...], ...] = ((0, 2), (1, 3))


def side_of(seat: int) -> int:
    """0 for A&C, 1 for B&D."""
    return seat % 2


def side_scores(side: int, steps: int) -> tuple[Decimal, ...]:
    """Per-seat scores when ``side`` goes up ``steps`` levels."""
    return tuple(Decimal(steps if side_of(seat) == side else 0) for seat in range(4))


def hand_gains(hand: Sequence[Decimal]) -> list[tuple[int, int]]:
    """(side, steps) of each side that went up in a replayed hand: one side in a hand,
    both in a session's total where both climbed (the one that climbed more first)."""
    gains = [(side, int(hand[seats[0]])) for side, seats in enumerate(SIDES) if hand[seats[0]] > 0]
    return sorted(gains, key=lambda gain: -gain[1])


@dataclass(frozen=True)
class LevelState:
    """Where a table stands: each side's level (index in LEVELS) and games it has won."""

    levels: tuple[int, int] = (0, 0)
    games: tuple[int, int] = (0, 0)
    a_failures: tuple[int, int] = (0, 0)
    passed_a: tuple[int, int] = (0, 0)  # how often each side passed A (tie-break +1 each)

    def climb(self, side: int, steps: int, top: int) -> LevelState:
        """Go up ``steps`` levels without going past ``top``."""
        levels = list(self.levels)
        levels[side] = min(levels[side] + steps, top)
        return replace(self, levels=(levels[0], levels[1]))

    def win_game(self, side: int) -> LevelState:
        """A side passed the top: it wins this game, and the next starts again from 2."""
        games = list(self.games)
        games[side] += 1
        passed = list(self.passed_a)
        passed[side] += 1
        return LevelState((0, 0), (games[0], games[1]), (0, 0), (passed[0], passed[1]))

    def small_score(self, side: int) -> int:
        """Small score 小分 (docs/rules/guandan.md#small-score): level difference, +1 for
        each pass of A."""
        other = 1 - side
        diff = self.levels[side] - self.levels[other]
        return diff + self.passed_a[side] - self.passed_a[other]


def parse_match_points(text: str) -> tuple[Decimal, Decimal, Decimal]:
    """``2/1/0`` → win, draw and loss points."""
    try:
        win, draw, loss = (Decimal(p) for p in text.split("/"))
    except (ValueError, ArithmeticError):
        raise ConfigError("knob-value", knob="points", value=text) from None
    return win, draw, loss


def match_points(state: LevelState, points: str, winner: int | None) -> tuple[Decimal, ...]:
    """Per-seat match points: the winner's, else (at time) by games won, then by level."""
    win, draw, loss = parse_match_points(points)
    if winner is None:
        key = [(state.games[s], state.levels[s]) for s in (0, 1)]
        winner = None if key[0] == key[1] else (0 if key[0] > key[1] else 1)
    if winner is None:
        return (draw,) * 4
    return tuple(win if side_of(seat) == winner else loss for seat in range(4))


def replay_gains(outcomes: Sequence[Outcome]) -> list[tuple[int, int]]:
    """Every climb in a table's reports, hand by hand, as (side, steps)."""
    return [gain for hand in replay_hands(outcomes) for gain in hand_gains(hand)]


class LevelGame(Game[H]):
    """A climbing game: its match is replayed from the reports by :meth:`state`, and a
    table's round counts as match points (docs/rules/guandan.md#match-points), not level steps."""

    @abstractmethod
    def state(self, outcomes: Sequence[Outcome]) -> tuple[LevelState, int | None]:
        """Levels and games after the table's reports, and the winning side if decided."""

    def parse_total(self, text: str, seats: int) -> tuple[Decimal, ...]:
        """A total is the levels each side went up, partners alike and none below 0: any
        other would be read as what nobody reported (docs/rules/README.md#totals)."""
        scores = super().parse_total(text, seats)
        if any(scores[a] != scores[b] or scores[a] < 0 for a, b in SIDES):
            raise ReportError("level-total")
        return scores

    def match_winner(self, outcomes: Sequence[Outcome], seats: int) -> tuple[int, ...] | None:
        _, winner = self.state(outcomes)
        return None if winner is None else SIDES[winner]

    def round_scores(self, outcome: Outcome, seats: int) -> tuple[Decimal, ...]:
        return self.match_points([outcome])

    def match_points(self, outcomes: Sequence[Outcome]) -> tuple[Decimal, ...]:
        """Per-seat match points once the match ends, else the leader at time."""
        state, winner = self.state(outcomes)
        return match_points(state, str(self.option("points")), winner)
