"""The pictures the bot asks for, by name of their job: what the drawing process runs.

``bot.presentation.pictures`` hands these to a process of its own (so a slow picture never holds
up another chat's reply, not even through the GIL). They are pickled by reference, so
this module must stay light: it imports plain data only, and each job imports its
drawing module (and matplotlib) when it first runs, in the drawing process. The bot's
own process never imports matplotlib.
"""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Mapping, Sequence
from typing import Any

from charts.data import Match, Podium, Sheet


def drawing_process(parent: int) -> None:
    """Run first in the drawing process. End it once the bot's process is gone: killed
    (SIGKILL, or a SIGTERM with no stop), the bot cannot stop it, and the process would
    wait for pictures forever, holding the bot's inherited pipes open. And let Ctrl-C
    pass: the terminal sends it to the whole process group, and the bot, stopping, stops
    this process itself (a KeyboardInterrupt here printed its traceback on the way out)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


def first_png(sheet: Sheet) -> bytes:
    """A sheet's first page (what the live standings show)."""
    return sheet_pngs(sheet)[0]


def sheet_pngs(sheet: Sheet) -> list[bytes]:
    """A sheet's pages."""
    from charts.sheet import sheet_pngs

    return sheet_pngs(sheet)


def podium_png(podium: Podium) -> bytes:
    from charts.podium import podium_png

    return podium_png(podium)


def bracket_pngs(
    rounds: Sequence[Sequence[Match]],
    title: str,
    labels: Mapping[str, str],
    third: Match | None = None,
) -> list[bytes]:
    from charts.bracket import bracket_pngs

    return bracket_pngs(rounds, title, labels, third)


def progression_png(
    series: Mapping[str, Sequence[float]], title: str, labels: Mapping[str, str]
) -> bytes:
    from charts.progression import progression_png

    return progression_png(series, title, labels)


def board_png(rows: list[tuple[int, str, Any, str]], title: str) -> bytes:
    """A leaderboard (/rating, /season): rows of (place, name, figure, note)."""
    from charts.ratings import BoardRow, board_png

    return board_png([BoardRow(*row) for row in rows], title)


def history_png(series: list[tuple[str, list[tuple[str, int]]]], title: str) -> bytes:
    from charts.ratings import history_png

    return history_png(series, title)
