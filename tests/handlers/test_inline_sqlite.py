"""SQLite on the event loop (``db.inline_sqlite``): a write that finds the database
locked waits asynchronously, so the loop (and the transaction holding the lock) goes on;
and on SQLite a slow update of one chat no longer holds up another chat's."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text
from sqlalchemy.exc import OperationalError

import bot.application.handlers.standings
import db.inline_sqlite
from bot.application.types import Incoming
from db.inline_sqlite import InlineConnection, is_busy
from db.session import make_engine
from tests.handlers.memory import Chats

GROUP, OTHER, ADMIN, PLAYERS = -3001, -3002, 1, (501, 502, 503, 504)


async def test_a_file_database_runs_inline_with_no_busy_handler(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite+aiosqlite:///{tmp_path / 'a.db'}")
    try:
        async with engine.connect() as conn:
            raw = await conn.get_raw_connection()
            assert isinstance(raw.driver_connection, InlineConnection)
            assert await conn.scalar(text("PRAGMA busy_timeout")) == 0
            assert await conn.scalar(text("PRAGMA journal_mode")) == "wal"
    finally:
        await engine.dispose()


async def test_a_locked_database_is_waited_for_without_stopping_the_loop(tmp_path: Path) -> None:
    """The sender's write meets the handler's open transaction, both in this process:
    inline with SQLite's own busy wait, the loop would stop and the holder never commit."""
    engine = make_engine(f"sqlite+aiosqlite:///{tmp_path / 'b.db'}")
    try:
        async with engine.begin() as conn:
            await conn.execute(text("CREATE TABLE t (n INTEGER)"))
        holder = await engine.connect()
        await holder.begin()
        await holder.execute(text("INSERT INTO t VALUES (1)"))  # holds the write lock
        order: list[str] = []

        async def second_writer() -> None:
            async with engine.begin() as conn:
                await conn.execute(text("INSERT INTO t VALUES (2)"))
            order.append("second wrote")

        waiting = asyncio.create_task(second_writer())
        ticks = 0
        for _ in range(10):  # the loop runs while the second writer waits
            await asyncio.sleep(0.01)
            ticks += 1
        assert not waiting.done() and ticks == 10
        await holder.commit()
        order.append("holder committed")
        await holder.close()
        await asyncio.wait_for(waiting, 5)
        assert order == ["holder committed", "second wrote"]
        async with engine.connect() as conn:
            assert list(await conn.scalars(text("SELECT n FROM t ORDER BY n"))) == [1, 2]
    finally:
        await engine.dispose()


async def test_a_database_locked_too_long_is_an_error_that_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(db.inline_sqlite, "BUSY_TIMEOUT", 0.2)
    engine = make_engine(f"sqlite+aiosqlite:///{tmp_path / 'c.db'}")
    try:
        async with engine.begin() as conn:
            await conn.execute(text("CREATE TABLE t (n INTEGER)"))
        async with engine.connect() as holder:
            await holder.begin()
            await holder.execute(text("INSERT INTO t VALUES (1)"))
            started = time.monotonic()
            with pytest.raises(OperationalError) as raised:
                async with engine.begin() as conn:
                    await conn.execute(text("INSERT INTO t VALUES (2)"))
            assert is_busy(raised.value)
            assert 0.1 < time.monotonic() - started < 2
    finally:
        await engine.dispose()


async def test_on_sqlite_a_slow_picture_in_one_chat_does_not_hold_up_another_chat(
    chats: Chats, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first /standings draws its picture (most of a second); a /help in
    another chat meanwhile is answered at once. (On SQLite every chat waited behind one
    lock.)"""
    await chats.drawn_event(GROUP, ADMIN, PLAYERS)

    drawing = asyncio.Event()
    finished: list[int] = []

    async def slow_drawing(*args: Any) -> None:
        drawing.set()
        await asyncio.sleep(0.5)  # the drawing thread at work
        return None  # nothing drawn: the text ranking goes out

    monkeypatch.setattr(bot.application.handlers.standings, "drawn", slow_drawing)

    async def handle(chat: int, update_id: int, words: str) -> None:
        inc = Incoming(update_id, chat, "supergroup", chats.users[ADMIN], text=words)
        await chats.core.handle(inc)
        finished.append(chat)

    standings = asyncio.create_task(handle(GROUP, 9001, "/standings"))
    await drawing.wait()
    await asyncio.wait_for(handle(OTHER, 9002, "/help"), 0.4)
    await standings
    assert finished == [OTHER, GROUP]
    await chats.deliver()
    assert any("/join" in m.text for m in chats.transport.messages.values() if m.chat_id == OTHER)


async def test_a_long_read_gives_the_loop_turns_and_a_write_transaction_keeps_it(
    tmp_path: Path,
) -> None:
    """A connection reading for longer than ``SLICE`` (a whole event loaded
    for /standings) lets another chat's task run between its statements; one holding
    the write lock does not (whoever ran would only find the database busy)."""
    engine = make_engine(f"sqlite+aiosqlite:///{tmp_path / 'd.db'}")
    try:
        async with engine.begin() as conn:
            await conn.execute(text("CREATE TABLE t (n INTEGER)"))

        async def statements_until(seconds: float, write: bool) -> int:
            """How often another task ran while this one ran statements for ``seconds``."""
            turns = 0

            async def other_chat() -> None:
                nonlocal turns
                while True:
                    turns += 1
                    await asyncio.sleep(0)

            other = asyncio.create_task(other_chat())
            await asyncio.sleep(0)
            turns = 0
            async with engine.begin() as conn:
                if write:
                    await conn.execute(text("INSERT INTO t VALUES (1)"))
                end = time.monotonic() + seconds
                while time.monotonic() < end:
                    await conn.execute(text("SELECT count(*) FROM t"))
            other.cancel()
            return turns

        # About one turn per 5 ms reading (100 in half a second; a loaded machine, which
        # deschedules the process, gives fewer slices); writing, only the few of its begin and
        # commit, however long it runs.
        reading, writing = await statements_until(0.5, False), await statements_until(0.5, True)
        assert reading >= 20 and writing <= 6, (reading, writing)
    finally:
        await engine.dispose()
