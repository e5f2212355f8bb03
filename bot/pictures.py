"""Where pictures are drawn: off the event loop, on one drawing thread.

matplotlib costs tens of megabytes and a second to import and hundreds of milliseconds a
picture, so ``charts`` is imported on the first picture, inside the drawing thread
(matplotlib's text layout is not thread-safe: pictures are drawn one at a time, in order),
and the loop keeps answering other chats meanwhile. The callers keep what they drew per
tournament version (``bot.versioned``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

T = TypeVar("T")

_drawer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="charts")


async def draw(fn: Callable[..., T], *args: Any) -> T:
    """Run a drawing function on the drawing thread and wait for it without blocking."""
    return await asyncio.get_running_loop().run_in_executor(_drawer, fn, *args)


def standings_png(
    rows: list[tuple[int, str, Any, bool]], title: str, labels: dict[str, str]
) -> bytes:
    from charts.standings import StandingRow, standings_png

    return standings_png([StandingRow(*row) for row in rows], title, labels)


def bracket_png(
    matches: list[list[tuple[str, str, str]]], title: str, label: Callable[[str], str]
) -> bytes:
    """``label("round")`` gives the chart's word for each of its ``LABEL_KEYS``."""
    from charts.bracket import LABEL_KEYS, bracket_png

    return bracket_png(matches, title, {key: label(key) for key in LABEL_KEYS})


def board_png(rows: list[tuple[int, str, Any, str]], title: str) -> bytes:
    """A leaderboard (/rating, /season): rows of (place, name, figure, note)."""
    from charts.ratings import BoardRow, board_png

    return board_png([BoardRow(*row) for row in rows], title)


def history_png(series: list[tuple[str, list[tuple[str, int]]]], title: str) -> bytes:
    from charts.ratings import history_png

    return history_png(series, title)
