"""Two-player board games 象棋 / 五子棋 / 军棋, as in docs/rules/two-player.md.

A hand is one game, reported from seat A's side as ``1-0``, ``0.5-0.5`` (also ``½-½``) or
``0-1``; ``A``/``B`` followed by win/胜 or ``draw``/和 say the same in words. Per report,
``scores`` are match points: 1 / 0.5 / 0 per game (胜1分，和0.5分，负0分; #game-points), or
2 / 1 / 0 with ``points=2/1/0``.

Match end (#series): at least ``games`` games (two, colours swapped), then deciding games
until the totals differ; :meth:`TwoPlayerGame.match_winner` replays the reports to say so.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

from engine.errors import ReportError
from engine.games.base import (
    Game,
    Knob,
    Outcome,
    Step,
    keyword,
    replay_hands,
    seat_index,
    tokens,
)

HALF = Decimal("0.5")
RESULTS = {"1-0": (Decimal(1), Decimal(0)), "0-1": (Decimal(0), Decimal(1)), "0.5-0.5": (HALF,) * 2}
WORDS: dict[str, tuple[str, ...]] = {
    "win": ("win", "wins", "won", "胜", "赢"),
    "lose": ("lose", "loses", "lost", "负", "输"),
    "draw": ("draw", "drawn", "和", "和棋", "平", "平局"),
}


@dataclass(frozen=True)
class GameResult:
    """One game: seat A's result, 1, 0.5 or 0 (seat B has the complement)."""

    a: Decimal


class TwoPlayerGame(Game[GameResult]):
    """Shared rules of the board games; subclasses only name themselves."""

    seat_counts = (2,)
    default_format = "groups"
    # 人数少于或等于9人: groups A/B; 多于9人: 裁减制 (docs/rules/two-player.md).
    formats_by_size = (9, "groups", "bracket")
    zero_sum = False
    knobs = (
        Knob("points", "1/0.5/0", ("1/0.5/0", "2/1/0"), str),
        Knob("games", "2", (), int, 1, needs=("series", "sudden")),
        # How long a match is: ``sudden`` (two games, then one more until someone wins),
        # ``bo1``…``bo7`` for every match, or ``stages``: the format's lengths per stage.
        Knob("series", "sudden", ("sudden", "bo1", "bo3", "bo5", "bo7", "stages"), str),
    )

    def parse_hand(self, text: str, seats: int) -> GameResult:
        parts = list(tokens(text))
        if len(parts) == 1:
            compact = parts[0].replace("½", "0.5").replace(":", "-").replace("：", "-")
            if compact in RESULTS:
                return GameResult(RESULTS[compact][0])
            m = re.fullmatch(r"([^\W\d_])(.+)", parts[0])
            if m and keyword(m.group(2), WORDS):  # ``A胜`` written without a space
                parts = [m.group(1), m.group(2)]
            elif keyword(parts[0], WORDS) == "draw":
                return GameResult(HALF)
            else:
                raise ReportError("bad-result", result=parts[0])
        if len(parts) != 2:
            raise ReportError("bad-result", result=text)
        word = keyword(parts[1], WORDS)
        if word is None:
            raise ReportError("bad-result", result=text)
        seat = seat_index(parts[0], seats)
        if word == "draw":
            return GameResult(HALF)
        a_won = (seat == 0) == (word == "win")
        return GameResult(Decimal(1) if a_won else Decimal(0))

    def flow(self, seats: int) -> tuple[Step, ...]:
        """One tap: the game's result from seat A's side."""
        return (Step("result", ("1-0", "0.5-0.5", "0-1")),)

    def score_hand(self, hand: GameResult, seats: int) -> tuple[Decimal, ...]:
        scale = Decimal(2) if self.option("points") == "2/1/0" else Decimal(1)
        return (hand.a * scale, (1 - hand.a) * scale)

    def format_hand(self, hand: GameResult, seats: int) -> str:
        return {Decimal(1): "1-0", Decimal(0): "0-1"}.get(hand.a, "0.5-0.5")

    def match_winner(self, outcomes: Sequence[Outcome], seats: int) -> tuple[int, ...] | None:
        """The first ``games`` games always count; then the first lead wins
        (docs/rules/two-player.md#series)."""
        totals = [Decimal(0), Decimal(0)]
        for played, hand in enumerate(replay_hands(outcomes), start=1):
            totals = [t + s for t, s in zip(totals, hand, strict=True)]
            if played >= self.int_option("games") and totals[0] != totals[1]:
                return (0,) if totals[0] > totals[1] else (1,)
        return None


class Xiangqi(TwoPlayerGame):
    """中国象棋: two slow games, then quick games until someone wins."""

    key = "xiangqi"
    report_example = "1-0"
    aliases = ("xiangqi", "chinese chess", "象棋", "中国象棋")


class Gomoku(TwoPlayerGame):
    """五子棋, no forbidden moves."""

    key = "gomoku"
    report_example = "1-0"
    aliases = ("gomoku", "five in a row", "五子棋")


class Junqi(TwoPlayerGame):
    """四国军棋 / 军棋, played two-handed."""

    key = "junqi"
    report_example = "0.5-0.5"
    aliases = ("junqi", "luzhanqi", "军棋", "四国军棋", "陆战棋")
