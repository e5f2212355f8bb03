"""The rating and season pictures: phone width, every script's names, no missing glyph."""

from __future__ import annotations

import io
import warnings
from decimal import Decimal

from matplotlib import image

from charts.ratings import BoardRow, board_png, history_png

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
