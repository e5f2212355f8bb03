"""The rating and season pictures: phone width, every script's names, no missing glyph."""

from __future__ import annotations

import io
import itertools
import warnings
from decimal import Decimal

from matplotlib import image

from charts.ratings import MOST_TICKS, BoardRow, board_png, history_png, named_ticks

NAMES = ["张伟", "Карл", "マリ", "Anna-Lena Müller"]


def size(png: bytes) -> tuple[int, int]:
    pixels = image.imread(io.BytesIO(png))
    return pixels.shape[1], pixels.shape[0]


def test_leaderboard_and_history_draw_every_name_at_phone_width() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # "Glyph … missing" becomes a failure
        board = board_png(
            [BoardRow(i + 1, n, 1600 - 30 * i, "定级中" if i else "") for i, n in enumerate(NAMES)],
            "锄大地 等级分",
        )
        season = board_png([BoardRow(1, "张伟", Decimal("12.5")), BoardRow(2, "マリ", -3)], "赛季")
        history = history_png(
            [("锄大地", [("一月赛", 1510), ("二月赛", 1544)]), ("象棋", [("三月赛", 1498)])],
            "我的等级分",
        )
    for png in (board, season, history):
        assert png.startswith(b"\x89PNG")
        assert size(png)[0] == 1080


def test_a_history_names_a_few_events_under_its_axis_the_latest_always() -> None:
    assert named_ticks(1) == [1]
    assert named_ticks(MOST_TICKS) == list(range(1, MOST_TICKS + 1))
    for points in (7, 12, 29, 30):
        ticks = named_ticks(points)
        assert len(ticks) <= MOST_TICKS
        assert ticks[-1] == points and ticks[0] >= 1
        assert len({b - a for a, b in itertools.pairwise(ticks)}) == 1  # evenly apart
