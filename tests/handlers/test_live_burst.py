"""A burst of confirmed results refreshes the live standings once: a result
soon after the last refresh reads its table, not the whole event, and plans one refresh
at the end of the edit gap, which shows every result that came meanwhile and which a
restart still runs (it is a timer the tournament's row remembers)."""

from __future__ import annotations

import asyncio
import time
from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy import event

import bot.presentation.live
from bot.transport.scheduler import Timers, pending_timers
from charts.jobs import first_png
from db.models import Player
from tests.handlers.memory import Chats, Sent

GROUP, ADMIN = -4001, 1
PLAYERS = tuple(range(601, 613))  # twelve: three tables of Big Two
RESULTS = ["total A+9 B-3 C-3 D-3", "total A+7 B+1 C-4 D-4"]


def standing(live: Sent, name: str) -> str:
    """The live standings' line of ``name``."""
    return next(line for line in live.text.splitlines() if f" {name} — " in line)


def live_message(chats: Chats) -> Sent:
    return next(m for m in chats.transport.messages.values() if m.text.startswith("📌"))


async def test_results_in_a_burst_are_shown_by_one_refresh_that_a_restart_still_runs(
    chats: Chats,
) -> None:
    await chats.drawn_event(GROUP, ADMIN, PLAYERS)
    seating = await chats.says(GROUP, ADMIN, "/round")
    table_2 = next(line for line in seating.splitlines() if line.startswith("Table 2:"))
    winner_2 = table_2.split("A ")[1].split(" ·")[0]  # seat A scores 7

    await chats.says(GROUP, ADMIN, f"/report 1 {RESULTS[0]}")
    live = live_message(chats)  # the first result posts the live standings at once
    assert "Updated after every confirmed result" in live.text
    edits = live.edits

    loaded: list[int] = []

    def note(target: Player, context: object) -> None:
        loaded.append(target.user_id)

    event.listen(Player, "load", note)
    try:
        chats.later(seconds=1)  # within the edit gap of that refresh
        assert "confirmed" in await chats.says(GROUP, ADMIN, f"/report 2 {RESULTS[1]}")
    finally:
        event.remove(Player, "load", note)
    assert len(set(loaded)) <= 4, "a result read more players than its table"
    assert live.edits == edits and "last table 7" not in standing(live, winner_2)  # not yet

    # As after a restart: the planned refresh is found from the tournament's row.
    planned = [t for t in await pending_timers(chats.core) if t.kind == "live"]
    assert len(planned) == 1
    chats.later(seconds=5)
    await Timers(chats.core).fire(planned[0])
    await chats.deliver()
    assert live.edits == edits + 1 and "last table 7" in standing(live, winner_2)
    # Its caption only: the picture, drawn with the first result, is redrawn a minute
    # after that by one more planned refresh, which no later result has replaced.
    (picture,) = [t for t in await pending_timers(chats.core) if t.kind == "live"]
    assert picture.at == planned[0].at - timedelta(seconds=3) + timedelta(minutes=1)


def slow_first_png(sheet: Any) -> bytes:
    """The live standings' picture, half a second slower (run by the drawing process,
    which imports it from here)."""
    time.sleep(0.5)
    return first_png(sheet)


async def test_the_live_picture_is_drawn_while_the_event_loop_serves_other_chats(
    chats: Chats, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first result posts the live standings as a picture. While it is drawn (half
    a second at least, here) the event loop goes on: other chats' updates are served."""
    await chats.drawn_event(GROUP, ADMIN, PLAYERS)
    await chats.says(GROUP, ADMIN, "/round")
    monkeypatch.setattr(bot.presentation.live, "first_png", slow_first_png)
    ticks = 0

    async def another_chat() -> None:
        nonlocal ticks
        while True:
            await asyncio.sleep(0.01)
            ticks += 1

    meanwhile = asyncio.create_task(another_chat())
    try:
        await chats.says(GROUP, ADMIN, f"/report 1 {RESULTS[0]}")
    finally:
        meanwhile.cancel()
    assert ticks >= 10, "the event loop waited for the picture"
    live = live_message(chats)
    assert live.kind == "photo" and live.file and live.file.startswith(b"\x89PNG")
