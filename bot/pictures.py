"""Where and when pictures are drawn: off the event loop, once per tournament version.

matplotlib costs tens of megabytes and a second to import and hundreds of milliseconds a
picture, so ``charts`` is imported on the first picture, inside the one drawing thread
(matplotlib's text layout is not thread-safe: pictures are drawn one at a time, in order),
and the loop keeps answering other chats meanwhile. What a tournament shows changes only
with an audited change, which moves ``Tournament.version`` on (``Ctx.audit``): a picture
and its caption are kept per (tournament, version, language) and sent again until then.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Callable, Hashable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from sqlalchemy import inspect

from db.models import Tournament

T = TypeVar("T")
KEPT = 64  # pictures kept (a 50-row standings PNG is ~60 kB)

_drawer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="charts")


async def draw(fn: Callable[..., T], *args: Any) -> T:
    """Run a drawing function on the drawing thread and wait for it without blocking."""
    return await asyncio.get_running_loop().run_in_executor(_drawer, fn, *args)


class VersionCache:
    """A small LRU of values derived from one committed version of a tournament."""

    def __init__(self, size: int = KEPT) -> None:
        self.size = size
        self._items: OrderedDict[Hashable, Any] = OrderedDict()

    @staticmethod
    def key(t: Tournament, *extra: Hashable) -> Hashable | None:
        """The key for ``t`` as the database has it; None while this transaction has
        changed it (a rolled-back version number could later mean something else)."""
        if inspect(t).attrs.version.history.has_changes():
            return None
        return (t.id, t.version, *extra)

    def get(self, key: Hashable | None) -> Any:
        if key is None or key not in self._items:
            return None
        self._items.move_to_end(key)
        return self._items[key]

    def put(self, key: Hashable | None, value: Any) -> None:
        if key is None:
            return
        self._items[key] = value
        self._items.move_to_end(key)
        while len(self._items) > self.size:
            self._items.popitem(last=False)


pictures = VersionCache()


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
